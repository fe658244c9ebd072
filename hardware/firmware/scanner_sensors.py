"""The board scanner's sensors behind device_core's small interface: count, read(), set_led().

One MFRC522 per reader on a shared SPI bus, each with its own chip-select and LED. A reader that
does not answer, or whose pass goes wrong, keeps its previous reading, so a flaky or unplugged
reader never reports a block as gone (dead readers are tried again every 2 s); the debouncer in
device_core then decides what is stable.
"""

from leds import Led
from mfrc522_pico import Mfrc522

RETRY_POLLS = 400           # a dead reader is tried again every 400 polls (2 s at the 5 ms loop)


class ScannerSensors:
    def __init__(self, machine, cfg):
        Pin = machine.Pin
        spi = machine.SPI(cfg.SPI_ID, baudrate=1000000, sck=Pin(cfg.SPI_SCK), mosi=Pin(cfg.SPI_MOSI),
                          miso=Pin(cfg.SPI_MISO))
        self.readers = [Mfrc522(spi, Pin(cs, Pin.OUT, value=1)) for cs in cfg.READER_CS_PINS]
        self.leds = [Led(Pin(p, Pin.OUT)) for p in cfg.READER_LED_PINS]
        self.alive = [self._init(reader) for reader in self.readers]
        self._last = [[] for _ in self.readers]
        self._polls = 0
        self.count = len(self.readers)

    def _init(self, reader):
        try:
            return reader.init()
        except OSError:
            return False

    def read(self):
        self._polls += 1
        for i, reader in enumerate(self.readers):
            if not self.alive[i]:
                if self._polls % RETRY_POLLS == 0:
                    self.alive[i] = self._init(reader)      # a reader plugged back in
                continue
            try:
                uids = reader.inventory()
            except OSError:
                self.alive[i] = False
                continue
            if uids is not None:
                self._last[i] = uids
        return self._last

    def set_led(self, target, mode):
        self.leds[target].set(mode)

    def update(self, now_ms):
        for led in self.leds:
            led.update(now_ms)

    def stop(self):
        """The firmware is stopping (Ctrl-C): every reader LED off."""
        for led in self.leds:
            led.set("off")
