"""The dice tray's sensors behind device_core's small interface: motion(), pockets(), set_led().

Each die carries, on every face, a 3-bit mark in IR-reflective ink giving the value of the opposite
face; three TCRT5000 sensors under the clear floor of each pocket read the mark of the face lying
down, which is the value on top (hardware/firmware/README.md, "Dice build"; why this is no longer the
reference tray: hardware/DICE.md, option c). A sensor module pulls its output low
when it sees reflection, so a mark bit of 1 reads as 0. No reflection at all (code 0) is an empty
pocket; code 7 or a code that changes between three quick reads is a die that is not flat.
"""

from leds import Led

READS = 3


class TraySensors:
    def __init__(self, machine, pocket_pins, motion_pin, led_pin):
        Pin = machine.Pin
        self._pockets = [[Pin(p, Pin.IN, Pin.PULL_UP) for p in trio] for trio in pocket_pins]
        self._motion = Pin(motion_pin, Pin.IN, Pin.PULL_DOWN)
        self._shaken = False
        # The vibration module's pulses are short; the interrupt latches one between two polls.
        self._motion.irq(handler=self._on_shake, trigger=Pin.IRQ_RISING)
        self.led = Led(Pin(led_pin, Pin.OUT))

    def _on_shake(self, pin):
        self._shaken = True

    def motion(self):
        shaken, self._shaken = self._shaken, False
        return shaken or self._motion.value() == 1

    def _code(self, trio):
        code = 0
        for bit, pin in enumerate(trio):
            if pin.value() == 0:
                code |= 1 << bit
        return code

    def pockets(self):
        faces = []
        for trio in self._pockets:
            codes = [self._code(trio) for _ in range(READS)]
            if codes.count(codes[0]) != READS or codes[0] == 7:
                faces.append(-1)
            else:
                faces.append(codes[0])
        return faces

    def set_led(self, target, mode):
        self.led.set(mode)

    def update(self, now_ms):
        self.led.update(now_ms)

    def stop(self):
        """The firmware is stopping (Ctrl-C): light off, no handler left running under the REPL."""
        self._motion.irq(handler=None)
        self.led.set("off")
