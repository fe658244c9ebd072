"""The pairing store in the journal's real SQLite file: a code is redeemed once even by racing
threads and by another process's connection, expires, pairs its own side only; revocation is seen
by every connection; the web key is made once and kept."""
import threading

from rubicon.journal import Journal
from rubicon.pairings_store import PairingStore, digest


def test_a_code_is_redeemed_once_by_racing_threads(tmp_path):
    journal = Journal(tmp_path / "j.sqlite3")
    store = PairingStore(journal)
    store.add_code("Caesar", "abc", issued_by="table", expires=200.0, now=100.0)
    start = threading.Barrier(8)
    won = []

    def redeem(n):
        start.wait()
        device = store.redeem("Caesar", "abc", f"token-{n}", label="", now=101.0)
        if device is not None:
            won.append(n)
    threads = [threading.Thread(target=redeem, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(won) == 1 and store.side_of(f"token-{won[0]}") == "Caesar"
    assert [d.side for d in store.devices()] == ["Caesar"]
    journal.close()


def test_expired_or_other_side_codes_pair_nobody(tmp_path):
    journal = Journal(tmp_path / "j.sqlite3")
    store = PairingStore(journal)
    store.add_code("Caesar", "abc", issued_by="pi", expires=200.0, now=100.0)
    assert store.redeem("Pompeius", "abc", "t1", label="", now=150.0) is None
    assert store.redeem("Caesar", "abc", "t1", label="", now=200.0) is None      # expired at 200
    store.add_code("Caesar", "def", issued_by="table", expires=300.0, now=100.0)
    store.withdraw_codes("Caesar", "table", now=150.0)
    assert store.redeem("Caesar", "def", "t1", label="", now=160.0) is None
    assert store.devices() == []
    journal.close()


def test_another_connection_writes_codes_and_revokes_and_the_first_sees_it(tmp_path):
    path = tmp_path / "j.sqlite3"
    server = PairingStore(Journal(path))
    device = None
    pi = Journal(path)          # `rubicon pair` in its own process opens its own connection
    try:
        PairingStore(pi).add_code("Pompeius", "xyz", issued_by="pi", expires=1e12, now=1.0)
        device = server.redeem("Pompeius", "xyz", "tok", label="phone", now=2.0)
        assert device is not None and server.side_of("tok") == "Pompeius"
        assert PairingStore(pi).revoke(side="Pompeius", now=3.0) == 1
    finally:
        pi.close()
    assert server.side_of("tok") is None and server.devices("Pompeius") == []
    with server.journal.connection() as db:
        hashes = [row[0] for row in db.execute("SELECT token_hash FROM paired_devices")]
    assert hashes == [digest("tok")]
    server.journal.close()


def test_the_web_key_is_made_once_and_kept(tmp_path):
    path = tmp_path / "j.sqlite3"
    journal = Journal(path)
    key = PairingStore(journal).web_key()
    assert len(key) == 64 and PairingStore(journal).web_key() == key
    journal.close()
    journal = Journal(path)
    assert PairingStore(journal).web_key() == key
    journal.close()


def test_a_code_of_an_earlier_boot_pairs_nobody(tmp_path):
    """Codes expire on the monotonic clock, which restarts at each boot: one of another boot is void."""
    journal = Journal(tmp_path / "j.sqlite3")
    store = PairingStore(journal)
    store.add_code("Caesar", "abc", issued_by="pi", expires=200.0, now=100.0)
    with journal.connection(write=True) as db:
        db.execute("UPDATE pairing_codes SET boot = 'an-earlier-boot'")
    assert store.redeem("Caesar", "abc", "t1", label="", now=150.0) is None
    journal.close()


def test_revoking_a_device_revokes_its_invitees_transitively_and_its_unused_codes(tmp_path):
    journal = Journal(tmp_path / "j.sqlite3")
    store = PairingStore(journal)
    store.add_code("Caesar", "c0", issued_by="pi", expires=200.0, now=100.0)
    phone = store.redeem("Caesar", "c0", "t0", label="phone", now=101.0)
    store.add_code("Caesar", "c1", issued_by=f"device:{phone.id}", expires=200.0, now=101.0)
    tablet = store.redeem("Caesar", "c1", "t1", label="tablet", now=102.0)
    store.add_code("Caesar", "c2", issued_by=f"device:{tablet.id}", expires=200.0, now=102.0)
    store.add_code("Caesar", "c3", issued_by="pi", expires=200.0, now=102.0)
    assert tablet.invited_by == f"device:{phone.id}"
    assert store.revoke(device=phone.id, now=0.0) == 2
    assert store.side_of("t0") is None and store.side_of("t1") is None
    assert store.redeem("Caesar", "c2", "t2", label="", now=103.0) is None      # the tablet's unused code
    assert store.redeem("Caesar", "c3", "t3", label="", now=103.0) is not None  # the Pi's stays good
    assert store.revoke(device=2**70, now=0.0) == 0 and store.revoke(device=-1, now=0.0) == 0
    journal.close()
