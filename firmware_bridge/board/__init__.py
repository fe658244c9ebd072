"""What the board is, for both sensing builds: which reader is where, which tag is in which block.

`reader_map` (readers.toml: reader index -> map location, pools, eliminated areas, scan pad, and
the Pi-wired SPI wiring), `block_catalog` (the game's blocks and the 705 set-up, blocks.toml),
`tag_registry` (the enrolled UID -> block table, tags.json) and `enroll` (bulk and one-by-one
enrollment over any scan source: the Pi-wired array or a serial board scanner), and `cli`:
`rubicon devices scan` and `rubicon enroll` for either build.
"""
