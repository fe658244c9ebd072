"""No tracked file names a path outside the repository: a reader of the tree (a new developer, an
owner, CI on a clean clone) has none of the machine the tree was written on. Checked over every
tracked text file: absolute paths of a developer's machine, and relative paths that climb out of the
repository (the rulebook and the references the project transcribed from live outside it)."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# (Each pattern with one letter in brackets, so that this file does not name them itself.)
OUTSIDE = re.compile(r"(?<![\w.])(/wor[k]/|/hom[e]/[a-z]|/tm[p]/s\d|\.\./share[d]\b|\.\./note[s]\b)")
# This file names the patterns it looks for.
SELF = Path(__file__).resolve().relative_to(ROOT).as_posix()


def tracked_text_files() -> list[Path]:
    names = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout.split(b"\0")
    files = []
    for name in filter(None, names):
        path = ROOT / name.decode()
        if path.suffix in (".png", ".jpg", ".jpeg", ".pdf", ".mo", ".sqlite3", ".gz", ".zip", ".woff2") \
                or not path.is_file():
            continue
        files.append(path)
    return files


def lines_matching(pattern: re.Pattern, unless: re.Pattern | None = None) -> list[str]:
    """Every tracked text line (but this file's and the locks') that `pattern` finds and `unless` does not."""
    found = []
    for path in tracked_text_files():
        rel = path.relative_to(ROOT).as_posix()
        if rel == SELF or rel.startswith("requirements/"):
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        found += [f"{rel}:{n}: {line.strip()[:120]}" for n, line in enumerate(text.splitlines(), start=1)
                  if pattern.search(line) and not (unless and unless.search(line))]
    return found


def test_no_tracked_file_names_a_path_outside_the_repository():
    found = lines_matching(OUTSIDE)
    assert not found, "paths outside the repository:\n" + "\n".join(found)


# Our own issue numbers mean nothing to a reader of the tree (it has no issues); an upstream
# project's issue, named with its project, is a reference and stays.
OUR_ISSUE = re.compile(r"\bissues? \d+", re.I)
UPSTREAM = re.compile(r"(rp2040-psram|pico-sdk|python-periphery|github\.com)[^\n]{0,25}issues? \d", re.I)


def test_no_tracked_file_names_an_issue_of_ours():
    found = lines_matching(OUR_ISSUE, unless=UPSTREAM)
    assert not found, "issue numbers of ours (the tree has no issues):\n" + "\n".join(found)
