"""`warlog serve`, the store-wide tools (`warlog export`, `warlog analytics`, `warlog project`,
`warlog reshard`, `warlog backup` and `warlog restore`), `warlog import` of a roster file and `warlog verify` of an export."""
from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

DEMO_ARMIES: dict[str, list[dict[str, Any]]] = {
    "A": [
        {"id": f"scouts-{n}", "name": "Scout Squad", "keywords": ["INFANTRY"], "abilities": ["ATSKNF"],
         "models": [{"name": "Scout", "count": 5, "M": 6, "T": 4, "Sv": 4, "W": 1, "Ld": 8, "BS": 3, "WS": 3,
                     "I": 4, "A": 1}],
         "weapons": [{"name": "Boltgun", "type": "ranged", "range": 24, "A": "2", "S": 4, "AP": 0, "D": "1",
                      "kind": "rapid_fire", "keywords": ["RAPID FIRE 1"]}]} for n in (1, 2, 3)
    ] + [
        {"id": "rhino-1", "name": "Rhino", "keywords": ["VEHICLE", "TRANSPORT"],
         "models": [{"name": "Rhino", "count": 1, "M": 12, "T": 7, "Sv": 3, "W": 3, "Ld": 8, "BS": 3,
                     "hull_points": 3}],
         "weapons": [{"name": "Storm bolter", "type": "ranged", "range": 24, "A": "2", "S": 4, "AP": 0,
                      "D": "1", "kind": "assault"}],
         "transport": {"capacity": 10, "fire_points": 2}},
        {"id": "tactical-1", "name": "Tactical Squad", "keywords": ["INFANTRY"], "abilities": ["ATSKNF"],
         "models": [{"name": "Marine", "count": 10, "M": 6, "T": 4, "Sv": 3, "W": 1, "Ld": 8, "BS": 3,
                     "WS": 3, "I": 4, "A": 1}],
         "weapons": [{"name": "Boltgun", "type": "ranged", "range": 24, "A": "2", "S": 4, "AP": 0, "D": "1",
                      "kind": "rapid_fire"}],
         "embarked_in": "rhino-1"},
    ],
    "B": [
        {"id": f"boyz-{n}", "name": "Boyz", "keywords": ["INFANTRY"],
         "models": [{"name": "Boy", "count": 10, "M": 6, "T": 4, "Sv": 6, "W": 1, "Ld": 7, "BS": 5, "WS": 3,
                     "I": 2, "A": 2}],
         "weapons": [{"name": "Slugga", "type": "ranged", "range": 12, "A": "1", "S": 4, "AP": 0, "D": "1",
                      "kind": "pistol"}, {"name": "Choppa", "type": "melee", "A": "1", "S": 4, "D": "1"}]}
        for n in (1, 2)
    ] + [
        {"id": "battlewagon-1", "name": "Battlewagon", "keywords": ["VEHICLE", "TRANSPORT"],
         "models": [{"name": "Battlewagon", "count": 1, "M": 0, "T": 8, "Sv": 3, "W": 4, "Ld": 7, "BS": 5,
                     "hull_points": 4}],
         "weapons": [{"name": "Big shoota", "type": "ranged", "range": 36, "A": "3", "S": 5, "AP": 0, "D": "1",
                      "kind": "heavy", "keywords": ["HEAVY 3"]}],
         "transport": {"capacity": 20, "fire_points": 0}},
    ],
}


def create_demo(base_url: str, client: Any) -> dict[str, Any]:
    """A ready game: both armies mustered (the seed's Scouts/Rhino/Boyz example), not yet started."""
    created = client.post(f"{base_url}/games", json={
        "ruleset": "alternating", "dice": "server",
        "players": [{"seat": "A", "name": "Alice"}, {"seat": "B", "name": "Bob"}]}).json()
    for seat, units in DEMO_ARMIES.items():
        response = client.post(f"{base_url}/games/{created['game_id']}/armies", json={"units": units},
                               headers={"Authorization": f"Bearer {created['tokens'][seat]}"})
        response.raise_for_status()
    game: dict[str, Any] = created
    return game


