"""`rubicon run`: the table app — the table session, its journal and the phones' web app in one
process, until Ctrl-C (the next start resumes the same game from the journal).

Owns the command line of running a table: where the state lives (`--state-dir`, default the
platform's user state directory), the address served, the URLs printed for the TV and the two
phones (with a QR code of the TV's address in the terminal), and a clean stop.
"""
from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
from pathlib import Path

DEFAULT_PORT = 8080


# Ctrl-C and SIGTERM are blocked in every thread and taken synchronously by the main thread
# (sigwait), so a stop never lands as an exception in the middle of a lock or a write.
STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM}


def register(commands) -> None:
    """Add `rubicon run` to the command."""
    p = commands.top.add_parser(
        "run", help="run the table: game session, journal and the phones' web app",
        description="Run the table app: the game (resumed from the journal in the state directory), "
                    "the public view for a TV and the pairing links for the two phones. Ctrl-C stops "
                    "it; the next start resumes the same game.")
    p.add_argument("--config", metavar="FILE", default=None,
                   help="configuration file (default: $RUBICON_CONFIG, else ./rubicon.toml if present; "
                        "see config.example.toml and `rubicon check-config`)")
    p.add_argument("--host", default=None,
                   help="address to serve on (default: the configuration's, else all, so phones on the LAN reach it)")
    p.add_argument("--port", type=int, default=None,
                   help=f"port (default: the configuration's, else {DEFAULT_PORT}; 0: any free port)")
    p.add_argument("--state-dir", type=Path, default=None,
                   help="where the journal lives (default: the configuration's, else $RUBICON_STATE_DIR, else "
                        "systemd's $STATE_DIRECTORY, else the platform's user state directory for rubicon)")
    p.add_argument("--new-game", action="store_true", help="start a new game instead of resuming the current one")
    p.add_argument("--no-virtual", action="store_true",
                   help="no virtual table: moves are made on the phones only (default: a virtual table page "
                        "where blocks are lifted and set down, dice rolled and Done pressed, as at a real table)")
    p.add_argument("--bot", choices=("caesar", "pompeius"), default=None,
                   help="the Pi plays this side, from that side's information only (default: the configuration's "
                        "[bot] side, else none)")
    p.add_argument("--bot-level", choices=BOT_LEVELS, default=None,
                   help="the bot's level (default: the configuration's, else medium; see rubicon selfplay)")
    p.set_defaults(func=run_command)


BOT_LEVELS = ("random", "easy", "medium", "hard")   # rubicon.bot.LEVELS, without importing it (fast --help)


def start_bot(session, args: argparse.Namespace, config=None):
    """The bot player of `--bot` (else the configuration's [bot] side), started; None without.
    Its own RNG is seeded from the session's chance source (the system's CSPRNG at a real table),
    anew at each start: no record or state file tells what it will choose (BotPlayer's default)."""
    side = args.bot or getattr(config, "bot_side", None)
    if not side:
        return None
    level = args.bot_level or getattr(config, "bot_level", None) or "medium"
    from rubicon.table.bot_player import BotPlayer
    bot = BotPlayer(session, side.capitalize(), level=level)
    if session.physical is not None:     # its blocks on the board are handled blind by the player
        session.physical.automated.add(bot.side_name)
    bot.start()
    print(f"  the Pi plays {bot.side_name} at level {level}")
    return bot


def default_state_dir() -> Path:
    """Where the journal and the pairings live: $RUBICON_STATE_DIR, systemd's $STATE_DIRECTORY, else the user's
    state directory."""
    env = os.environ.get("RUBICON_STATE_DIR") or os.environ.get("STATE_DIRECTORY", "").split(":")[0]
    if env:
        return Path(env)
    import platformdirs  # only when no directory was given: `rubicon --help` stays fast
    return Path(platformdirs.user_state_dir("rubicon"))


def lan_address() -> str:
    """The address phones on the same network reach this machine by (no packet is sent)."""
    import socket  # here, like the handler's imports: `rubicon --help` starts faster without it
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.connect(("10.255.255.255", 1))
        return s.getsockname()[0]
    except OSError:
        return "127.0.0.1"
    finally:
        s.close()


# Earlier versions drew every chance outcome from a seed kept in this file of the state directory
# (so a new game repeated the last one's deal); chance now comes from the system's CSPRNG and is
# journaled as it is drawn. The file is deleted at start: it seeds nothing any more.
OLD_CHANCE_SEED = "chance-seed"


def forget_old_chance_seed(state_dir: Path) -> bool:
    """Delete the old `chance-seed` file if the state directory still has one; True if it did."""
    try:
        (state_dir / OLD_CHANCE_SEED).unlink()
    except OSError:     # none (or not ours to delete): it is ignored either way
        return False
    return True


def say_what_the_check_found(journal) -> None:
    """The journal's check at open, told at start: what was damaged, what was recovered from where,
    where the damaged files are kept; or what was put right without damage."""
    found = journal.inspection
    if found.aside is not None:
        print(f"Rubicon: the journal {journal.path} was damaged; the longest verified record is resumed:")
        for line in found.describe():
            print(f"  {line}")
        print("  (`rubicon journal check` reports on it at any time)", flush=True)
    elif found.notes:
        print(f"Rubicon: journal: {'; '.join(found.notes)}")


def run_command(args: argparse.Namespace) -> int:
    """`rubicon run`: the table (session, journal, devices or the virtual table, the bot if asked) and the web app,
    until Ctrl-C or SIGTERM."""
    from rubicon.config import config_or_report
    config = config_or_report(args.config, "rubicon run: fix the configuration (rubicon check-config explains it)")
    if config is None:
        return 2
    host = args.host if args.host is not None else config.host
    port = args.port if args.port is not None else config.port
    if not 0 <= port <= 65535:
        print(f"rubicon run: --port must be 0..65535, not {port}", file=sys.stderr)
        return 2
    return _run(args, config, host, port, args.state_dir or config.state_dir or default_state_dir())


