"""The eventsourcing library's stores as warlog configures them.

SQLite: the library's SQLite module with one setting more, `PRAGMA synchronous`.

In WAL mode, `NORMAL` keeps every committed transaction through a crash of the
service (the write-ahead log is already in the operating system's hands when
the commit returns); only a power cut or kernel crash may lose the last
commits. `FULL` also survives those, for an fsync on every commit (about half
of a command's latency here). Choose with WARLOG_SQLITE_SYNCHRONOUS.

PostgreSQL: the library's PostgreSQL module with its application recorder chosen through the library's
own APPLICATION_RECORDER_TOPIC (`OneTripRecorder`, below): an append is one round trip, with the table
lock held inside the server only. `AsyncAppends` sends that same append from the event loop (psycopg's
asyncio pool) for the serving processes' default write mode, "deferred" (api/settings.py).

Both keep each game's head record (domain/heads.py) in a table of its own, `warlog_heads`, written in the
transaction of every append: the recorders take `head=(game_id, seq, hash)` beside the events, and the
record only ever rises.
"""
from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Sequence
from typing import Any
from uuid import UUID

import psycopg
from eventsourcing import persistence, postgres, sqlite
from eventsourcing.utils import retry
from psycopg.sql import SQL, Identifier
from psycopg.types.composite import register_composite
from psycopg_pool import AsyncConnectionPool

from warlog.domain.heads import HeadRow

CHOICES = ("NORMAL", "FULL", "EXTRA")
HEADS_TABLE = "warlog_heads"
HEAD_COLUMNS = "seq, hash, claim_seq, claim_hash, claim_by"
Head = tuple[UUID, int, str]  # (game id, seq, hash): what an append's transaction records as the head


class HeadedSQLiteRecorder(sqlite.SQLiteApplicationRecorder):
    """The library's SQLite application recorder with the head record written in each append's transaction."""

    def construct_create_table_statements(self) -> list[str]:
        return [*super().construct_create_table_statements(),
                f"CREATE TABLE IF NOT EXISTS {HEADS_TABLE} (game_id TEXT PRIMARY KEY, seq INTEGER NOT NULL, "
                "hash TEXT NOT NULL, claim_seq INTEGER, claim_hash TEXT, claim_by TEXT)"]

    def insert_events(self, stored_events: Sequence[persistence.StoredEvent], **kwargs: Any) -> Sequence[int] | None:
        """The library's append, its one transaction entered directly rather than through the three generator-made
        context managers of `datastore.transaction`: the same pooled writer connection, BEGIN, the same statements,
        the commit, and the same errors (its transaction maps sqlite3's to its own)."""
        pool = self.datastore.pool
        connection = pool.get_connection(is_writer=True)
        try:
            with sqlite.SQLiteTransaction(connection, commit=True) as cursor:
                try:
                    return self._insert_events(cursor, stored_events, **kwargs)
                finally:
                    cursor.sqlite_cursor.close()
        finally:
            pool.put_connection(connection)

    def _insert_events(self, c: sqlite.SQLiteCursor, stored_events: Sequence[persistence.StoredEvent],
                       **kwargs: Any) -> Sequence[int] | None:
        returning = super()._insert_events(c, stored_events, **kwargs)
        head: Head | None = kwargs.get("head")
        if head is not None:
            c.execute(f"INSERT INTO {HEADS_TABLE} (game_id, seq, hash) VALUES (?, ?, ?) ON CONFLICT (game_id) "
                      f"DO UPDATE SET seq = excluded.seq, hash = excluded.hash WHERE {HEADS_TABLE}.seq < excluded.seq",
                      (head[0].hex, head[1], head[2]))
        return returning

    def select_head(self, game_id: UUID) -> HeadRow | None:
        with self.datastore.transaction(commit=False) as c:
            c.execute(f"SELECT {HEAD_COLUMNS} FROM {HEADS_TABLE} WHERE game_id = ?", (game_id.hex,))
            row = c.fetchone()
        return None if row is None else HeadRow(*tuple(row))

    def take_head(self, game_id: UUID, seq: int, hash: str) -> None:
        with self.datastore.transaction(commit=True) as c:
            c.execute(f"INSERT INTO {HEADS_TABLE} (game_id, seq, hash) VALUES (?, ?, ?) ON CONFLICT (game_id) "
                      f"DO UPDATE SET seq = excluded.seq, hash = excluded.hash WHERE {HEADS_TABLE}.seq = 0",
                      (game_id.hex, seq, hash))

    def claim_head(self, game_id: UUID, seq: int, hash: str, by: str) -> None:
        with self.datastore.transaction(commit=True) as c:
            c.execute(f"INSERT INTO {HEADS_TABLE} (game_id, seq, hash, claim_seq, claim_hash, claim_by) "
                      "VALUES (?, 0, '', ?, ?, ?) ON CONFLICT (game_id) DO UPDATE SET claim_seq = excluded.claim_seq, "
                      f"claim_hash = excluded.claim_hash, claim_by = excluded.claim_by "
                      f"WHERE {HEADS_TABLE}.claim_seq IS NULL", (game_id.hex, seq, hash, by))


