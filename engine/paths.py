"""Precomputed candidate paths for listing moves (built once from `BOARD`).

Owns, for every start location and each kind of group move (land blocks by road, navis by
sea border), the tree of paths of up to `MAX_STEPS` steps, children in adjacency order: the
candidates `movement.legal_moves` walks. A path may pass the same location twice, its start
included (the Mercury ruling, docs/engine-design.md: nothing in the rules forbids it). The
rules (which steps are legal) stay in `movement`; this module only spares the listing from
rebuilding paths and tuples each time.
"""
from __future__ import annotations

from .board import BOARD

MAX_STEPS = 3   # Mercury; other group moves go two steps


class PathTree:
    """The paths from one start. `roots` are its first steps; a step is a tuple
    (next location, edge, index, its own next steps); `paths[index]` is the path it ends."""
    __slots__ = ("start", "roots", "paths")

    def __init__(self, start: int, adj: tuple) -> None:
        self.start = start
        self.paths: list[tuple[int, ...]] = []
        self.roots = self._grow((start,), adj)

    def _grow(self, path: tuple[int, ...], adj: tuple) -> tuple:
        steps = []
        for nxt, e in adj[path[-1]]:
            longer = path + (nxt,)
            index = len(self.paths)
            self.paths.append(longer)
            below = self._grow(longer, adj) if len(longer) <= MAX_STEPS else ()
            steps.append((nxt, e, index, below))
        return tuple(steps)


LAND_TREES = tuple(PathTree(l, BOARD.land_adj) for l in range(BOARD.n_locs))
SEA_TREES = tuple(PathTree(l, BOARD.sea_adj) for l in range(BOARD.n_locs))
# By block: the trees its group moves use (navis by sea border, every other block by road).
TREES_OF_BLOCK = tuple(SEA_TREES if b.is_navis else LAND_TREES for b in BOARD.blocks)