def _run(args: argparse.Namespace, config, host: str, port: int, state_dir: Path) -> int:
    import segno

    from rubicon.cli.service import Watchdog, notifier, watchdog_interval
    from rubicon.journal import Journal, JournalDamaged, JournalError, StorageError, storage_error
    from rubicon.malloc_arenas import limit_malloc_arenas
    from rubicon.table.assembly import assemble
    from web_ui import create_app
    from web_ui.server import make_server, stop_server

    limit_malloc_arenas()      # before any thread starts too: RSS grew with arenas per thread
    signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)   # before any thread starts: all inherit it
    journal_file = state_dir / "journal.sqlite3"
    try:
        state_dir.mkdir(parents=True, exist_ok=True)
        journal = Journal(journal_file, accept_loss=args.new_game)
    except JournalDamaged as exc:
        print(f"rubicon run: the journal {journal_file} is damaged and nothing of it can be verified:", file=sys.stderr)
        for line in exc.inspection.describe():
            print(f"  {line}", file=sys.stderr)
        print("rubicon run: `rubicon journal check` reports it; `rubicon run --new-game` keeps the damaged files "
              "aside and starts a new journal", file=sys.stderr)
        return 2
    except StorageError as exc:
        print(f"rubicon run: cannot use the journal in {state_dir}: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:      # the state directory itself (missing, read-only, permission)
        print(f"rubicon run: cannot use the state directory {state_dir}: {storage_error(exc, journal_file) or exc}",
              file=sys.stderr)
        return 2
    except JournalError as exc:
        print(f"rubicon run: {exc}", file=sys.stderr)
        return 2
    say_what_the_check_found(journal)
    try:
        if forget_old_chance_seed(state_dir):
            print(f"rubicon run: deleted {state_dir / OLD_CHANCE_SEED} (no longer used: chance comes from the "
                  f"system's random source)")
        # lgpio (the panel's and the readers' GPIO) makes its notification pipe in its working
        # directory when first imported: the state directory, writable, whatever the cwd is.
        os.environ.setdefault("LG_WD", str(state_dir))
        table = assemble(config, journal, virtual=not args.no_virtual)   # chance: the system's CSPRNG
        table.start(new_game=args.new_game)
    except Exception as exc:    # a reader layout, tag registry or panel.toml that cannot be read (file, line); the disk
        journal.close()
        problem = storage_error(exc, journal_file) if isinstance(exc, OSError) else None
        print(f"rubicon run: cannot set up the table: {problem or exc}", file=sys.stderr)
        return 2
    session, virtual = table.session, table.virtual
    bot = start_bot(session, args, config)
    names = tuple(n for n in (getattr(config, "name", None), host) if n and n not in ("0.0.0.0", "::"))
    app = create_app(session, virtual=virtual, bot_sides=(bot.side_name,) if bot is not None else (), host_names=names)
    try:
        server = make_server(app, host, port)
    except OSError as exc:
        if bot is not None:
            bot.stop()
        table.stop()
        print(f"rubicon run: cannot serve on {host}:{port}: {exc.strerror or exc}; "
              f"choose another with --port", file=sys.stderr)
        return 2
    serving = threading.Thread(target=server.run, name="waitress", daemon=True)
    systemd = notifier()
    interval = watchdog_interval()
    watchdog = Watchdog(session, systemd, interval) if interval else None
    try:
        serving.start()
        shown = lan_address() if host in ("0.0.0.0", "") else host
        base = f"http://{shown}:{server.effective_port}"
        pairings = app.extensions["rubicon.pairings"]
        snap = session.snapshot()
        print(f"Rubicon: game {snap.game_id} ({snap.lines} actions so far), journal in {state_dir}")
        print(f"  the table (TV):  {base}/   [{table.describe()}]")
        for down in (table.devices.problems.values() if table.devices is not None else ()):
            print(f"  not working: {down.text} (tried again until it joins; the TV and phones say so)")
        if virtual is not None:
            print(f"  virtual table:   {base}/virtual/  (no hardware: lift and set down blocks, roll dice here)")
        for side in ("Caesar", "Pompeius"):
            if side in pairings.bot_sides:
                print(f"  {side + ':':15s}  played by the Pi (no phone pairs with it)")
            elif (code := pairings.code(side)) is not None:
                print(f"  pair {side + ':':10s} {base}/pair/{side}?code={code}")
            else:
                print(f"  {side + ':':15s}  paired ({len(pairings.devices(side))} device(s)); one more: "
                      f"`rubicon pair {side}`, or from a paired device")
        print("Open the table's address on a TV or tablet; each player scans his side's QR code there.")
        if sys.stdout.isatty():   # not into systemd's journal or a pipe: there it is noise
            segno.make(f"{base}/", error="m").terminal(compact=True)
        print("Ctrl-C stops Rubicon; the next start resumes this game.", flush=True)
        # The socket listens since make_server: requests queue until waitress's loop takes them.
        systemd.notify(f"READY=1\nSTATUS=serving {base}/ (game {snap.game_id})")
        if watchdog is not None:
            watchdog.start()
        signal.sigwait(STOP_SIGNALS)
    finally:
        systemd.notify("STOPPING=1")
        if watchdog is not None:
            watchdog.stop()
        if bot is not None:
            bot.stop()
        table.stop()
        stop_server(server, serving)
        journal.close()
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)
    print("Rubicon stopped; every accepted action is in the journal.", flush=True)
    return 0
