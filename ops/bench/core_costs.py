"""What the core costs beside its speed (issue 23): frames on the command path, memory per cached game, bytes
per stored event.

- **Frames**: one `free_roll` sent through the ASGI app in process (Starlette's test client); at the moment the
  event store is asked to insert, the Python stack is read and its frames counted to the recorder: from the app's
  entry (`FastAPI.__call__`, middleware included), from the route's function, and those in warlog's own code
  (api/, domain/, projections/), named.
- **Memory per cached game**: the games of a golden store (tests/golden/<folder>: 31 games of every ruleset,
  2,770 events) loaded into one application's cache; tracemalloc's count of what stays allocated, per game and
  per event, against the bytes of those games' stored rows in the same file (the baseline in the same run).
- **Bytes per stored event**: the golden recording's writes sent again to today's code (tests/golden/
  test_replay.py's way), and the stored rows' bytes per event against those of the golden store itself, which the
  code of its recording wrote.

    .venv/bin/python ops/bench/core_costs.py [--golden tests/golden/pre-typed-core]
"""
from __future__ import annotations

import argparse
import base64
import gc
import gzip
import json
import sqlite3
import sys
import tempfile
import traceback
import tracemalloc
from pathlib import Path
from typing import Any
from unittest import mock
from uuid import UUID

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from fastapi.testclient import TestClient  # noqa: E402

from ops.bench.harness import UNLIMITED  # noqa: E402
from tests.golden.record import Clock, deterministic  # noqa: E402
from warlog.api.app import create_app  # noqa: E402
from warlog.api.settings import Settings  # noqa: E402

PROJECT = tuple(str(ROOT / part) for part in ("api", "domain", "projections"))


def stored_bytes(db: Path) -> tuple[int, int]:
    """(events, bytes of their stored state) in a SQLite store."""
    connection = sqlite3.connect(db)
    try:
        return connection.execute("SELECT count(*), sum(length(state)) FROM stored_events").fetchone()
    finally:
        connection.close()


def frames(tmp: Path) -> tuple[int, int, int, list[str]]:
    """(all frames from the ASGI app to the recorder's insert of one free_roll, those from the app the middleware
    stack wraps (FastAPI's router), warlog's own, and
    warlog's named). The insert is the recorder's `insert_events`, the last frame counted (the spy on its
    `_insert_events` is left out)."""
    from warlog.api.storage import HeadedSQLiteRecorder

    seen: list[traceback.FrameSummary] = []
    real = HeadedSQLiteRecorder._insert_events

    def spy(self, c, stored_events, **kwargs):  # type: ignore[no-untyped-def]
        seen[:] = traceback.extract_stack()
        return real(self, c, stored_events, **kwargs)

    with TestClient(create_app(Settings(db=str(tmp / "frames.db"), **UNLIMITED))) as http:
        created = http.post("/games", json={"ruleset": "alternating", "players": [
            {"seat": "A", "name": "Al"}, {"seat": "B", "name": "Bo"}]}).json()
        from warlog.api.cli import DEMO_ARMIES
        for seat, units in DEMO_ARMIES.items():
            http.post(f"/games/{created['game_id']}/armies", json={"units": units},
                      headers={"Authorization": f"Bearer {created['tokens'][seat]}"})
        headers = {"Authorization": f"Bearer {created['tokens']['A']}"}
        http.post(f"/games/{created['game_id']}/commands", json={"type": "start_game"}, headers=headers)
        with mock.patch.object(HeadedSQLiteRecorder, "_insert_events", spy):
            answer = http.post(f"/games/{created['game_id']}/commands", headers=headers,
                               json={"type": "free_roll", "spec": "2D6", "purpose": "frames"})
        assert answer.status_code == 200, answer.text
    start = next(i for i, f in enumerate(seen) if f.name == "__call__" and f.filename.endswith("fastapi/applications.py"))
    inner = next(i for i, f in enumerate(seen) if f.name == "__call__" and (
        f.filename.endswith("starlette/routing.py") or f.filename.endswith("api/writing.py")))
    path = seen[start:-1]  # the spy itself left out
    ours = [f for f in path if f.filename.startswith(PROJECT)]
    return len(path), len(seen) - 1 - inner, len(ours), [f"{Path(f.filename).relative_to(ROOT)}:{f.name}" for f in ours]


