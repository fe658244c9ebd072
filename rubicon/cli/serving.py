"""Where `rubicon run` serves, said to the other commands of the same state directory.

`rubicon run` writes its address and port (`serving.json`, beside the journal) once its socket
listens, and removes the file when it stops; `rubicon pair` prints its link with that port, the one
actually run (`--port 8123`, or 0 for any free one), rather than the configuration's. A file left
by a run that was killed names a port nothing may serve any more: it is used only while the
process that wrote it is alive.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

SERVING_FILE = "serving.json"


def write_serving(state_dir: Path, port: int) -> None:
    """Record that this process serves on `port` (best effort: a read-only state directory only
    means `rubicon pair` falls back to the configuration's port)."""
    try:
        (state_dir / SERVING_FILE).write_text(json.dumps({"port": port, "pid": os.getpid()}))
    except OSError:
        pass


def forget_serving(state_dir: Path) -> None:
    """This process no longer serves."""
    try:
        path = state_dir / SERVING_FILE
        if json.loads(path.read_text()).get("pid") == os.getpid():
            path.unlink()
    except (OSError, ValueError, AttributeError):
        pass


def served_port(state_dir: Path) -> int | None:
    """The port `rubicon run` serves on now from `state_dir`, or None (not running, or unknown)."""
    try:
        data = json.loads((state_dir / SERVING_FILE).read_text())
        port, pid = int(data["port"]), int(data["pid"])
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    try:
        os.kill(pid, 0)         # only asks whether the process lives
    except ProcessLookupError:
        return None
    except PermissionError:
        pass                    # alive, under another user (the service's)
    return port
