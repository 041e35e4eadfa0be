"""Issue 24, "One request a tap": what the `view` a seat's write answers costs, and that it does not grow with the log.

A client has no way to leave the view out (every seat's write answers it: CONTRACT.md "In the players' words"), so
the cost is measured in this process, on the application object, with the same SQLite file store `warlog serve`
uses: `Warlog.write` of one `free_roll` (seat A; judged, appended, its answer made and rendered to JSON) with the view
(`projections.state.live_view`, the function GET /state answers with) against the same write without it, the two
alternated command by command on the same started demo game, `--commands` of each after `--warmup`, bounded by
`--seconds`; a third write, with its view drawn anew (the views `projections.state.SEAT_VIEWS` keeps forgotten
first), says what the view costs after a write that moves play on, where no kept view serves. The view's own
build (live_view on the game the write left) is timed apart as well, and beside it one GET /state's build on the
same game, the read a client no longer sends after its tap.

Over HTTP (in process, `httpx` over ASGI: the whole app, no socket), for scale: the p50 of the same POST, which
answers the view, and of the GET /state it spares the client, alternated.

Then the answer's size: the bytes of one command's answer with its view (rendered by the encoder the route renders
with, api/writing.py `Answered`) on games of 10, 100 and 1,000 events; the view is the state, not the log, so the
three must be within a few bytes of each other (the version's digits).

    .venv/bin/python ops/bench/view_answer.py
"""
from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import time
from functools import partial
from typing import Any
from uuid import UUID

import httpx
from harness import (
    AT,
    DEMO_ARMIES,
    FREE_ROLL,
    UNLIMITED,
    Budget,
    Warlog,
    grow,
    header,
    new_started_game,
    parse_command,
    percentile,
    ratio,
    sqlite_env,
    summary,
    workdir,
)

from warlog.api.app import create_app
from warlog.api.settings import Settings
from warlog.api.writing import Answered
from warlog.domain.writes import Play, Sent
from warlog.projections.state import SEAT_VIEWS, live_view

SIZES = (10, 100, 1000)


def answer_bytes(answer: dict[str, Any]) -> int:
    return len(Answered(answer).body)


