"""The camera dice tray (hardware/DICE.md): a camera looks down into a lit tray, the Pi finds the
dice and counts their pips, and the result goes to the table as protocol v1, like any tray.

`pips` (the faces' pip layouts), `recognise` (a frame -> the dice in it, each read or unsure),
`motion` (rolling or at rest), `sources` (where frames come from), `tray` (the device: frames ->
device_core's DiceTray on a pty or TCP port), `render` (a deterministic picture of dice in the
tray, for tests, the benchmark and the self-test), `cli` (`rubicon dice-camera`).
"""
