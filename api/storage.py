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
"""
from __future__ import annotations

import asyncio
from typing import Any

import psycopg
from eventsourcing import persistence, postgres, sqlite
from psycopg.sql import SQL, Identifier
from psycopg.types.composite import register_composite
from psycopg_pool import AsyncConnectionPool

CHOICES = ("NORMAL", "FULL", "EXTRA")


class TunedConnectionPool(sqlite.SQLiteConnectionPool):
    def __init__(self, *, synchronous: str, **kwargs: Any) -> None:
        self.synchronous = synchronous
        super().__init__(**kwargs)

    def _create_connection(self) -> sqlite.SQLiteConnection:
        connection = super()._create_connection()
        connection._sqlite_conn.execute(f"PRAGMA synchronous={self.synchronous}")
        return connection


class Factory(sqlite.SQLiteFactory):
    SQLITE_SYNCHRONOUS = "SQLITE_SYNCHRONOUS"

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
    lock, as the pipelined path does, and is named after its table."""

    def __init__(self, datastore: postgres.PostgresDatastore, *, events_table_name: str = "stored_events"):
        super().__init__(datastore, events_table_name=events_table_name)
        schema, table = Identifier(datastore.schema), Identifier(events_table_name)
        self.pg_function_name_insert_events = f"{events_table_name}_insert"[:63]
        function = Identifier(self.pg_function_name_insert_events)
        self.sql_invoke_pg_function_insert_events = SQL("SELECT * FROM {schema}.{function}((%s))").format(
            schema=schema, function=function)
        self.sql_create_statements[self.create_insert_function_statement_index] = SQL(
            "CREATE OR REPLACE FUNCTION {schema}.{function}(events {schema}.{event}[]) "
            "RETURNS SETOF bigint LANGUAGE plpgsql AS $BODY$ BEGIN "
            "SET LOCAL lock_timeout = '{lock_timeout}s'; "
            "LOCK TABLE {schema}.{table} IN EXCLUSIVE MODE; "
            "NOTIFY {channel}; "
            "RETURN QUERY INSERT INTO {schema}.{table} AS t (originator_id, originator_version, topic, state) "
            "SELECT originator_id, originator_version, topic, state FROM unnest(events) "
            "RETURNING notification_id; "
            "END; $BODY$"
        ).format(schema=schema, function=function, event=Identifier(self.stored_event_type_name),
                 lock_timeout=datastore.lock_timeout, table=table, channel=Identifier(self.channel_name))


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

    async def insert(self, stored_events: list[Any]) -> list[int]:
        recorder = self._recorder
        rows = [recorder.construct_pg_stored_event(e.originator_id, e.originator_version, e.topic, e.state)
                for e in stored_events]
        for attempt in range(1, self.ATTEMPTS + 1):
            try:
                async with self._pool.connection() as connection:
                    cursor = await connection.execute(recorder.sql_invoke_pg_function_insert_events, (rows,),
                                                      prepare=True)
                    return [row[0] for row in await cursor.fetchall()]
            except psycopg.IntegrityError as error:
                raise persistence.IntegrityError(str(error)) from error
            except (psycopg.OperationalError, psycopg.InterfaceError) as error:
                if attempt == self.ATTEMPTS:
                    raise persistence.OperationalError(str(error)) from error
                await asyncio.sleep(self.WAIT_S)
        raise AssertionError("unreachable")
