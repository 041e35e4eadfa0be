"""Issue 2: rebuilding a 10,000-event game from the store, as a ratio to the
eventsourcing library's own minimal aggregate (one `@event` method)
replaying 10,000 events from the same kind of store in the same run.

Both stores are SQLite files in one temp dir. Each timing is one
`repository.get` on a fresh application (its connection already open, so only
the read and the replay are timed): Warlog with snapshots off (a full replay),
Warlog with snapshots on (the latest snapshot plus at most 99 events), and the
minimal aggregate (a full replay, as the library has no snapshot unless asked).
The runs are alternated and the median of each is reported.
"""
from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import time
from pathlib import Path
from typing import Any
from uuid import UUID

from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event
from harness import Budget, Warlog, build_game, header, sqlite_env, timed, workdir


class Tally(Aggregate):
    """The library's minimal aggregate: one event method."""

    def __init__(self) -> None:
        self.count = 0

    @event("Counted")
    def count_one(self) -> None:
        self.count += 1


class Minimal(Application):
    name = "minimal"


def build_minimal(db: Path, events: int, batch: int = 1000) -> UUID:
    app = Minimal(env=sqlite_env(db))
    try:
        tally = Tally()  # its Created event is event 1
        while tally.version < events:
            for _ in range(min(batch, events - tally.version)):
                tally.count_one()
            app.save(tally)
        return tally.id
    finally:
        app.close()


def rebuild(make_app: Any, aggregate_id: UUID, profiler: cProfile.Profile | None = None) -> tuple[float, Any]:
    """One `repository.get` on a fresh application; its connection is opened before the clock starts."""
    app = make_app()
    try:
        app.recorder.max_notification_id()
        if profiler:
            profiler.enable()
        took, aggregate = timed(app.repository.get, aggregate_id)
        if profiler:
            profiler.disable()
        return took, aggregate
    finally:
        app.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--events", type=int, default=10_000, help="events in each aggregate (default 10000)")
    parser.add_argument("--rounds", type=int, default=7, help="timed rebuilds of each kind (default 7)")
    parser.add_argument("--seconds", type=float, default=60, help="time budget of the timed rounds (default 60)")
    parser.add_argument("--profile", action="store_true", help="cProfile one Warlog rebuild without snapshots")
    args = parser.parse_args()

    header(f"rebuilding a {args.events}-event game vs the library's minimal aggregate (issue 2)")
    with workdir() as tmp:
        started = time.perf_counter()
        game = build_game(sqlite_env(tmp / "warlog.db"), args.events)
        game_id = UUID(game["game_id"])
        tally_id = build_minimal(tmp / "minimal.db", args.events)
        print(f"   built both stores in {time.perf_counter() - started:.1f} s")

        kinds = {
            "minimal": (lambda: Minimal(env=sqlite_env(tmp / "minimal.db")), tally_id),
            "warlog, snapshots off": (lambda: Warlog(env={**sqlite_env(tmp / "warlog.db"),
                                                          "IS_SNAPSHOTTING_ENABLED": "n"}), game_id),
            "warlog, snapshots on": (lambda: Warlog(env=sqlite_env(tmp / "warlog.db")), game_id),
        }
        for name, (make_app, aggregate_id) in kinds.items():  # warm-up, and check what was rebuilt
            _, aggregate = rebuild(make_app, aggregate_id)
            if aggregate.version != args.events:
                raise RuntimeError(f"{name} rebuilt version {aggregate.version}, expected {args.events}")
        times: dict[str, list[float]] = {name: [] for name in kinds}
        budget = Budget(args.seconds)
        for _ in range(args.rounds):
            if budget.over():
                print("   time budget reached")
                break
            for name, (make_app, aggregate_id) in kinds.items():
                times[name].append(rebuild(make_app, aggregate_id)[0])
        if args.profile:
            profiler = cProfile.Profile()
            rebuild(kinds["warlog, snapshots off"][0], game_id, profiler)
            print("\n   cProfile of one Warlog rebuild without snapshots (own time, top 20):")
            pstats.Stats(profiler).sort_stats("tottime").print_stats(20)

    median = {name: statistics.median(samples) for name, samples in times.items()}
    for name, samples in times.items():
        print(f"   {name:24} median {median[name] * 1000:8.2f} ms  "
              f"({median[name] / args.events * 1e6:.1f} µs/event; runs "
              f"{', '.join(f'{s * 1000:.1f}' for s in samples)} ms)")
    base = median["minimal"]
    print(f"RESULT rebuild of {args.events} events: warlog without snapshots "
          f"{median['warlog, snapshots off'] / base:.2f}x the minimal aggregate, with snapshots "
          f"{median['warlog, snapshots on'] / base:.3f}x ({median['minimal'] * 1000:.1f} ms for the minimal)")


if __name__ == "__main__":
    main()
