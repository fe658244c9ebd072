"""The Pi-wired RFID build: MFRC522 readers on the Pi's SPI bus behind a chip-select demultiplexer.

`mfrc522_link` drives one RF exchange through the `mfrc522` library's register access,
`iso14443`/`iso14443_frames` inventory every tag in a field by anticollision, `reader_array`
switches between readers, and `tag_debounce` and `scanner` turn passes into typed sensor events.
Hardware libraries are imported only when an array is built. (`rubicon devices scan` and
`rubicon enroll`, for either build, are in `board.cli`.)
"""
