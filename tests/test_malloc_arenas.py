"""The malloc arena limit of `rubicon run` (rubicon/malloc_arenas.py): set through glibc's
mallopt, unless the environment already chose one."""
import os

import pytest

from rubicon.malloc_arenas import _glibc, limit_malloc_arenas


@pytest.mark.skipif(not _glibc(), reason="glibc's mallopt only")
def test_under_glibc_the_limit_is_set(monkeypatch):
    monkeypatch.delenv("MALLOC_ARENA_MAX", raising=False)
    assert limit_malloc_arenas() is True


def test_a_limit_in_the_environment_is_left_to_decide(monkeypatch):
    monkeypatch.setenv("MALLOC_ARENA_MAX", "4")
    assert limit_malloc_arenas() is False
    assert os.environ["MALLOC_ARENA_MAX"] == "4"


def test_glibc_is_told_from_the_c_library_in_use(monkeypatch):
    monkeypatch.setattr(os, "confstr", lambda name: "musl 1.2")
    assert _glibc() is False
    monkeypatch.setattr(os, "confstr", lambda name: None)
    assert _glibc() is False
