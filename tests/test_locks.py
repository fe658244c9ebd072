"""The locks in requirements/ are complete, hashed and agree with pyproject.toml: every declared
dependency is pinned there at a version its range admits, the runtime and test locks pin the same
version of every package they share, and the venv the tests run in holds exactly the test lock."""
from __future__ import annotations

import tomllib
from importlib import metadata
from pathlib import Path

import pytest
from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]
LOCKS = ROOT / "requirements"
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


def read_lock(name: str) -> dict[str, tuple[Version, list[str], str]]:
    """name -> (pinned version, hashes, marker) of one lock file (pip's requirements format)."""
    text = (LOCKS / name).read_text().replace("\\\n", " ")
    pins = {}
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        spec, *hashes = line.split(" --hash=")
        req = Requirement(spec.strip())
        (pin,) = req.specifier
        assert pin.operator == "==", (name, line)
        pins[canonicalize_name(req.name)] = (Version(pin.version), [h.strip() for h in hashes], str(req.marker or ""))
    return pins


def declared(*extras: str) -> list[Requirement]:
    project = PYPROJECT["project"]
    found = [Requirement(r) for r in project["dependencies"]]
    for extra in extras:
        found += [Requirement(r) for r in project["optional-dependencies"][extra]]
    return found


@pytest.mark.parametrize("lock", ["build.txt", "runtime.txt", "test.txt"])
def test_every_pin_is_exact_and_hashed(lock):
    pins = read_lock(lock)
    assert pins, lock
    for name, (_, hashes, _) in pins.items():
        assert hashes and all(h.startswith("sha256:") and len(h) == len("sha256:") + 64 for h in hashes), (lock, name)


@pytest.mark.parametrize(("lock", "requirements"), [
    ("runtime.txt", declared("pi")),
    ("test.txt", declared("test")),
    ("build.txt", [Requirement(r) for r in PYPROJECT["build-system"]["requires"]]),
])
def test_every_declared_dependency_is_locked_within_its_range(lock, requirements):
    pins = read_lock(lock)
    for req in requirements:
        name = canonicalize_name(req.name)
        assert name in pins, f"{req} is declared in pyproject.toml but not in requirements/{lock}: run `make lock`"
        version = pins[name][0]
        assert req.specifier.contains(version, prereleases=True), \
            f"requirements/{lock} pins {name}=={version}, outside pyproject.toml's {req}: run `make lock`"


def test_the_locks_agree_on_every_shared_package():
    build, runtime, test = read_lock("build.txt"), read_lock("runtime.txt"), read_lock("test.txt")
    for other, name in ((runtime, "runtime.txt"), (build, "build.txt")):
        for package in other.keys() & test.keys():
            assert other[package][0] == test[package][0], (package, name, other[package][0], test[package][0])
    assert runtime.keys() - test.keys() == set(), "the tests install everything the service does"


def test_the_test_venv_holds_exactly_the_test_lock():
    """`make venv` installs the lock; a venv made otherwise (pip install -e '.[test]') shows here."""
    env = default_environment()
    for name, (version, _, marker) in read_lock("test.txt").items():
        if marker and not Requirement(f"x; {marker}").marker.evaluate(env):
            continue
        installed = Version(metadata.version(name))
        assert installed == version, \
            f"{name} {installed} is installed, requirements/test.txt locks {version}: make clean venv"
