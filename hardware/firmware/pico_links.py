"""The serial line to the Pi: USB CDC (the Pico's own USB port) or a hardware UART.

Both offer read() -> bytes (b"" when nothing is waiting, never blocking) and write(bytes).

The USB port is also MicroPython's REPL, and Ctrl-C (0x03) on it stays a keyboard interrupt:
protocol v1 lines are printable ASCII (0x20..0x7E), so the Pi never sends 0x03, and USB frames
are checksummed, so no line noise makes one. That is how `mpremote` stops the firmware to update
it (hardware/firmware/README.md); main.run() turns the interrupt into a clean stop.
"""

CTRL_C = 3


class UartLink:
    def __init__(self, machine, uart_id, baud, tx, rx):
        self.uart = machine.UART(uart_id, baudrate=baud, tx=machine.Pin(tx), rx=machine.Pin(rx))

    def read(self):
        waiting = self.uart.any()
        return (self.uart.read(waiting) or b"") if waiting else b""

    def write(self, data):
        self.uart.write(data)


class UsbLink:
    def __init__(self):
        import micropython
        import select
        import sys
        micropython.kbd_intr(CTRL_C)   # on by default; set again in case a boot.py turned it off
        self._in = sys.stdin.buffer
        self._out = sys.stdout.buffer
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)

    def read(self):
        data = b""
        while len(data) < 256 and self._poll.poll(0):
            data += self._in.read(1)
        return data

    def write(self, data):
        self._out.write(data)
