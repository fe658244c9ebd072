"""Tables kept per client address, of bounded size: an attacker with many addresses (a /16 of
spoofed LAN addresses, or simply many devices) costs a bounded memory, never a growing one."""
from __future__ import annotations

from collections import OrderedDict
from typing import Generic, TypeVar

ADDRESSES_KEPT = 1024      # each per-address table keeps at most this many addresses (least recent dropped)

K = TypeVar("K")
V = TypeVar("V")


class BoundedTable(Generic[K, V]):
    """A dict of at most `size` entries; the least recently touched one goes first (an LRU), so
    an attacker with many addresses costs a bounded memory."""

    def __init__(self, size: int = ADDRESSES_KEPT) -> None:
        self.size = size
        self._items: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K) -> V | None:
        """The entry of `key` (now the most recent), or None."""
        value = self._items.get(key)
        if value is not None:
            self._items.move_to_end(key)
        return value

    def peek(self, key: K) -> V | None:
        """The entry of `key`, or None, leaving the order as it is (a read from another thread)."""
        return self._items.get(key)

    def put(self, key: K, value: V) -> None:
        """Keep `value` for `key`, dropping the least recent entry beyond `size`."""
        self._items[key] = value
        self._items.move_to_end(key)
        while len(self._items) > self.size:
            self._items.popitem(last=False)

    def pop(self, key: K) -> None:
        """Forget `key`."""
        self._items.pop(key, None)

    def __len__(self) -> int:
        return len(self._items)
