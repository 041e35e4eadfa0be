"""The eventsourcing library's stores as warlog configures them.

SQLite: the library's SQLite module with one setting more, `PRAGMA synchronous`.

In WAL mode, `NORMAL` keeps every committed transaction through a crash of the
service (the write-ahead log is already in the operating system's hands when
the commit returns); only a power cut or kernel crash may lose the last
commits. `FULL` also survives those, for an fsync on every commit (about half
of a command's latency here). Choose with WARLOG_SQLITE_SYNCHRONOUS.

PostgreSQL: the library's PostgreSQL module with its application recorder chosen through the library's
own APPLICATION_RECORDER_TOPIC (`OneTripRecorder`, below): an append is one round trip, with the table
lock held inside the server only.
"""
from __future__ import annotations

from typing import Any

from eventsourcing import postgres, sqlite
from psycopg.sql import SQL, Identifier

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
