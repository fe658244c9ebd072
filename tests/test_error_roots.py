"""Every package has one exception root, and every error it defines is both under that root and the
builtin a caller would expect: `except BridgeError` catches any driver's error, and
`except ValueError` still catches a bad line."""
from __future__ import annotations

import builtins

import pytest

from firmware_bridge.shared.errors import BridgeError
from lifecycle import LifecycleError
from rubicon.errors import RubiconError
from tests.project_classes import classes_defined_in
from web_ui.errors import WebUiError

ROOTS = {"firmware_bridge": BridgeError, "rubicon": RubiconError, "web_ui": WebUiError, "lifecycle": LifecycleError}
BUILTINS = tuple(c for c in vars(builtins).values() if isinstance(c, type) and issubclass(c, BaseException))


def errors_defined_in(package: str) -> list[type[BaseException]]:
    """The exception classes whose home is a module of `package` (imported, not re-exported)."""
    return [cls for cls in classes_defined_in(package) if issubclass(cls, BaseException)]


@pytest.mark.parametrize("package", sorted(ROOTS))
def test_every_error_is_under_its_package_root(package):
    errors = errors_defined_in(package)
    assert errors, f"{package} defines no error at all: the walk is broken"
    stray = [f"{e.__module__}.{e.__qualname__}" for e in errors if not issubclass(e, ROOTS[package])]
    assert not stray, f"not under {ROOTS[package].__name__}: {stray}"


@pytest.mark.parametrize("package", sorted(ROOTS))
def test_every_public_error_is_also_a_builtin(package):
    root = ROOTS[package]
    bare = [f"{e.__module__}.{e.__qualname__}" for e in errors_defined_in(package)
            if e is not root and not e.__name__.startswith("_")
            and not any(b is not Exception and issubclass(e, b) for b in BUILTINS)]
    assert not bare, f"also give these the builtin a caller expects (ValueError, RuntimeError...): {bare}"


def test_the_roots_are_distinct():
    assert len(set(ROOTS.values())) == len(ROOTS)
    for a in ROOTS.values():
        for b in ROOTS.values():
            assert a is b or not issubclass(a, b)
