"""Two `warlog serve` processes on one PostgreSQL database: a subscriber on one process hears events
appended on the other through LISTEN/NOTIFY. Both processes re-read the store only once an hour
(`WARLOG_FEED_POLL_S`), so without a notification nothing would arrive before the read timeout.

The tables live in a schema of their own, dropped before and after; the test never skips.
"""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import psycopg
import pytest
from psycopg import sql

from tests.support.client import GameClient, unit
from tests.support.live import WAIT_S, messages

PG_URL = "postgresql://postgres@127.0.0.1:5432/test"
SCHEMA = "warlog_live_feed_test"
ROOT = Path(__file__).resolve().parents[2]


def reset_schema() -> None:
    try:
        with psycopg.connect(PG_URL, autocommit=True, connect_timeout=5) as db:
            db.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(SCHEMA)))
            db.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(SCHEMA)))
    except psycopg.OperationalError as error:
        pytest.fail(f"PostgreSQL at {PG_URL} is unreachable: {error}")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def serve() -> tuple[subprocess.Popen, str]:
    port = free_port()
    env = {**os.environ, "WARLOG_POSTGRES_SCHEMA": SCHEMA, "WARLOG_FEED_POLL_S": "3600", "WARLOG_KEEPALIVE_S": "1",
           "WARLOG_REQUESTS_PER_SECOND": "10000", "WARLOG_BURST": "10000", "WARLOG_LOG_JSON": "true"}
    process = subprocess.Popen([sys.executable, "-m", "api.cli", "serve", "--port", str(port), "--postgres", PG_URL],
                               cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        assert process.poll() is None, process.stderr.read().decode()
        try:
            httpx.get(f"{url}/openapi.json", timeout=2)
            return process, url
        except httpx.TransportError:
            assert time.monotonic() < deadline, "warlog serve did not start"
            time.sleep(0.1)


@pytest.fixture
def two_processes():
    reset_schema()
    started = []
    try:
        for _ in range(2):  # one after the other: the first creates the tables and the trigger
            started.append(serve())
        yield [url for _, url in started]
    finally:
        for process, _ in started:
            process.terminate()
            process.wait(10)
        with psycopg.connect(PG_URL, autocommit=True, connect_timeout=5) as db:
            db.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(SCHEMA)))


@pytest.mark.postgres
def test_a_subscriber_on_one_process_hears_events_appended_on_the_other(two_processes):
    writer_url, reader_url = two_processes
    with httpx.Client(base_url=writer_url, timeout=WAIT_S) as writer, \
            httpx.Client(base_url=reader_url, timeout=WAIT_S) as reader:
        game = GameClient(writer)
        game.start([unit("scouts-1")], [unit("boyz-1")])
        with reader.stream("GET", f"/games/{game.id}/events/stream", params={"token": game.tokens["B"]}) as events, \
                reader.stream("GET", f"/games/{game.id}/overlay/stream",
                              params={"token": game.tokens["spectator"]}) as overlays:
            assert events.status_code == overlays.status_code == 200
            overlay_feed, event_feed = messages(overlays), messages(events)
            assert next(overlay_feed)["data"]["version"] == game.state()["version"]
            # The first append may be picked up by the streams' first read; after it, each stream sleeps
            # until woken, so the second append can only reach them through NOTIFY from the other process.
            for seat in ("A", "B"):
                answer = game.cmd(seat, "confirm_count")
                assert [next(event_feed)["data"] for _ in answer["events"]] == answer["events"]
                assert next(overlay_feed)["data"]["version"] == answer["version"]
