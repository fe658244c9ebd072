"""The root of every error the firmware bridge raises: `except BridgeError` catches any of them.

Each error is also the builtin a caller would expect (a bad line is a ValueError, a lost port a
ConnectionError), so code written against the builtins keeps working. This file is shared with the
RP2040 firmware and stays MicroPython-compatible: MicroPython gives a class one native base, so
there `BridgeValueError` is `BridgeError` alone.
"""


class BridgeError(Exception):
    """Something the firmware bridge cannot do or cannot read; the message says what to do next."""


try:
    class BridgeValueError(BridgeError, ValueError):
        """Bad input (a line, a file, a value) refused by the bridge: also a ValueError."""
except TypeError:  # MicroPython: one native base per class
    BridgeValueError = BridgeError  # type: ignore[misc, assignment]
