"""A millisecond clock that is MicroPython's `time.ticks_*` on the RP2040 and time.monotonic on a host.

Device code (debounce, device_core, the firmware) uses only these three functions, so it runs
unchanged on both.
"""
import time

# The ignores: these three are MicroPython's `time` only, unknown to CPython's stubs (CPython takes
# the except branch).
try:
    ticks_ms = time.ticks_ms  # type: ignore[attr-defined]
    ticks_diff = time.ticks_diff  # type: ignore[attr-defined]  # ticks_ms wraps on MicroPython; this handles it
    sleep_ms = time.sleep_ms  # type: ignore[attr-defined]
except AttributeError:
    def ticks_ms():
        return int(time.monotonic() * 1000)

    def ticks_diff(a, b):
        return a - b

    def sleep_ms(ms):
        time.sleep(ms / 1000)
