"""Rubicon's firmware bridge: device drivers and the serial protocol, turned into typed sensor events.

Everything here produces `firmware_bridge.events` objects on one queue; nothing here imports the
engine. Hardware libraries (RPi.GPIO, spidev, mfrc522) are imported lazily, inside the drivers.
"""
