"""The eventsourcing Application: get -> domain call -> save, with the library's
snapshots, aggregate cache (fast-forwarded, so several processes stay
correct) and retry on a lost race between processes.

Snapshots are taken from the game in hand when a save reaches a multiple of
the interval: the library's own `save` would load the game again from the
store (the last snapshot, then up to 100 events) to take the same snapshot.

The clock lives here, not in the aggregate: every request passes `at` in.
"""
from __future__ import annotations

import secrets
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from contextvars import ContextVar
from dataclasses import dataclass
from functools import partial
from typing import Any, ClassVar, TypeVar
from uuid import UUID, uuid4

from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.persistence import IntegrityError, InternalError, ProgrammingError
from eventsourcing.utils import retry

from warlog.domain import heads, integrity
from warlog.domain.commands import Command
from warlog.domain.game import Game
from warlog.domain.integrity import Damaged
from warlog.domain.rulings import Malformed, NotFound, Refused, Ruling
from warlog.domain.shards import APP_NAME, shard_name
from warlog.domain.verifying import Verifying, digest, remember

DEFAULT_OPTIONS = {"battle_rounds": 5, "reserves_from_round": 2, "spectator_delay_s": 0}
ROLES = ("A", "B", "spectator")
LOCK_STRIPES = 64
VIEW_TRIES = 4  # optimistic tries of a view before it runs under the game's lock (Warlog.viewing)
T = TypeVar("T")


class Conflict(Refused):
    """A concurrent writer won and retrying did not settle it (409 SVC.CONFLICT)."""

    @classmethod
    def lost_race(cls) -> Conflict:
        return cls("another writer appended to this game first; send the command again", rule="SVC.CONFLICT")


DEFERRING: ContextVar[bool] = ContextVar("warlog_deferring", default=False)
ON_LOOP: ContextVar[bool] = ContextVar("warlog_on_loop", default=False)


class NeedsStore(Exception):
    """A write judged on an event loop found it must read the store first: judge it in a worker thread."""


@contextmanager
def deferring(on_loop: bool = False) -> Iterator[None]:
    """Writes made inside return a `Deferred` instead of appending (see `Warlog._write`); `on_loop`: they
    raise NeedsStore rather than block the loop on a read of the store (a game not cached, or a refusal
    to judge again on the store's latest)."""
    tokens = DEFERRING.set(True), ON_LOOP.set(on_loop)
    try:
        yield
    finally:
        DEFERRING.reset(tokens[0])
        ON_LOOP.reset(tokens[1])


@dataclass
class Deferred:
    """A write judged on the game and not yet appended: `result` is its answer once `events` are stored.
    The caller stores them (`stored_events`, in order, all or none), then calls `appended()`; when the
    store refuses them (another writer took the version), `again()` judges the write afresh on the
    store's latest game: another Deferred, or the answer when this time nothing is appended."""

    app: Warlog
    game_id: UUID
    work: Callable[[Game], Any]
    result: Any
    game: Game
    events: list[Any]

    def stored_events(self) -> list[Any]:
        return [self.app.mapper.to_stored_event(event) for event in self.events]

    @property
    def head(self) -> tuple[UUID, int, str]:
        """The head record the append writes in its transaction (domain/heads.py)."""
        return self.game.id, self.game.version, self.game.head

    def snapshot_due(self) -> bool:
        """Whether `appended()` will also store a snapshot (a blocking round trip)."""
        return self.app._snapshot_due(self.game, self.events)

    def appended(self) -> Any:
        self.app._appended(self)
        return self.result

    def again(self) -> Any:
        with deferring():
            return self.app._attempt(self.game_id, self.work, False)


def new_token(game_id: UUID) -> str:
    """>= 128 bits from `secrets`; the game id in front lets the service tell 401 from 403."""
    return f"{game_id.hex}.{secrets.token_urlsafe(24)}"


_SHARD_CLASSES: dict[tuple[type, int], type] = {}


class Answer(dict):
    """What a request appended: {"version", "events"} plus the HTTP status to send."""

    status: int = 200


