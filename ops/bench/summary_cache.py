"""GET /summary and its charts read the game's summary kept by version (projections/summary.py `SUMMARIES`), and a
chart's drawing is kept by version too (`DRAWN`), so a client polling them between two writes is answered without
walking the log (~0.12 ms an event uncached) or drawing again.

In process, over HTTP through the whole app (`httpx` over ASGI, no socket), on a SQLite file: a started demo game
grown to `--events` free_rolls, then `--requests` GET /summary answered from the kept summary alternated with as
many made afresh (the kept ones dropped first: the log read and walked, and the chart drawn, as before), and the same for GET
/charts/vp. Ratios in the same run; nothing asserts a time.

    .venv/bin/python ops/bench/summary_cache.py [--events 2000] [--requests 200]
"""
from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import time

import httpx
from harness import UNLIMITED, Budget, build_game, header, percentile, ratio, sqlite_env, summary, workdir

from warlog.api.app import create_app
from warlog.api.settings import Settings
from warlog.projections.summary import DRAWN, SUMMARIES


async def polled(db: str, game: dict, requests: int, seconds: float) -> dict[str, list[float]]:
    """Seconds of each read, kept and made afresh alternated, for GET /summary and GET /charts/vp."""
    app = create_app(Settings(db=db, **UNLIMITED))
    samples: dict[str, list[float]] = {}
    headers = {"Authorization": f"Bearer {game['tokens']['A']}"}
    async with app.router.lifespan_context(app), \
            httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://bench") as http:
        budget = Budget(seconds)
        for path in ("summary", "charts/vp"):
            url = f"/games/{game['game_id']}/{path}"
            (await http.get(url, headers=headers)).raise_for_status()  # warm: the game loaded, the summary kept
            for n in range(requests):
                if budget.over():
                    print(f"   time budget reached after {n} pairs")
                    break
                for kept in ((True, False) if n % 2 else (False, True)):
                    if not kept:  # the log walked and the chart drawn again
                        SUMMARIES.clear()
                        DRAWN.clear()
                    started = time.perf_counter()
                    (await http.get(url, headers=headers)).raise_for_status()
                    samples.setdefault(f"{path} {'kept' if kept else 'afresh'}", []).append(
                        time.perf_counter() - started)
    return samples


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=2000, help="the game's events (default 2000)")
    parser.add_argument("--requests", type=int, default=200, help="reads of each kind (default 200)")
    parser.add_argument("--seconds", type=float, default=60, help="time budget of the timed reads (default 60)")
    args = parser.parse_args()
    header(f"summary_cache: GET /summary and /charts/vp on a {args.events}-event game, kept against afresh")
    with workdir() as tmp:
        db = tmp / "warlog.db"
        game = build_game(sqlite_env(db), args.events)
        with contextlib.redirect_stdout(io.StringIO()):  # the app's one JSON line a request, not wanted here
            samples = asyncio.run(polled(str(db), game, args.requests, args.seconds))
    for name, taken in samples.items():
        print(f"   {name:20} {summary(taken)}")
    p50 = {name: percentile(taken, 50) for name, taken in samples.items()}
    print(f"RESULT summary_cache at {game['version']} events: GET /summary p50 {p50['summary kept'] * 1000:.2f} ms kept, "
          f"{p50['summary afresh'] * 1000:.2f} ms afresh = {ratio(p50['summary afresh'], p50['summary kept'])} "
          f"faster kept; GET /charts/vp {p50['charts/vp kept'] * 1000:.2f} ms kept, "
          f"{p50['charts/vp afresh'] * 1000:.2f} ms afresh = {ratio(p50['charts/vp afresh'], p50['charts/vp kept'])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
