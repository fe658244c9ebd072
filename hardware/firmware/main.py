"""Reference firmware of the Rubicon dice tray / board scanner on an RP2040 (protocol v1).

MicroPython runs this file at boot. All protocol and device logic is firmware_bridge's shared,
MicroPython-compatible code (firmware_bridge/shared/: protocol, device_core, debounce, ticks,
copied to the board as a package; see README.md); this file wires it to the pins and the link. Under CPython the
tests call run() with a fake `machine` module and a stop condition.

Updating the board must never need a reflash (README.md): Ctrl-C on the USB REPL (what `mpremote`
sends first) stops the loop cleanly, lights off, and leaves the REPL free; and a jumper from
SAFE_MODE_PIN to GND at power-up skips the loop altogether, for a firmware that will not stop.
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
    # ARRIVE_READS consecutive reads make an arrival; with CONFIRM_AT_ONCE the sensors take the second
    # themselves (a new tag is reported only once read twice), so one reported read is enough here
    reads = 1 if getattr(cfg, "CONFIRM_AT_ONCE", False) else getattr(cfg, "ARRIVE_READS", 2)
    return BoardScanner(write, sensors, window_ms=cfg.DEBOUNCE_MS, arrive_reads=reads)


def build(machine=None, cfg=firmware_config):
    """The link and the device object, wired to this board's pins."""
    if machine is None:
        import machine
    link = make_link(machine, cfg)
    return link, make_device(machine, cfg, link.write)


def serve(link, device, cfg=firmware_config, should_stop=None):
    """Announce the device, then poll forever (or until should_stop() is true)."""
    device.hello()
    while should_stop is None or not should_stop():
        now = ticks_ms()
        data = link.read()
        if data:
            device.feed(data, now)
        device.poll(now)
        device.sensors.update(now)
        sleep_ms(cfg.LOOP_MS)


def safe_mode_held(machine, cfg):
    """True when the safe-mode jumper pulls SAFE_MODE_PIN to GND (the pin has a pull-up)."""
    Pin = machine.Pin
    return Pin(cfg.SAFE_MODE_PIN, Pin.IN, Pin.PULL_UP).value() == 0


def stop_cleanly(device):
    """Lights off and interrupt handlers released, even if another Ctrl-C lands meanwhile."""
    while True:
        try:
            device.sensors.stop()
            return
        except KeyboardInterrupt:
            pass


def run(machine=None, cfg=firmware_config, should_stop=None):
    """Boot: "safe mode" (jumper held, loop skipped), "interrupted" (Ctrl-C) or "stopped"."""
    if machine is None:
        import machine
    if safe_mode_held(machine, cfg):
        print("rubicon: safe mode (GP%d held to GND): main loop skipped, REPL free" % cfg.SAFE_MODE_PIN)
        return "safe mode"
    link, device = build(machine, cfg)
    try:
        serve(link, device, cfg, should_stop)
    except KeyboardInterrupt:
        stop_cleanly(device)
        print("rubicon: stopped by Ctrl-C, lights off, REPL free")
        return "interrupted"
    stop_cleanly(device)
    return "stopped"


if __name__ == "__main__":
    run()
