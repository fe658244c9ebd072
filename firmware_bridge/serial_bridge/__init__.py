"""The Pi side of the serial devices (dice tray, serial board scanner): protocol v1 over pyserial.

`link` opens one port and frames lines, `session` turns a device's lines into typed sensor events
(dedup, snapshots, sequence checks, bounded state), `commands` resends unanswered commands,
`bridge` is the reader thread that keeps one device connected, `board` makes a serial board
scanner usable for `rubicon devices scan` and enrollment, and `cli` holds `rubicon device-sim` and
`rubicon devices monitor`. The wire format itself is shared with the firmware
(`firmware_bridge.shared.protocol`).
"""
