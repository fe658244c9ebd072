"""The board scanner's sensors behind device_core's small interface: count, read(), set_led().

One MFRC522 per reader on a shared SPI bus, each with its own chip-select and LED. A reader that
does not answer, or whose pass goes wrong, keeps its previous reading, so a flaky or unplugged
reader never reports a block as gone (dead readers are tried again every 2 s); the debouncer in
device_core then decides what is stable.

One field at a time: a reader's antenna is switched on for its read only, after its field has been
off `FIELD_MS` (its tags reset), and left unmodulated `FIELD_MS` before the first request (ISO/IEC
14443-3 5.2.1: a tag accepts a request within 5 ms; the PCD should give it 5.1 ms). So no
neighbour's field powers a tag it must not read or fills its modulation pauses, and the readers'
supply carries one transmitter.
"""

from firmware_bridge.shared.ticks import sleep_ms, ticks_diff, ticks_ms
from leds import Led
from mfrc522_pico import Mfrc522

RETRY_POLLS = 400           # a dead reader is tried again every 400 polls (2 s at the 5 ms loop)


class ScannerSensors:
    def __init__(self, machine, cfg):
        Pin = machine.Pin
        spi = machine.SPI(cfg.SPI_ID, baudrate=1000000, sck=Pin(cfg.SPI_SCK), mosi=Pin(cfg.SPI_MOSI),
                          miso=Pin(cfg.SPI_MISO))
        self.readers = [Mfrc522(spi, Pin(cs, Pin.OUT, value=1)) for cs in cfg.READER_CS_PINS]
        self.field_ms = cfg.FIELD_MS
        self.leds = [Led(Pin(p, Pin.OUT)) for p in cfg.READER_LED_PINS]
        self.alive = [self._init(reader) for reader in self.readers]
        self._last = [[] for _ in self.readers]
        self._off = [None for _ in self.readers]      # ticks_ms when each field went off
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
                uids = self._read_one(i, reader)
            except OSError:
                self.alive[i] = False
                continue
            if uids is not None:
                self._last[i] = uids
        return self._last

    def _read_one(self, i, reader):
        off = self._off[i]
        if off is not None and ticks_diff(ticks_ms(), off) < self.field_ms:
            sleep_ms(self.field_ms - ticks_diff(ticks_ms(), off))
        reader.antenna(True)
        try:
            sleep_ms(self.field_ms)
            return reader.inventory()
        finally:
            reader.antenna(False)
            self._off[i] = ticks_ms()

    def set_led(self, target, mode):
        self.leds[target].set(mode)

    def update(self, now_ms):
        for led in self.leds:
            led.update(now_ms)

    def stop(self):
        """The firmware is stopping (Ctrl-C): every reader LED off."""
        for led in self.leds:
            led.set("off")