async def over_http(db: Any, requests: int, seconds: float) -> dict[str, list[float]]:
    """Seconds of a POST free_roll (with its view) and of a GET /state, alternated, through the whole app."""
    app = create_app(Settings(db=str(db), inline_writes=True, **UNLIMITED))
    samples: dict[str, list[float]] = {"POST /commands": [], "GET /state": []}
    async with app.router.lifespan_context(app), \
            httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://bench") as http:
        game = (await http.post("/games", json={"ruleset": "alternating", "dice": "server", "players": [
            {"seat": "A", "name": "Alice"}, {"seat": "B", "name": "Bob"}]})).raise_for_status().json()
        base, headers = f"/games/{game['game_id']}", {"Authorization": f"Bearer {game['tokens']['A']}"}
        for seat, units in DEMO_ARMIES.items():
            (await http.post(f"{base}/armies", json={"units": units},
                             headers={"Authorization": f"Bearer {game['tokens'][seat]}"})).raise_for_status()
        (await http.post(f"{base}/commands", json={"type": "start_game"}, headers=headers)).raise_for_status()
        budget = Budget(seconds)
        for n in range(requests):
            if budget.over():
                break
            started = time.perf_counter()
            (await http.post(f"{base}/commands", json=FREE_ROLL, headers=headers)).raise_for_status()
            middle = time.perf_counter()
            (await http.get(f"{base}/state", headers=headers)).raise_for_status()
            if n >= requests // 10:  # the first tenth warms up
                samples["POST /commands"].append(middle - started)
                samples["GET /state"].append(time.perf_counter() - middle)
    return samples


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--commands", type=int, default=1000, help="commands of each kind (default 1000)")
    parser.add_argument("--warmup", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=60, help="time budget of the timed commands (default 60)")
    args = parser.parse_args()
    header(f"view_answer: {args.commands} free_rolls with the view and {args.commands} without, alternated")
    command = parse_command(FREE_ROLL, "alternating")
    with workdir() as tmp:
        warlog = Warlog(env=sqlite_env(tmp / "warlog.db"))
        try:
            game_id = UUID(new_started_game(warlog)["game_id"])
            viewer = partial(live_view, seat="A")

            def write(with_view: bool, anew: bool = False) -> tuple[float, dict[str, Any]]:
                if anew:  # the kept views forgotten: the view drawn whole, as after a write that moves play on
                    SEAT_VIEWS.clear()
                started = time.perf_counter()
                answer = warlog.write(game_id, Play(Sent("A", AT), command), viewer if with_view else None)
                answer_bytes(answer)  # rendered as the route renders it: the view's bytes are part of its cost
                return time.perf_counter() - started, answer

            for n in range(args.warmup):
                write(n % 2 == 0)
            samples: dict[bool, list[float]] = {True: [], False: []}
            drawn_anew: list[float] = []
            build: list[float] = []
            budget = Budget(args.seconds)
            for n in range(args.commands):
                if budget.over():
                    print(f"   time budget reached after {n} pairs")
                    break
                for with_view in ((True, False) if n % 2 else (False, True)):
                    took, _ = write(with_view)
                    samples[with_view].append(took)
                drawn_anew.append(write(True, anew=True)[0])
                game = warlog.read(game_id)  # nobody else writes: the game as the last write left it
                started = time.perf_counter()
                live_view(game, "A")
                build.append(time.perf_counter() - started)
            with_p50, without_p50 = percentile(samples[True], 50), percentile(samples[False], 50)
            print(f"   command with its view     {summary(samples[True])}")
            print(f"   the same command without  {summary(samples[False])}")
            print(f"   with its view drawn anew  {summary(drawn_anew)} (no kept view: "
                  f"{ratio(percentile(drawn_anew, 50), without_p50)} the command without)")
            print(f"   the view's build alone    {summary(build)} (= one GET /state's build on this game)")

            with contextlib.redirect_stdout(io.StringIO()):  # the app's one JSON line a request, not wanted here
                http = asyncio.run(over_http(tmp / "http.db", args.commands, args.seconds))
            for name, taken in http.items():
                print(f"   over HTTP, {name:15} {summary(taken)}")

            sizes: dict[int, int] = {}
            for events in SIZES:
                other = UUID(new_started_game(warlog)["game_id"])
                grow(warlog, other, events - 1)
                answer = warlog.write(other, Play(Sent("A", AT), command), partial(live_view, seat="A"))
                sizes[answer["version"]] = answer_bytes(answer)
                without = answer_bytes({k: v for k, v in answer.items() if k != "view"})
                print(f"   a game of {answer['version']:>5} events: the answer {sizes[answer['version']]} bytes "
                      f"({without} of them version and events)")
        finally:
            warlog.close()
    smallest, largest = min(sizes), max(sizes)
    print(f"RESULT view_answer: command p50 {with_p50 * 1000:.3f} ms with the view, {without_p50 * 1000:.3f} ms "
          f"without = {ratio(with_p50, without_p50)} ({ratio(percentile(drawn_anew, 50), without_p50)} with the view "
          f"drawn anew, no kept view); the view's build p50 {percentile(build, 50) * 1000:.3f} ms; "
          f"over HTTP a POST answering its view p50 {percentile(http['POST /commands'], 50) * 1000:.2f} ms, the GET "
          f"/state it spares {percentile(http['GET /state'], 50) * 1000:.2f} ms; "
          "answer bytes " + ", ".join(f"{v} at {k} events" for k, v in sorted(sizes.items()))
          + f" ({ratio(sizes[largest], sizes[smallest])} from {smallest} to {largest} events)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