class TunedConnectionPool(sqlite.SQLiteConnectionPool):
    """The library's pool, its connections made as the library makes them (autocommit, WAL, rows as sqlite3.Row)
    with `PRAGMA synchronous` set, and sqlite3's own statement cache: the library asks for `cached_statements=True`,
    which is a cache of one statement, so that each of an append's three statements (BEGIN, the events, the head
    record) was compiled again every time (a third of the append's time in SQLite)."""

    STATEMENTS = 128  # sqlite3's default cache size

    def __init__(self, *, synchronous: str, **kwargs: Any) -> None:
        self.synchronous = synchronous
        super().__init__(**kwargs)

    def _create_connection(self) -> sqlite.SQLiteConnection:
        try:
            c = sqlite3.connect(database=self.db_name, uri=True, check_same_thread=False, isolation_level=None,
                                cached_statements=self.STATEMENTS,
                                timeout=self.lock_timeout or sqlite.SQLITE3_DEFAULT_LOCK_TIMEOUT)
        except (sqlite3.Error, TypeError) as e:
            raise persistence.InterfaceError(e) from e
        if not self.is_sqlite_memory_mode and not self.is_journal_mode_wal:
            mode = c.execute("PRAGMA journal_mode;").fetchone()[0]
            if mode.lower() != "wal":
                c.execute("PRAGMA journal_mode=WAL;")
                self.journal_mode_was_changed_to_wal = True
            self.is_journal_mode_wal = True
        c.row_factory = sqlite3.Row
        c.execute(f"PRAGMA synchronous={self.synchronous}")
        return sqlite.SQLiteConnection(sqlite_conn=c, max_age=self.max_age)


class Factory(sqlite.SQLiteFactory):
    SQLITE_SYNCHRONOUS = "SQLITE_SYNCHRONOUS"
    application_recorder_class = HeadedSQLiteRecorder  # the library's, keeping the head record

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        synchronous = (self.env.get(self.SQLITE_SYNCHRONOUS) or "NORMAL").upper()
        if synchronous not in CHOICES:
            raise OSError(f"SQLITE_SYNCHRONOUS must be one of {', '.join(CHOICES)}, not {synchronous!r}")
        plain = self.datastore.pool
        self.datastore.pool = TunedConnectionPool(synchronous=synchronous, db_name=plain.db_name,
                                                  lock_timeout=plain.lock_timeout)
        plain.close()


