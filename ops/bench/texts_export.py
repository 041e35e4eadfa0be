"""Issue 24, "Events in words": what telling every event in words (`text`) costs an export of the log.

The export (`GET /games/{id}/export`'s rows, projections/export.py `proof_entries`, rendered to NDJSON) of
- a 2,000-event game (the demo game grown with free rolls, `harness.grow`), and
- every game of the golden store tests/golden/pre-typed-core (31 games of all three rulesets, 2,770 events of
  every kind: attacks, charges, undo, roll-offs),
each read with its texts (`Warlog.told`: the narrator replays the log once and tells each event) against the same
export without them (the stored entries as they are), the two alternated run by run on a fresh application each
time (so no text is cached: the cold export a judge's download costs), `--runs` of each; then the same with texts
already told (a second export by the same process), against the same baseline.

    .venv/bin/python ops/bench/texts_export.py [--runs 15]
"""
from __future__ import annotations

import argparse
import gzip
import json
import shutil
from collections.abc import Callable
from uuid import UUID

from harness import ROOT, Warlog, build_game, header, percentile, ratio, workdir

from warlog.api.settings import Settings
from warlog.projections.export import proof_entries

GOLDEN = ROOT / "tests" / "golden" / "pre-typed-core"


def export(warlog: Warlog, game_ids: list[UUID], texts: bool) -> int:
    """The NDJSON bytes of the games' exports (the seed left out: it is not what is measured)."""
    size = 0
    for game_id in game_ids:
        stored = warlog.told(game_id) if texts else [(e.entry, e.meta) for e in warlog.stored(game_id)]
        for row in proof_entries(stored, set(), None):
            size += len(json.dumps(row, ensure_ascii=False)) + 1
    return size


def alternate(open_app: Callable[[], Warlog], game_ids: list[UUID], runs: int) -> dict[str, list[float]]:
    import time

    took: dict[str, list[float]] = {"without": [], "with": [], "with, told before": []}
    for _ in range(runs):
        for label in ("without", "with"):
            warlog = open_app()
            try:
                started = time.perf_counter()
                export(warlog, game_ids, texts=label == "with")
                took[label].append(time.perf_counter() - started)
                if label == "with":
                    started = time.perf_counter()
                    export(warlog, game_ids, texts=True)
                    took["with, told before"].append(time.perf_counter() - started)
            finally:
                warlog.close()
    return took


def report(title: str, took: dict[str, list[float]], events: int) -> str:
    base = percentile(took["without"], 50)
    print(f"   {title} ({events} events): export without text p50 {base * 1000:.1f} ms")
    for label in ("with", "with, told before"):
        p50 = percentile(took[label], 50)
        print(f"     {label:18} p50 {p50 * 1000:.1f} ms = {ratio(p50, base)}")
    return f"{title} {ratio(percentile(took['with'], 50), base)} cold, " \
           f"{ratio(percentile(took['with, told before'], 50), base)} told before"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=15, help="exports of each kind (default 15)")
    args = parser.parse_args()
    header("the export's texts (issue 24): with `text` against without, in one run")
    results = []
    with workdir() as tmp:
        env = Settings(db=str(tmp / "grown.db")).eventsourcing_env()
        created = build_game(env, 2000)
        results.append(report("2,000-event game", alternate(lambda: Warlog(env=env), [UUID(created["game_id"])],
                                                            args.runs), created["version"]))
        with gzip.open(GOLDEN / "warlog.db.gz") as src, open(tmp / "golden.db", "wb") as dst:
            shutil.copyfileobj(src, dst)
        golden = Settings(db=str(tmp / "golden.db")).eventsourcing_env()
        games = json.loads((GOLDEN / "games.json").read_text())
        results.append(report("the golden store", alternate(lambda: Warlog(env=golden),
                                                            [UUID(g["game_id"]) for g in games], args.runs),
                              sum(g["events"] for g in games)))
    print(f"RESULT texts_export: with text / without, p50: {'; '.join(results)}")


if __name__ == "__main__":
    main()
