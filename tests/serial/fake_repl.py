"""A host stand-in for the Pico's USB port as MicroPython's REPL sees it.

`micropython.kbd_intr(c)` chooses the interrupt character (3, Ctrl-C, by default; -1: none); a byte
equal to it arriving on stdin raises KeyboardInterrupt in the running program instead of being
read, as the USB CDC receive handler does; any other byte is read as data. stdin is a real pipe, so
the firmware's select.poll() works on it. Everything the firmware writes or prints is kept.
"""
import os
import sys
import types


class _Buffer:
    def __init__(self, port):
        self.port = port

    def read(self, n=1):
        data = os.read(self.port.read_fd, n)
        if 0 <= self.port.interrupt_char < 256 and self.port.interrupt_char in data:
            raise KeyboardInterrupt
        return data

    def write(self, data):
        self.port.written += data
        return len(data)


class _Stream:
    def __init__(self, port):
        self.port, self.buffer = port, _Buffer(port)

    def fileno(self):
        return self.port.read_fd

    def write(self, text):
        self.port.written += text.encode()
        return len(text)

    def flush(self):
        pass


class ReplPort:
    def __init__(self):
        self.read_fd, self._write_fd = os.pipe()
        self.interrupt_char = 3
        self.written = b""
        self.micropython = types.ModuleType("micropython")
        self.micropython.kbd_intr = self._kbd_intr
        self.stdin = self.stdout = _Stream(self)

    def _kbd_intr(self, char):
        self.interrupt_char = char

    def type(self, data):
        """Bytes arriving from the host (the Pi's bridge, or mpremote)."""
        os.write(self._write_fd, data)

    def install(self, monkeypatch):
        monkeypatch.setitem(sys.modules, "micropython", self.micropython)
        monkeypatch.setattr(sys, "stdin", self.stdin)
        monkeypatch.setattr(sys, "stdout", self.stdout)
        return self

    def close(self):
        os.close(self.read_fd)
        os.close(self._write_fd)
