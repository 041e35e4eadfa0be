"""An open-model load: commands at a fixed arrival rate over many tables, with SSE spectators watching.

    .venv/bin/python ops/load/open_load.py --postgres postgresql://postgres@127.0.0.1:5432/test \\
        --rate 200 --tables 100 --spectators 500 --seconds 60 --processes 2 --shards 4

It starts the plain-process deployment (ops/deploy/cluster.py: `--processes` `warlog serve --shards N`
on PostgreSQL in a schema of its own, `warlog_open_<hex>`, dropped after, behind HAProxy), sets up
`--tables` started games (demo armies; not timed), opens `--spectators` event streams spread evenly over
the tables (spectator tokens, through the balancer; held by `--spectator-processes` processes of their own,
so that parsing the feed does not slow the sender), then sends `free_roll`s at exactly `--rate` a second
for `--seconds`: command i is due at start + i/rate, for table i mod tables, seats in turn, each with its
own Idempotency-Key, whether or not earlier ones have been answered. That is the open model: a slow answer
does not hold the next arrival back, and each latency is measured from when the command was due, not
from when it could be sent, so a stall is counted for every arrival it delayed (no coordinated omission).

Why not Locust (the well-kept Python load tool): its users are closed loops (a user waits for its
answer before its next task; `constant_throughput` only paces that loop), which is the closed model this
script exists to avoid, and it brings gevent into a tool that needs only asyncio and httpx, both already
here. Feed lag: for each event a spectator receives after the command's answer reached the client, the time
between the two (the deliveries that beat the answer are left out of the percentiles). CPU: the service processes' own CPU
seconds (from /proc) per second of the run, the machine's busy share over the run (from /proc/stat), and
this client's (the sender's and the spectator processes'). Errors: every answer but 200 by class; the exit status is 1 when any is not 409/412/429.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import resource
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any
from uuid import uuid4

import httpx

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parents[1]), str(HERE.parents[1] / "ops" / "bench")]

from harness import SERVER_ENV, percentile  # noqa: E402

from ops.deploy.cluster import cluster  # noqa: E402
from ops.service import postgres_schema  # noqa: E402
from warlog.api.cli import DEMO_ARMIES  # noqa: E402

ALLOWED = {409, 412, 429}  # a lost race, a stale If-Match, a limit: answers a client is built to handle


def bearer(token: str, key: str | None = None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}", **({"Idempotency-Key": key} if key else {})}


async def new_table(http: httpx.AsyncClient) -> dict[str, Any]:
    created = (await http.post("/games", json={"ruleset": "alternating", "dice": "server", "players": [
        {"seat": "A", "name": "Alice"}, {"seat": "B", "name": "Bob"}]})).raise_for_status().json()
    for seat, units in DEMO_ARMIES.items():
        (await http.post(f"/games/{created['game_id']}/armies", json={"units": units},
                         headers=bearer(created["tokens"][seat]))).raise_for_status()
    started = (await http.post(f"/games/{created['game_id']}/commands", json={"type": "start_game"},
                               headers=bearer(created["tokens"]["A"]))).raise_for_status().json()
    return {**created, "version": started["version"]}


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def machine_busy() -> tuple[int, int]:
    values = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle = values[3] + values[4]
    return sum(values) - idle, sum(values)


async def spectate(http: httpx.AsyncClient, table: dict[str, Any], arrivals: list[tuple[str, float]],
                   received: Counter[str], stop: asyncio.Event, errors: Counter[str]) -> None:
    params = {"token": table["tokens"]["spectator"], "after": str(table["version"])}
    try:
        async with http.stream("GET", f"/games/{table['game_id']}/events/stream", params=params) as stream:
            if stream.status_code != 200:
                errors[f"stream {stream.status_code}"] += 1
                return
            received["open"] += 1
            async for line in stream.aiter_lines():
                if stop.is_set():
                    return
                if line.startswith("data:"):
                    arrivals.append((json.loads(line[5:])["data"].get("purpose"), time.monotonic()))
                    received["events"] += 1
    except (httpx.TransportError, asyncio.CancelledError) as error:
        if not stop.is_set() and not isinstance(error, asyncio.CancelledError):
            errors[f"stream {type(error).__name__}"] += 1


def spectators(url: str, tables: list[dict[str, Any]], opened: Any, stop: Any, results: Any) -> None:
    """A process of its own holding its share of the streams (`tables`, one stream each), so that parsing
    the feed does not take the command sender's CPU: it says when every stream is open, and when told to
    stop, sends back (arrivals as (purpose, monotonic time), events, errors, its CPU seconds)."""
    async def watch() -> None:
        arrivals: list[tuple[str, float]] = []
        received: Counter[str] = Counter()
        errors: Counter[str] = Counter()
        halt = asyncio.Event()
        # one client, a connection per stream (a client each costs a core at 500)
        async with httpx.AsyncClient(base_url=url, timeout=httpx.Timeout(30, read=70),
                                     limits=httpx.Limits(max_connections=len(tables) + 10)) as http:
            watchers = [asyncio.create_task(spectate(http, table, arrivals, received, halt, errors))
                        for table in tables]
            while received["open"] + sum(errors.values()) < len(tables):
                await asyncio.sleep(0.05)
            opened.set()
            cpu_from = time.process_time()
            while not stop.is_set():
                await asyncio.sleep(0.1)
            halt.set()
            for watcher in watchers:
                watcher.cancel()
            await asyncio.gather(*watchers, return_exceptions=True)
        results.put((arrivals, received["events"], dict(errors), time.process_time() - cpu_from))

    asyncio.run(watch())


async def drive(url: str, args: argparse.Namespace, pids: list[int]) -> dict[str, Any]:
    limits = httpx.Limits(max_connections=args.connections, max_keepalive_connections=args.connections)
    async with httpx.AsyncClient(base_url=url, timeout=30, limits=limits) as http:
        tables: list[dict[str, Any]] = []
        for start in range(0, args.tables, 10):
            tables += await asyncio.gather(*(new_table(http) for _ in range(min(10, args.tables - start))))
        acked: dict[str, float] = {}
        context = multiprocessing.get_context("spawn")
        stop, results = context.Event(), context.Queue()
        watched = [tables[n % args.tables] for n in range(args.spectators)]
        shares = [watched[k::args.spectator_processes] for k in range(args.spectator_processes)]
        openings = [context.Event() for _ in shares]
        children = [context.Process(target=spectators, args=(url, share, opened, stop, results), daemon=True)
                    for share, opened in zip(shares, openings)]
        for child in children:
            child.start()
        for opened in openings:  # the streams open (and are counted) first
            while not opened.wait(0):
                await asyncio.sleep(0.1)
        statuses: Counter[int | str] = Counter()
        latencies: list[float] = []
        due_total = int(args.rate * args.seconds)
        late = 0

        in_flight = asyncio.Semaphore(args.connections)

        async def command(n: int, due: float) -> None:
            table = tables[n % args.tables]
            turn = n // args.tables
            key = f"open-{n}"
            try:
                # arrivals past the pool wait their turn here, first come first served (httpx's pool slows
                # down badly with thousands waiting in it); their latency still counts from when they were due
                async with in_flight:
                    response = await http.post(f"/games/{table['game_id']}/commands",
                                               json={"type": "free_roll", "spec": "2D6", "purpose": key},
                                               headers=bearer(table["tokens"]["AB"[turn % 2]], key))
                status: int | str = response.status_code
            except httpx.TransportError as error:
                status = type(error).__name__
            now = time.perf_counter()
            if status == 200:
                acked[key] = time.monotonic()  # the clock the spectator processes stamp arrivals with
            latencies.append((now - due) * 1000)
            statuses[status] += 1

        sent: list[asyncio.Task[None]] = []
        cpu = [sum(cpu_seconds(pid) for pid in pids), machine_busy(), resource.getrusage(resource.RUSAGE_SELF)]
        started = time.perf_counter()
        for n in range(due_total):
            due = started + n / args.rate
            wait = due - time.perf_counter()
            if wait > 0:
                await asyncio.sleep(wait)
            elif wait < -0.01:
                late += 1  # this client could not send on time (its own CPU): counted in the latency anyway
            sent.append(asyncio.create_task(command(n, due)))
        await asyncio.gather(*sent)
        wall = time.perf_counter() - started
        cpu += [sum(cpu_seconds(pid) for pid in pids), machine_busy(), resource.getrusage(resource.RUSAGE_SELF)]
        await asyncio.sleep(2.0)  # the last events reach the streams
        stop.set()
        lags: list[float] = []
        received, spectator_cpu, errors = 0, 0.0, Counter()
        for _ in children:
            arrivals, events, failed, seconds = await asyncio.to_thread(results.get, True, 120)
            # a delivery that beat the command's answer to the client is left out
            lags += [(at - acked[purpose]) * 1000 for purpose, at in arrivals if purpose in acked and at >= acked[purpose]]
            received, spectator_cpu = received + events, spectator_cpu + seconds
            errors.update(failed)
        for child in children:
            child.join(10)
    return {"statuses": statuses, "latencies": latencies, "lags": lags, "received": received,
            "stream_errors": errors, "wall": wall, "late": late, "sent": due_total, "cpu": cpu,
            "spectator_cpu": spectator_cpu}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--postgres", required=True, metavar="DSN")
    parser.add_argument("--rate", type=float, default=200.0, help="commands a second (default 200)")
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--spectators", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--shards", type=int, default=4)
    parser.add_argument("--connections", type=int, default=16,
                        help="the client's pool for commands (default 16: httpx's pool costs more CPU the larger it is)")
    parser.add_argument("--spectator-processes", type=int, default=1,
                        help="processes of this client holding the streams (default 1), apart from the commands'")
    args = parser.parse_args()
    print(f"== open-model load: {args.rate:g} commands/s over {args.tables} tables, {args.spectators} SSE "
          f"spectators, {args.seconds:g} s; {args.processes} warlog serve --shards {args.shards} behind HAProxy on "
          f"PostgreSQL; {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}", flush=True)
    schema = f"warlog_open_{uuid4().hex[:12]}"
    postgres_schema(args.postgres, True, schema)
    env = {**SERVER_ENV, "WARLOG_POSTGRES_SCHEMA": schema, "WARLOG_GAMES_BURST": str(max(60, args.tables)),
           "WARLOG_LOG_JSON": "false"}
    try:
        with tempfile.TemporaryDirectory(prefix="warlog-open-") as tmp, \
                cluster(args.postgres, args.processes, args.shards, env, Path(tmp)) as running:
            result = asyncio.run(drive(running.url, args, [service.process.pid for service in running.services]))
    finally:
        postgres_schema(args.postgres, False, schema)
    wall = result["wall"]
    cpu_before, busy_before, client_before, cpu_after, busy_after, client_after = result["cpu"]
    served = cpu_after - cpu_before  # over the commands' seconds only
    busy = (busy_after[0] - busy_before[0]) / max(1, busy_after[1] - busy_before[1])
    client = (client_after.ru_utime + client_after.ru_stime) - (client_before.ru_utime + client_before.ru_stime)
    statuses, lat, lags = result["statuses"], result["latencies"], result["lags"]
    bad = {str(k): v for k, v in statuses.items() if k != 200 and k not in ALLOWED}
    bad.update(result["stream_errors"])
    expected = statuses.get(200, 0) * (args.spectators // args.tables)

    def p(samples: list[float], q: float) -> str:
        return f"{percentile(samples, q):.1f}" if samples else "-"

    print(f"   answers: {dict(statuses)}; {result['late']} of {result['sent']} sent more than 10 ms late by this client")
    print(f"   spectators received {result['received']} events (expected about {expected})")
    print(f"RESULT open load: {result['sent']} commands due at {args.rate:g}/s over {wall:.1f} s = "
          f"{statuses.get(200, 0) / wall:.0f} answered/s; command latency from when due p50 {p(lat, 50)} ms, "
          f"p99 {p(lat, 99)} ms, p99.9 {p(lat, 99.9)} ms; feed lag p50 {p(lags, 50)} ms, p99 {p(lags, 99)} ms "
          f"over {len(lags)} deliveries; errors other than 409/412/429: {sum(bad.values())} {bad or ''}; CPU: "
          f"warlog serve {served / wall:.2f} cores ({args.processes} processes), machine {busy * 100:.0f}% busy of "
          f"{os.cpu_count()} cores, this client {client / wall:.2f} cores for the commands and "
          f"{result['spectator_cpu'] / wall:.2f} for the streams", flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
