"""Issue 4: lag from appending an event to an SSE client receiving it, p50 and
p99, with 50 subscribers on one game.

Scenarios (each its own `warlog serve` processes on free local ports):
  sqlite            one process on a SQLite file: writes and subscribers on it
  postgres, same    one of two processes sharing PostgreSQL: writes and
                    subscribers on the same process (the baseline)
  postgres, across  writes to process 1, subscribers on process 2

A writer sends `free_roll` (one event each) and waits until every subscriber
has the event (or `--wait` seconds) before a random 10-50 ms pause and the
next one, so each lag is one event's own, not a queue's. The lag of an event
at a subscriber is its receive time minus the client-side send time of the
command (one monotonic clock: writer and subscribers share this process);
receive time minus the event's `at` (the server's wall clock, ms) is shown
beside it.

PostgreSQL: the warlog tables (`warlog_*`: the eventsourcing recorder's
`warlog_events` and `warlog_snapshots`, and `warlog_refusals`) are dropped
before the run. The default database is `warlog_bench` (created if missing) so
that the drop never pulls tables from under tests running against `test`;
pass `--postgres postgresql://postgres@127.0.0.1:5432/test` to use that one.
"""
from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import time
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from urllib.parse import urlparse, urlunparse

import httpx
import psycopg
from harness import (
    FREE_ROLL,
    Budget,
    Server,
    bearer,
    expect,
    free_port,
    header,
    hot_spots,
    percentile,
    sampled,
    summary,
    warlog_server,
    workdir,
)

from warlog.api.cli import create_demo

DEFAULT_DSN = "postgresql://postgres@127.0.0.1:5432/warlog_bench"


@dataclass
class Run:
    subscribers: int
    sent: dict[int, float] = field(default_factory=dict)         # seq -> perf_counter at send
    lags: list[float] = field(default_factory=list)              # receive - send
    at_lags: list[float] = field(default_factory=list)           # receive (wall) - event's `at`
    got: dict[int, int] = field(default_factory=dict)            # seq -> subscribers that have it
    first: dict[int, float] = field(default_factory=dict)        # seq -> lag of its first subscriber
    last: dict[int, float] = field(default_factory=dict)         # seq -> lag of its last subscriber
    complete: dict[int, asyncio.Event] = field(default_factory=dict)
    missed: int = 0

    def expect_seq(self, seq: int) -> None:
        self.got.setdefault(seq, 0)
        self.complete.setdefault(seq, asyncio.Event())

    def received(self, data: str) -> None:
        now, wall = time.perf_counter(), time.time()
        entry = json.loads(data)
        seq = entry["seq"]
        if seq not in self.sent:
            return  # not one of the measured events
        lag = now - self.sent[seq]
        self.lags.append(lag)
        self.first.setdefault(seq, lag)
        self.last[seq] = lag
        at = datetime.fromisoformat(entry["at"].replace("Z", "+00:00")).timestamp()
        self.at_lags.append(wall - at)
        self.got[seq] += 1
        if self.got[seq] == self.subscribers:
            self.complete[seq].set()


async def subscribe(client: httpx.AsyncClient, url: str, token: str, run: Run, ready: asyncio.Queue) -> None:
    async with client.stream("GET", url, headers=bearer(token)) as response:
        expect(response)
        await ready.put(True)
        data: list[str] = []
        async for line in response.aiter_lines():
            if line == "":
                if data:
                    run.received("\n".join(data))
                data = []
            elif line.startswith("data:"):
                data.append(line[5:].removeprefix(" "))


async def send(client: httpx.AsyncClient, url: str, token: str, key: str) -> httpx.Response:
    """One free_roll; sent again (same Idempotency-Key, so never applied twice) if the connection
    was dropped, e.g. uvicorn closing a keep-alive connection idle for 5 s as it was reused."""
    headers = {**bearer(token), "Idempotency-Key": key}
    try:
        return expect(await client.post(url, json=FREE_ROLL, headers=headers))
    except httpx.TransportError:
        return expect(await client.post(url, json=FREE_ROLL, headers=headers))


async def measure(writer: Server, reader: Server, subscribers: int, events: int, wait_s: float,
                  budget_s: float) -> Run:
    with httpx.Client(timeout=10) as sync_client:
        game = create_demo(writer.url, sync_client)
        expect(sync_client.post(f"{writer.url}/games/{game['game_id']}/commands", json={"type": "start_game"},
                                headers=bearer(game["tokens"]["A"])))
        version = expect(sync_client.get(f"{writer.url}/games/{game['game_id']}/state",
                                         headers=bearer(game["tokens"]["A"]))).json()["version"]
    run = Run(subscribers)
    limits = httpx.Limits(max_connections=subscribers + 10, max_keepalive_connections=subscribers + 10)
    timeout = httpx.Timeout(10, read=60)
    stream_url = f"{reader.url}/games/{game['game_id']}/events/stream?after={version}"
    async with httpx.AsyncClient(timeout=timeout, limits=limits) as streams, \
            httpx.AsyncClient(timeout=10) as commands:
        ready: asyncio.Queue = asyncio.Queue()
        tasks = [asyncio.create_task(subscribe(streams, stream_url, game["tokens"]["spectator"], run, ready))
                 for _ in range(subscribers)]
        try:
            for _ in range(subscribers):
                await asyncio.wait_for(ready.get(), 30)
            command_url = f"{writer.url}/games/{game['game_id']}/commands"
            budget = Budget(budget_s)
            for n in range(events):
                if budget.over():
                    print(f"   time budget reached after {n} events", flush=True)
                    break
                seq = version + 1
                run.expect_seq(seq)
                run.sent[seq] = time.perf_counter()
                answer = (await send(commands, command_url, game["tokens"]["A"], f"bench-{seq}")).json()
                if answer["events"][0]["seq"] != seq:
                    raise RuntimeError(f"expected seq {seq}, the command appended {answer['events'][0]['seq']}")
                version = answer["version"]
                try:
                    await asyncio.wait_for(run.complete[seq].wait(), wait_s)
                except TimeoutError:
                    run.missed += subscribers - run.got[seq]
                await asyncio.sleep(random.uniform(0.01, 0.05))
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
    return run


