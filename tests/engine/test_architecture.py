"""The engine is pure rules: it imports no web, serial, GPIO or device-driver code, and no
global random number generator decides anything (chance comes in as actions)."""
import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "engine"
FORBIDDEN = {"flask", "serial", "gpiozero", "RPi", "spidev", "mfrc522", "web_ui", "firmware_bridge"}


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.add(node.module.split(".")[0])
    return out


def test_engine_imports_no_device_or_web_code():
    files = sorted(ENGINE.glob("*.py"))
    assert len(files) > 10
    for f in files:
        assert not imported_modules(f) & FORBIDDEN, f.name


def test_engine_never_calls_the_global_random_generator():
    for f in sorted(ENGINE.glob("*.py")):
        tree = ast.parse(f.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "random":
                assert node.attr == "Random", f"{f.name}:{node.lineno} uses random.{node.attr}"
