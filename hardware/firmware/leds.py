"""An LED on a GPIO pin that is on, off or blinking (2 Hz), as protocol v1's LED command asks."""

BLINK_HALF_PERIOD_MS = 250


class Led:
    def __init__(self, pin):
        self.pin = pin
        self.mode = "off"
        self.pin.value(0)

    def set(self, mode):
        self.mode = mode
        self.pin.value(1 if mode == "on" else 0)

    def update(self, now_ms):
        if self.mode == "blink":
            self.pin.value((now_ms // BLINK_HALF_PERIOD_MS) % 2)