def play_link(base_url: str, game_id: str, token: str, seat: str) -> str:
    """A seat's table-app link, as the start page hands it out."""
    return f"{base_url}/play/{game_id}#token={token}&seat={seat}"


def lan_address() -> tuple[str, str | None]:
    """This machine's address on its local network, found without sending a packet: a UDP socket "connected" to
    an address no network routes (TEST-NET-1, RFC 5737) only asks the kernel which interface it would leave by.
    127.0.0.1 and a sentence saying why, when the machine has no such address (no network, loopback only)."""
    import ipaddress
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # UDP connect: no traffic, only a route looked up
            found = probe.getsockname()[0]
        except OSError:
            found = None
    if found is None or ipaddress.ip_address(found).is_loopback or ipaddress.ip_address(found).is_unspecified:
        return "127.0.0.1", ("This machine has no address on a local network, so the links below name 127.0.0.1 "
                             "and open only on this machine.")
    return found, None


def qr_code(link: str) -> str:
    """`link` drawn as a QR code in text (Unicode half blocks), for a phone's camera."""
    import io

    import segno

    drawn = io.StringIO()
    segno.make(link, error="l").terminal(out=drawn, compact=True, border=2)
    return drawn.getvalue()


def print_lan(base_url: str, note: str | None) -> None:
    """`--lan`'s banner: where phones on this network open the start page, as a link and as a QR code."""
    print(f"""
warlog is serving on every interface; on this network: {base_url}/
Plain HTTP for a trusted network: anyone on it who has a seat's link can play that seat.{chr(10) + note if note else ''}
Start a game (scan with a phone): {base_url}/
{qr_code(base_url + "/")}""", flush=True)


def print_demo(base_url: str, created: dict[str, Any], codes: bool = False) -> None:
    """The demo game's banner; `codes`: each seat's table-app link also drawn as a QR code (`--lan`)."""
    gid, tokens = created["game_id"], created["tokens"]
    links = {seat: play_link(base_url, gid, tokens[seat], seat) for seat in ("A", "B")}
    drawn = "".join(f"{name} ({seat}), scan with a phone:\n{qr_code(links[seat])}"
                    for seat, name in (("A", "Alice"), ("B", "Bob"))) if codes else ""
    print(f"""
warlog is serving on {base_url} — a demo game is ready (Alice: seat A, Bob: seat B).

  game_id    {gid}
  token A    {tokens['A']}
  token B    {tokens['B']}
  spectator  {tokens['spectator']}

Try:
  curl -s {base_url}/games/{gid}/state -H 'Authorization: Bearer {tokens['A']}'
  curl -s -X POST {base_url}/games/{gid}/commands -H 'Authorization: Bearer {tokens['A']}' \\
       -H 'Content-Type: application/json' -d '{{"type": "start_game"}}'
  curl -s {base_url}/games/{gid}/events -H 'Authorization: Bearer {tokens['B']}'
  curl -N '{base_url}/games/{gid}/events/stream?token={tokens['spectator']}&after=0'
Table app, one link per phone (the token rides in the #fragment, never in a request):
  Alice (A)  {links['A']}
  Bob (B)    {links['B']}
Start another game in the browser: {base_url}/
Overlay for a stream (a browser source): {base_url}/games/{gid}/overlay.html?token={tokens['spectator']}
API reference: {base_url}/docs
{drawn}""", flush=True)


def serve(args: argparse.Namespace) -> None:
    import threading
    import time

    import httpx
    import uvicorn

    if args.db:
        os.environ["WARLOG_DB"] = args.db
    if args.postgres:
        os.environ["WARLOG_POSTGRES"] = args.postgres
    if args.shards:
        os.environ["WARLOG_SHARDS"] = str(args.shards)
    from warlog.api.app import create_app
    from warlog.api.settings import Settings
    from warlog.api.shards import LayoutRefused

    try:
        app = create_app(Settings())
    except LayoutRefused as refused:
        sys.exit(f"warlog serve: {refused}")
    host, shown, note = args.host, args.host, None
    if args.lan:  # every interface; the links name this machine's address on the network
        host = "0.0.0.0"
        shown, note = lan_address()
    base_url = f"http://{shown}:{args.port}"
    here = f"http://127.0.0.1:{args.port}" if args.lan else base_url  # the demo is made over loopback
    print(f"warlog is serving on {base_url}/ (API reference: {base_url}/docs); {where_data(args)}. Ctrl-C stops "
          f"it.", flush=True)
    if args.demo or args.lan:
        def banner() -> None:
            with httpx.Client(timeout=10) as client:
                for _ in range(100):
                    try:
                        client.get(f"{here}/openapi.json")
                        break
                    except httpx.TransportError:
                        time.sleep(0.1)
                if args.lan:
                    print_lan(base_url, note)
                if args.demo:
                    print_demo(base_url, create_demo(here, client), codes=args.lan)

        threading.Thread(target=banner, daemon=True).start()
    uvicorn.run(app, host=host, port=args.port, log_level="warning", access_log=False)


