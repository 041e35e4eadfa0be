"""An append on PostgreSQL is one statement (api/storage.py's OneTripRecorder) that still keeps what the
library's pipelined append keeps: notification ids commit in order, and each shard's events go to its
own table. Each test works in a schema of its own; none skips."""
from __future__ import annotations

import threading
from uuid import uuid4

import psycopg
import pytest
from psycopg import sql

from tests.integration.conftest import PG_URL, pg_settings
from warlog.api.shards import Shards
from warlog.api.storage import OneTripRecorder
from warlog.domain.shards import shard_name, shard_of

pytestmark = pytest.mark.postgres
AT = "2026-12-01T12:00:00.000Z"


def create(shards: Shards, game_id=None) -> str:
    return shards.create_game("alternating", {"A": "Alice", "B": "Bob"}, "server", {}, AT,
                              game_id=game_id)["game_id"]


def test_an_append_waits_for_a_writer_whose_ids_are_not_yet_committed(pg_schema):
    """A writer holding the events table's ROW EXCLUSIVE lock (an insert not yet committed, so ids taken
    but not visible) must hold the next append back: were the second to commit first, a follower of the
    notification log reading after it would pass over the first writer's ids for good."""
    shards = Shards.open(pg_settings(pg_schema))
    try:
        app = shards.apps[0]
        assert isinstance(app.recorder, OneTripRecorder)
        create(shards)  # the tables, and one game
        done = threading.Event()
        with psycopg.connect(PG_URL) as holder:
            holder.execute(sql.SQL("LOCK TABLE {} IN ROW EXCLUSIVE MODE").format(
                sql.Identifier(pg_schema, "warlog_events")))
            writer = threading.Thread(target=lambda: (create(shards), done.set()))
            writer.start()
            assert not done.wait(1.0), "the append went past an uncommitted writer"
            holder.rollback()
        assert done.wait(10.0)
        writer.join()
        ids = [row.id for row in app.recorder.select_notifications(start=None, limit=10)]
        assert ids == sorted(ids) and len(ids) == 2
    finally:
        shards.close()


def test_each_shard_appends_to_its_own_table(pg_schema):
    """The library's own database function is named per schema, so several applications in one schema would
    each replace it and all insert into the last one's table: warlog's is named after its table."""
    shards = Shards.open(pg_settings(pg_schema, shards=3))
    try:
        games = {}
        while set(games) != {0, 1, 2}:
            game_id = uuid4()
            games.setdefault(shard_of(game_id, 3), str(create(shards, game_id)))
        with psycopg.connect(PG_URL, autocommit=True) as db:
            for shard, game_id in games.items():
                for other in range(3):
                    table = sql.Identifier(pg_schema, f"{shard_name(other)}_events")
                    count = db.execute(sql.SQL("SELECT count(*) FROM {} WHERE originator_id = %s").format(table),
                                       (game_id,)).fetchone()[0]
                    assert count == (1 if other == shard else 0), (shard, other)
    finally:
        shards.close()
