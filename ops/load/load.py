"""A bounded load test of `warlog serve` on 127.0.0.1: N games × M commands from K client threads.

It starts one `warlog serve` (a SQLite file in a temp dir, or PostgreSQL with --postgres in a
schema of its own, `warlog_load_<hex>`, dropped at the end), sets up N started games (the demo
armies of `warlog serve --demo`; not timed), then K threads, each with its own keep-alive
connection, take commands from one shared queue: `free_roll`s with their own Idempotency-Keys,
seats A and B in turn, the games interleaved so that threads often write the same game at once.
It stops at M commands per game or when `--budget` seconds have passed, whichever comes first.

It prints throughput (answered commands per second of wall time), client-side latency
(p50/p90/p99), the server's own time per request from its log line (`duration_ms`), the answers
by status, and whether every game's chain verifies at the end with exactly the events that were
acknowledged. Nothing asserts a time; the exit status is 1 when a game did not verify or a
command was answered other than 200.

    .venv/bin/python ops/load/load.py                   # 8 games × 100 commands, 4 threads, SQLite
    .venv/bin/python ops/load/load.py --games 2 --commands 500 --threads 8
    .venv/bin/python ops/load/load.py --postgres postgresql://postgres@127.0.0.1:5432/test
"""
from __future__ import annotations

import argparse
import contextlib
import queue
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any
from uuid import UUID

import httpx

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "ops" / "bench")]

from harness import header, percentile, process, request_log, workdir  # noqa: E402

from ops.service import add_store_arguments, free_port, store, store_name  # noqa: E402
from warlog.api.cli import DEMO_ARMIES  # noqa: E402


def bearer(token: str, key: str | None = None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}", **({"Idempotency-Key": key} if key else {})}


def new_game(http: httpx.Client) -> dict[str, Any]:
    created = http.post("/games", json={"ruleset": "alternating", "dice": "server", "players": [
        {"seat": "A", "name": "Alice"}, {"seat": "B", "name": "Bob"}]}).raise_for_status().json()
    for seat, units in DEMO_ARMIES.items():
        http.post(f"/games/{created['game_id']}/armies", json={"units": units},
                  headers=bearer(created["tokens"][seat])).raise_for_status()
    started = http.post(f"/games/{created['game_id']}/commands", json={"type": "start_game"},
                        headers=bearer(created["tokens"]["A"])).raise_for_status().json()
    return {**created, "started": started["version"]}


def ms(samples: list[float], p: float) -> str:
    return f"{percentile(samples, p):.1f}" if samples else "-"


def games_allowed(n: int) -> dict[str, str]:
    """The set-up creates all its games from one address at once: let `--games` of them through."""
    return {"WARLOG_GAMES_BURST": str(max(n, 60))}


