"""Edits straight into a warlog store, below the service: what an attacker or a broken disk does.

The eventsourcing library keeps one row per event (`stored_events` on SQLite, `<app>_events` on
PostgreSQL: originator id, version, topic, state) and one per snapshot; the state is the library's
JSON transcoding of the event (`entry`, `meta`, timestamp), uncompressed and unencrypted here. Beside
them warlog keeps each game's head record (`warlog_heads`: seq, hash, a seat's claim).
"""
from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any
from uuid import UUID

Edit = Callable[[dict[str, Any]], None]


class SqliteStore:
    """One SQLite file of `warlog serve --db`."""

    events, snapshots, heads = "stored_events", "stored_snapshots", "warlog_heads"
    mark = "?"

    def __init__(self, path: str) -> None:
        self.path = path

    @contextmanager
    def connect(self) -> Iterator[Any]:
        db = sqlite3.connect(self.path)
        try:
            with db:
                yield db
        finally:
            db.close()

    def _key(self, game_id: str) -> Any:
        return UUID(str(game_id)).hex  # the library's SQLite recorder keeps ids as 32 hex digits

    def _sql(self, text: str) -> str:
        return (text.replace("{events}", self.events).replace("{snapshots}", self.snapshots)
                .replace("{heads}", self.heads).replace("?", self.mark))

    def versions(self, game_id: str, table: str = "{events}") -> list[int]:
        with self.connect() as db:
            rows = db.execute(self._sql(f"SELECT originator_version FROM {table} WHERE originator_id = ? "
                                        "ORDER BY originator_version"), (self._key(game_id),)).fetchall()
        return [row[0] for row in rows]

    def read(self, game_id: str, version: int, table: str = "{events}") -> dict[str, Any]:
        with self.connect() as db:
            (state,) = db.execute(self._sql(f"SELECT state FROM {table} WHERE originator_id = ? AND "
                                            "originator_version = ?"), (self._key(game_id), version)).fetchone()
        return json.loads(bytes(state))

    def edit(self, game_id: str, version: int, change: Edit, table: str = "{events}") -> None:
        """Decode one row's state, let `change` alter it in place, and write it back."""
        state = self.read(game_id, version, table)
        change(state)
        self.write_raw(game_id, version, json.dumps(state, separators=(",", ":")).encode(), table)

    def write_raw(self, game_id: str, version: int, state: bytes, table: str = "{events}") -> None:
        with self.connect() as db:
            db.execute(self._sql(f"UPDATE {table} SET state = ? WHERE originator_id = ? AND originator_version = ?"),
                       (state, self._key(game_id), version))

    def delete(self, game_id: str, versions: list[int], table: str = "{events}") -> None:
        with self.connect() as db:
            for version in versions:
                db.execute(self._sql(f"DELETE FROM {table} WHERE originator_id = ? AND originator_version = ?"),
                           (self._key(game_id), version))

    def swap(self, game_id: str, first: int, second: int) -> None:
        """Exchange two events' places (their versions), each row otherwise as it was."""
        with self.connect() as db:
            for old, new in ((first, -1), (second, first), (-1, second)):
                db.execute(self._sql("UPDATE {events} SET originator_version = ? WHERE originator_id = ? AND "
                                     "originator_version = ?"), (new, self._key(game_id), old))

    def head(self, game_id: str) -> tuple[int, str] | None:
        """The game's head record (seq, hash), or None."""
        with self.connect() as db:
            row = db.execute(self._sql("SELECT seq, hash FROM {heads} WHERE game_id = ?"),
                             (self._key(game_id),)).fetchone()
        return None if row is None else (row[0], row[1])

    def set_head(self, game_id: str, seq: int, hash_: str) -> None:
        """Rewrite the game's head record, as one who rewrites the events would."""
        with self.connect() as db:
            db.execute(self._sql("UPDATE {heads} SET seq = ?, hash = ? WHERE game_id = ?"),
                       (seq, hash_, self._key(game_id)))

    def drop_heads(self) -> None:
        """Empty the head table: a database as it was before head records existed."""
        with self.connect() as db:
            db.execute(self._sql("DELETE FROM {heads}"))

    def rewrite_chain(self, game_id: str, version: int, change: Edit, head_too: bool = False) -> str:
        """Change event `version` (its decoded row, in place), then re-hash it and every later event so that the
        chain links again: a rewritten log. `head_too`: rewrite the head record to match. The new head hash."""
        from warlog.domain.chain import event_hash

        prev = None
        versions = [v for v in self.versions(game_id) if v >= version]
        for seq in versions:
            def relink(row: dict[str, Any], seq: int = seq) -> None:
                nonlocal prev
                if seq == version:
                    change(row)
                if prev is not None:
                    row["entry"]["prev_hash"] = prev
                row["entry"]["hash"] = prev = event_hash(row["entry"])
            self.edit(game_id, seq, relink)
        if head_too and prev is not None:
            self.set_head(game_id, versions[-1], prev)
        return prev or ""

    def retopic(self, game_id: str, version: int, topic: str) -> None:
        """Change the topic stored beside an event (the class its row decodes as), nothing else."""
        with self.connect() as db:
            db.execute(self._sql("UPDATE {events} SET topic = ? WHERE originator_id = ? AND originator_version = ?"),
                       (topic, self._key(game_id), version))

    def of(self, game_id: str) -> SqliteStore:
        """The store holding `game_id` (one file holds every game)."""
        return self

    def row(self, game_id: str, version: int) -> tuple[str, bytes]:
        """An event row's topic and state, as stored."""
        with self.connect() as db:
            return db.execute(self._sql("SELECT topic, state FROM {events} WHERE originator_id = ? AND "
                                        "originator_version = ?"), (self._key(game_id), version)).fetchone()

    def splice(self, game_id: str, version: int, other_game: str, other_version: int) -> None:
        """Put another game's event (its row's topic and state, from wherever it is stored) in place of this
        game's event."""
        topic, state = self.of(other_game).row(other_game, other_version)
        mine = self.of(game_id)
        with mine.connect() as db:
            db.execute(mine._sql("UPDATE {events} SET topic = ?, state = ? WHERE originator_id = ? "
                                 "AND originator_version = ?"), (topic, state, self._key(game_id), version))


class PostgresStore(SqliteStore):
    """The same edits on PostgreSQL (`warlog_events`, `warlog_snapshots` in one schema; with N shards, each
    game's in its own shard's tables, `warlog_shard<k>_events`: `of(game_id)`)."""

    mark = "%s"

    def __init__(self, dsn: str, schema: str, app: str = "warlog", shards: int = 1) -> None:
        self.dsn, self.schema, self.shards = dsn, schema, shards
        self.events, self.snapshots = f'"{schema}".{app}_events', f'"{schema}".{app}_snapshots'
        self.heads = f'"{schema}".warlog_heads'

    def of(self, game_id: str) -> PostgresStore:
        from warlog.domain.shards import shard_name, shard_of

        if self.shards == 1:
            return self
        return PostgresStore(self.dsn, self.schema, shard_name(shard_of(UUID(str(game_id)), self.shards)))

    @contextmanager
    def connect(self) -> Iterator[Any]:
        import psycopg

        with psycopg.connect(self.dsn) as db:
            yield db

    def _key(self, game_id: str) -> Any:
        return UUID(str(game_id))
