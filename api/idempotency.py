"""Stored refusals for Idempotency-Key (accepted answers live in the game's own log).

A refused request appends nothing, so its answer is kept beside the log: in a
small table of the same SQLite file or PostgreSQL database, for 24 hours.
"""
from __future__ import annotations

import json
import sqlite3
import threading
import time
from typing import Any

TTL_S = 24 * 3600


class RefusalStore:
    """(game, seat, key) -> (body digest, status, problem body)."""

    def __init__(self, sqlite_path: str | None = None, postgres_dsn: str | None = None) -> None:
        self._lock = threading.Lock()
        self._memory: dict[tuple[str, str, str], tuple[str, int, dict[str, Any], float]] = {}
        self._pg = None
        self._sqlite = None
        if postgres_dsn:
            import psycopg

            self._pg = psycopg.connect(postgres_dsn, autocommit=True)
            self._pg.execute("CREATE TABLE IF NOT EXISTS warlog_refusals (game text, seat text, key text, "
                             "body text, status int, problem text, at double precision, "
                             "PRIMARY KEY (game, seat, key))")
        elif sqlite_path and sqlite_path != ":memory:":
            self._sqlite = sqlite3.connect(sqlite_path, check_same_thread=False, timeout=10)
            self._sqlite.execute("CREATE TABLE IF NOT EXISTS warlog_refusals (game TEXT, seat TEXT, key TEXT, "
                                 "body TEXT, status INTEGER, problem TEXT, at REAL, "
                                 "PRIMARY KEY (game, seat, key))")
            self._sqlite.commit()

    def get(self, game: str, seat: str, key: str) -> tuple[str, int, dict[str, Any]] | None:
        with self._lock:
            if self._pg is not None:
                row = self._pg.execute("SELECT body, status, problem, at FROM warlog_refusals WHERE game=%s AND "
                                       "seat=%s AND key=%s", (game, seat, key)).fetchone()
            elif self._sqlite is not None:
                row = self._sqlite.execute("SELECT body, status, problem, at FROM warlog_refusals WHERE game=? "
                                           "AND seat=? AND key=?", (game, seat, key)).fetchone()
            else:
                stored = self._memory.get((game, seat, key))
                row = (stored[0], stored[1], json.dumps(stored[2]), stored[3]) if stored else None
        if row is None or time.time() - row[3] > TTL_S:
            return None
        return row[0], row[1], json.loads(row[2])

    def put(self, game: str, seat: str, key: str, body: str, status: int, problem: dict[str, Any]) -> None:
        now = time.time()
        with self._lock:
            if self._pg is not None:
                self._pg.execute("INSERT INTO warlog_refusals VALUES (%s,%s,%s,%s,%s,%s,%s) ON CONFLICT DO NOTHING",
                                 (game, seat, key, body, status, json.dumps(problem), now))
            elif self._sqlite is not None:
                self._sqlite.execute("INSERT OR IGNORE INTO warlog_refusals VALUES (?,?,?,?,?,?,?)",
                                     (game, seat, key, body, status, json.dumps(problem), now))
                self._sqlite.commit()
            else:
                self._memory.setdefault((game, seat, key), (body, status, problem, now))

    def close(self) -> None:
        for connection in (self._pg, self._sqlite):
            if connection is not None:
                connection.close()