def run(url: str | list[str], games_n: int, commands: int, threads: int, budget: float,
        route: str = "game") -> dict[str, Any]:
    """`url`: one service, or several serving one database. With several, `route` says which serves a
    request, as the load balancer in front of them would: "game" sends each game's requests to one of
    them (the game id hashed, as ops/deploy's HAProxy hashes the path's game segment), "thread" sends
    thread k's to the k-th round the list, whatever the game (a round-robin balancer), so that two
    processes often write one game at once (ops/bench/shards.py)."""
    urls = [url] if isinstance(url, str) else url
    url = urls[0]
    with httpx.Client(base_url=url, timeout=30) as http:
        games = [new_game(http) for _ in range(games_n)]
    work: queue.SimpleQueue[tuple[int, int]] = queue.SimpleQueue()
    for n in range(commands):
        for g in range(games_n):
            work.put((g, n))
    latencies: list[float] = []
    statuses: Counter[int | str] = Counter()
    answered: Counter[int] = Counter()  # game index -> events appended by its 200 answers
    lock = threading.Lock()
    deadline = time.monotonic() + budget

    def client(k: int) -> None:
        with contextlib.ExitStack() as stack:
            https = [stack.enter_context(httpx.Client(base_url=each, timeout=30)) for each in urls]
            while time.monotonic() < deadline:
                try:
                    g, n = work.get_nowait()
                except queue.Empty:
                    return
                game, seat = games[g], "AB"[n % 2]
                http = https[UUID(game["game_id"]).int % len(urls) if route == "game" else k % len(urls)]
                key = f"load-{g}-{n}"
                sent = time.perf_counter()
                try:
                    response = http.post(f"/games/{game['game_id']}/commands",
                                         json={"type": "free_roll", "spec": "2D6", "purpose": key},
                                         headers=bearer(game["tokens"][seat], key))
                    status: int | str = response.status_code
                except httpx.TransportError as error:
                    status = type(error).__name__
                took = time.perf_counter() - sent
                with lock:
                    latencies.append(took * 1000)
                    statuses[status] += 1
                    if status == 200:
                        answered[g] += len(response.json()["events"])

    started = time.monotonic()
    pool = [threading.Thread(target=client, args=(n,)) for n in range(threads)]
    for each in pool:
        each.start()
    for each in pool:
        each.join()
    wall = time.monotonic() - started

    verified = []
    with httpx.Client(base_url=url, timeout=30) as http:
        for g, game in enumerate(games):
            v = http.get(f"/games/{game['game_id']}/verify", headers=bearer(game["tokens"]["spectator"])).json()
            verified.append(v["chain_ok"] is True and v["events"] == game["started"] + answered[g])
            if not verified[-1]:
                print(f"   FAIL game {game['game_id']}: {v}; expected {game['started'] + answered[g]} events",
                      flush=True)
    return {"latencies": latencies, "statuses": statuses, "wall": wall, "verified": verified,
            "stopped_by_budget": not work.empty()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=8, help="games written at once (default 8)")
    parser.add_argument("--commands", type=int, default=100, help="free_rolls per game (default 100)")
    parser.add_argument("--threads", type=int, default=4, help="client threads (default 4)")
    parser.add_argument("--budget", type=float, default=30.0, help="stop sending after this many seconds")
    add_store_arguments(parser)
    args = parser.parse_args()
    header(f"load on {store_name(args)}: {args.games} games × {args.commands} free_rolls from {args.threads} threads")

    port = free_port()
    serve = [sys.executable, "-m", "warlog.api.cli", "serve", "--host", "127.0.0.1", "--port", str(port)]
    with workdir() as tmp:
        with store(args, tmp, "warlog_load") as (serve_args, env), \
                process(serve + serve_args, port, tmp / "serve.log",
                        {**env, **games_allowed(args.games)}) as server:
            result = run(server.url, args.games, args.commands, args.threads, args.budget)
        # the server's own line per request, complete once it has exited; the set-up's are the first ones
        lines = request_log(tmp / "serve.log", "/commands")[args.games:]
        inside = [line["duration_ms"] for line in lines]

    latencies, statuses = result["latencies"], result["statuses"]
    ok = statuses.get(200, 0)
    all_verified = all(result["verified"])
    print(f"   answers: {dict(statuses)}" + ("; stopped by --budget" if result["stopped_by_budget"] else ""))
    print(f"   client latency ms: p50 {ms(latencies, 50)}, p90 {ms(latencies, 90)}, p99 {ms(latencies, 99)}, "
          f"max {max(latencies, default=0):.1f}; inside the server (its log line) p50 {ms(inside, 50)}, "
          f"p99 {ms(inside, 99)}")
    print(f"RESULT load {store_name(args)}: {ok} commands ({args.games} games, {args.threads} threads) in "
          f"{result['wall']:.2f} s = {ok / result['wall']:.0f} commands/s; p50 {ms(latencies, 50)} ms, "
          f"p99 {ms(latencies, 99)} ms; every game's chain verifies with exactly the acknowledged events: "
          f"{'yes' if all_verified else 'NO'} ({sum(result['verified'])}/{len(result['verified'])})", flush=True)
    return 0 if all_verified and ok == len(latencies) else 1


if __name__ == "__main__":
    sys.exit(main())
