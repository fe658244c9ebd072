"""`rubicon run` with the faults of the roll kill tests, set by environment variables:

- RUBICON_TEST_SLOW_COMMIT_S: a slow disk: each journal commit waits that long before it starts,
  so a page or tray answered before the commit would be answered well before the roll is on
  disk (what the kill at the answer must never find);
- RUBICON_TEST_KILL_AT=before-roll-commit | after-roll-commit: the process kills itself (SIGKILL,
  as a power cut) when the journal is asked to commit a tray roll, before or right after the
  commit (in the second case before the tray's ACK).

    python -m tests.table.faulty_run run --host 127.0.0.1 --port 0 --state-dir DIR [...]
"""
from __future__ import annotations

import os
import signal
import sys
import time

from rubicon import journal
from rubicon.cli import main

SLOW_S = float(os.environ.get("RUBICON_TEST_SLOW_COMMIT_S", "0") or 0)
KILL_AT = os.environ.get("RUBICON_TEST_KILL_AT", "")
_append_many = journal.Journal.append_many


def _faulty_append_many(self, game_id, lines, tray_roll=None):
    if SLOW_S:
        time.sleep(SLOW_S)     # the slow disk itself, not a wait for anything
    if tray_roll is not None and KILL_AT == "before-roll-commit":
        os.kill(os.getpid(), signal.SIGKILL)
    seq = _append_many(self, game_id, lines, tray_roll)
    if tray_roll is not None and KILL_AT == "after-roll-commit":
        os.kill(os.getpid(), signal.SIGKILL)
    return seq


journal.Journal.append_many = _faulty_append_many   # type: ignore[method-assign]

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