def report(name: str, run: Run) -> None:
    missed = (f"; {run.missed} deliveries had not come within --wait (those that came before the end are "
              f"counted)" if run.missed else "")
    print(f"   {name:17} receive - send {summary(run.lags)}{missed}", flush=True)
    print(f"   {'':17} receive - at   {summary(run.at_lags)}", flush=True)
    print(f"   {'':17} first of the {run.subscribers} to receive each event {summary(list(run.first.values()))}",
          flush=True)
    print(f"   {'':17} last of the {run.subscribers} to receive each event  {summary(list(run.last.values()))}",
          flush=True)


def bench_database(dsn: str) -> None:
    """Create the database if missing, then drop every warlog_* table in it."""
    url = urlparse(dsn)
    name = url.path.lstrip("/")
    with psycopg.connect(urlunparse(url._replace(path="/postgres")), autocommit=True) as admin:
        if not admin.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
            admin.execute(f'CREATE DATABASE "{name}"')
    with psycopg.connect(dsn, autocommit=True) as conn:
        tables = [row[0] for row in conn.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename LIKE 'warlog\\_%'")]
        for table in tables:
            conn.execute(f'DROP TABLE IF EXISTS "{table}" CASCADE')
    print(f"   PostgreSQL {urlunparse(url._replace(netloc=url.hostname or ''))}: dropped "
          f"{', '.join(tables) or 'no tables (none yet)'}", flush=True)


def scenario(tmp: Path, name: str, args: argparse.Namespace) -> Run:
    with contextlib.ExitStack() as servers:
        if name == "sqlite":
            writer = reader = servers.enter_context(warlog_server(free_port(), tmp / "sqlite.log",
                                                                 db=tmp / "warlog.db"))
        else:
            writer = servers.enter_context(warlog_server(free_port(), tmp / "pg1.log", postgres=args.postgres))
            second = servers.enter_context(warlog_server(free_port(), tmp / "pg2.log", postgres=args.postgres))
            reader = writer if name == "postgres, same" else second
        profile = tmp / "py-spy.txt"
        with sampled(args.py_spy, reader.pid, profile, 120):
            run = asyncio.run(measure(writer, reader, args.subscribers, args.events, args.wait, args.seconds))
    if args.py_spy:
        print(f"   {name}: the subscribers' server", end="")
        hot_spots(profile, 30)
    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--subscribers", type=int, default=50, help="SSE clients on the game (default 50)")
    parser.add_argument("--events", type=int, default=40, help="events appended per scenario (default 40)")
    parser.add_argument("--wait", type=float, default=6, help="seconds to wait for every subscriber (default 6)")
    parser.add_argument("--seconds", type=float, default=45, help="time budget of each scenario's events "
                                                                  "(default 45)")
    parser.add_argument("--postgres", default=DEFAULT_DSN, help=f"database DSN (default {DEFAULT_DSN})")
    parser.add_argument("--only", choices=["sqlite", "postgres"], help="run one store only")
    parser.add_argument("--py-spy", metavar="BIN", help="sample the subscribers' server with this py-spy binary")
    args = parser.parse_args()

    header(f"SSE feed lag, {args.subscribers} subscribers on one game, {args.events} events (issue 4)")
    names = []
    if args.only != "postgres":
        names.append("sqlite")
    if args.only != "sqlite":
        bench_database(args.postgres)
        names += ["postgres, same", "postgres, across"]
    results = {}
    with workdir() as tmp:
        for name in names:
            started = time.perf_counter()
            results[name] = scenario(tmp, name, args)
            report(name, results[name])
            print(f"   {'':17} ({time.perf_counter() - started:.1f} s)", flush=True)
    def p(run: Run, q: float) -> str:
        return f"{percentile(run.lags, q) * 1000:.1f} ms" if run.lags else "none received"

    parts = [f"{name} p50 {p(run, 50)} p99 {p(run, 99)}" + (f" ({run.missed} late)" if run.missed else "")
             for name, run in results.items()]
    same, across = results.get("postgres, same"), results.get("postgres, across")
    if same and across and same.lags and across.lags:
        parts.append(f"across/same p50 {percentile(across.lags, 50) / percentile(same.lags, 50):.1f}x")
    print("RESULT feed lag (receive - send): " + "; ".join(parts))


if __name__ == "__main__":
    main()
