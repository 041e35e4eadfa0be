"""Request, stream and game-creation limits (429 problem+json with Retry-After).

Every rate is a GCRA (generic cell rate algorithm): one number per key, the "theoretical arrival time"
`tat`; a request is admitted when pushing `tat` one interval (1/rate) on leaves it within `burst`
intervals of now. So a key gets `burst` requests at once, then `rate` a second.

Where the game log lives in PostgreSQL, any number of processes serve it, so the limits live there
too: `tat` in a small table beside the refusals' (pushed on by a database function, on the database's
clock), and each open stream holds a session advisory lock on one of the token's slots, which PostgreSQL
releases by itself when the process holding it dies. On SQLite (one process) or in memory they are
kept in the process.

A process takes a token's cells from PostgreSQL a lease at a time (`PostgresCounters`): up to LEASE
cells at once, never more than a quarter of those left in the token's burst, so that a token near its
limit is counted one request at a time, as if there were no leases. A token's requests thus cost a
round trip once in up to LEASE requests, not each; the price is that a process may hold cells taken
and not yet used, so that over P processes a token can pass its limit by at most P x (LEASE - 1)
requests in any window (and be refused that many early elsewhere): the limits are there against a
runaway client, which this leaves held.
"""
from __future__ import annotations

import asyncio
import math
import threading
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from warlog.api.errors import Problem

if TYPE_CHECKING:
    import psycopg

    from warlog.api.settings import Settings

PRUNE_EVERY_S = 300.0  # a key whose tat has passed is the same as no key: forget those this often
LEASE = 16  # the most cells of a key a process takes from PostgreSQL at once


@dataclass(frozen=True)
class Rate:
    per_second: float
    burst: int

    @property
    def interval(self) -> float:
        return 1.0 / self.per_second

    @property
    def tolerance(self) -> float:
        return self.burst * self.interval

    def admit(self, tat: float | None, now: float) -> tuple[float | None, float]:
        """(the new tat, or None when refused; the seconds to wait when refused)."""
        pushed = max(tat if tat is not None else now, now) + self.interval
        if pushed - now <= self.tolerance + 1e-9:  # floating point: `burst` at one instant still fit
            return pushed, 0.0
        return None, pushed - now - self.tolerance


class Counters(Protocol):
    async def admit(self, key: str, rate: Rate) -> float:
        """0 when admitted, else the seconds until the key may come back."""

    async def open(self) -> None: ...
    async def close(self) -> None: ...


class Slots(Protocol):
    def take(self, key: str, slots: int) -> bool: ...
    def give_back(self, key: str) -> None: ...
    def close(self) -> None: ...


class LocalCounters:
    def __init__(self) -> None:
        self._tats: dict[str, float] = {}
        self._lock = threading.Lock()
        self._pruned = time.monotonic()

    async def admit(self, key: str, rate: Rate) -> float:
        return self.admit_now(key, rate)

    def admit_now(self, key: str, rate: Rate) -> float:
        now = time.monotonic()
        with self._lock:
            if now - self._pruned > PRUNE_EVERY_S:
                self._tats = {k: tat for k, tat in self._tats.items() if tat > now}
                self._pruned = now
            tat, wait = rate.admit(self._tats.get(key), now)
            if tat is not None:
                self._tats[key] = tat
            return wait

    async def open(self) -> None:
        pass

    async def close(self) -> None:
        pass


class LocalSlots:
    def __init__(self) -> None:
        self._open: dict[str, int] = {}
        self._lock = threading.Lock()

    def take(self, key: str, slots: int) -> bool:
        with self._lock:
            if self._open.get(key, 0) >= slots:
                return False
            self._open[key] = self._open.get(key, 0) + 1
            return True

    def give_back(self, key: str) -> None:
        with self._lock:
            left = self._open.get(key, 0) - 1
            if left > 0:
                self._open[key] = left
            else:
                self._open.pop(key, None)

    def close(self) -> None:
        pass


