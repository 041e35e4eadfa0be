"""Issue 4: undo latency on a 10,000-event game as a ratio to undo on a
100-event game (undo must not rebuild the game from its first event).

The games are built in one SQLite file through the application object:
free_rolls, then one dice-free action (`set_status`, seat A) as the last
event, so seat A may undo it at once (200). `warlog serve` opens the file;
one keep-alive httpx client repeats, alternating the two sizes, `POST /undo`
(timed) then `POST /redo` (timed too, it restores the same way). Each
undo/redo pair appends two events, so the small games are replaced every
`--per-game` rounds to stay near 100 events; the big one stays near 10,000.
"""
from __future__ import annotations

import argparse
import cProfile
import pstats
import time
from typing import Any
from uuid import UUID

import httpx
from harness import (
    AT,
    Budget,
    Warlog,
    bearer,
    expect,
    free_port,
    grow,
    header,
    new_started_game,
    parse_command,
    percentile,
    ratio,
    request_log,
    sqlite_env,
    summary,
    timed,
    warlog_server,
    workdir,
)

DICE_FREE = {"type": "set_status", "unit": "scouts-1", "status": "pinned", "value": True,
             "reason": "bench: a dice-free action to undo"}


def build(db: Any, events: int) -> dict[str, Any]:
    """A started game of `events` events whose last action is seat A's dice-free set_status."""
    warlog = Warlog(env=sqlite_env(db))
    try:
        created = new_started_game(warlog)
        game_id = UUID(created["game_id"])
        grow(warlog, game_id, events - 1)
        answer = warlog.command(game_id, "A", parse_command(DICE_FREE, "alternating"), AT)
        created["version"] = answer["version"]
        return created
    finally:
        warlog.close()


def profile_undo(db: Any, game_id: UUID) -> None:
    warlog = Warlog(env=sqlite_env(db))
    try:
        warlog.read(game_id)
        profiler = cProfile.Profile()
        for _ in range(20):
            profiler.enable()
            warlog.undo(game_id, "A", AT)
            profiler.disable()
            warlog.redo(game_id, "A", AT)
        print("\n   cProfile of 20 Warlog.undo calls on the big game (cumulative, top 25):")
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)
    finally:
        warlog.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--big", type=int, default=10_000, help="events in the big game (default 10000)")
    parser.add_argument("--small", type=int, default=100, help="events in the small games (default 100)")
    parser.add_argument("--rounds", type=int, default=100, help="undo+redo rounds on each size (default 100)")
    parser.add_argument("--per-game", type=int, default=10, help="rounds before a new small game (default 10)")
    parser.add_argument("--seconds", type=float, default=60, help="time budget of the rounds (default 60)")
    parser.add_argument("--profile", action="store_true",
                        help="then cProfile 20 undos of the big game by Warlog.undo in this process")
    args = parser.parse_args()

    header(f"undo on a {args.big}-event game vs a {args.small}-event game (issue 4)")
    small_games = -(-args.rounds // args.per_game)
    with workdir() as tmp:
        started = time.perf_counter()
        big = build(tmp / "warlog.db", args.big)
        smalls = [build(tmp / "warlog.db", args.small) for _ in range(small_games + 1)]
        warm_up_game = smalls.pop()
        print(f"   built 1 game of {big['version']} events and {small_games + 1} of {args.small} in "
              f"{time.perf_counter() - started:.1f} s")
        samples: dict[str, dict[str, list[float]]] = {size: {"undo": [], "redo": []} for size in ("small", "big")}
        played: dict[str, dict[str, Any]] = {}
        with warlog_server(free_port(), tmp / "warlog.log", db=tmp / "warlog.db") as warlog, \
                httpx.Client(timeout=10) as client:
            def undo_redo(game: dict[str, Any], into: dict[str, list[float]] | None) -> None:
                base, headers = f"{warlog.url}/games/{game['game_id']}", bearer(game["tokens"]["A"])
                took_undo, undone = timed(client.post, f"{base}/undo", headers=headers)
                if expect(undone).json()["events"][0]["type"] != "ActionUndone":
                    raise RuntimeError(f"undo answered {undone.text[:300]}")
                took_redo, redone = timed(client.post, f"{base}/redo", headers=headers)
                expect(redone)
                if into is not None:
                    into["undo"].append(took_undo)
                    into["redo"].append(took_redo)

            for _ in range(10):  # the server's first requests, on a game not measured
                undo_redo(warm_up_game, None)
            for game in (big, *smalls):  # load every game once: the rounds time undo, not the first read
                expect(client.get(f"{warlog.url}/games/{game['game_id']}/state",
                                  headers=bearer(game["tokens"]["A"])))
            budget = Budget(args.seconds)
            for i in range(args.rounds):
                if budget.over():
                    print(f"   time budget reached after {i} rounds")
                    break
                small = smalls[i // args.per_game]
                order = (("big", big), ("small", small)) if i % 2 else (("small", small), ("big", big))
                for size, game in order:
                    undo_redo(game, samples[size])
                    played[size] = game
        lines = request_log(tmp / "warlog.log", "/undo")  # complete once the server has exited
        if args.profile:
            profile_undo(tmp / "warlog.db", UUID(big["game_id"]))
    by_game: dict[str, list[float]] = {}
    for line in lines:
        by_game.setdefault(line["game_id"], []).append(line["write_ms"] / 1000)
    small_ids = {game["game_id"] for game in smalls}
    server = {"big": by_game.get(big["game_id"], []),
              "small": [t for gid, ts in by_game.items() if gid in small_ids for t in ts]}
    rounds = len(samples["big"]["undo"])
    print(f"   small games grew from {args.small} to {args.small + 2 * min(rounds, args.per_game)} events, "
          f"the big one from {args.big} to {args.big + 2 * rounds}")
    for size in ("small", "big"):
        print(f"   {size:5} undo, client                     {summary(samples[size]['undo'])}")
        print(f"   {size:5} undo, Warlog.undo in the server  {summary(server[size])}")
        print(f"   {size:5} redo, client                     {summary(samples[size]['redo'])}")
    undo_big, undo_small = percentile(samples["big"]["undo"], 50), percentile(samples["small"]["undo"], 50)
    print(f"RESULT undo {args.big} / {args.small} events p50 {ratio(undo_big, undo_small)} "
          f"(p90 {ratio(percentile(samples['big']['undo'], 90), percentile(samples['small']['undo'], 90))}); "
          f"Warlog.undo alone p50 {ratio(percentile(server['big'], 50), percentile(server['small'], 50))}; "
          f"redo p50 {ratio(percentile(samples['big']['redo'], 50), percentile(samples['small']['redo'], 50))}")


if __name__ == "__main__":
    main()
