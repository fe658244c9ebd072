"""Where a simulated device is plugged in: the device end of a pty, or a TCP port.

Unplugging a pty closes its master, so the Pi's pyserial gets an I/O error exactly as when a USB
CDC device vanishes; replugging makes a new pty and moves a stable symlink to it, as udev's
/dev/serial/by-id links do. Both ports offer fileno() for select, read(), write(), unplug(),
replug(), close() and `path`, the address the Pi opens.
"""
from __future__ import annotations

import errno
import os
import pty
import select
import socket
import tempfile
import tty


def _write_all(fd: int, send, data: bytes) -> None:
    """Write all of data with a non-blocking `send`, waiting up to 1 s for room each time;
    BlockingIOError if the Pi is not reading (what is left of the line is lost, as when a USB CDC
    buffer overflows). A bare send may take only part of the data."""
    while data:
        try:
            data = data[send(data):]
        except BlockingIOError:
            if not select.select([], [fd], [], 1.0)[1]:
                raise


class PtyPort:
    """The device end of a pty; `path` is a symlink that always points at the current pty slave."""

    def __init__(self, path: str | None = None):
        self._own_dir: str | None = None
        if not path:
            self._own_dir = tempfile.mkdtemp(prefix="rubicon-sim-")
            path = os.path.join(self._own_dir, "tty")
        self.path = path
        self.master: int | None = None
        self.slave: int | None = None
        self.replug()

    @property
    def tty(self) -> str:
        """The pts device the stable link currently points at (/dev/pts/N)."""
        return os.readlink(self.path)

    def replug(self) -> None:
        """Plug the device in again on a fresh pty, as a USB device re-enumerating; the link path stays the same."""
        self.unplug()
        master, slave = pty.openpty()
        tty.setraw(slave)           # no echo, no newline translation: bytes pass as on a USB CDC line
        os.set_blocking(master, False)
        tmp = self.path + ".new"
        os.symlink(os.ttyname(slave), tmp)
        os.replace(tmp, self.path)
        # The device keeps the slave open too, so the pty survives the Pi closing and reopening it.
        self.master, self.slave = master, slave

    def unplug(self) -> None:
        # Like udev removing the by-id link: the Pi must not reopen the old pts name, which the
        # kernel may already have handed to another process's pty.
        """Pull the device out: the link and both ends of the pty go, as udev removes a by-id link."""
        if self.master is not None and os.path.lexists(self.path):
            os.unlink(self.path)
        for fd in (self.master, self.slave):
            if fd is not None:
                os.close(fd)
        self.master = self.slave = None

    def fileno(self) -> int | None:
        """The device end to wait on with select(), or None while unplugged."""
        return self.master

    def read(self) -> bytes:
        """What the Pi wrote since the last read (at most 4 KiB); empty when nothing came or the device is
        unplugged."""
        if self.master is None:     # unplugged
            return b""
        try:
            return os.read(self.master, 4096)
        except BlockingIOError:
            return b""
        except OSError as exc:
            if exc.errno == errno.EIO:
                return b""
            raise

    def write(self, data: bytes) -> None:
        """Send `data` to the Pi whole; OSError(ENODEV) while unplugged."""
        master = self.master
        if master is None:
            raise OSError(errno.ENODEV, "unplugged")
        _write_all(master, lambda chunk: os.write(master, chunk), data)

    def close(self) -> None:
        """Unplug for good and remove the link and the temporary directory it made."""
        self.unplug()
        for p in (self.path, self.path + ".new"):
            if os.path.lexists(p):
                os.unlink(p)
        if self._own_dir:
            os.rmdir(self._own_dir)
            self._own_dir = None


class TcpPort:
    """A listening TCP port serving one client at a time (the Pi connects with socket://HOST:PORT)."""

    def __init__(self, port: int, host: str = "127.0.0.1"):
        self.listener = socket.create_server((host, port))
        self.listener.setblocking(False)
        self.path = f"socket://{host}:{self.listener.getsockname()[1]}"
        self.conn: socket.socket | None = None
        self.accepting = True

    def fileno(self) -> int | None:
        """The socket to wait on with select(): the client's, the listener's while it accepts, else None."""
        if self.conn is not None:
            return self.conn.fileno()
        return self.listener.fileno() if self.accepting else None

    def read(self) -> bytes:
        """What the client sent since the last read, accepting a client first if none is connected; one client at a
        time."""
        if self.conn is not None:
            self._turn_away()
        if self.conn is None:
            if self.accepting:
                try:
                    self.conn, _ = self.listener.accept()
                    self.conn.setblocking(False)
                except BlockingIOError:
                    pass
            return b""
        try:
            data = self.conn.recv(4096)
        except BlockingIOError:
            return b""
        except OSError:
            data = b""
        if not data:
            self._drop()
        return data

    def _turn_away(self) -> None:
        """Close a second client at once (a device has one host): it sees the port closed rather
        than waiting in the backlog for a HELLO that never comes."""
        try:
            extra, _ = self.listener.accept()
        except (BlockingIOError, OSError):
            return
        extra.close()

    def write(self, data: bytes) -> None:
        """Send `data` to the connected client whole; OSError(ENOTCONN) without one."""
        if self.conn is None:
            raise OSError(errno.ENOTCONN, "no client")
        _write_all(self.conn.fileno(), self.conn.send, data)

    def _drop(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None

    def unplug(self) -> None:
        """Drop the client and accept no other until replug(), as a device pulled out."""
        self._drop()
        self.accepting = False

    def replug(self) -> None:
        """Accept a client again."""
        self.accepting = True

    def close(self) -> None:
        """Drop the client and close the listening socket."""
        self._drop()
        self.listener.close()