def replayed(folder: Path, tmp: Path) -> Path:
    """The golden recording's writes sent again to today's code, into a fresh store."""
    clock = Clock()
    db = tmp / "replayed.db"
    with deterministic(clock), TestClient(create_app(Settings(db=str(db), **UNLIMITED))) as http:
        for line in gzip.decompress((folder / "requests.ndjson.gz").read_bytes()).decode().splitlines():
            row = json.loads(line)
            clock.reading = row["at"]
            content = base64.b64decode(row["bytes"]) if "bytes" in row else row["text"].encode()
            http.post(row["path"] + (f"?{row['query']}" if row["query"] else ""), headers=row["headers"],
                      content=content)
    return db


def cached_memory(db: Path, games: list[dict[str, Any]]) -> tuple[int, list[dict[str, Any]]]:
    """Bytes tracemalloc sees still allocated once the games are loaded into one application's cache, and the
    games they are of. Games are loaded first and left out: the first of each ruleset (imports, tables, what a
    ruleset's first load builds once for the process: its dispatch, the field names `values.replace` copies of
    each of its values' classes) and the first long enough to have a snapshot (the statements its load compiles,
    kept in each connection's statement cache, bounded, are the process's, not a game's). Before that every game is
    loaded once by an application of its own, then closed: what the process keeps of the last games it read, bounded
    whatever the games cached (the last attack profiles read, the last pause thawed), is kept before the count as
    after it, not counted as the measured games'."""
    from warlog.domain.application import Warlog

    env = {"PERSISTENCE_MODULE": "warlog.api.storage", "SQLITE_DBNAME": str(db)}
    tracemalloc.start()  # from here on, so that a block kept before the count and let go during it counts as freed
    warming = Warlog(env=env)
    for game in games:
        warming.game(UUID(game["game_id"]))
    warming.close()
    warlog = Warlog(env=env)
    interval = Warlog.snapshotting_intervals[next(iter(Warlog.snapshotting_intervals))]
    rulesets = {game["ruleset"]: game for game in reversed(games)}  # each ruleset's first game
    first = [*rulesets.values(), *[next(g for g in games if g["events"] >= interval)]]
    for game in first:
        warlog.game(UUID(game["game_id"]))
    measured = [g for g in games if g not in first]
    gc.collect()
    before = tracemalloc.take_snapshot()
    for game in measured:
        warlog.game(UUID(game["game_id"]))
    gc.collect()
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    return sum(stat.size_diff for stat in after.compare_to(before, "filename")), measured


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--golden", default=str(ROOT / "tests" / "golden" / "pre-typed-core"))
    args = parser.parse_args()
    folder = Path(args.golden)
    games = json.loads((folder / "games.json").read_text())
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        total, from_app, ours, named = frames(tmp)
        print(f"frames to the recorder's insert: {total} from FastAPI.__call__, {from_app} from the app inside the "
              f"middleware (FastAPI's router); warlog's own: {ours}")
        print("  " + " > ".join(named))
        golden = tmp / "golden.db"
        golden.write_bytes(gzip.decompress((folder / "warlog.db.gz").read_bytes()))
        then_events, then_bytes = stored_bytes(golden)
        now_events, now_bytes = stored_bytes(replayed(folder, tmp))
        print(f"bytes per stored event: today {now_bytes / now_events:.0f} over {now_events} events; the golden "
              f"store's {then_bytes / then_events:.0f} over {then_events}: {now_bytes / now_events / (then_bytes / then_events):.3f}x")
        memory, measured = cached_memory(golden, games)
        per_game, per_event = memory / len(measured), memory / sum(g["events"] for g in measured)
        share = memory / then_bytes * len(games) / len(measured)  # the stored rows' bytes, per game, as a baseline
        print(f"memory per cached game: {per_game / 1024:.1f} KiB ({per_event:.0f} B an event), "
              f"{share:.2f}x the bytes of the games' stored rows")
        print(f"RESULT frames {total} ({from_app} from the app inside the middleware, {ours} warlog's); bytes/event {now_bytes / now_events:.0f} "
              f"({now_bytes / now_events / (then_bytes / then_events):.3f}x the golden store's); memory/game "
              f"{per_game / 1024:.1f} KiB ({share:.2f}x its stored bytes)")


if __name__ == "__main__":
    main()
