"""The plug-in point: which module runs each phase.

A phase module provides
    current_players(state) -> tuple[int, ...]   # sides (0 Caesar, 1 Pompeius) or (CHANCE,)
    legal_actions(state, side) -> list[Action]  # player actions only; never chance actions
    apply(state, action) -> None                # validate fully, raise IllegalAction, then mutate
and, if it has chance nodes,
    sample_chance(state, rng) -> Action         # the outcome the table would supply
and optionally
    begin(state) -> None                        # called by engine.flow when the phase starts
Modules are imported lazily, so a phase whose module has not landed yet raises
PhaseNotAvailable instead of breaking the import of the engine.
"""
from __future__ import annotations

import importlib
from types import ModuleType

from .errors import PhaseNotAvailable
from .state import BATTLE, CARD, COMMAND, DEAL, DISCARD, WINTER

PHASE_MODULES: dict[str, str] = {
    DEAL: "engine.card_phase",
    DISCARD: "engine.card_phase",
    CARD: "engine.card_phase",
    COMMAND: "engine.command_phase",
    BATTLE: "engine.battle",
    WINTER: "engine.winter",
}

PROTOCOL = ("current_players", "legal_actions", "apply")

_cache: dict[str, ModuleType] = {}


def phase_module(phase: str) -> ModuleType:
    mod = _cache.get(phase)
    if mod is not None:
        return mod
    name = PHASE_MODULES.get(phase)
    if name is None:
        raise PhaseNotAvailable(f"no module runs the {phase!r} phase")
    try:
        mod = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name:
            raise
        raise PhaseNotAvailable(f"the {phase} phase needs {name}, which is not installed yet") from None
    missing = [f for f in PROTOCOL if not hasattr(mod, f)]
    if missing:
        raise PhaseNotAvailable(f"{name} does not run the {phase} phase yet (missing {', '.join(missing)})")
    _cache[phase] = mod
    return mod


def has_phase(phase: str) -> bool:
    try:
        phase_module(phase)
    except PhaseNotAvailable:
        return False
    return True