class Warlog(Verifying, Application):
    name = APP_NAME  # shard 0's; `Warlog.shard(k)` is shard k's class (domain/shards.py)
    snapshotting_intervals: ClassVar[dict[type[Any], int]] = {Game: 100}
    env: ClassVar[dict[str, str]] = {
        "AGGREGATE_CACHE_MAXSIZE": "500",
        "AGGREGATE_CACHE_FASTFORWARD": "y",
        "DEEPCOPY_FROM_AGGREGATE_CACHE": "n",  # commands run under a per-game lock and evict on failure
    }

    def __init__(self, env: dict[str, str] | None = None) -> None:
        @retry((IntegrityError, InternalError, ProgrammingError), max_attempts=5, wait=0.1)
        def start() -> None:
            try:
                super(Warlog, self).__init__(env)
            except Exception:
                # several processes starting at once race to create the tables; one wins, the rest retry
                if getattr(self, "factory", None) is not None:
                    self.factory.close()
                raise

        start()
        # striped: a bounded set of locks, however many game ids (real or guessed) are asked for
        self._locks = [threading.RLock() for _ in range(LOCK_STRIPES)]
        # a stripe's count of writes begun, each bumped under the stripe's lock before the cached game
        # changes in place: a view that saw the same count before and after ran on a game nobody changed
        self._epochs = [0] * LOCK_STRIPES
        self._roles: dict[str, tuple[UUID, str]] = {}
        self._inspected: dict[UUID, None] = {}   # games walked in full once in this process
        self._damaged: dict[UUID, Damaged] = {}  # and those found damaged: refused from then on
        self.heads, self._memory_heads = heads.head_store(self.recorder)
        self._heads_held: dict[tuple[UUID, int], str] = {}  # seat heads (seq -> hash) found in the log

    @classmethod
    def shard(cls, shard: int) -> type[Warlog]:
        """The application of shard `shard`: its own name, so its own tables in the same database (a class
        rather than an instance's name, so that the library's ProjectionRunner can construct it too)."""
        if shard == 0:
            return cls
        known = _SHARD_CLASSES.get((cls, shard))
        if known is None:
            known = _SHARD_CLASSES[(cls, shard)] = type(f"{cls.__name__}Shard{shard}", (cls,),
                                                        {"name": shard_name(shard), "__module__": cls.__module__})
        return known

    # -- plumbing ------------------------------------------------------------------------

    def lock(self, game_id: UUID) -> threading.RLock:
        """Serialises this process's loads and writes of one game (the cached aggregate is shared)."""
        return self._locks[game_id.int % LOCK_STRIPES]

    def _changing(self, game_id: UUID) -> None:
        """Called under the game's lock just before its cached game changes in place (see `viewing`)."""
        self._epochs[game_id.int % LOCK_STRIPES] += 1

    def _forwarding(self, game_id: UUID) -> Callable[[Game | None, Any], Game]:
        """The projector for loads: `integrity.checked`, announcing (`_changing`) a cached game about to be
        fast-forwarded in place with events another process appended."""
        def project(game: Game | None, events: Any) -> Game:
            def announced() -> Iterator[Any]:
                for event in events:
                    if game is not None:
                        self._changing(game_id)
                    yield event
            return integrity.checked(game, announced())
        return project

    def game(self, game_id: UUID) -> Game:
        """The game, checked as `domain.integrity` describes: in full the first time this process
        loads it, and every event read on each load; a damaged game raises Damaged (409 SVC.DAMAGED)."""
        damaged = self._damaged.get(game_id)
        if damaged is not None:
            raise damaged
        try:
            if game_id not in self._inspected:
                self.inspect(game_id).raise_if_bad()
            game = self.repository.get(game_id, projector_func=self._forwarding(game_id))
        except AggregateNotFoundError:
            raise NotFound(f"no game {game_id}") from None
        except Damaged as damage:
            raise self._mark_damaged(game_id, damage) from None
        if game_id not in self._inspected:
            remember(self._inspected, game_id, None)
        return game

    def _mark_damaged(self, game_id: UUID, damage: Damaged) -> Damaged:
        """Name the first bad seq the full walk finds (a load sees only the events after a snapshot)."""
        self._evict(game_id)
        walked = self.inspect(game_id).damage()
        if walked is not None and walked.first_bad_seq <= damage.first_bad_seq:
            damage = walked
        remember(self._damaged, game_id, damage)
        return damage

    def inspect(self, game_id: UUID, keep_events: bool = False) -> integrity.Inspection:
        """Every stored row of the game and every snapshot, each decoded on its own, and the head record
        and any seat's claim against them. A game stored before head records takes its head here, once
        its log is found whole."""
        record = self.heads.select_head(game_id)
        rows = ((stored.originator_version, partial(self.mapper.to_domain_event, stored))
                for stored in self.recorder.select_events(game_id))
        snapshots = []
        if self.snapshots is not None:
            recorder, mapper = self.snapshots.recorder, self.snapshots.mapper
            snapshots = [(stored.originator_version, partial(mapper.to_domain_event, stored))
                         for stored in recorder.select_events(game_id)]
        found = integrity.inspect(rows, snapshots, keep_events, record.heads() if record else ())
        if (record is None or record.seq == 0) and found.ok and found.entries:
            self.heads.take_head(game_id, found.entries[-1]["seq"], found.entries[-1]["hash"])
        return found

    def _evict(self, game_id: UUID) -> None:
        cache = self.repository.cache
        if cache is not None:
            with suppress(KeyError):
                cache.get(game_id, evict=True)

    def _cached(self, game_id: UUID) -> Game | None:
        cache = self.repository.cache
        try:
            return cache.get(game_id) if cache is not None else None
        except KeyError:
            return None

    def _write(self, game_id: UUID, work: Callable[[Game], Any]) -> Any:
        """Run `work` on the game and save what it appended; retry a lost race, then 409.

        A write starts from the cached game without asking the store for newer events: if another
        process appended meanwhile, the store's unique (game, version) key refuses the save and the
        retry reloads. A refusal judged on the cached game stands when the store's head record is at the
        cached version; only when another process (a second API on the SQLite file, or on PostgreSQL) has
        moved the game on is it judged again on the store's latest (`_behind`).

        Inside `deferring()` (the HTTP write path on PostgreSQL) nothing is appended here: a write that
        appends returns a `Deferred`, the game judged and taken out of the cache, whose events the
        caller appends on its event loop (api/writing.py)."""
        @retry(IntegrityError, max_attempts=5, wait=0.01)
        def attempt(trust_cache: bool) -> Any:
            return self._attempt(game_id, work, trust_cache)

        try:
            return attempt(True)
        except IntegrityError:
            raise Conflict.lost_race() from None

    def _attempt(self, game_id: UUID, work: Callable[[Game], Any], trust_cache: bool) -> Any:
        """One try of a write: from the cached game (`trust_cache`) or the store's, a refusal judged on
        the cached one judged again on the store's."""
        with self.lock(game_id):
            cached = self._cached(game_id) if trust_cache else None
            if cached is None and ON_LOOP.get():
                raise NeedsStore(game_id)
            game = cached or self.game(game_id)
            loaded = game.version
            self._changing(game_id)  # `work` changes the game in hand, which readers may hold too
            try:
                result = work(game)
                if game.pending_events:
                    if DEFERRING.get():
                        events = game.collect_events()
                        # readers meanwhile load what is stored, never what may not be
                        self._evict(game_id)
                        return Deferred(self, game_id, work, result, game, events)
                    self._store(game)
                return result
            except Ruling:
                if game.version != loaded:  # made events, then refused: a rule's soundness slip; never stored
                    self._evict(game_id)
                if cached is None or not self._behind(game_id, loaded):
                    raise
            except BaseException:
                # the cached game took events that were never stored (a refusal midway, or a lost
                # race: `save` has already collected them): drop it so the next load is the store's
                if game.version != loaded:
                    self._evict(game_id)
                raise
        return self._attempt(game_id, work, False)

    def _behind(self, game_id: UUID, version: int) -> bool:
        """Whether another process has appended to the game since this one cached it at `version`: one
        read of the head record (the memory store has this process as its one writer)."""
        if self._memory_heads is not None:
            return False
        row = self.heads.select_head(game_id)
        return row is None or row.seq != version

    def _store(self, game: Game) -> None:
        """Append the game's new events and, in the same transaction, its head record (domain/heads.py);
        the store's unique (game, version) key refuses a lost race."""
        events = game.collect_events()
        head = (game.id, game.version, game.head)
        self.events.put(events, head=head)
        if self._memory_heads is not None:
            self._memory_heads.appended(head)
        self._snapshot_if_due(game, events)

    def _snapshot_due(self, game: Game, events: list[Any]) -> bool:
        interval = self.snapshotting_intervals[Game]
        return self.snapshots is not None and game.version // interval > (events[0].originator_version - 1) // interval

    def _snapshot_if_due(self, game: Game, events: list[Any]) -> None:
        """The game just stored is what a snapshot at this version holds, so it is taken from it."""
        if self._snapshot_due(game, events):
            self.snapshots.put([Game.Snapshot.take(game)])

    def _appended(self, deferred: Deferred) -> None:
        """A deferred write's events are stored: its game is the cached one again."""
        if self._memory_heads is not None:
            self._memory_heads.appended(deferred.head)
        with self.lock(deferred.game_id):
            if self.repository.cache is not None:
                self.repository.cache.put(deferred.game_id, deferred.game)
        self._snapshot_if_due(deferred.game, deferred.events)

    # -- games ---------------------------------------------------------------------------

    def create_game(self, ruleset: str, players: dict[str, str], dice_mode: str, options: dict[str, Any], at: str,
                    game_id: UUID | None = None, seed: bytes | None = None) -> dict[str, Any]:
        """`game_id` and `seed` are drawn here; a test that replays play exactly passes its own."""
        game_id = game_id or uuid4()
        tokens = {role: new_token(game_id) for role in ROLES}
        seed = seed or secrets.token_bytes(32)
        game = Game.create(game_id, ruleset, players, dice_mode, {**DEFAULT_OPTIONS, **options}, seed,
                           {role: digest(token) for role, token in tokens.items()}, at)
        self._store(game)
        return {"game_id": str(game_id), "version": game.version, "tokens": tokens,
                "dice_commitment": game.state.dice_commitment}

    def known_role(self, token: str) -> tuple[UUID, str] | None:
        """A token this process has already checked: tokens never change and games are never deleted."""
        return self._roles.get(digest(token))

    def role_of(self, token: str) -> tuple[UUID, str] | None:
        """(the game a token opens, its role), or None for an unknown token."""
        known = self.known_role(token)
        if known is not None:
            return known
        head, _, _ = token.partition(".")
        try:
            game_id = UUID(hex=head)
            game = self.read(game_id)  # under the game's lock: a write may be mid-way in this process
        except (ValueError, NotFound):
            return None
        except Damaged as damage:
            return self._role_in_damaged(game_id, token, damage)
        role = game.check_token(token)
        if role is None:
            return None
        remember(self._roles, digest(token), (game.id, role))
        return game.id, role

    # -- writing -------------------------------------------------------------------------

    def _answer(self, game: Game, status: int, first: int, last: int) -> Answer:
        """A stored answer replayed as it was first sent."""
        events = [self.public(e.entry, False) for e in self.stored(game.id, first - 1, last - first + 1)]
        answer = Answer(version=last, events=events)
        answer.status = status
        return answer

    def _replayed(self, game: Game, seat: str, key: str | None, body: str, endpoint: str) -> Answer | None:
        stored = game.answer(seat, key, body, endpoint)
        if stored is None:
            return None
        return self._answer(game, stored[1], stored[2], stored[3])

    @staticmethod
    def _check_version(game: Game, if_match: int | str | None) -> None:
        """If-Match (412), judged after the body; text that names no version never matches."""
        if isinstance(if_match, str):
            raise PreconditionFailed(f'If-Match must name a version such as "{game.version}"; got {if_match!r}')
        if if_match is not None and if_match != game.version:
            raise PreconditionFailed(f"If-Match names version {if_match}; the game is at {game.version}")

    def _request(self, game_id: UUID, seat: str, key: str | None, body: str, if_match: int | str | None,
                 act: Callable[[Game, Any], int | None], prepare: Callable[[Game], Any] | None = None,
                 endpoint: str = "commands") -> Answer:
        """The contract's order for every write: a stored answer, the body (422), If-Match (412), the rules."""
        def work(game: Game) -> Answer:
            replay = self._replayed(game, seat, key, body, endpoint)
            if replay is not None:
                return replay
            prepared = prepare(game) if prepare else None
            self._check_version(game, if_match)
            status = act(game, prepared)
            events = [self.public(e.entry, False) for e in game.pending_events]
            answer = Answer(version=game.version, events=events)
            answer.status = status or 200
            return answer

        return self._write(game_id, work)

    def command(self, game_id: UUID, seat: str, parse: Callable[[str], Command], at: str,
                key: str | None = None, body: str = "", if_match: int | str | None = None) -> Answer:
        """`parse(ruleset)` reads the body as a command of the game's ruleset (its commands' union)."""
        def prepare(game: Game) -> Command:
            command = parse(game.state.ruleset)
            game.validate(seat, command)
            return command

        return self._request(game_id, seat, key, body, if_match,
                             lambda game, command: game.execute(seat, command, at, key, body), prepare)

    def muster(self, game_id: UUID, seat: str, parse: Callable[[], list[dict[str, Any]]], at: str,
               key: str | None = None, body: str = "", if_match: int | str | None = None) -> Answer:
        return self._request(game_id, seat, key, body, if_match,
                             lambda game, units: game.muster(seat, units, at, key, body), lambda game: parse(),
                             endpoint="armies")

    def state_at(self, game_id: UUID, version: int) -> dict[str, Any] | None:
        return self.game_at(game_id, version).state.to_json() if version >= 1 else None

    def game_at(self, game_id: UUID, version: int) -> Game:
        """The game as of `version` (the snapshot at or below it, then its events, each checked)."""
        try:
            game = self.repository.get(game_id, version=version, projector_func=integrity.checked)
            if game.version != version:
                raise Damaged(game.version + 1, "an event is missing", "missing")
        except Damaged as damage:
            raise self._mark_damaged(game_id, damage) from None
        return game

    def undo(self, game_id: UUID, seat: str, at: str, key: str | None = None, body: str = "",
             if_match: int | str | None = None, parse: Callable[[], Any] | None = None) -> Answer:
        """`parse` judges the request's body (422) after a stored answer, before If-Match, as for commands."""
        def act(game: Game, _: Any) -> int:
            before = self.state_at(game_id, game.undo_first_seq() - 1) if game.done else None
            return game.undo(seat, at, key, body, before)

        return self._request(game_id, seat, key, body, if_match, act, parse and (lambda game: parse()), "undo")

    def answer_undo(self, game_id: UUID, seat: str, approve: bool, at: str, key: str | None = None,
                    body: str = "", if_match: int | str | None = None, parse: Callable[[], Any] | None = None
                    ) -> Answer:
        def act(game: Game, _: Any) -> None:
            pending = game.pending_undo
            before = self.state_at(game_id, pending["seqs"][0] - 1) if pending and approve else None
            game.answer_undo(seat, approve, at, key, body, before)

        return self._request(game_id, seat, key, body, if_match, act, parse and (lambda game: parse()),
                             "approve" if approve else "reject")

    def redo(self, game_id: UUID, seat: str, at: str, key: str | None = None, body: str = "",
             if_match: int | str | None = None, parse: Callable[[], Any] | None = None) -> Answer:
        def act(game: Game, _: Any) -> None:
            after = self.state_at(game_id, game.redo_last_seq()) if game.redo_stack else None
            game.redo(seat, at, key, body, after)

        return self._request(game_id, seat, key, body, if_match, act, parse and (lambda game: parse()), "redo")

    # -- reading -------------------------------------------------------------------------

    def read(self, game_id: UUID) -> Game:
        """The current game, shared with the cache: writes change it in place, so read here only what never
        changes (its id, its tokens, its ruleset); anything else through `viewing`."""
        with self.lock(game_id):
            return self.game(game_id)

    def viewing(self, game_id: UUID, view: Callable[[Game], T]) -> T:
        """`view(game)` on the current game as no write changed it meanwhile. Writes change the cached game
        in place (a copy per write would cost a deep copy of the whole game), so a view in a worker thread
        may overlap one; it is then run again on the game as that write left it, and after `VIEW_TRIES`
        such overlaps, under the game's lock. What a view raises counts only when no write overlapped it."""
        stripe = game_id.int % LOCK_STRIPES
        for _ in range(VIEW_TRIES):
            with self.lock(game_id):
                game = self.game(game_id)
                epoch = self._epochs[stripe]
            try:
                result = view(game)
            except Exception:
                if self._epochs[stripe] == epoch:
                    raise
                continue
            if self._epochs[stripe] == epoch:
                return result
        with self.lock(game_id):
            return view(self.game(game_id))

    @staticmethod
    def public(entry: dict[str, Any], undone: bool) -> dict[str, Any]:
        return {**entry, "undone": undone}

    def stored(self, game_id: UUID, after: int = 0, limit: int | None = None) -> Iterator[Any]:
        """The stored events after seq `after`, each the next seq: a row missing or unreadable is damage."""
        expected = after + 1
        events = iter(self.repository.event_store.get(game_id, gt=after, limit=limit))
        while True:
            try:
                event = next(events)
            except StopIteration:
                return
            except Exception:
                raise self._mark_damaged(game_id, Damaged(expected, "an event cannot be read", "unreadable")) from None
            if event.originator_version != expected:
                raise self._mark_damaged(game_id, Damaged(expected, "an event is missing", "missing"))
            yield event
            expected += 1

    def entries(self, game_id: UUID, after: int = 0, limit: int | None = None,
                game: Game | None = None) -> list[dict[str, Any]]:
        if game is None:
            return self.viewing(game_id, lambda current: self.entries(game_id, after, limit, current))
        return [self.public(e.entry, game.is_undone(e.entry["seq"])) for e in self.stored(game_id, after, limit)]


class PreconditionFailed(Malformed):
    """If-Match names a version that is not the game's current one (412)."""
