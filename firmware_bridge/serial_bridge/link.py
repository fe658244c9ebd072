"""One serial port, opened with pyserial's `serial_for_url`: lines in, numbered v1 lines out.

Works for a tty path (/dev/ttyACM0, a pty), `socket://host:port` and `loop://`. Reads block for at
most `LinkConfig.read_timeout` for the first byte (never a zero-timeout spin), then take in one
block what else has arrived. Any error or end-of-file from the port
(an unplugged USB device, a closed pty, a dropped socket) becomes `LinkLost`.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass

from firmware_bridge.shared.errors import BridgeError
from firmware_bridge.shared.protocol import LineBuffer, encode, next_seq

READ_BLOCK = 4096   # bytes taken from the port per read at most (a megabyte of garbage: 256 reads)


class LinkLost(BridgeError, ConnectionError):
    """The port failed, closed or went silent; the bridge reconnects."""


@dataclass(frozen=True)
class LinkConfig:
    """Timings of the Pi side (seconds). Tests shorten them; the defaults suit a real tray."""

    baudrate: int = 115200
    read_timeout: float = 0.05      # one blocking read; also how fast stop() is noticed
    write_timeout: float = 1.0
    heartbeat: float = 1.0          # Pi -> device HB interval
    hello_timeout: float = 1.0      # no HELLO reply within this after opening: reconnect
    silence_timeout: float = 3.5    # nothing at all from the device (3 missed heartbeats): reconnect
    backoff_min: float = 0.1
    backoff_max: float = 5.0


DEFAULT_CONFIG = LinkConfig()   # frozen, so one shared instance is a safe default argument

class Backoff:
    """Exponential reconnect delay: min, 2*min, 4*min ... capped at max; reset after a handshake."""

    def __init__(self, config: LinkConfig):
        self.config = config
        self.reset()

    def reset(self) -> None:
        """Start again from the shortest delay (after a good connection)."""
        self._next = self.config.backoff_min

    def next(self) -> float:
        """The delay before the next attempt; each doubles, up to the longest."""
        delay = self._next
        self._next = min(self._next * 2, self.config.backoff_max)
        return delay


class SerialLink:
    """One serial port (or pyserial URL) carrying protocol v1 lines: opens, reads whole lines, writes framed ones,
    and turns every failure into LinkLost."""
    def __init__(self, url: str, config: LinkConfig):
        self.url = url
        self.config = config
        self._port = None
        self._lines = LineBuffer()
        self._seq = 0
        self._lock = threading.Lock()
        self.reads = 0          # calls of read_lines that received bytes (tests and benchmarks)

    @property
    def is_open(self) -> bool:
        """Whether the port is open now."""
        return self._port is not None

    def open(self) -> None:
        """Open the port; raises LinkLost if it cannot be opened (absent device, bad URL)."""
        import serial  # lazily: `rubicon --help` must not need pyserial

        try:
            port = serial.serial_for_url(self.url, baudrate=self.config.baudrate,
                                         timeout=self.config.read_timeout,
                                         write_timeout=self.config.write_timeout)
        except (serial.SerialException, OSError, ValueError) as exc:
            raise LinkLost(f"cannot open {self.url}: {exc}") from exc
        except Exception as exc:  # pyserial's URL handlers raise e.g. KeyError for an unknown option
            raise LinkLost(f"cannot open {self.url}: {exc!r}") from exc
        with self._lock:
            self._port = port
            self._lines = LineBuffer()

    def read_lines(self) -> list[bytes | None]:
        """Lines received (None for an over-long line); waits at most read_timeout for the first
        byte, then takes what else has arrived, up to READ_BLOCK bytes, without waiting."""
        port = self._port
        if port is None:
            raise LinkLost("port closed")
        try:
            data = port.read(max(1, port.in_waiting))
            if data and len(data) < READ_BLOCK and port.in_waiting:
                data += self._read_arrived(port, READ_BLOCK - len(data))
        except Exception as exc:  # pyserial raises SerialException, OSError, TypeError on a closed fd
            raise LinkLost(f"port lost on read ({exc})") from exc
        if not data:
            return []
        self.reads += 1
        return self._lines.feed(data)

    def _read_arrived(self, port, size: int) -> bytes:
        """Up to `size` bytes already received, in one read that does not wait. A tty's in_waiting
        counts the bytes, but socket:// only says whether any are there (1), so read(in_waiting)
        alone would read a flood one byte per call; a zero timeout makes read() return what is there."""
        port.timeout = 0
        try:
            return bytes(port.read(size))
        finally:
            port.timeout = self.config.read_timeout

    def send(self, verb: str, fields: tuple = ()) -> int:
        """Write one numbered line; its sequence number."""
        with self._lock:
            if self._port is None:
                raise LinkLost("port closed")
            seq = self._seq
            line = encode(seq, verb, fields)
            self._seq = next_seq(seq)
            try:
                self._port.write(line)
            except Exception as exc:
                raise LinkLost(f"port lost on write ({exc})") from exc
            return seq

    def close(self) -> None:
        """Close the port if it is open; a port whose device vanished is closed all the same."""
        with self._lock:
            port, self._port = self._port, None
        if port is not None:
            try:
                port.close()
            except Exception:  # closing a port whose device vanished may fail; it is gone either way
                pass
