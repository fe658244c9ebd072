"""Chip selects through a 74HC154 4-to-16 decoder, one per SPI bus (hardware/BOARD-BUILD.md, "Wiring by
region"): four address lines A0-A3 and the active-low enable /E from the Pico, the decoder's outputs
to the modules' NSS (active low; each also drives its module's MISO buffer's /OE).

`Decoder(address_pins, enable_pin).output(n)` is a chip select for output n with the `value()` of a
machine.Pin, so the MFRC522 driver selects a module the same way through a decoder as through a pin
of its own: value(0) puts n on A0-A3 with /E high (no output low while the address changes), then
takes /E low; value(1) takes /E high, every output high.
"""

OUTPUTS = 16        # a 74HC154 has 16 outputs


class Decoder:
    def __init__(self, address_pins, enable_pin):
        if len(address_pins) != 4:
            raise ValueError("a 74HC154 has four address lines, A0-A3")
        self.address = address_pins
        self.enable = enable_pin
        self.enable.value(1)

    def select(self, n):
        self.enable.value(1)
        for bit, pin in enumerate(self.address):
            pin.value(n >> bit & 1)
        self.enable.value(0)

    def release(self):
        self.enable.value(1)

    def output(self, n):
        if not 0 <= n < OUTPUTS:
            raise ValueError("a 74HC154 output is 0-15")
        return DecodedSelect(self, n)


class DecodedSelect:
    """One decoder output as a chip-select pin: value(0) selects it, value(1) releases the decoder."""

    def __init__(self, decoder, n):
        self.decoder = decoder
        self.n = n

    def value(self, v=None):
        if v is None:
            return 0 if self.decoder.enable.value() == 0 and self._addressed() else 1
        if v:
            self.decoder.release()
        else:
            self.decoder.select(self.n)

    def _addressed(self):
        return all(pin.value() == (self.n >> bit & 1) for bit, pin in enumerate(self.decoder.address))
