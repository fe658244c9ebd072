"""The suite's two speeds. CI (`make test`) runs everything at full size; `make test-fast` (`pytest
--quick-sweeps`) runs the long random-game sweeps below, each of which replays dozens of whole
games, at a tenth of their games where the sweep asks the `sweep` fixture how many to play (the
leak sweep plays all its 20 games: its first 10 did not check both a battle and a game's end), and
`-m "not slow"` leaves them out altogether. The list is by test id, so the test files stay as they are.
The sweeps are collected first: on parallel workers (pytest-xdist) the short tests then fill the
gaps instead of one long sweep starting last and running alone."""
from __future__ import annotations

from collections.abc import Callable

import pytest

SLOW = (
    "tests/engine/test_api_fuzz.py::test_every_step_of_random_games",
    "tests/engine/test_explain.py::test_explain_agrees_with_apply_through_random_games",
    "tests/engine/test_pending.py::test_every_step_of_40_random_games",
    "tests/engine_battle/test_fuzz.py::test_random_games_end_in_a_result_with_invariants",
    "tests/web/test_leaks.py::test_no_endpoint_leaks_hidden_information_at_any_phase",
)
QUICK_SHARE = 10   # --quick-sweeps plays one game in QUICK_SHARE of each sweep


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--quick-sweeps", action="store_true",
                     help=f"play the long random sweeps (marked slow) at 1/{QUICK_SHARE} of their games")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: a long random sweep, at full size in `make test` (CI) only")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.nodeid.startswith(SLOW):
            item.add_marker(pytest.mark.slow)
    items.sort(key=lambda item: not item.nodeid.startswith(SLOW))   # stable: each group keeps its order


@pytest.fixture
def sweep(request: pytest.FixtureRequest) -> Callable[[int, int], int]:
    """`sweep(games, least)`: how many games a sweep plays, all of them, or with --quick-sweeps a
    share of them but at least `least` (what its assertions about the phases reached need)."""
    quick = request.config.getoption("--quick-sweeps")
    return lambda games, least: max(least, games // QUICK_SHARE) if quick else games
