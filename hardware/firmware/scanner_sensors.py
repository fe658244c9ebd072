"""The board scanner's sensors behind device_core's small interface: count, read(), set_led().

One MFRC522 per reader: on SPI0, each with its own chip-select pin and LED (READER_SELECT "pins"), or
on both SPI buses with chip selects through each bus's 74HC154 decoder and no LEDs (READER_SELECT
"decoders": the sensing board's region hub, hardware/BOARD-BUILD.md). A reader that
does not answer, or whose pass goes wrong, keeps its previous reading, so a flaky or unplugged
reader never reports a block as gone (dead readers are tried again every 2 s); the debouncer in
device_core then decides what is stable.

One field at a time: a reader's antenna is switched on for its read only, after its field has been
off `FIELD_MS` (its tags reset), and left unmodulated `FIELD_MS` before the first request (ISO/IEC
14443-3 5.2.1: a tag accepts a request within 5 ms; the PCD should give it 5.1 ms). So no
neighbour's field powers a tag it must not read or fills its modulation pauses, and the readers'
supply carries one transmitter.

Arrivals (CONFIRM_AT_ONCE): a reader that reads a tag it did not hold reads its field again at once,
after a field reset (off and on, FIELD_MS each), and reports the tag only when both reads have it: the
two consecutive reads an arrival needs, ~15 ms apart instead of a whole pass (~0.26 s) apart, so a
set-down is known within one pass.

Pipelined (PIPELINE, the region hub): the next reader's field goes on as this one's read begins, so
its 5.1 ms of settling passes during this read; two transmitters at most. The scan order is
SCAN_ORDER, which `rubicon board-layout` computes for each Pico so that the two fields on at once
lie at least 110 mm apart (readers.toml's header), or else bus 0 and bus 1 alternating (the two
halves of the region: usually, not always, far apart).
"""

from chip_select import Decoder
from firmware_bridge.shared.ticks import sleep_ms, ticks_diff, ticks_ms
from leds import Led
from mfrc522_pico import Mfrc522

RETRY_POLLS = 400           # a dead reader is tried again every 400 polls (2 s at the 5 ms loop)


class ScannerSensors:
    def __init__(self, machine, cfg):
        Pin = machine.Pin
        self.field_ms = cfg.FIELD_MS
        self.confirm_at_once = getattr(cfg, "CONFIRM_AT_ONCE", False)
        if getattr(cfg, "READER_SELECT", "pins") == "decoders":
            reset = getattr(cfg, "RESET_PIN", None)
            if reset is not None:
                Pin(reset, Pin.OUT, value=1)        # the modules out of reset (NRSTPD high)
            self.readers = []
            for spi_id, sck, mosi, miso, address, enable, count in cfg.SPI_BUSES:
                spi = machine.SPI(spi_id, baudrate=1000000, sck=Pin(sck), mosi=Pin(mosi), miso=Pin(miso))
                decoder = Decoder([Pin(p, Pin.OUT, value=0) for p in address], Pin(enable, Pin.OUT, value=1))
                self.readers += [Mfrc522(spi, decoder.output(n)) for n in range(count)]
            self.leds = []
            split = cfg.SPI_BUSES[0][6]
            given = getattr(cfg, "SCAN_ORDER", None)
            if given:       # the layout's order (readers.toml): consecutive fields far apart
                self.order = [i for i in given if 0 <= i < len(self.readers)]
            else:           # bus 0's reader k, then bus 1's reader k: the two halves of the region
                self.order = []
                for k in range(max(split, len(self.readers) - split)):
                    self.order += [i for i in (k, split + k) if i < len(self.readers)]
            self.order += [i for i in range(len(self.readers)) if i not in self.order]
            self.pipeline = getattr(cfg, "PIPELINE", False)
        else:
            spi = machine.SPI(cfg.SPI_ID, baudrate=1000000, sck=Pin(cfg.SPI_SCK), mosi=Pin(cfg.SPI_MOSI),
                              miso=Pin(cfg.SPI_MISO))
            self.readers = [Mfrc522(spi, Pin(cs, Pin.OUT, value=1)) for cs in cfg.READER_CS_PINS]
            self.leds = [Led(Pin(p, Pin.OUT)) for p in cfg.READER_LED_PINS]
        self.alive = [self._init(reader) for reader in self.readers]
        self._last = [[] for _ in self.readers]
        self._off = [None for _ in self.readers]      # ticks_ms when each field went off
        self._on = [None for _ in self.readers]       # ticks_ms when each field went on (pipelined)
        if not hasattr(self, "order"):
            self.order = list(range(len(self.readers)))
            self.pipeline = False
        self._polls = 0
        self.count = len(self.readers)

    def _init(self, reader):
        try:
            return reader.init()
        except OSError:
            return False

    def read(self):
        self._polls += 1
        if self._polls % RETRY_POLLS == 0:
            for i, reader in enumerate(self.readers):
                if not self.alive[i]:
                    self.alive[i] = self._init(reader)      # a reader plugged back in
        live = [i for i in self.order if self.alive[i]]
        for pos, i in enumerate(live):
            if not self.alive[i]:
                continue
            following = live[pos + 1] if self.pipeline and pos + 1 < len(live) else None
            try:
                uids = self._read_one(i, self.readers[i], following)
            except OSError:
                self.alive[i] = False
                self._on[i] = None
                continue
            if uids is not None:
                self._last[i] = uids
        return self._last

    def _field_on(self, i):
        off = self._off[i]
        if off is not None and ticks_diff(ticks_ms(), off) < self.field_ms:
            sleep_ms(self.field_ms - ticks_diff(ticks_ms(), off))
        self.readers[i].antenna(True)
        self._on[i] = ticks_ms()

    def _read_one(self, i, reader, following=None):
        if self._on[i] is None:
            self._field_on(i)
        try:
            left = self.field_ms - ticks_diff(ticks_ms(), self._on[i])
            if left > 0:
                sleep_ms(left)
            if following is not None:
                try:
                    self._field_on(following)       # settles while this reader is read
                except OSError:
                    self.alive[following] = False
                    self._on[following] = None
            uids = reader.inventory()
            if self.confirm_at_once and uids and any(u not in self._last[i] for u in uids):
                # a tag this reader did not hold: read again now, after a field reset (a tag woken from HALT
                # and not selected goes back to HALT, so a drowned tag would not answer the final request
                # of a second read in the same field); it counts only when both reads have it (main.py)
                reader.antenna(False)
                sleep_ms(self.field_ms)
                reader.antenna(True)
                sleep_ms(self.field_ms)
                again = reader.inventory()
                if again is None:
                    return None
                uids = [u for u in uids if u in self._last[i] or u in again]
            return uids
        finally:
            self._on[i] = None
            reader.antenna(False)
            self._off[i] = ticks_ms()

    def set_led(self, target, mode):
        if 0 <= target < len(self.leds):    # the region hub's readers have no LED
            self.leds[target].set(mode)

    def update(self, now_ms):
        for led in self.leds:
            led.update(now_ms)

    def stop(self):
        """The firmware is stopping (Ctrl-C): every reader LED off."""
        for led in self.leds:
            led.set("off")
