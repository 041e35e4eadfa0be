"""Stored refusals for Idempotency-Key (accepted answers live in the game's own log).

A refused request appends nothing, so its answer is kept beside the log: in a
small table of the same SQLite file or PostgreSQL database (and schema), for
24 hours; an expired row is replaced by the next answer under its key.
"""
from __future__ import annotations

import json
import sqlite3
import threading
import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from warlog.api.settings import Settings

TTL_S = 24 * 3600
COLUMNS = "(game, seat, key, body, status, problem, at, endpoint)"


class RefusalStore:
    """(game, seat, key) -> (body digest, status, problem body, endpoint); a row stored before rows
    named their endpoint has None there. On PostgreSQL each lookup is awaited on the event loop
    (psycopg's asyncio pool, opened by `open` on the loop that serves); SQLite's is a local call."""

    def __init__(self, sqlite_path: str | None = None, postgres: dict[str, Any] | None = None) -> None:
        self._lock = threading.Lock()
        self._memory: dict[tuple[str, str, str], tuple[str, int, str, float, str]] = {}
        self._pg = None
        self._sqlite: sqlite3.Connection | None = None
        if postgres:
            import psycopg
            from psycopg import sql
            from psycopg_pool import AsyncConnectionPool

            params = dict(postgres)
            schema = params.pop("schema", "") or "public"
            self._table = sql.Identifier(schema, "warlog_refusals").as_string(None)
            with psycopg.connect(**params, autocommit=True, connect_timeout=10) as connection, \
                    connection.transaction():
                # CREATE TABLE IF NOT EXISTS races between processes starting at once: take turns
                connection.execute("SELECT pg_advisory_xact_lock(hashtext('warlog_refusals'))")
                connection.execute(f"CREATE TABLE IF NOT EXISTS {self._table} (game text, seat text, key text, "
                                   "body text, status int, problem text, at double precision, "
                                   "PRIMARY KEY (game, seat, key))")
                connection.execute(f"ALTER TABLE {self._table} ADD COLUMN IF NOT EXISTS endpoint text")
            # a pool reconnects after the server restarts; one connection would stay broken
            self._pg = AsyncConnectionPool(kwargs={**params, "autocommit": True}, min_size=1, max_size=4, open=False)
        elif sqlite_path and sqlite_path != ":memory:":
            self._table = "warlog_refusals"
            self._sqlite = sqlite3.connect(sqlite_path, check_same_thread=False, timeout=10)
            self._run_sqlite("CREATE TABLE IF NOT EXISTS {t} (game TEXT, seat TEXT, key TEXT, body TEXT, "
                             "status INTEGER, problem TEXT, at REAL, PRIMARY KEY (game, seat, key))")
            if "endpoint" not in {row[1] for row in self._run_sqlite("PRAGMA table_info({t})")}:  # a file from before
                self._run_sqlite("ALTER TABLE {t} ADD COLUMN endpoint TEXT")

    @classmethod
    def for_settings(cls, settings: Settings) -> RefusalStore:
        """Beside the game log: the same PostgreSQL database and schema, or the same SQLite file."""
        postgres = settings.postgres_params()
        if postgres is not None:
            return cls(postgres=postgres)
        return cls(sqlite_path=None if settings.persistence == "popo" else settings.db)

    async def open(self) -> None:
        """On the event loop that will serve the requests (the app's lifespan)."""
        if self._pg is not None:
            await self._pg.open()

    def _run_sqlite(self, statement: str, params: tuple[Any, ...] = ()) -> list[Any]:
        if self._sqlite is None:
            raise RuntimeError("no SQLite file for the refusals")  # only called when one was opened
        with self._lock:
            rows = self._sqlite.execute(statement.format(t=self._table), params).fetchall()
            self._sqlite.commit()
            return rows

    async def _run(self, statement: str, params: tuple[Any, ...] = ()) -> list[Any]:
        if self._pg is None:
            return self._run_sqlite(statement, params)
        async with self._pg.connection() as connection:
            cursor = await connection.execute(statement.format(t=self._table).replace("?", "%s"), params)
            return await cursor.fetchall() if cursor.description else []

    async def get(self, game: str, seat: str, key: str) -> tuple[str, int, dict[str, Any], str | None] | None:
        if self._pg is None and self._sqlite is None:
            with self._lock:
                row = self._memory.get((game, seat, key))
        else:
            rows = await self._run("SELECT body, status, problem, at, endpoint FROM {t} "
                                   "WHERE game=? AND seat=? AND key=?", (game, seat, key))
            row = rows[0] if rows else None
        if row is None or time.time() - row[3] > TTL_S:
            return None
        return row[0], row[1], json.loads(row[2]), row[4]

    async def put(self, game: str, seat: str, key: str, body: str, status: int, problem: dict[str, Any],
                  endpoint: str) -> None:
        now = time.time()
        row = (game, seat, key, body, status, json.dumps(problem), now, endpoint)
        if self._pg is None and self._sqlite is None:
            with self._lock:
                stored = self._memory.get((game, seat, key))
                if stored is None or now - stored[3] > TTL_S:
                    self._memory[(game, seat, key)] = row[3:]
            return
        # the first answer stands for 24 hours; after that the key is free again
        await self._run("INSERT INTO {t} " + COLUMNS + " VALUES (?,?,?,?,?,?,?,?) ON CONFLICT (game, seat, key) "
                        "DO UPDATE SET body=excluded.body, status=excluded.status, problem=excluded.problem, "
                        "at=excluded.at, endpoint=excluded.endpoint "
                        "WHERE {t}.at < ?", (*row, now - TTL_S))

    async def close(self) -> None:
        if self._pg is not None:
            await self._pg.close()
        if self._sqlite is not None:
            self._sqlite.close()
