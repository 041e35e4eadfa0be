"""The eventsourcing library's SQLite module with one setting more: `PRAGMA synchronous`.

In WAL mode, `NORMAL` keeps every committed transaction through a crash of the
service (the write-ahead log is already in the operating system's hands when
the commit returns); only a power cut or kernel crash may lose the last
commits. `FULL` also survives those, for an fsync on every commit (about half
of a command's latency here). Choose with WARLOG_SQLITE_SYNCHRONOUS.
"""
from __future__ import annotations

from typing import Any

from eventsourcing import sqlite

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
