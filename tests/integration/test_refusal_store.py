"""The refusal store keeps each key's endpoint, in SQLite and PostgreSQL, also in a table made before
it had that column (whose rows then name no endpoint)."""
import asyncio
import sqlite3

import psycopg
import pytest
from psycopg import sql

from tests.integration.conftest import PG_URL, pg_settings
from warlog.api.idempotency import RefusalStore

PROBLEM = {"status": 409, "rule": "SVC.UNDO.NONE"}
OLD_TABLE = ("CREATE TABLE {} (game text, seat text, key text, body text, status int, problem text, "
             "at double precision, PRIMARY KEY (game, seat, key))")


def check(store: RefusalStore) -> None:
    async def go() -> None:
        await store.open()
        try:
            assert await store.get("g", "A", "old") == ("digest", 409, PROBLEM, None)  # stored before: no endpoint
            await store.put("g", "A", "K", "digest", 409, PROBLEM, "redo")
            assert await store.get("g", "A", "K") == ("digest", 409, PROBLEM, "redo")
        finally:
            await store.close()
    asyncio.run(go())


def test_a_sqlite_refusal_table_from_before_gains_the_endpoint_column(tmp_path):
    path = str(tmp_path / "warlog.db")
    with sqlite3.connect(path) as db:
        db.execute(OLD_TABLE.format("warlog_refusals"))
        db.execute("INSERT INTO warlog_refusals VALUES ('g', 'A', 'old', 'digest', 409, ?, 1e12)",
                   ('{"status": 409, "rule": "SVC.UNDO.NONE"}',))
    check(RefusalStore(sqlite_path=path))
    again = RefusalStore(sqlite_path=path)  # opening it once more changes nothing
    try:
        assert asyncio.run(again.get("g", "A", "K"))[3] == "redo"
    finally:
        asyncio.run(again.close())


@pytest.mark.postgres
def test_a_postgres_refusal_table_from_before_gains_the_endpoint_column(pg_schema):
    with psycopg.connect(PG_URL, autocommit=True) as db:
        db.execute(sql.SQL(OLD_TABLE).format(sql.Identifier(pg_schema, "warlog_refusals")))
        db.execute(sql.SQL("INSERT INTO {} VALUES ('g', 'A', 'old', 'digest', 409, %s, 1e12)").format(
            sql.Identifier(pg_schema, "warlog_refusals")), ('{"status": 409, "rule": "SVC.UNDO.NONE"}',))
    check(RefusalStore.for_settings(pg_settings(pg_schema)))


def test_the_memory_store_keeps_the_endpoint_too():
    store = RefusalStore()
    asyncio.run(store.put("g", "A", "K", "digest", 409, PROBLEM, "undo"))
    assert asyncio.run(store.get("g", "A", "K")) == ("digest", 409, PROBLEM, "undo")
