"""The modules shared with the RP2040 MicroPython firmware: copied to the board as they are.

`protocol` (serial protocol v1 framing and parsing), `device_core` (what a dice tray or board
scanner says and how it answers), `debounce` (time-windowed tag presence) and `ticks` (a
millisecond clock for MicroPython and CPython). The Pi-side bridge and the simulators import them
too, so both ends of the wire run one implementation. Everything here stays within MicroPython:
no typing, dataclasses, annotations or f-strings, and imports only from this package
(tests/serial/test_micropython_subset.py checks). This file is only a docstring on purpose: it
costs nothing on the board.
"""
