"""How many malloc arenas the table app's threads share: the one process setting of its memory.

glibc gives a thread that finds the other arenas busy an arena of its own, up to 8 per core (32 on
a Pi 4), and memory freed in one arena is never reused by another: `rubicon run` has some twenty
threads (waitress's workers, the session's owner, the journal's checkpointer, devices), so its
RSS grew with what each thread once allocated. Two arenas (the documented MALLOC_ARENA_MAX fix
for thread-heavy servers) cost nothing measurable here, since Python threads take turns under
the GIL anyway; measured with bench/memory_soak.py.

    limit_malloc_arenas()    # before the first thread starts; a no-op off glibc

Setting MALLOC_ARENA_MAX in the environment still decides (glibc read it when the process
started); this only sets the limit when the owner did not.
"""
from __future__ import annotations

import ctypes
import os

ARENAS = 2
M_ARENA_MAX = -8     # glibc's malloc.h: mallopt's parameter for the arena limit


def limit_malloc_arenas(arenas: int = ARENAS) -> bool:
    """Limit glibc's malloc to `arenas` arenas (effective before threads allocate); True if set
    here, False under another C library or when MALLOC_ARENA_MAX is already in the environment."""
    if os.environ.get("MALLOC_ARENA_MAX") or not _glibc():
        return False
    try:
        libc = ctypes.CDLL(None)
        return bool(libc.mallopt(M_ARENA_MAX, arenas))
    except (OSError, AttributeError):
        return False


def _glibc() -> bool:
    try:
        return (os.confstr("CS_GNU_LIBC_VERSION") or "").startswith("glibc")
    except (AttributeError, ValueError, OSError):     # no confstr, or no such name: not glibc
        return False
