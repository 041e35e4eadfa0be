"""Two `warlog serve` processes on one PostgreSQL database: a subscriber on one process hears events
appended on the other through LISTEN/NOTIFY. Both processes re-read the store only once an hour
(`WARLOG_FEED_POLL_S`), so without a notification nothing would arrive before the read timeout.

The tables live in a schema of their own (the `pg_schema` fixture), dropped afterwards; the test never skips.
"""
from __future__ import annotations

import httpx
import pytest

from ops.service import processes_on_postgres
from tests.integration.conftest import PG_URL
from tests.support.client import GameClient, unit
from tests.support.live import WAIT_S, messages


@pytest.fixture
def two_processes(pg_schema, tmp_path):
    env = {"WARLOG_POSTGRES_SCHEMA": pg_schema, "WARLOG_FEED_POLL_S": "3600", "WARLOG_KEEPALIVE_S": "1",
           "WARLOG_REQUESTS_PER_SECOND": "10000", "WARLOG_BURST": "10000", "WARLOG_LOG_JSON": "true"}
    with processes_on_postgres(PG_URL, env, tmp_path) as services:
        yield [service.url for service in services]


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
