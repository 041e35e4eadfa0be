"""Commands/s on PostgreSQL with 1, 2 and 4 shards × 1, 2 and 4 `warlog serve` processes, against one
`warlog serve` on SQLite under the same closed-loop load in the same run, and the eventsourcing library's
own bare save rate on the same database as the ceiling (CONTRACT.md "Scale", api/shards.py).

The load is ops/load/load.py's: `--games` started games (demo armies, not timed), `--threads` client
threads with a keep-alive connection each taking `free_roll`s (own Idempotency-Key each, seats in turn,
games interleaved) from one queue until `--commands` per game are done or `--budget` seconds pass. With
several processes, `--route game` (the default) sends each game's requests to one process, the game id
hashed, as ops/deploy's HAProxy does; `--route thread` sends thread k's to process k mod P whatever the
game (a round-robin balancer), so two processes often write one game at once and each reloads it. Every
game's chain is verified at the end with exactly the acknowledged events. Each PostgreSQL setting gets a
schema of its own (`warlog_shards_<hex>`), dropped after.

The bare save rate: `--threads` threads, each saving one event of its own aggregate per save in a loop
through a plain eventsourcing Application (no HTTP, no game) for `--bare-s` seconds, on one events table
and on four (four applications with their own names, as the shards are). Nothing asserts a time; the
figures are ratios to the SQLite run of the same invocation. This machine's closed-loop rates move by a
third from one minute to the next (SQLite alone: 815..1,173/s in one hour), so `--rounds K` runs every
setting K times, interleaved, and reports each one's median, its ratio taken against the SQLite run of the
same round.

    .venv/bin/python ops/bench/shards.py --postgres postgresql://postgres@127.0.0.1:5432/test
    .venv/bin/python ops/bench/shards.py --postgres … --shards 1 4 --processes 1 2   # a smaller grid
    .venv/bin/python ops/bench/shards.py --postgres … --shards 4 --processes 2 --loop-writes 4 2 --thread-writes 4 2 --rounds 5
"""
from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from uuid import uuid4

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parents[1]), str(HERE), str(HERE.parent / "load")]

from eventsourcing.domain import Aggregate, event  # noqa: E402
from harness import free_port, header, process, ratio, request_log, workdir  # noqa: E402
from load import games_allowed, ms, run  # noqa: E402

from ops.service import postgres_schema  # noqa: E402


@contextlib.contextmanager
def services(store: list[str], env: dict[str, str], count: int, tmp: Path, tag: str) -> Iterator[list[str]]:
    """`count` `warlog serve` processes on one store, started one after the other (the first makes the tables)."""
    with contextlib.ExitStack() as stack:
        urls = []
        for n in range(count):
            port = free_port()
            serve = [sys.executable, "-m", "warlog.api.cli", "serve", "--host", "127.0.0.1", "--port", str(port), *store]
            urls.append(stack.enter_context(process(serve, port, tmp / f"{tag}-{n}.log", env)).url)
        yield urls


def closed_loop(urls: list[str], args: argparse.Namespace) -> dict[str, Any]:
    result = run(urls, args.games, args.commands, args.threads, args.budget, args.route)
    ok = result["statuses"].get(200, 0)
    result.update(rate=ok / result["wall"], ok=ok, clean=all(result["verified"]) and ok == len(result["latencies"]))
    return result


class Counter(Aggregate):
    """The bare save's aggregate: one small event a save."""

    @event("Counted")
    def count(self, n: int) -> None:
        self.n = n


@contextlib.contextmanager
def schema(dsn: str) -> Iterator[str]:
    name = f"warlog_shards_{uuid4().hex[:12]}"
    postgres_schema(dsn, True, name)
    try:
        yield name
    finally:
        postgres_schema(dsn, False, name)


