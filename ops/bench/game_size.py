"""What a whole game weighs on PostgreSQL: events per game, bytes per event and per game on disk.

Plays `--seeds` whole games of each ruleset (`--rounds` battle rounds, server dice, random armies, every
move a random offered action: the actions soak's driver) through the application on PostgreSQL, in a
schema of its own (`warlog_size_<hex>`, dropped after), then reads the events' and snapshots' tables'
sizes as PostgreSQL keeps them (`pg_total_relation_size`: heap, TOAST and indexes) after a VACUUM.
ops/README.md ("Scale") turns these into a 10,000-table weekend's database size.

    .venv/bin/python ops/bench/game_size.py --postgres postgresql://postgres@127.0.0.1:5432/test
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from uuid import UUID, uuid4

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import psycopg  # noqa: E402
from psycopg import sql  # noqa: E402

from ops.service import postgres_schema  # noqa: E402
from tests.golden.driver import AppTable, Driver  # noqa: E402
from tests.property.test_actions_properties import AT, RULESETS, army  # noqa: E402
from warlog.api.settings import Settings  # noqa: E402
from warlog.domain.application import Warlog  # noqa: E402


def play(warlog: Warlog, ruleset: str, seed: int, rounds: int) -> int:
    created = warlog.create_game(ruleset, {"A": "Alice", "B": "Bob"}, "server", {"battle_rounds": rounds}, AT)
    game_id = created["game_id"]
    rng = random.Random(seed)
    for seat in "AB":
        units = army(seat, rng)
        warlog.muster(UUID(game_id), seat, units, AT)
    table = AppTable(warlog, UUID(game_id), "server")
    driver = Driver(table, rng)
    for _ in range(20_000):
        if table.view("A")["status"] == "ended":
            return warlog.read(UUID(game_id)).version
        driver.move()
    raise AssertionError("the game did not end")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--postgres", required=True, metavar="DSN")
    parser.add_argument("--seeds", type=int, default=2, help="games per ruleset (default 2)")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    schema = f"warlog_size_{uuid4().hex[:12]}"
    postgres_schema(args.postgres, True, schema)
    started = time.monotonic()
    try:
        warlog = Warlog(env=Settings(postgres=args.postgres, postgres_schema=schema).eventsourcing_env())
        try:
            versions = [play(warlog, ruleset, seed, args.rounds) for ruleset in RULESETS for seed in range(args.seeds)]
        finally:
            warlog.close()
        with psycopg.connect(args.postgres, autocommit=True) as db:
            sizes = {}
            for table in ("warlog_events", "warlog_snapshots"):
                name = sql.Identifier(schema, table)
                db.execute(sql.SQL("VACUUM ANALYZE {}").format(name))
                rows = db.execute(sql.SQL("SELECT count(*), sum(length(state)) FROM {}").format(name)).fetchone()
                on_disk = db.execute("SELECT pg_total_relation_size(%s)", (f"{schema}.{table}",)).fetchone()[0]
                sizes[table] = (rows[0], rows[1] or 0, on_disk)
    finally:
        postgres_schema(args.postgres, False, schema)
    games, events = len(versions), sum(versions)
    (rows, payload, disk), (snaps, _, snap_disk) = sizes["warlog_events"], sizes["warlog_snapshots"]
    print(f"RESULT game size: {games} whole games ({', '.join(RULESETS)}; {args.rounds} rounds; "
          f"{min(versions)}–{max(versions)} events, mean {events / games:.0f}); events: {payload / rows:.0f} bytes "
          f"stored a row, {disk / rows:.0f} bytes on disk a row (heap, TOAST, indexes); snapshots: {snaps} rows, "
          f"{snap_disk / games / 1024:.0f} KiB a game; on disk {(disk + snap_disk) / games / 1024:.0f} KiB a game in "
          f"all; {time.monotonic() - started:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