class OneTripRecorder(postgres.PostgresApplicationRecorder):
    """The library's application recorder, appending through its own database-function path
    (POSTGRES_ENABLE_DB_FUNCTIONS) with that function mended in two ways.

    The library's default append is a pipelined transaction of several round trips (begin, the table
    lock, NOTIFY, the insert, a sync, commit), and the EXCLUSIVE table lock it takes so that notification
    ids commit in order is held across all of them: every other writer of the table, in any process,
    waits out this one's round trips and, under load, its Python thread's wait for the GIL between them.
    That, not the database, capped commands/s on PostgreSQL (ops/bench/shards.py). The library's
    database function makes the append one statement, but (in eventsourcing 9.5) takes no table lock,
    so a follower of the notification log could pass over an id that commits later, and it is named
    per schema rather than per table, so that several applications in one schema (the shards) would
    each replace the others' and insert into the last one's table. The function made here takes the
    lock, as the pipelined path does, and is named after its table. It also raises the game's head record
    (`warlog_heads`, one table for every shard of the schema) in the same transaction."""

    def __init__(self, datastore: postgres.PostgresDatastore, *, events_table_name: str = "stored_events"):
        super().__init__(datastore, events_table_name=events_table_name)
        schema, table = Identifier(datastore.schema), Identifier(events_table_name)
        self.pg_function_name_insert_events = f"{events_table_name}_insert"[:63]
        function = Identifier(self.pg_function_name_insert_events)
        heads = Identifier(HEADS_TABLE)
        self.sql_invoke_pg_function_insert_events = SQL(
            "SELECT * FROM {schema}.{function}((%s), %s::uuid, %s::bigint, %s::text)").format(
            schema=schema, function=function)
        self.sql_create_statements[self.create_insert_function_statement_index] = SQL(
            "CREATE OR REPLACE FUNCTION {schema}.{function}(events {schema}.{event}[], "
            "head_id uuid, head_seq bigint, head_hash text) "
            "RETURNS SETOF bigint LANGUAGE plpgsql AS $BODY$ BEGIN "
            "SET LOCAL lock_timeout = '{lock_timeout}s'; "
            "LOCK TABLE {schema}.{table} IN EXCLUSIVE MODE; "
            "NOTIFY {channel}; "
            "RETURN QUERY INSERT INTO {schema}.{table} AS t (originator_id, originator_version, topic, state) "
            "SELECT originator_id, originator_version, topic, state FROM unnest(events) "
            "RETURNING notification_id; "
            "IF head_id IS NOT NULL THEN "
            "INSERT INTO {schema}.{heads} AS h (game_id, seq, hash) VALUES (head_id, head_seq, head_hash) "
            "ON CONFLICT (game_id) DO UPDATE SET seq = EXCLUDED.seq, hash = EXCLUDED.hash WHERE h.seq < EXCLUDED.seq; "
            "END IF; "
            "END; $BODY$"
        ).format(schema=schema, function=function, event=Identifier(self.stored_event_type_name),
                 lock_timeout=datastore.lock_timeout, table=table, channel=Identifier(self.channel_name),
                 heads=heads)
        self.sql_create_statements.append(SQL(
            "CREATE TABLE IF NOT EXISTS {schema}.{heads} (game_id uuid PRIMARY KEY, seq bigint NOT NULL, "
            "hash text NOT NULL, claim_seq bigint, claim_hash text, claim_by text)").format(schema=schema, heads=heads))
        self.sql_select_head = SQL("SELECT " + HEAD_COLUMNS + " FROM {schema}.{heads} WHERE game_id = %s").format(
            schema=schema, heads=heads)
        self.sql_take_head = SQL(
            "INSERT INTO {schema}.{heads} AS h (game_id, seq, hash) VALUES (%s, %s, %s) ON CONFLICT (game_id) "
            "DO UPDATE SET seq = EXCLUDED.seq, hash = EXCLUDED.hash WHERE h.seq = 0").format(schema=schema, heads=heads)
        self.sql_claim_head = SQL(
            "INSERT INTO {schema}.{heads} AS h (game_id, seq, hash, claim_seq, claim_hash, claim_by) "
            "VALUES (%s, 0, '', %s, %s, %s) ON CONFLICT (game_id) DO UPDATE SET claim_seq = EXCLUDED.claim_seq, "
            "claim_hash = EXCLUDED.claim_hash, claim_by = EXCLUDED.claim_by WHERE h.claim_seq IS NULL"
        ).format(schema=schema, heads=heads)

    def pg_rows(self, stored_events: Sequence[persistence.StoredEvent]) -> list[Any]:
        return [self.construct_pg_stored_event(e.originator_id, e.originator_version, e.topic, e.state)
                for e in stored_events]

    @retry((persistence.InterfaceError, persistence.OperationalError), max_attempts=10, wait=0.2)
    def insert_events(self, stored_events: Sequence[persistence.StoredEvent], **kwargs: Any) -> Sequence[int] | None:
        """The library's database-function append, with the head record beside the events."""
        head: Head | tuple[None, None, None] = kwargs.get("head") or (None, None, None)
        with self.datastore.get_connection() as conn, conn.cursor() as curs:
            curs.execute(self.sql_invoke_pg_function_insert_events, (self.pg_rows(stored_events), *head),
                         prepare=True)
            return [row[self.pg_function_name_insert_events] for row in curs.fetchall()]

    def _head_statement(self, statement: Any, params: tuple[Any, ...], fetch: bool = False) -> Any:
        with self.datastore.get_connection() as conn, conn.cursor() as curs:
            curs.execute(statement, params)
            return curs.fetchone() if fetch else None

    def select_head(self, game_id: UUID) -> HeadRow | None:
        row = self._head_statement(self.sql_select_head, (game_id,), fetch=True)
        return None if row is None else HeadRow(*row.values())

    def take_head(self, game_id: UUID, seq: int, hash: str) -> None:
        self._head_statement(self.sql_take_head, (game_id, seq, hash))

    def claim_head(self, game_id: UUID, seq: int, hash: str, by: str) -> None:
        self._head_statement(self.sql_claim_head, (game_id, seq, hash, by))