def where_data(args: argparse.Namespace) -> str:
    """Where `warlog serve` keeps its games, in a sentence (docs/operating.md says which files hold them)."""
    from pathlib import Path

    from warlog.api.settings import Settings

    settings = Settings()
    postgres = settings.postgres_params()
    if settings.persistence == "popo":
        return "games are kept in memory only (WARLOG_PERSISTENCE=popo): they end with the process"
    if postgres is not None:
        return f"games are stored in PostgreSQL, database {postgres['dbname']} on {postgres['host']}"
    return f"games are stored in {Path(settings.db).resolve()} (with its -wal and -shm files while serving)"


def store_settings(args: argparse.Namespace) -> Any:
    """The store a command-line tool opens: `--db`, `--postgres` (`--shards`), or the usual WARLOG_* settings."""
    from warlog.api.settings import Settings

    chosen: dict[str, Any] = {"db": args.db} if args.db else {}
    if args.postgres:
        chosen["postgres"] = args.postgres
    if getattr(args, "shards", None):
        chosen["shards"] = args.shards
    return Settings(**chosen)


def open_store(args: argparse.Namespace) -> Any:
    """Every shard of the store (api/shards.py); a tool given another N than the database's refuses. The tools
    read a store `warlog serve` wrote: an SQLite file that does not exist is refused, never made empty."""
    from pathlib import Path

    from warlog.api.shards import LayoutRefused, Shards

    settings = store_settings(args)
    sqlite = settings.postgres_params() is None and settings.persistence != "popo"
    if sqlite and not Path(settings.db).is_file():
        sys.exit(f"warlog {args.command}: no database at {settings.db}: give the file `warlog serve` writes "
                 f"(--db PATH, or WARLOG_DB), or --postgres")
    try:
        return Shards.open(settings)
    except LayoutRefused as refused:
        sys.exit(f"warlog {args.command}: {refused}")


def export(args: argparse.Namespace) -> None:
    """Every game's events and every die as flat NDJSON and CSV files (pandas / DuckDB load them as they are)."""
    from pathlib import Path

    from tqdm import tqdm

    from warlog.projections.export import FORMATS, export_store
    from warlog.projections.ledger import game_ids

    shards = open_store(args)
    try:
        formats = FORMATS if args.format == "both" else (args.format,)
        with tqdm(total=sum(1 for app in shards for _ in game_ids(app)), unit="game", desc="export",
                  file=sys.stderr) as bar:
            counts = export_store(shards.apps, Path(args.out), formats, bar)
        print(json.dumps({"out": args.out, "formats": list(formats), **counts}))
    finally:
        shards.close()


def ledger_for(shards: Any) -> Any:
    """The one ledger of every shard, beside shard 0's store."""
    from warlog.projections.ledger import ledger_env, open_ledger

    return open_ledger(ledger_env(dict(shards.apps[0].env)))


def analytics(args: argparse.Namespace) -> None:
    """Luck, tempo and losses across every game, from the ledger projection (brought up to date first)."""
    from tqdm import tqdm

    from warlog.projections.analytics import across_games
    from warlog.projections.ledger import backlog, catch_up, rebuild

    shards = open_store(args)
    try:
        ledger = ledger_for(shards)
        with tqdm(total=None if args.rebuild else backlog(shards.apps, ledger), unit="event", desc="ledger",
                  file=sys.stderr) as bar:
            (rebuild if args.rebuild else catch_up)(shards.apps, ledger, bar)
        view = ledger.view
        print(json.dumps(across_games(view.rows("games"), view.rows("dice"), view.rows("facts")), indent=1))
    finally:
        shards.close()


