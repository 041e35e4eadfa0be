"""Wakes the live streams of a game when an event is appended to it — by this process or,
on PostgreSQL, by any process sharing the database.

In-process writes call `Feed.notify` directly. On PostgreSQL a trigger on each
shard's events table (api/shards.py) sends `pg_notify('warlog_feed', <game id>)` when an append commits
(so any writer, in any process, is heard), and `PostgresListener` holds one
dedicated connection on the event loop (psycopg's asyncio connection: no thread to
hand each notification over from) that LISTENs and wakes the waiters of that game. Streams still re-read every `poll_s` as a safety net
(a long interval when the listener is running; short on SQLite, whose other
processes nobody hears).
"""
from __future__ import annotations

import asyncio
import threading
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from typing import Any
from uuid import UUID

import structlog

CHANNEL = "warlog_feed"
log = structlog.get_logger("warlog.feed")


@dataclass(frozen=True)
class Tail:
    generation: int                 # every append notified up to this one is in `entries`
    base: int                       # the entries follow this seq
    entries: list[dict[str, Any]]
    complete: bool                  # they reach the head (not cut at a page)

    def serves(self, after: int, generation: int) -> bool:
        return self.generation >= generation and self.base <= after and (self.complete or after == self.base)


class SharedTails:
    """The newest events of each followed game, read from the store once per append and handed to every
    live stream of that game: fifty streams woken by one append would otherwise queue for the game's
    lock, one store read each."""

    def __init__(self) -> None:
        self._guard = threading.Lock()
        self._locks: dict[UUID, threading.Lock] = {}
        self._tails: dict[UUID, Tail] = {}

    def read(self, game_id: UUID, after: int, generation: int, reuse: bool,
             read: Callable[[int], list[dict[str, Any]]], page: int) -> list[dict[str, Any]]:
        """Events after `after`; `reuse` only when woken by a notification (else the store may have
        moved on unheard: another SQLite process, a missed notification)."""
        with self._guard:
            lock = self._locks.setdefault(game_id, threading.Lock())
        with lock:
            shared = self.peek(game_id, after, generation) if reuse else None
            if shared is not None:
                return shared
            entries = read(after)
            self._tails[game_id] = Tail(generation, after, entries, len(entries) < page)
            return entries

    def peek(self, game_id: UUID, after: int, generation: int) -> list[dict[str, Any]] | None:
        """What `read` would hand a woken stream without reading the store, or None when it would read:
        taken on the event loop, so that the streams after the first to wake need no worker thread."""
        tail = self._tails.get(game_id)
        if tail is not None and tail.serves(after, generation):
            return [e for e in tail.entries if e["seq"] > after]
        return None

    def forget(self, game_id: UUID) -> None:
        with self._guard:
            self._tails.pop(game_id, None)
            self._locks.pop(game_id, None)


class Feed:
    def __init__(self, poll_s: float = 0.5) -> None:
        self.poll_s = poll_s
        self._waiters: dict[UUID, set[asyncio.Event]] = defaultdict(set)
        self._generations: dict[UUID, int] = {}
        self.listener: PostgresListener | None = None
        self.tails = SharedTails()

    def notify(self, game_id: UUID) -> None:
        waiters = self._waiters.get(game_id)
        if not waiters:
            return
        self._generations[game_id] = self._generations.get(game_id, 0) + 1
        for waiter in list(waiters):
            waiter.set()

    def generation(self, game_id: UUID) -> int:
        """How many appends to this game have been heard while someone follows it."""
        return self._generations.get(game_id, 0)

    def notify_all(self) -> None:
        for game_id in list(self._waiters):
            self.notify(game_id)

    @contextmanager
    def listening(self, game_id: UUID) -> Iterator[asyncio.Event]:
        """A waiter that stays registered for a whole stream: clear it *before* reading the
        store, then wait on it, and no append between the read and the wait is missed."""
        waiter = asyncio.Event()
        self._waiters[game_id].add(waiter)
        try:
            yield waiter
        finally:
            self._waiters[game_id].discard(waiter)
            if not self._waiters[game_id]:
                self._waiters.pop(game_id, None)
                self._generations.pop(game_id, None)
                self.tails.forget(game_id)

    async def wait(self, game_id: UUID, timeout: float | None = None) -> None:
        with self.listening(game_id) as waiter:
            await sleep_until(waiter, timeout or self.poll_s)


async def sleep_until(waiter: asyncio.Event, timeout: float) -> bool:
    """True when woken, False when `timeout` passed first."""
    try:
        await asyncio.wait_for(waiter.wait(), timeout)
        return True
    except TimeoutError:
        return False


TRIGGER_SQL = """
CREATE OR REPLACE FUNCTION {schema}.warlog_feed_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('{channel}', NEW.originator_id::text);  -- delivered at commit, once per game
    RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER warlog_feed_notify AFTER INSERT ON {schema}.{table}
    FOR EACH ROW EXECUTE FUNCTION {schema}.warlog_feed_notify();
"""


class PostgresListener:
    """One dedicated connection that LISTENs for appends by any process and wakes the feed."""

    def __init__(self, connect: dict[str, Any], schema: str, events_tables: list[str], feed: Feed) -> None:
        self.connect, self.schema, self.events_tables, self.feed = connect, schema, events_tables, feed
        self._task: asyncio.Task[None] | None = None

    @classmethod
    def for_shards(cls, shards: Any, feed: Feed) -> PostgresListener:
        """Listening to every shard's appends (one channel: the payload is the game's id). The listening
        connection is named `warlog serve <schema>`, which is how `warlog reshard` sees a serving process."""
        from warlog.api.shards import serve_tag

        datastore = shards.apps[0].recorder.datastore
        kwargs = datastore.pool.kwargs
        connect = {key: kwargs[key] for key in ("dbname", "host", "port", "user", "password") if kwargs.get(key)}
        connect["application_name"] = serve_tag(datastore.schema)
        return cls(connect, datastore.schema, [app.recorder.events_table_name for app in shards], feed)

    def install_trigger(self) -> None:
        """Idempotent; an advisory lock keeps processes that start together from racing."""
        import psycopg
        from psycopg import sql

        with psycopg.connect(**self.connect) as conn:
            conn.execute("SELECT pg_advisory_xact_lock(hashtext('warlog_feed_trigger'))")
            for table in self.events_tables:
                conn.execute(TRIGGER_SQL.format(schema=sql.Identifier(self.schema).as_string(None),
                                                table=sql.Identifier(table).as_string(None), channel=CHANNEL))

    async def start(self) -> None:
        await asyncio.to_thread(self.install_trigger)
        self._task = asyncio.get_running_loop().create_task(self._run(), name="warlog-feed-listener")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        import psycopg

        backoff = 0.1
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(**self.connect, autocommit=True) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    self.feed.notify_all()  # anything appended while not listening
                    backoff = 0.1
                    async for note in conn.notifies():
                        try:
                            game_id = UUID(note.payload)
                        except ValueError:
                            continue
                        self.feed.notify(game_id)
            except psycopg.Error as error:
                log.warning("feed listener lost its connection; reconnecting", error=str(error))
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, 5.0)