class PostgresCounters:
    """The tats in `<schema>.warlog_limits`, pushed on by the function `<schema>.warlog_lease` on the
    database's clock, so that every process sees one count and no two clocks disagree. The function
    takes the key's row lock, grants the cells that fit (at most `most`, at most a quarter of the room
    left, at least one), and answers (cells granted, seconds to wait when none). It is awaited on the
    event loop (psycopg's asyncio pool); the cells granted beyond the request's own are kept here and
    spent without asking (see the module's docstring for what that costs)."""

    def __init__(self, postgres: dict[str, Any], lease: int = LEASE) -> None:
        import psycopg
        from psycopg import sql
        from psycopg_pool import AsyncConnectionPool

        params = dict(postgres)
        schema = params.pop("schema", "") or "public"
        table = sql.Identifier(schema, "warlog_limits").as_string(None)
        function = sql.Identifier(schema, "warlog_lease").as_string(None)
        with psycopg.connect(**params, autocommit=True, connect_timeout=10) as connection, \
                connection.transaction():
            connection.execute("SELECT pg_advisory_xact_lock(hashtext('warlog_limits'))")  # processes start at once
            connection.execute(f"CREATE UNLOGGED TABLE IF NOT EXISTS {table} "
                               "(key text PRIMARY KEY, tat double precision)")
            # cells fit while tat + cells x step - now <= tolerance (+1e-9: `burst` at one instant still fit);
            # `now` is read once the key's row is locked, so that a call that queued behind another process's
            # for the row is judged when it has it (read before, it missed the cells that came due meanwhile)
            connection.execute(
                f"CREATE OR REPLACE FUNCTION {function}(wanted text, step double precision, "
                "tolerance double precision, most integer, OUT granted integer, OUT wait double precision) "
                "LANGUAGE plpgsql AS $body$ DECLARE now double precision; pushed double precision; "
                "room double precision; BEGIN "
                f"INSERT INTO {table} (key, tat) VALUES (wanted, extract(epoch FROM clock_timestamp())) "
                "ON CONFLICT (key) DO NOTHING; "
                f"SELECT t.tat INTO pushed FROM {table} t WHERE t.key = wanted FOR UPDATE; "
                "now := extract(epoch FROM clock_timestamp()); pushed := GREATEST(pushed, now); "
                "room := floor((tolerance + 1e-9 - (pushed - now)) / step); "
                "IF room < 1 THEN granted := 0; wait := pushed + step - now - tolerance; RETURN; END IF; "
                "granted := LEAST(most, GREATEST(1, floor(room / 4)))::integer; wait := 0; "
                f"UPDATE {table} t SET tat = pushed + granted * step WHERE t.key = wanted; "
                "END $body$")
        # opened on the serving event loop (`open`), which its connections then belong to
        self._pg = AsyncConnectionPool(kwargs={**params, "autocommit": True}, min_size=1, max_size=4, open=False)
        self._lease_sql = f"SELECT granted, wait FROM {function}(%s, %s, %s, %s)"
        self._prune = f"DELETE FROM {table} WHERE tat < extract(epoch FROM clock_timestamp())"
        self._pruned = time.monotonic()
        self._most = lease
        self._leased: dict[str, int] = {}  # key -> cells taken and not yet spent (the loop's own: no lock)

    async def open(self) -> None:
        await self._pg.open()

    async def admit(self, key: str, rate: Rate) -> float:
        left = self._leased.pop(key, 0)
        if left > 0:
            if left > 1:
                self._leased[key] = left - 1
            return 0.0
        async with self._pg.connection() as connection:
            cursor = await connection.execute(self._lease_sql, (key, rate.interval, rate.tolerance, self._most))
            row = await cursor.fetchone()
            if row is None:
                raise RuntimeError("the lease statement returned no row")  # it always returns one
            granted, wait = row
            if time.monotonic() - self._pruned > PRUNE_EVERY_S:
                self._pruned = time.monotonic()
                self._leased.clear()  # unspent cells are given up, never given back: refused early, not late
                await connection.execute(self._prune)
        if granted:
            if granted > 1:
                self._leased[key] = self._leased.get(key, 0) + granted - 1
            return 0.0
        return wait if wait > 0 else rate.interval

    async def close(self) -> None:
        await self._pg.close()


