"""Register-level emulation of the on-Pi RFID hardware, for tests, the benchmark and `--emulate` demos.

`picc` emulates ISO 14443A tags, `rf_field` what one antenna hears of them, `mfrc522_chip`
the reader chip's registers/FIFO/commands, `fake_spidev`/`fake_gpio` the `spidev` and
`RPi.GPIO` modules the real `mfrc522` library imports, and `rig` wires a whole board
(readers behind a chip-select demultiplexer decoded from gpiozero pins) and installs the
fake modules in `sys.modules`. Nothing here is used on a real Pi.
"""
