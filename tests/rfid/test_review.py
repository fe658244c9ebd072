"""Review findings on the RFID side, each proved by a test that failed before its fix."""
import os

from firmware_bridge.tag_registry import TagRegistry


def test_registry_save_fsyncs_the_new_file_before_it_replaces_the_old(tmp_path, monkeypatch):
    """Without an fsync of the data first, the rename can reach the disk before the data and a
    power cut leaves an empty or truncated tags.json: the whole enrollment lost."""
    path = tmp_path / "tags.json"
    registry = TagRegistry(path)
    registry.assign("04A1B2C3", "caesar")
    calls = []
    real_fsync, real_replace = os.fsync, os.replace
    monkeypatch.setattr(os, "fsync", lambda fd: (calls.append(("fsync", os.fstat(fd).st_ino)), real_fsync(fd)))
    monkeypatch.setattr(os, "replace", lambda a, b: (calls.append(("replace", os.stat(a).st_ino)), real_replace(a, b)))
    registry.save()
    replaced = [ino for what, ino in calls if what == "replace"]
    assert len(replaced) == 1
    file_synced = [i for i, (what, ino) in enumerate(calls) if what == "fsync" and ino == replaced[0]]
    assert file_synced and file_synced[0] < calls.index(("replace", replaced[0]))
    # and the directory entry itself is made durable after the rename
    dir_ino = os.stat(tmp_path).st_ino
    assert ("fsync", dir_ino) in calls[calls.index(("replace", replaced[0])):]
    assert TagRegistry.load(path).block_of("04A1B2C3") == "caesar"