class PostgresSlots:
    """A token's open streams across processes: stream slot n of a token is the session advisory lock
    (hashtext(token), n), held on this process's one connection while the stream is open."""

    def __init__(self, postgres: dict[str, Any]) -> None:
        params = dict(postgres)
        params.pop("schema", None)  # advisory locks are per database
        self._params = params
        self._lock = threading.Lock()
        self._held: dict[str, list[int]] = {}
        self._connection: psycopg.Connection[Any] | None = None

    def _connect(self) -> psycopg.Connection[Any]:
        import psycopg

        if self._connection is None or self._connection.closed:
            self._connection = psycopg.connect(**self._params, autocommit=True, connect_timeout=5)
            self._held.clear()  # a new session holds none of the old one's locks
        return self._connection

    def take(self, key: str, slots: int) -> bool:
        import psycopg

        try:
            return self._take(key, slots)
        except psycopg.OperationalError:  # the server restarted: its locks went with the old session
            with self._lock:
                if self._connection is not None:
                    self._connection.close()
            return self._take(key, slots)

    def _take(self, key: str, slots: int) -> bool:
        with self._lock:
            connection = self._connect()
            mine = self._held.setdefault(key, [])
            # a session may take one lock twice, so the slots this process holds are skipped, not retried
            for slot in (slot for slot in range(slots) if slot not in mine):
                row = connection.execute("SELECT pg_try_advisory_lock(hashtext(%s), %s)", (key, slot)).fetchone()
                if row is not None and row[0]:
                    mine.append(slot)
                    return True
            if not mine:
                self._held.pop(key, None)
            return False

    def give_back(self, key: str) -> None:
        with self._lock:
            mine = self._held.get(key)
            if not mine:
                return
            slot = mine.pop()
            if not mine:
                del self._held[key]
            if self._connection is not None and not self._connection.closed:
                try:
                    self._connection.execute("SELECT pg_advisory_unlock(hashtext(%s), %s)", (key, slot))
                except Exception:  # the session is gone, and its locks with it
                    self._connection.close()

    def close(self) -> None:
        with self._lock:
            if self._connection is not None:
                self._connection.close()  # releases every slot this process held


class Limits:
    """Per token: requests a second and open streams; per client address: games created."""

    def __init__(self, requests: Rate, streams: int, games: Rate, counters: Counters, slots: Slots,
                 shared: bool = False) -> None:
        self.requests, self.max_streams, self.games = requests, streams, games
        self.counters, self.slots, self.shared = counters, slots, shared

    @classmethod
    def for_settings(cls, settings: Settings) -> Limits:
        requests = Rate(settings.requests_per_second, settings.burst)
        games = Rate(settings.games_per_minute / 60.0, settings.games_burst)
        postgres = settings.postgres_params()
        if postgres is not None:
            return cls(requests, settings.streams_per_token, games, PostgresCounters(postgres),
                       PostgresSlots(postgres), shared=True)
        return cls(requests, settings.streams_per_token, games, LocalCounters(), LocalSlots())

    async def open(self) -> None:
        """On the event loop that will serve the requests (the app's lifespan)."""
        await self.counters.open()

    async def _admit(self, key: str, rate: Rate) -> float:
        return await self.counters.admit(key, rate)

    async def take(self, token: str) -> None:
        wait = await self._admit("token:" + token, self.requests)
        if wait:
            raise Problem(429, f"more than {self.requests.per_second:g} requests a second for this token",
                          headers={"Retry-After": str(max(1, math.ceil(wait)))})

    async def create_game(self, address: str) -> None:
        wait = await self._admit("games:" + address, self.games)
        if wait:
            raise Problem(429, f"more than {self.games.per_second * 60:g} games a minute from this address",
                          headers={"Retry-After": str(max(1, math.ceil(wait)))})

    async def open_stream(self, token: str) -> None:
        taken = await asyncio.to_thread(self.slots.take, token, self.max_streams) if self.shared \
            else self.slots.take(token, self.max_streams)
        if not taken:
            raise Problem(429, f"at most {self.max_streams} open streams per token", headers={"Retry-After": "5"})

    def close_stream(self, token: str) -> None:
        self.slots.give_back(token)

    async def close(self) -> None:
        await self.counters.close()
        self.slots.close()
