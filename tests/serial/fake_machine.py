"""A host stand-in for MicroPython's `machine` module, enough for the Rubicon firmware.

Pin: modes, pulls, value(), irq() on rising/falling edges; a test drives an input with `drive()`.
UART: reads and writes a real file descriptor (the master side of a pty), so the firmware talks to
the real bridge through the kernel. SPI: write_readinto() forwarded to register-level MFRC522
emulators chosen by which chip-select pin is low, or by a 74HC154 decoder of that SPI bus (its /E
low, its output the binary number on A0-A3). A transfer with no chip or two chips selected on any
bus is an OSError (MISO of two modules at once).
"""
import os
import select
import types


def make_machine(uart_fds=None, spi_chips=None, spi_decoders=None):
    """A fresh module. uart_fds: {uart id: fd}; spi_chips: {chip-select GPIO: object with
    spi_transfer(list[int]) -> list[int]}; spi_decoders: {SPI id: (A0-A3 GPIOs, /E GPIO,
    {decoder output: chip})}."""
    pins = {}
    selections = []     # (SPI id, decoder output) of every transfer through a decoder, in order

    class Pin:
        IN, OUT = 0, 1
        PULL_UP, PULL_DOWN = 1, 2
        IRQ_FALLING, IRQ_RISING = 4, 8

        def __new__(cls, id, mode=-1, pull=-1, value=None):
            pin = pins.get(id) or super().__new__(cls)
            pins[id] = pin
            return pin

        def __init__(self, id, mode=-1, pull=-1, value=None):
            if not hasattr(self, "id"):
                self.id, self._value, self._irq = id, 1 if pull == Pin.PULL_UP else 0, None
            self.mode = mode
            if value is not None:
                self._value = int(bool(value))

        def value(self, v=None):
            if v is None:
                return self._value
            self._value = int(bool(v))

        def on(self):
            self.value(1)

        def off(self):
            self.value(0)

        def irq(self, handler=None, trigger=IRQ_RISING | IRQ_FALLING):
            self._irq = (handler, trigger)

        def drive(self, v):
            """The outside world sets an input's level (firing an edge interrupt if armed)."""
            old, self._value = self._value, int(bool(v))
            if self._irq and self._irq[0] and old != self._value:
                edge = Pin.IRQ_RISING if self._value else Pin.IRQ_FALLING
                if self._irq[1] & edge:
                    self._irq[0](self)

    class UART:
        def __init__(self, id, baudrate=115200, tx=None, rx=None, **kw):
            self.fd = uart_fds[id]
            os.set_blocking(self.fd, False)

        def any(self):
            return 1 if select.select([self.fd], [], [], 0)[0] else 0

        def read(self, n=None):
            try:
                return os.read(self.fd, n or 4096) or None
            except (BlockingIOError, OSError):
                return None

        def write(self, buf):
            view = bytes(buf)
            while view:
                try:
                    view = view[os.write(self.fd, view):]
                except BlockingIOError:
                    select.select([], [self.fd], [], 0.1)
            return len(buf)

    class SPI:
        def __init__(self, id, baudrate=1000000, sck=None, mosi=None, miso=None, **kw):
            self.id = id

        def write_readinto(self, write_buf, read_buf):
            selected = [spi_chips[cs] for cs in spi_chips or {} if cs in pins and pins[cs].value() == 0]
            decoded = []
            for bus, (address, enable, chips) in (spi_decoders or {}).items():
                if enable in pins and pins[enable].value() == 0:
                    output = sum(pins[a].value() << bit for bit, a in enumerate(address))
                    decoded.append((bus, output, chips.get(output)))
            if len(decoded) > 1:
                raise OSError(f"SPI transfer with {len(decoded)} decoders enabled")
            for bus, output, chip in decoded:
                if bus == self.id:
                    selections.append((bus, output))
                    if chip is not None:
                        selected.append(chip)
            if len(selected) != 1:
                raise OSError(f"SPI transfer with {len(selected)} chips selected")
            out = selected[0].spi_transfer(list(write_buf))
            read_buf[:] = bytes(out)

        def write(self, buf):
            self.write_readinto(buf, bytearray(len(buf)))

    module = types.ModuleType("machine")
    module.Pin, module.UART, module.SPI, module.pins = Pin, UART, SPI, pins
    module.selections = selections
    return module
