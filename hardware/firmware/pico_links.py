"""The serial line to the Pi: USB CDC (the Pico's own USB port) or a hardware UART.

Both offer read() -> bytes (b"" when nothing is waiting, never blocking) and write(bytes).

Ctrl-C on the USB link: MicroPython's own interrupt character is switched off (it would stop the
program between any two bytecodes, half-way through a line), and the link reads the stream
itself: a 0x03 byte, which protocol v1 never sends (every byte of a line is 0x20..0x7E or the
newline), raises KeyboardInterrupt at a clean point, main.serve turns the tray light off and
returns, and MicroPython's REPL takes over. The bytes after it are left unread for the REPL:
`mpremote` sends Ctrl-C then Ctrl-A (raw REPL) and must find its Ctrl-A there.
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

    def release(self):
        pass        # the USB REPL kept its Ctrl-C: the protocol runs on the UART


class UsbLink:
    def __init__(self):
        import micropython
        import select
        import sys
        micropython.kbd_intr(-1)     # a 0x03 byte in the stream must not stop the program
        self._in = sys.stdin.buffer
        self._out = sys.stdout.buffer
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)

    def read(self):
        data = b""
        while len(data) < 256 and self._poll.poll(0):
            byte = self._in.read(1)
            if byte and byte[0] == CTRL_C:
                self.release()
                raise KeyboardInterrupt
            data += byte
        return data

    def write(self, data):
        self._out.write(data)

    def release(self):
        """Give Ctrl-C back to MicroPython (the REPL after the firmware stops)."""
        import micropython
        micropython.kbd_intr(CTRL_C)