def stopping() -> Any:
    """An Event set by SIGTERM (what a service manager sends) or SIGINT (Ctrl-C), so that `warlog project`
    ends its batch and closes its stores, exiting 0. A SIGINT this process inherited ignored (a job started
    in the background with `&`) stays ignored."""
    import signal
    import threading

    stop = threading.Event()

    def asked(signum: int, frame: Any) -> None:
        print(f"warlog project: {signal.Signals(signum).name}, stopping", file=sys.stderr, flush=True)
        stop.set()

    signal.signal(signal.SIGTERM, asked)
    if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
        signal.signal(signal.SIGINT, asked)
    return stop


def project(args: argparse.Namespace) -> None:
    """Keep the ledger projection up to date in this process: on PostgreSQL the library's ProjectionRunner
    follows the store through LISTEN/NOTIFY; SQLite has no subscriptions, so it pulls every second. SIGTERM or
    Ctrl-C stops it gracefully."""
    from contextlib import ExitStack

    from eventsourcing.projection import ProjectionRunner

    from warlog.api.shards import PROJECT_TAG, present, shard_env
    from warlog.domain.application import Warlog
    from warlog.projections.ledger import Ledger, catch_up, ledger_env, view_class

    stop = stopping()
    shards = open_store(args)  # checks the layout (and makes every shard's tables); a typo in --db is refused
    settings = store_settings(args)
    view_env = ledger_env(settings.eventsourcing_env())
    if view_env["PERSISTENCE_MODULE"] == "eventsourcing.postgres":
        shards.close()
        with ExitStack() as runners:  # one runner per shard, each following its own table's notifications
            runners.enter_context(present(settings.postgres_params(), PROJECT_TAG))  # `warlog reshard` waits for it
            following = [runners.enter_context(ProjectionRunner(
                application_class=Warlog.shard(shard), projection_class=Ledger, view_class=view_class(view_env),
                env={**shard_env(settings, shard), **view_env})) for shard in range(settings.shards)]
            print(f"following {len(following)} shard(s) into {Ledger.name} (SIGTERM or Ctrl-C stops)",
                  file=sys.stderr, flush=True)
            while not stop.is_set() and not any(runner.is_interrupted.is_set() for runner in following):
                for runner in following:
                    runner.run_forever(timeout=1.0 / len(following))  # raises what a runner's thread raised
        return
    ledger = ledger_for(shards)
    try:
        print(f"following the store into {Ledger.name} (SIGTERM or Ctrl-C stops)", file=sys.stderr, flush=True)
        total = 0
        while not stop.is_set():
            done = catch_up(shards.apps, ledger)
            if done:  # what it did, as it does it: a line a batch, nothing while the store is quiet
                total += done
                print(f"projected {done} event(s), {total} since it started", file=sys.stderr, flush=True)
            stop.wait(1.0)
    finally:
        shards.close()


def sqlite_file(args: argparse.Namespace) -> Any:
    """The SQLite file the store is (`--db`, WARLOG_DB); PostgreSQL is backed up with its own tools."""
    from pathlib import Path

    settings = store_settings(args)
    if settings.postgres_params() is not None:
        sys.exit(f"warlog {args.command}: the games are in PostgreSQL: back them up with pg_dump (pg_dump -Fc -d "
                 f"DBNAME -f FILE) and put them back with pg_restore")
    return Path(settings.db)


def copy_sqlite(source: Any, target: Any) -> int:
    """SQLite's online backup API: a consistent copy of a database in use (the events still in its -wal file
    included), page by page; the number of games in the copy."""
    import sqlite3
    from contextlib import closing

    with closing(sqlite3.connect(source)) as src, closing(sqlite3.connect(target)) as dst:
        src.backup(dst)
        games: int = dst.execute("SELECT COUNT(DISTINCT originator_id) FROM stored_events").fetchone()[0]
    return games


