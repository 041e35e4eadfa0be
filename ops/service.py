"""`warlog serve` as a subprocess on a free local port, and the PostgreSQL schema it may live in.

Shared by the crash loop, the load test, the benchmarks' harness and the tests that run the real
service (`tests/integration/test_crash.py`, `tests/integration/test_live_feed_postgres.py`); with the
client that rolls until the service is killed, which both crash checks use.
Importable as `ops.service` from the repository root (pytest's pythonpath; the scripts under ops/
put the root on `sys.path` themselves).
"""
from __future__ import annotations

import argparse
import contextlib
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from uuid import uuid4

import httpx

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_until_answers(process: subprocess.Popen[bytes], url: str, stderr: Path, within: float = 30.0,
                       name: str = "warlog serve") -> float:
    """Poll `url` until it answers; the seconds that took. RuntimeError if the process exits (with the end of its
    `stderr`) or `within` seconds pass."""
    started = time.monotonic()
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"{name} exited with {process.returncode}: {stderr.read_text()[-2000:]}")
        try:
            httpx.get(url, timeout=2)
            return time.monotonic() - started
        except httpx.TransportError:
            if time.monotonic() - started > within:
                raise RuntimeError(f"{name} did not answer within {within:.0f} s") from None
            time.sleep(0.05)


def interrupt(process: subprocess.Popen[bytes], within: float = 10.0, sig: int = signal.SIGINT) -> None:
    """SIGINT (a graceful shutdown; py-spy writes its samples out on it), then SIGKILL if the process has not
    exited `within` seconds later. A process that inherited SIGINT ignored (a job started in the background
    with `&`) may never see it: `stop` sends SIGTERM, what a service manager sends."""
    if process.poll() is not None:
        return
    process.send_signal(sig)
    try:
        process.wait(within)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(5)


def stop(process: subprocess.Popen[Any], within: float = 10.0) -> int:
    """SIGTERM (`warlog serve`, `warlog project` and HAProxy stop gracefully on it, whatever SIGINT's
    disposition), then SIGKILL if the process has not exited `within` seconds later; its exit status."""
    interrupt(process, within, signal.SIGTERM)
    return process.wait(5)


class Service:
    """`warlog serve` on one store (`store`: its arguments, e.g. ["--db", path]; `env`: extra environment),
    started on a fresh port each time and stopped gracefully or SIGKILLed. Its stderr is appended to `log`."""

    def __init__(self, store: list[str], env: dict[str, str], log: Path, answer_within: float = 30.0) -> None:
        self.store, self.env, self.log, self.answer_within = store, env, log, answer_within
        self.process: subprocess.Popen[bytes] | None = None
        self.url = ""

    def start(self) -> float:
        """Start on a fresh port; the seconds until it answered (its URL is then `self.url`)."""
        port = free_port()
        self.url = f"http://127.0.0.1:{port}"
        with open(self.log, "ab") as err:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "warlog.api.cli", "serve", "--host", "127.0.0.1", "--port", str(port), *self.store],
                cwd=ROOT, env={**os.environ, **self.env}, stdout=subprocess.DEVNULL, stderr=err)
        return wait_until_answers(self.process, f"{self.url}/openapi.json", self.log, self.answer_within)

    def kill(self) -> None:
        """SIGKILL: no shutdown handler runs, nothing is flushed by the service itself."""
        if self.process is not None and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None:
            stop(self.process)


@contextlib.contextmanager
def processes_on_postgres(dsn: str, env: dict[str, str], logs: Path, count: int = 2) -> Iterator[list[Service]]:
    """`count` `warlog serve` processes on one PostgreSQL database, started one after the other (the first creates
    the tables and the trigger), all stopped after."""
    services = [Service(["--postgres", dsn], env, logs / f"serve-{n}.err", answer_within=60) for n in range(1, count + 1)]
    try:
        for service in services:
            service.start()
        yield services
    finally:
        for service in services:
            service.stop()


def postgres_schema(dsn: str, create: bool, name: str) -> None:
    """CREATE SCHEMA `name`, or drop it with everything in it."""
    import psycopg
    from psycopg import sql

    with psycopg.connect(dsn, autocommit=True, connect_timeout=5) as db:
        statement = "CREATE SCHEMA {}" if create else "DROP SCHEMA IF EXISTS {} CASCADE"
        db.execute(sql.SQL(statement).format(sql.Identifier(name)))


# -- the store options of the scripts under ops/ ---------------------------------------------------------

def add_store_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--postgres", metavar="DSN", help="PostgreSQL instead of a SQLite file (own schema)")
    parser.add_argument("--synchronous", choices=("NORMAL", "FULL", "EXTRA"), default=None,
                        help="SQLite's PRAGMA synchronous (default: the service's, NORMAL)")
    parser.add_argument("--shards", type=int, default=1, help="with --postgres: event stores (warlog serve --shards)")


def store_name(args: argparse.Namespace) -> str:
    if args.postgres:
        return "PostgreSQL" + (f" ({args.shards} shards)" if getattr(args, "shards", 1) > 1 else "")
    return f"SQLite (synchronous={args.synchronous or 'NORMAL'})"


@contextlib.contextmanager
def store(args: argparse.Namespace, tmp: Path, schema_prefix: str) -> Iterator[tuple[list[str], dict[str, str]]]:
    """(`warlog serve`'s arguments naming the store, its environment) as `add_store_arguments` chose: a SQLite
    file in `tmp`, or with --postgres a schema of its own, `<schema_prefix>_<hex>`, dropped on exit."""
    if not args.postgres:
        yield ["--db", str(tmp / "warlog.db")], \
            {"WARLOG_SQLITE_SYNCHRONOUS": args.synchronous} if args.synchronous else {}
        return
    schema = f"{schema_prefix}_{uuid4().hex[:12]}"
    postgres_schema(args.postgres, True, schema)
    try:
        yield ["--postgres", args.postgres, "--shards", str(getattr(args, "shards", 1))], \
            {"WARLOG_POSTGRES_SCHEMA": schema}
    finally:
        postgres_schema(args.postgres, False, schema)


def free_roll(key: str) -> dict[str, Any]:
    """A free_roll whose purpose is its Idempotency-Key: the log then says which request rolled what."""
    return {"type": "free_roll", "spec": "2D6", "purpose": key}


def roll_until_killed(url: str, game_id: str, seat: str, name: str, headers: Callable[[str], dict[str, str]],
                      stop: threading.Event, acknowledged: dict[str, dict[str, Any]], lost: dict[str, str],
                      refused: list[str]) -> None:
    """Send free_rolls keyed `{name}-{n}` for `seat` until the service dies (`headers(key)` carries the token
    and the key): every 200 answer goes in `acknowledged`, the request whose answer the kill lost in `lost`
    (appended or not, nobody knows yet), any other answer in `refused` (an assert would end the thread only)."""
    with httpx.Client(base_url=url, timeout=10) as http:
        n = 0
        while not stop.is_set():
            key = f"{name}-{n}"
            n += 1
            try:
                response = http.post(f"/games/{game_id}/commands", json=free_roll(key), headers=headers(key))
            except httpx.TransportError:
                lost[key] = seat
                return
            if response.status_code != 200:
                refused.append(f"{key}: {response.status_code} {response.text[:300]}")
                return
            acknowledged[key] = response.json()
