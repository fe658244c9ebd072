"""`rubicon run` deals every game from the system's CSPRNG: two tables started alike,
and the games that follow one another with `--new-game` on one state directory, all get
different deals; the `chance-seed` file older versions kept in the state directory seeds nothing
(it is deleted) and does not stop an old state directory from starting."""
import re

from rubicon.journal import Journal

from .test_run_cli import start, stop


def run_once(state_dir, *extra) -> str:
    """Start `rubicon run`, let it deal, stop it; its banner."""
    proc, banner = start(state_dir, *extra)
    code, out, err = stop(proc)
    assert code == 0 and "Traceback" not in err, err
    assert re.search(r"game \d+ \(1 actions so far\)", banner), banner    # the deal, journaled
    return banner + out


def deals(state_dir) -> list[str]:
    """The deal of each game in the state directory's journal, in order."""
    journal = Journal(state_dir / "journal.sqlite3")
    try:
        found = []
        for game in range(1, journal.current_game() + 1):
            first = journal.lines(game)[1][0]
            assert first.startswith("Chance deals ")
            found.append(first)
        return found
    finally:
        journal.close()


def test_tables_started_alike_deal_different_games(tmp_path):
    one, two = tmp_path / "one", tmp_path / "two"
    for state_dir in (one, two):
        # The same leftover secret in both, as if one state directory had been copied: it seeds nothing.
        state_dir.mkdir()
        (state_dir / "chance-seed").write_text("0123456789abcdef0123456789abcdef\n", encoding="utf-8")
        said = run_once(state_dir)
        assert f"deleted {state_dir / 'chance-seed'}" in said
        assert not (state_dir / "chance-seed").exists()
    run_once(one, "--new-game")
    run_once(one, "--new-game")
    dealt = deals(one) + deals(two)
    assert len(dealt) == 4 and len(set(dealt)) == 4, dealt
