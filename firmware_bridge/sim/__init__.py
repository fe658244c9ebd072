"""Device simulators for owners without hardware and for tests.

`device_sim` runs the firmware's device logic (`shared.device_core`) on a pty or TCP port
(`ports`) against scripted sensors (`sensors`), with faults injected at the wire; `script` is the
text format of sensor events (hardware/EVENTS.md) and `player` drives the simulators (and the
emulated MFRC522 array) from such a script.
"""
