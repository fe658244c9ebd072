"""Every public name documented: counts, per package, the public functions,
classes and methods without a docstring. No package may have any; the counts are printed
(`pytest tests/test_docstrings.py -s`).

Public: a module-level function or class, or a method of a public class, whose name does not
start with "_", in a module whose path has no part starting with "_" (`__init__.py` aside).
A method that overrides a documented method of a base class defined in the same module is
documented by it (`inspect.getdoc` reads it so)."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "rubicon", "web_ui", "firmware_bridge", "lifecycle")
MUST_BE_ZERO = PACKAGES


def _modules(package: str) -> list[Path]:
    return [p for p in sorted((ROOT / package).rglob("*.py"))
            if not any(part.startswith("_") and part != "__init__.py" for part in p.relative_to(ROOT).parts)]


def _documented_in_bases(classes: dict[str, ast.ClassDef], cls: ast.ClassDef, name: str,
                         seen: frozenset[str] = frozenset()) -> bool:
    """Whether a base of `cls` defined in the same module (`classes`) documents method `name`."""
    for base in cls.bases:
        parent = classes.get(base.id) if isinstance(base, ast.Name) else None
        if parent is None or parent.name in seen:
            continue
        for n in parent.body:
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == name and ast.get_docstring(n):
                return True
        if _documented_in_bases(classes, parent, name, seen | {parent.name}):
            return True
    return False


def undocumented(package: str) -> tuple[list[str], int]:
    """The undocumented public names of `package` ("path:line name") and how many public names it has."""
    missing: list[str] = []
    total = 0
    for path in _modules(package):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}

        rel = path.relative_to(ROOT)
        for node in tree.body:
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) or node.name.startswith("_"):
                continue
            total += 1
            if not ast.get_docstring(node):
                missing.append(f"{rel}:{node.lineno} {node.name}")
            if isinstance(node, ast.ClassDef):
                for m in node.body:
                    if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef)) and not m.name.startswith("_"):
                        total += 1
                        if not ast.get_docstring(m) and not _documented_in_bases(classes, node, m.name):
                            missing.append(f"{rel}:{m.lineno} {node.name}.{m.name}")
    return missing, total


@pytest.mark.parametrize("package", PACKAGES)
def test_public_names_have_docstrings(package):
    missing, total = undocumented(package)
    print(f"\n{package}: {len(missing)} of {total} public names without a docstring")
    assert total > (5 if package == "lifecycle" else 20), "the walk found too few names: it is broken"
    if package in MUST_BE_ZERO:
        assert missing == [], "\n".join(missing)