def backup(args: argparse.Namespace) -> None:
    """Copy the SQLite store to PATH, safely while `warlog serve` runs (a plain `cp` of the file misses the events
    still in its -wal file). One file holds every game: the events, each game's head record and the stored answers
    of idempotent requests; the ledger (*.ledger.db) is rebuilt from them."""
    from pathlib import Path

    source, target = sqlite_file(args), Path(args.path)
    if not source.is_file():
        sys.exit(f"warlog backup: no database at {source}: give the file `warlog serve` writes (--db PATH, or "
                 f"WARLOG_DB)")
    if target.exists():
        sys.exit(f"warlog backup: {target} exists already: name a new file")
    games = copy_sqlite(source, target)
    print(json.dumps({"backup": str(target), "of": str(source), "games": games, "bytes": target.stat().st_size}))


def restore(args: argparse.Namespace) -> None:
    """Put a backup made by `warlog backup` back as the store, with every `warlog serve` of it stopped. The ledger
    projection beside it is removed: `warlog analytics` (or `warlog project`) rebuilds it from the events."""
    import sqlite3
    from pathlib import Path

    source, target = Path(args.backup), sqlite_file(args)
    try:
        with sqlite3.connect(f"file:{source}?mode=ro", uri=True) as check:
            check.execute("SELECT 1 FROM stored_events LIMIT 1")
    except sqlite3.Error:
        sys.exit(f"warlog restore: {source} is no warlog backup (an SQLite file of games, as `warlog backup` "
                 f"writes)")
    if target.exists() and not args.force:
        sys.exit(f"warlog restore: {target} exists: stop every `warlog serve` of it, then run again with --force "
                 f"to replace it")
    games = copy_sqlite(source, target)
    ledger = target.with_name(target.stem + ".ledger" + (target.suffix or ".db"))
    for stale in (ledger, ledger.with_name(ledger.name + "-wal"), ledger.with_name(ledger.name + "-shm")):
        stale.unlink(missing_ok=True)
    print(json.dumps({"restored": str(target), "from": str(source), "games": games}))


def reshard(args: argparse.Namespace) -> None:
    """Move every game to the shard --shards N names for it (api/shards.py), with every `warlog serve` stopped;
    cut short, it refuses every process until it is run again, and runs on from where it stopped."""
    from warlog.api.shards import LayoutRefused
    from warlog.api.shards import reshard as move

    try:
        print(json.dumps(move(store_settings(args), args.shards, say=lambda text: print(text, file=sys.stderr))))
    except LayoutRefused as refused:
        sys.exit(f"warlog reshard: {refused}")


class RosterReaders:
    """`warlog import --ruleset`'s choices: the rulesets that read roster files, from the registry, read only when
    argparse asks (the CLI's other commands load no ruleset)."""

    def __contains__(self, name: object) -> bool:
        return name in self.names()

    def __iter__(self) -> Any:
        return iter(self.names())

    @staticmethod
    def names() -> tuple[str, ...]:
        from warlog.api.rosters import readers

        return readers()


def import_roster(args: argparse.Namespace) -> None:
    """A roster file (.rosz, .ros, New Recruit JSON) as the contract's units, printed as JSON."""
    from pathlib import Path

    from warlog.api.rosters import convert
    from warlog.domain.rulings import Ruling

    try:
        print(json.dumps(convert(Path(args.file).read_bytes(), args.ruleset), indent=1, ensure_ascii=False))
    except OSError as error:
        sys.exit(f"warlog import: {error}")
    except Ruling as error:
        sys.exit(f"warlog import: {args.file}: {error.detail}")


