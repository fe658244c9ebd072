"""Reference firmware of the Rubicon dice tray / board scanner on an RP2040 (protocol v1).

MicroPython runs this file at boot. All protocol and device logic is firmware_bridge's shared,
MicroPython-compatible code (firmware_bridge/shared/: protocol, device_core, debounce, ticks,
copied to the board as a package; see README.md); this file wires it to the pins and the link. Under CPython the
tests call run() with a fake `machine` module and a stop condition.

Updating it with `mpremote` (README.md): over USB, Ctrl-C stops it (pico_links.py says how) and
`mpremote cp ...` works at once. Safe mode, for a board whose program does not answer Ctrl-C
(a bad edit, a hang): hold SAFE_PIN (GP28, pin 34) to GND while plugging it in, and the firmware
does not start; the REPL is free.
"""

import firmware_config
from firmware_bridge.shared.device_core import BoardScanner, DiceTray
from firmware_bridge.shared.ticks import sleep_ms, ticks_ms


def make_link(machine, cfg):
    from pico_links import UartLink, UsbLink
    if cfg.LINK == "uart":
        return UartLink(machine, cfg.UART_ID, cfg.UART_BAUD, cfg.UART_TX, cfg.UART_RX)
    return UsbLink()


def make_device(machine, cfg, write):
    if cfg.KIND == "dice":
        from tray_sensors import TraySensors
        sensors = TraySensors(machine, cfg.POCKET_PINS, cfg.MOTION_PIN, cfg.TRAY_LED_PIN)
        return DiceTray(write, sensors, settle_ms=cfg.SETTLE_MS)
    from scanner_sensors import ScannerSensors
    sensors = ScannerSensors(machine, cfg)
    return BoardScanner(write, sensors, window_ms=cfg.DEBOUNCE_MS)


def build(machine=None, cfg=firmware_config):
    """The link and the device object, wired to this board's pins."""
    if machine is None:
        import machine
    link = make_link(machine, cfg)
    return link, make_device(machine, cfg, link.write)


def serve(link, device, cfg=firmware_config, should_stop=None):
    """Announce the device, then poll forever (or until should_stop() is true, or Ctrl-C)."""
    device.hello()
    try:
        while should_stop is None or not should_stop():
            now = ticks_ms()
            data = link.read()
            if data:
                device.feed(data, now)
            device.poll(now)
            device.sensors.update(now)
            sleep_ms(cfg.LOOP_MS)
    except KeyboardInterrupt:
        device.host_lost()          # lights off: nobody is served any more
        link.release()
        print("rubicon firmware stopped (Ctrl-C): REPL")
        return "stopped"
    return "done"


def safe_mode(machine=None, cfg=firmware_config):
    """Whether SAFE_PIN is held low at boot (the firmware must not start)."""
    if machine is None:
        import machine
    pin = machine.Pin(cfg.SAFE_PIN, machine.Pin.IN, machine.Pin.PULL_UP)
    return pin.value() == 0


def main(machine=None, cfg=firmware_config):
    if safe_mode(machine, cfg):
        print("rubicon firmware: safe mode (GP%d held low): not started, REPL free" % cfg.SAFE_PIN)
        return "safe"
    return serve(*build(machine, cfg), cfg=cfg)


if __name__ == "__main__":
    main()
