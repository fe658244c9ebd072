"""Rubicon's firmware bridge: the table's devices, turned into typed sensor events.

Everything here produces `firmware_bridge.events` objects on one bounded queue (`events` is the
interface the table session consumes); nothing here imports the engine, rubicon or web_ui.
Hardware libraries (pyserial, RPi.GPIO, spidev, mfrc522, gpiozero) are imported lazily, inside
the drivers. Sub-packages, by what they serve:

    shared/      modules that also run on the RP2040 firmware (protocol v1, device logic, debounce)
    serial_bridge/  the Pi side of the serial devices (dice tray, serial board scanner)
    rfid/        the Pi-wired MFRC522 reader array
    board/       reader map, block catalog, tag registry and enrollment (both sensing builds)
    sim/         device simulators and the sensor-event script format and player
    emulation/   register-level emulation of the Pi-wired RFID hardware
    panel.py     the table panel (Done buttons, status LEDs, buzzer); config_files.py the TOML loading
    virtual_table.py  the virtual table: board, tray and panel in software, for a table without hardware

This file is only a docstring: it is copied to the RP2040 with `shared/` and costs nothing there.
"""
