"""The code that runs on the RP2040 stays within what MicroPython offers.

The firmware and the shared device modules are executed under CPython by the other tests; this
one guards the other direction: they import only modules MicroPython has (or the firmware's own),
and use no annotations, dataclasses or `from __future__` (not in MicroPython).
"""
import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT / "firmware_bridge" / "shared"
# What hardware/firmware/README.md tells the owner to copy to the board: the package roots and all of shared/.
ON_DEVICE = [ROOT / "firmware_bridge" / "__init__.py"] + sorted(SHARED.glob("*.py"))
ON_DEVICE += sorted((ROOT / "hardware" / "firmware").glob("*.py"))
MICROPYTHON_MODULES = {"os", "time", "sys", "select", "machine", "micropython"}
OWN = {"firmware_bridge"} | {p.stem for p in ON_DEVICE}


@pytest.mark.parametrize("path", ON_DEVICE, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_only_micropython_features(path):
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name.split(".")[0] for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [(node.module or "").split(".")[0]]
        else:
            names = []
        for name in names:
            assert name in MICROPYTHON_MODULES | OWN, f"{path.name}:{node.lineno} imports {name}"
        assert not isinstance(node, ast.AnnAssign), f"{path.name}:{node.lineno} variable annotation"
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            args = node.args.args + node.args.kwonlyargs + node.args.posonlyargs
            assert node.returns is None and all(a.annotation is None for a in args), \
                f"{path.name}:{node.lineno} annotated function"
    assert len(ON_DEVICE) >= 13