class AsyncAppends:
    """A shard's appends awaited on the event loop: the same one-statement append as `OneTripRecorder`'s
    (its SQL, its function, its composite rows), sent through psycopg's asyncio pool, so that a write on
    PostgreSQL neither blocks the loop on its round trip nor hops to a worker thread and back (that hop,
    measured in ops/bench/command_cpu.py, cost more CPU than the append). Errors are the library's own,
    as its recorder raises them: a lost race is its IntegrityError; a lost connection is retried as the
    library retries it (10 times, 0.2 s apart), then raised."""

    ATTEMPTS, WAIT_S = 10, 0.2

    def __init__(self, recorder: OneTripRecorder, postgres: dict[str, Any], shards: int = 1) -> None:
        self._recorder = recorder
        datastore = recorder.datastore
        datastore.register_type_adapters()
        name = recorder.stored_event_type_name
        info, python_type = datastore.psycopg_type_adapters[name], datastore.psycopg_python_types[name]

        async def configure(connection: Any) -> None:
            register_composite(info, connection, factory=python_type)

        params = {key: value for key, value in postgres.items() if key != "schema"}
        # eight connections a process in all (one a shard past eight shards): an append is one short
        # statement, awaited, never held across other work
        self._pool = AsyncConnectionPool(kwargs={**params, "autocommit": True}, min_size=1,
                                         max_size=max(1, 8 // shards), configure=configure, open=False)

    async def open(self) -> None:
        await self._pool.open()

    async def close(self) -> None:
        await self._pool.close()

    async def insert(self, stored_events: list[Any], head: Head) -> list[int]:
        recorder = self._recorder
        rows = recorder.pg_rows(stored_events)
        for attempt in range(1, self.ATTEMPTS + 1):
            try:
                async with self._pool.connection() as connection:
                    cursor = await connection.execute(recorder.sql_invoke_pg_function_insert_events,
                                                      (rows, *head), prepare=True)
                    return [row[0] for row in await cursor.fetchall()]
            except psycopg.IntegrityError as error:
                raise persistence.IntegrityError(str(error)) from error
            except (psycopg.OperationalError, psycopg.InterfaceError) as error:
                if attempt == self.ATTEMPTS:
                    raise persistence.OperationalError(str(error)) from error
                await asyncio.sleep(self.WAIT_S)
        raise AssertionError("unreachable")
