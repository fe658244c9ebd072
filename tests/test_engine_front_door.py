"""The engine's front door: code outside engine/ imports only `engine`.

Every Python file of the project outside engine/ (the application, the web app, the drivers,
tests, benches, tools) may write `import engine` / `from engine import ...`, never
`engine.<module>`. Stated exceptions: the engine's own white-box tests (tests/engine/,
tests/engine_battle/) test its modules one by one; the benches that run a baseline engine from
another commit (bench/engine_compare.py, bench/engine_listing.py) import module paths every
version has. The import-linter contract "Only the engine's
front door" (pyproject.toml) checks the same for the three packages; this test covers the files
import-linter does not see; each offender it names becomes `from engine import NAME`."""
from __future__ import annotations

import ast
from pathlib import Path

import engine

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("rubicon", "web_ui", "firmware_bridge", "tests", "bench", "tools")
EXCEPTION = ("tests/engine/", "tests/engine_battle/",               # white-box tests of the engine's modules
             "bench/engine_compare.py", "bench/engine_listing.py")   # they run older engines too


def _files() -> list[Path]:
    return [p for folder in FOLDERS for p in sorted((ROOT / folder).rglob("*.py"))
            if not p.relative_to(ROOT).as_posix().startswith(EXCEPTION)]


def engine_imports(path: Path) -> list[tuple[int, str, tuple[str, ...]]]:
    """Each import of the engine in `path`: (line, module, names imported from it)."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module \
                and (node.module == "engine" or node.module.startswith("engine.")):
            out.append((node.lineno, node.module, tuple(a.name for a in node.names)))
        elif isinstance(node, ast.Import):
            out += [(node.lineno, a.name, ()) for a in node.names if a.name.split(".")[0] == "engine"]
    return out


def test_code_outside_the_engine_imports_only_the_engine_package():
    files = _files()
    assert len(files) > 100
    reached = [f"{p.relative_to(ROOT)}:{line} {module}" for p in files for line, module, _ in engine_imports(p)
               if module != "engine"]
    assert reached == [], "import from `engine`, not its modules:\n" + "\n".join(reached)


def test_every_name_imported_from_the_engine_is_one_it_exports():
    exported = set(engine.__all__)
    unknown = [f"{p.relative_to(ROOT)}:{line} {name}" for p in _files() for line, module, names in engine_imports(p)
               for name in names if module == "engine" and name not in exported]
    assert unknown == []
    assert all(hasattr(engine, name) for name in exported)


def test_the_checks_see_a_reach_inside(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("def f():\n    from engine.state import GameState\n    import engine.board as b\n")
    assert [m for _, m, _ in engine_imports(bad)] == ["engine.state", "engine.board"]