def bare_save_rate(dsn: str, tables: int, threads: int, seconds: float) -> float:
    """Saves a second of one-event saves by `threads` threads through plain eventsourcing Applications on
    `tables` events tables of the database (the library's own PostgreSQL recorder, its table lock included)."""
    from urllib.parse import urlparse

    from eventsourcing.application import Application

    url = urlparse(dsn)
    with schema(dsn) as name:
        env = {"PERSISTENCE_MODULE": "eventsourcing.postgres", "POSTGRES_DBNAME": url.path.lstrip("/"),
               "POSTGRES_HOST": url.hostname or "127.0.0.1", "POSTGRES_PORT": str(url.port or 5432),
               "POSTGRES_USER": url.username or "postgres", "POSTGRES_PASSWORD": url.password or "",
               "POSTGRES_SCHEMA": name, "POSTGRES_POOL_SIZE": str(max(1, threads // tables))}
        apps = [type(f"Bare{k}", (Application,), {"name": f"bare{k}"})(env=env) for k in range(tables)]
        saves = [0] * threads
        go, stop = threading.Event(), threading.Event()

        def saver(k: int) -> None:
            app = apps[k % tables]
            counter = Counter()
            app.save(counter)
            go.wait()
            while not stop.is_set():
                counter.count(saves[k])
                app.save(counter)
                saves[k] += 1

        pool = [threading.Thread(target=saver, args=(k,)) for k in range(threads)]
        for each in pool:
            each.start()
        started = time.monotonic()
        go.set()
        time.sleep(seconds)
        stop.set()
        for each in pool:
            each.join()
        wall = time.monotonic() - started
        for app in apps:
            app.close()
    return sum(saves) / wall


def report(name: str, results: list[dict[str, Any]], baselines: list[float], inside: list[float]) -> str:
    """The median of each figure over the rounds; the ratio is each round's against that round's SQLite run."""
    clean = "" if all(r["clean"] for r in results) else "  NOT CLEAN: " + "; ".join(
        f"{dict(r['statuses'])}, verified {sum(r['verified'])}/{len(r['verified'])}" for r in results if not r["clean"])
    ratios = sorted(r["rate"] / b for r, b in zip(results, baselines))
    spread = f" (rounds {ratios[0]:.2f}x..{ratios[-1]:.2f}x)" if len(ratios) > 1 else ""
    latencies = [latency for r in results for latency in r["latencies"]]
    return (f"{name:<52} {statistics.median(r['rate'] for r in results):7.0f} commands/s = "
            f"{statistics.median(ratios):5.2f}x of SQLite{spread}; client p50 {ms(latencies, 50)} ms, "
            f"p99 {ms(latencies, 99)} ms; inside the server p50 {ms(inside, 50)} ms{clean}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--postgres", required=True, metavar="DSN")
    parser.add_argument("--games", type=int, default=16)
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--commands", type=int, default=400, help="free_rolls per game at most (default 400)")
    parser.add_argument("--budget", type=float, default=8.0, help="seconds of load per setting at most")
    parser.add_argument("--shards", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--processes", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--route", choices=("game", "thread"), default="game",
                        help="which process serves a request when there are several (default: by game)")
    parser.add_argument("--bare-s", type=float, default=5.0, help="seconds of each bare save-rate run")
    parser.add_argument("--async-commit", type=int, nargs=2, default=[4, 2], metavar=("SHARDS", "PROCESSES"),
                        help="one more PostgreSQL run with synchronous_commit=off (SQLite NORMAL's durability "
                             "class: no WAL flush awaited per commit; default 4 shards, 2 processes)")
    parser.add_argument("--loop-writes", type=int, nargs=2, metavar=("SHARDS", "PROCESSES"),
                        help="one more PostgreSQL run with WARLOG_INLINE_WRITES=true (each write wholly on the "
                             "event loop, its append blocking it)")
    parser.add_argument("--thread-writes", type=int, nargs=2, metavar=("SHARDS", "PROCESSES"),
                        help="one more PostgreSQL run with WARLOG_INLINE_WRITES=false (each write in a worker "
                             "thread, the default before the deferred append)")
    parser.add_argument("--rounds", type=int, default=1,
                        help="run every setting this many times, interleaved, and report medians (default 1)")
    args = parser.parse_args()
    header(f"shards: {args.games} games, {args.threads} client threads, up to {args.commands} free_rolls a game "
           f"or {args.budget:g} s; routed by {args.route}; {args.rounds} round(s); {os.cpu_count()} CPUs, "
           f"load average {os.getloadavg()[0]:.2f}")
    env = games_allowed(args.games)
    settings: list[tuple[str, int, int, dict[str, str]]] = [("SQLite, 1 process", 0, 1, {})]
    settings += [(f"PostgreSQL, {shards} shard(s), {count} process(es)", shards, count, {})
                 for shards in args.shards for count in args.processes]
    variants = ((args.async_commit, "async commit", {"PGOPTIONS": "-c synchronous_commit=off"}),
                (args.loop_writes, "writes on the loop", {"WARLOG_INLINE_WRITES": "true"}),
                (args.thread_writes, "writes in a thread", {"WARLOG_INLINE_WRITES": "false"}))
    for chosen, label, extra in variants:
        if chosen:
            shards, count = chosen
            settings.append((f"PostgreSQL, {shards} shard(s), {count} process(es), {label}", shards, count, extra))
    results: dict[str, list[dict[str, Any]]] = {name: [] for name, *_ in settings}
    inside: dict[str, list[float]] = {name: [] for name, *_ in settings}
    with workdir() as tmp:
        for round_ in range(args.rounds):
            for index, (name, shards, count, extra) in enumerate(settings):
                tag = f"r{round_}-s{index}"
                with contextlib.ExitStack() as stack:
                    if shards == 0:
                        store = ["--db", str(tmp / f"warlog-{tag}.db")]
                        own = {}
                    else:
                        store = ["--postgres", args.postgres, "--shards", str(shards)]
                        own = {"WARLOG_POSTGRES_SCHEMA": stack.enter_context(schema(args.postgres))}
                    urls = stack.enter_context(services(store, {**env, **extra, **own}, count, tmp, tag))
                    results[name].append(closed_loop(urls, args))
                inside[name] += [line["duration_ms"] for n in range(count)  # the set-up's are process 0's first
                                 for line in request_log(tmp / f"{tag}-{n}.log", "/commands")[args.games if n == 0 else 0:]]
                print(f"   round {round_ + 1}: {name}: {results[name][-1]['rate']:.0f} commands/s", flush=True)
    baselines = [r["rate"] for r in results[settings[0][0]]]
    lines = [report(name, results[name], baselines, inside[name]) for name, *_ in settings]
    failed = not all(r["clean"] for rs in results.values() for r in rs)
    baseline = statistics.median(baselines)
    for tables in (1, 4):
        rate = bare_save_rate(args.postgres, tables, args.threads, args.bare_s)
        lines.append(f"{'library bare save, ' + str(tables) + ' table(s)':<52} {rate:7.0f} saves/s    = "
                     f"{ratio(rate, baseline):>6} of SQLite's commands/s ({args.threads} threads, one event a save)")
        print(lines[-1], flush=True)
    print("RESULT shards (commands/s, ratio to SQLite in this run):\n" + "\n".join("   " + line for line in lines))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
