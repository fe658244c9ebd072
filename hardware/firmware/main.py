"""Reference firmware of the Rubicon dice tray / board scanner on an RP2040 (protocol v1).

MicroPython runs this file at boot. All protocol and device logic is firmware_bridge's shared,
MicroPython-compatible code (firmware_bridge/shared/: protocol, device_core, debounce, ticks,
copied to the board as a package; see README.md); this file wires it to the pins and the link. Under CPython the
tests call run() with a fake `machine` module and a stop condition.
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


if __name__ == "__main__":
    serve(*build())
