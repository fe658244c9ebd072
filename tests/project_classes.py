"""The classes a package defines, found by importing every one of its modules: what the house-wide
tests (error roots, life cycles) walk."""
from __future__ import annotations

import importlib
import inspect
import pkgutil


def classes_defined_in(package: str) -> list[type]:
    """Every class whose home is a module of `package` (imported there, not re-exported)."""
    root = importlib.import_module(package)
    found = [cls for _, cls in inspect.getmembers(root, inspect.isclass) if cls.__module__ == package]
    for info in pkgutil.walk_packages(root.__path__, prefix=f"{package}."):
        if info.name.endswith(".__main__"):
            continue  # running it is its only effect
        module = importlib.import_module(info.name)
        found += [cls for _, cls in inspect.getmembers(module, inspect.isclass) if cls.__module__ == info.name]
    return found