def verify_file(args: argparse.Namespace) -> None:
    """Check an events export with no server and no database: every chain link and request digest, and every
    server roll where the seed has been revealed (projections/proof.py). Prints a line per game; exits 1 on any
    damage, 2 when a file is no events export."""
    from warlog.projections.proof import NotAnExport, verify_lines

    damaged = False
    for name in args.file:
        try:
            with open(name, encoding="utf-8") as lines:
                verdicts = verify_lines(lines)
        except OSError as error:
            sys.exit(f"warlog verify: {error}")
        except NotAnExport as error:
            print(f"warlog verify: {name}: {error}", file=sys.stderr)
            sys.exit(2)
        for verdict in verdicts:
            print(verdict.line())
            damaged = damaged or not verdict.ok
        if not verdicts:
            print(f"warlog verify: {name}: no events in it", file=sys.stderr)
            damaged = True
    sys.exit(1 if damaged else 0)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="warlog", description="An event-sourced rules service for wargames.")
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("serve", help="serve the HTTP API")
    run.add_argument("--host", default="127.0.0.1")
    run.add_argument("--port", type=int, default=8000)
    run.add_argument("--db", default=None, help="SQLite file (default ./warlog.db)")
    run.add_argument("--postgres", default=None, help="postgresql://user@host:port/db")
    run.add_argument("--shards", type=int, default=None,
                     help="event stores in the PostgreSQL database, a game's chosen by its id (WARLOG_SHARDS; "
                          "default 1): every process serving it must be given the same N")
    run.add_argument("--demo", action="store_true", help="create a demo game and print its tokens")
    run.add_argument("--lan", action="store_true",
                     help="listen on every interface and print the links (and QR codes) with this machine's address "
                          "on the local network: plain HTTP, for a trusted network")
    run.set_defaults(func=serve)
    for name, func, text in (("export", export, "write every game's events and dice as NDJSON and CSV"),
                             ("analytics", analytics, "luck, tempo and losses across every game (JSON)"),
                             ("project", project, "keep the ledger projection up to date (runs until stopped)")):
        tool = commands.add_parser(name, help=text, description=func.__doc__)
        store = tool.add_mutually_exclusive_group()
        store.add_argument("--db", default=None, help="SQLite file (default ./warlog.db)")
        store.add_argument("--postgres", default=None, help="postgresql://user@host:port/db")
        tool.add_argument("--shards", type=int, default=None, help="as given to `warlog serve` (WARLOG_SHARDS)")
        tool.set_defaults(func=func)
        if name == "export":
            tool.add_argument("--out", required=True, help="directory for games/events/dice .csv and .ndjson")
            tool.add_argument("--format", choices=("ndjson", "csv", "both"), default="both")
        if name == "analytics":
            tool.add_argument("--rebuild", action="store_true", help="rebuild the ledger from zero first")
    saving = commands.add_parser("backup", help="copy the SQLite store, safely while it is served",
                                 description=backup.__doc__)
    saving.add_argument("path", help="the new file to write the copy to")
    restoring = commands.add_parser("restore", help="put a backup back as the store (warlog serve stopped)",
                                    description=restore.__doc__)
    restoring.add_argument("backup", help="a file `warlog backup` wrote")
    restoring.add_argument("--force", action="store_true", help="replace the store if it exists")
    for tool, func in ((saving, backup), (restoring, restore)):
        tool.add_argument("--db", default=None, help="the SQLite store (default ./warlog.db, or WARLOG_DB)")
        tool.set_defaults(func=func, postgres=None)
    moving = commands.add_parser("reshard", help="move every game to the shard N names for it (PostgreSQL)",
                                 description=reshard.__doc__)
    moving.add_argument("--postgres", default=None, help="postgresql://user@host:port/db (or WARLOG_POSTGRES)")
    moving.add_argument("--shards", type=int, required=True, help="the new number of shards")
    moving.set_defaults(func=reshard, db=None)
    reading = commands.add_parser("import", help="convert a roster file to units (JSON)",
                                  description=import_roster.__doc__)
    reading.add_argument("file", help="a .rosz, .ros or New Recruit .json roster")
    reading.add_argument("--ruleset", choices=RosterReaders(), default=None,
                         help="default: the one the roster's game system plays as")
    reading.set_defaults(func=import_roster)
    checking = commands.add_parser("verify", help="check an events export with no server (a judge's proof)",
                                   description=verify_file.__doc__)
    checking.add_argument("file", nargs="+", help="an events export: GET /games/{id}/export, or warlog export's "
                                                  "events.ndjson (every game)")
    checking.set_defaults(func=verify_file)
    args = parser.parse_args(argv)
    args.func(args)


if __name__ == "__main__":
    main()
