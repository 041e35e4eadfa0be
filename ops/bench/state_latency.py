"""Issue 2: `GET /games/{id}/state` on a game with 5,000 events as a ratio to a
freshly started game (target <= 1.5x: snapshots and the cache, not a replay).

Both games are built in one SQLite file in a temp dir through the application
object (`Warlog`), then `warlog serve` opens that file and one keep-alive
httpx client alternates the two reads. The first read of each game (the
server's cache still cold: snapshot + at most 99 events) is shown apart.
"""
from __future__ import annotations

import argparse
import time

import httpx
from harness import (
    Budget,
    bearer,
    build_game,
    expect,
    free_port,
    header,
    percentile,
    ratio,
    request_log,
    sqlite_env,
    summary,
    timed,
    warlog_server,
    workdir,
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--events", type=int, default=5000, help="events in the big game (default 5000)")
    parser.add_argument("--requests", type=int, default=1000, help="pairs of reads (default 1000)")
    parser.add_argument("--seconds", type=float, default=60, help="time budget of the read loop (default 60)")
    args = parser.parse_args()

    header(f"GET /state: a {args.events}-event game vs a fresh one (issue 2, target <= 1.5x)")
    with workdir() as tmp:
        built = time.perf_counter()
        fresh = build_game(sqlite_env(tmp / "warlog.db"), 0)
        first = build_game(sqlite_env(tmp / "warlog.db"), 0)  # takes the server's first-request costs
        big = build_game(sqlite_env(tmp / "warlog.db"), args.events)
        print(f"   built games of {fresh['version']} and {big['version']} events in "
              f"{time.perf_counter() - built:.1f} s")
        with warlog_server(free_port(), tmp / "warlog.log", db=tmp / "warlog.db") as warlog, \
                httpx.Client(timeout=10) as client:
            def read(game: dict) -> float:
                took, response = timed(client.get, f"{warlog.url}/games/{game['game_id']}/state",
                                       headers=bearer(game["tokens"]["A"]))
                if expect(response).json()["version"] != game["version"]:
                    raise RuntimeError(f"state answered version {response.json()['version']}, "
                                       f"expected {game['version']}")
                return took

            read(first)
            cold_fresh, cold_big = read(fresh), read(big)
            for _ in range(50):
                read(fresh)
                read(big)
            warm = 103
            samples: dict[str, list[float]] = {"fresh": [], "big": []}
            budget = Budget(args.seconds)
            for i in range(args.requests):
                if budget.over():
                    print(f"   time budget reached after {i} pairs")
                    break
                order = ("fresh", "big") if i % 2 else ("big", "fresh")
                for name in order:
                    samples[name].append(read(fresh if name == "fresh" else big))
        lines = request_log(tmp / "warlog.log", "/state", "GET")[warm:]  # complete once the server has exited
    server = {name: [line["duration_ms"] / 1000 for line in lines if line.get("game_id") == game["game_id"]]
              for name, game in (("fresh", fresh), ("big", big))}
    print(f"   first read, cache cold: fresh {cold_fresh * 1000:.2f} ms, {args.events} events "
          f"{cold_big * 1000:.2f} ms")
    print(f"   fresh game ({fresh['version']} events)   client {summary(samples['fresh'])}")
    print(f"   big game ({big['version']} events)   client {summary(samples['big'])}")
    print(f"   fresh game, inside warlog's log line  {summary(server['fresh'])}")
    print(f"   big game, inside warlog's log line    {summary(server['big'])}")
    p50, base = percentile(samples["big"], 50), percentile(samples["fresh"], 50)
    verdict = "meets" if p50 <= 1.5 * base else "misses"
    print(f"RESULT state {args.events} events / fresh p50 {ratio(p50, base)} ({verdict} the 1.5x target), "
          f"p90 {ratio(percentile(samples['big'], 90), percentile(samples['fresh'], 90))}; "
          f"server-side p50 {ratio(percentile(server['big'], 50), percentile(server['fresh'], 50))}")


if __name__ == "__main__":
    main()
