"""The eventsourcing Application: every write judged on the cached game and appended (`Warlog.write`), with the
library's snapshots, aggregate cache (fast-forwarded, so several processes stay correct) and a lost race between
processes judged again on the store's latest.

Snapshots are taken from the game in hand when a save reaches a multiple of
the interval: the library's own `save` would load the game again from the
store (the last snapshot, then up to 100 events) to take the same snapshot.

The clock is the boundary's: every request passes `at` in (`domain.writes.Sent`).
"""
from __future__ import annotations

import random
import secrets
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass
from functools import partial
from typing import Any, ClassVar, TypeVar
from uuid import UUID, uuid4

from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.domain import DomainEventProtocol
from eventsourcing.persistence import IntegrityError, InternalError, ProgrammingError
from eventsourcing.utils import retry

from warlog.domain import events as ev
from warlog.domain import heads, integrity
from warlog.domain.commands import Command
from warlog.domain.game import Game, logged
from warlog.domain.integrity import Damaged
from warlog.domain.narration import Narrator, Telling, narrate
from warlog.domain.rulings import Malformed, NotFound, Refused, Ruling
from warlog.domain.shards import APP_NAME, shard_name
from warlog.domain.verifying import Verifying, digest, remember
from warlog.domain.writes import Consent, Muster, Play, Redo, Sent, Undo, Withdraw, Write

DEFAULT_OPTIONS = {"battle_rounds": 5, "reserves_from_round": 2, "spectator_delay_s": 0}
ROLES = ("A", "B", "spectator")
LOCK_STRIPES = 64
VIEW_TRIES = 4  # optimistic tries of a view before it runs under the game's lock (Warlog.viewing)
WRITE_TRIES, RETRY_WAIT_S = 5, 0.01  # a write's appends refused by the store's version key, then 409
T = TypeVar("T")
Viewer = Callable[[Game], dict[str, Any]]  # what the writing seat reads of the game right after its write (the
# boundary's GET /state, projections/state.py `live_view`): an answer's `view`


class Conflict(Refused):
    """A concurrent writer won and retrying did not settle it (409 SVC.CONFLICT)."""

    @classmethod
    def lost_race(cls) -> Conflict:
        return cls("another writer appended to this game first; send the command again", rule="SVC.CONFLICT")


class NeedsStore(Exception):
    """A write judged on an event loop found it must read the store first: judge it in a worker thread."""


class Answer(dict[str, Any]):
    """What a request appended: {"version", "events"}, with a `Viewer` also "view", plus the HTTP status to send."""

    status: int = 200


@dataclass
class Deferred:
    """A write judged on the game and not yet appended (`Warlog.defer`): `answer` is its answer once `events` are
    stored. The caller stores them (`stored_events`, in order, all or none), then calls `appended()`; when the
    store refuses them (another writer took the version), `again()` judges the write afresh on the store's latest
    game: another Deferred, or the answer when this time nothing is appended."""

    app: Warlog
    write: Write
    answer: Answer
    game: Game
    events: list[Any]
    viewer: Viewer | None = None

    def stored_events(self) -> list[Any]:
        return [self.app.mapper.to_stored_event(event) for event in self.events]

    @property
    def head(self) -> tuple[UUID, int, str]:
        """The head record the append writes in its transaction (domain/heads.py)."""
        return self.game.id, self.game.version, self.game.head

    def snapshot_due(self) -> bool:
        """Whether `appended()` will also store a snapshot (a blocking round trip)."""
        return self.app._snapshot_due(self.game, self.events)

    def appended(self) -> Answer:
        self.app._appended(self)
        return self.answer

    def again(self) -> Answer | Deferred:
        return self.app.defer(self.game.id, self.write, on_loop=False, trust_cache=False, viewer=self.viewer)


def new_token(game_id: UUID) -> str:
    """>= 128 bits from `secrets`; the game id in front lets the service tell 401 from 403."""
    return f"{game_id.hex}.{secrets.token_urlsafe(24)}"


_SHARD_CLASSES: dict[tuple[type, int], type[Warlog]] = {}


class Warlog(Verifying, Telling, Application[UUID]):
    name = APP_NAME  # shard 0's; `Warlog.shard(k)` is shard k's class (domain/shards.py)
    snapshotting_intervals: ClassVar[dict[type[Any], int]] = {Game: 100}
    env: ClassVar[dict[str, str]] = {
        "AGGREGATE_CACHE_MAXSIZE": "500",
        "AGGREGATE_CACHE_FASTFORWARD": "y",
        "DEEPCOPY_FROM_AGGREGATE_CACHE": "n",  # commands run under a per-game lock and evict on failure
        "TRANSCODER_TOPIC": "warlog.domain.transcoder:LogTranscoder",  # the library's, its events written by orjson
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
        self.narrator = Narrator(lambda game_id, seq: self.game_at(game_id, seq).state)  # each event's `text`

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

    def _forwarding(self, game_id: UUID) -> Callable[[Game | None, Iterable[DomainEventProtocol[UUID]]], Game | None]:
        """The projector for loads: `integrity.checked`, announcing (`_changing`) a cached game about to be
        fast-forwarded in place with events another process appended."""
        def project(game: Game | None, events: Iterable[DomainEventProtocol[UUID]]) -> Game | None:
            def announced() -> Iterator[DomainEventProtocol[UUID]]:
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
            game: Game = self.repository.get(game_id, projector_func=self._forwarding(game_id))
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
        self.narrator.forget(game_id)
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
            found = cache.get(game_id) if cache is not None else None
        except KeyError:
            return None
        return found if isinstance(found, Game) else None

    # -- the write path ------------------------------------------------------------------

    def write(self, game_id: UUID, write: Write, viewer: Viewer | None = None) -> Answer:
        """Every write, in the contract's order: judged on the game (`_judged`: a stored answer for its key, its body,
        the checks that need the game, If-Match, then the ruling and its events), then appended with the game's head
        record (`_append`). A race lost to another process (the store's unique (game, version) key refuses the append)
        is judged again on the store's latest game, up to five times, then 409 SVC.CONFLICT. With a `viewer`, the
        answer's `view` is what it reads of the game the write leaves (see `_judge`)."""
        tries = 1
        while True:
            try:
                with self.lock(game_id):
                    game, answer = self._judged(game_id, write, viewer=viewer)
                    if game.pending_events:
                        self._append(game)
                        self.narrator.keep(game_id, answer["events"], game.state)
                return answer
            except IntegrityError:
                if tries == WRITE_TRIES:
                    raise Conflict.lost_race() from None
                tries += 1
                time.sleep(RETRY_WAIT_S * (1 + 0.1 * (random.random() - 0.5)))

    def defer(self, game_id: UUID, write: Write, on_loop: bool, trust_cache: bool = True,
              viewer: Viewer | None = None) -> Answer | Deferred:
        """`write` judged as `Warlog.write` judges it, its events not appended: a `Deferred` whose events the caller
        appends (api/writing.py, on PostgreSQL: on its event loop), the game taken out of the cache meanwhile (readers
        load what is stored, never what may not be), or the answer when there is nothing to append. `on_loop`: raise
        NeedsStore rather than block the loop on a read of the store (a game not cached, or a refusal to judge
        again on the store's latest)."""
        with self.lock(game_id):
            game, answer = self._judged(game_id, write, on_loop, trust_cache, viewer)
            if not game.pending_events:
                return answer
            events = list(game.collect_events())
            self._evict(game_id)
            return Deferred(self, write, answer, game, events, viewer)

    def _judged(self, game_id: UUID, write: Write, on_loop: bool = False, trust_cache: bool = True,
                viewer: Viewer | None = None) -> tuple[Game, Answer]:
        """Under the game's lock: (the game, its new events pending; the answer). Judged on the cached game without
        asking the store for newer events (a stale one is caught by the append's version key); a refusal judged on
        it stands when the store's head record is at the cached version, else (another process moved the game on)
        it is judged again on the store's latest. A game that took events and then failed is dropped from the cache."""
        cached = self._cached(game_id) if trust_cache else None
        if cached is None and on_loop:
            raise NeedsStore(game_id)
        game = cached or self.game(game_id)
        loaded = game.version
        self._changing(game_id)  # the write changes the game in hand, which readers may hold too
        try:
            return game, self._judge(game, write, viewer)
        except Ruling:
            if game.version != loaded:  # made events, then refused: a rule's soundness slip; never stored
                self._evict(game_id)
            if cached is None:
                raise
            if on_loop:  # whether another process moved the game on is a read of the store: not on the loop
                raise NeedsStore(game_id) from None
            if not self._behind(game_id, loaded):
                raise
        except BaseException:
            if game.version != loaded:
                self._evict(game_id)
            raise
        return self._judged(game_id, write, on_loop, False, viewer)

    def _judge(self, game: Game, write: Write, viewer: Viewer | None = None) -> Answer:
        """The contract's order for every write, a step a line; the view, read off the game in hand as the events
        left it (the append changes nothing of it), so a seat needs no GET /state after its own write."""
        stored = self._stored_answer(game, write, viewer)  # the answer kept for its Idempotency-Key (another body: 422)
        if stored is not None:
            return stored
        write.check(game)  # the body (415, 422), and the checks that need the game (unknown units 404, dice 422)
        self._check_version(game, write.sent.if_match)  # If-Match (412)
        before = vars(game).get("state")  # what the new events' texts read their names from
        with game.making() as made:
            status = write.act(game, self)  # the ruling (409, nothing made), then the events
        pending = [logged(event) for event in game.pending_events]
        told = list(narrate(before, ((e.entry, e.meta) for e in pending), made if len(made) == len(pending) else None))
        return self._answer(game.version, [e.entry for e in pending], status or 200, [text for text, _ in told],
                            None if viewer is None else viewer(game))

    def _stored_answer(self, game: Game, write: Write, viewer: Viewer | None = None) -> Answer | None:
        """A stored answer replayed as it was first sent: its events, and its view read off the game as that
        write left it (the version it answered)."""
        sent = write.sent
        stored = game.answer(sent.seat, sent.key, sent.digest, write.endpoint)
        if stored is None:
            return None
        _, status, first, last = stored[:4]
        events = list(self.stored(game.id, first - 1, last - first + 1))
        then = None if viewer is None else viewer(game if last == game.version else self.game_at(game.id, last))
        return self._answer(last, [e.entry for e in events], status, self.narrator.texts(game.id, events), then)

    def _answer(self, version: int, entries: list[ev.Entry], status: int, texts: list[str],
                view: Mapping[str, object] | None = None) -> Answer:
        answer = Answer(version=version, events=[self.public(entry, False, text) for entry, text in zip(entries, texts)])
        if view is not None:
            answer["view"] = view
        answer.status = status
        return answer

    @staticmethod
    def _check_version(game: Game, if_match: int | str | None) -> None:
        """If-Match (412), judged after the body; text that names no version never matches."""
        if isinstance(if_match, str):
            raise PreconditionFailed(f'If-Match must name a version such as "{game.version}"; got {if_match!r}')
        if if_match is not None and if_match != game.version:
            raise PreconditionFailed(f"If-Match names version {if_match}; the game is at {game.version}")

    def _behind(self, game_id: UUID, version: int) -> bool:
        """Whether another process has appended to the game since this one cached it at `version`: one
        read of the head record (the memory store has this process as its one writer)."""
        if self._memory_heads is not None:
            return False
        row = self.heads.select_head(game_id)
        return row is None or row.seq != version

    def _append(self, game: Game) -> None:
        """The game's new events appended with, in the same transaction, its head record (domain/heads.py), and a
        snapshot when one is due. When the store refuses them (a lost race), the cached game, which took events
        that were never stored, is dropped, so that the next load is the store's."""
        events = list(game.collect_events())
        head = (game.id, game.version, game.head)
        try:
            self.events.put(events, head=head)
        except BaseException:
            self._evict(game.id)
            raise
        if self._memory_heads is not None:
            self._memory_heads.appended(head)
        self._snapshot_if_due(game, events)

    def _snapshot_due(self, game: Game, events: Sequence[DomainEventProtocol[UUID]]) -> bool:
        interval = self.snapshotting_intervals[Game]
        return self.snapshots is not None and game.version // interval > (events[0].originator_version - 1) // interval

    def _snapshot_if_due(self, game: Game, events: Sequence[DomainEventProtocol[UUID]]) -> None:
        """The game just stored is what a snapshot at this version holds, so it is taken from it."""
        if self.snapshots is not None and self._snapshot_due(game, events):
            self.snapshots.put([Game.Snapshot.take(game)])

    def _appended(self, deferred: Deferred) -> None:
        """A deferred write's events are stored: its game is the cached one again."""
        if self._memory_heads is not None:
            self._memory_heads.appended(deferred.head)
        with self.lock(deferred.game.id):
            if self.repository.cache is not None:
                self.repository.cache.put(deferred.game.id, deferred.game)
        self.narrator.keep(deferred.game.id, deferred.answer["events"], deferred.game.state)
        self._snapshot_if_due(deferred.game, deferred.events)

    # -- games ---------------------------------------------------------------------------

    def create_game(self, ruleset: str, players: dict[str, str], dice_mode: str, options: Mapping[str, object], at: str,
                    game_id: UUID | None = None, seed: bytes | None = None) -> dict[str, Any]:
        """`game_id` and `seed` are drawn here; a test that replays play exactly passes its own."""
        game_id = game_id or uuid4()
        tokens = {role: new_token(game_id) for role in ROLES}
        seed = seed or secrets.token_bytes(32)
        game = Game.create(game_id, ruleset, players, dice_mode, {**DEFAULT_OPTIONS, **options}, seed,
                           {role: digest(token) for role, token in tokens.items()}, at)
        self._append(game)
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

    # -- writing, by name (for scripts and tests; the HTTP boundary builds the `Write` itself) ------------

    def command(self, game_id: UUID, seat: str, command: Command, at: str, key: str | None = None,
                body: str = "", if_match: int | str | None = None) -> Answer:
        return self.write(game_id, Play(Sent(seat, at, key, body, if_match), command))

    def muster(self, game_id: UUID, seat: str, units: list[dict[str, Any]], at: str, key: str | None = None,
               body: str = "", if_match: int | str | None = None) -> Answer:
        # `units`: the army's JSON as the boundary read it (the JSON boundary: `army.validate_army` judges it)
        return self.write(game_id, Muster(Sent(seat, at, key, body, if_match), units))

    def undo(self, game_id: UUID, seat: str, at: str, key: str | None = None, body: str = "",
             if_match: int | str | None = None) -> Answer:
        return self.write(game_id, Undo(Sent(seat, at, key, body, if_match)))

    def answer_undo(self, game_id: UUID, seat: str, approve: bool, at: str, key: str | None = None,
                    body: str = "", if_match: int | str | None = None) -> Answer:
        return self.write(game_id, Consent(Sent(seat, at, key, body, if_match), approve))

    def withdraw_undo(self, game_id: UUID, seat: str, at: str, key: str | None = None, body: str = "",
                      if_match: int | str | None = None) -> Answer:
        return self.write(game_id, Withdraw(Sent(seat, at, key, body, if_match)))

    def redo(self, game_id: UUID, seat: str, at: str, key: str | None = None, body: str = "",
             if_match: int | str | None = None) -> Answer:
        return self.write(game_id, Redo(Sent(seat, at, key, body, if_match)))

    def state_at(self, game_id: UUID, version: int) -> dict[str, Any] | None:
        return self.game_at(game_id, version).state.to_json() if version >= 1 else None

    def game_at(self, game_id: UUID, version: int) -> Game:
        """The game as of `version` (the snapshot at or below it, then its events, each checked)."""
        try:
            game: Game = self.repository.get(game_id, version=version, projector_func=integrity.checked)
            if game.version != version:
                raise Damaged(game.version + 1, "an event is missing", "missing")
        except Damaged as damage:
            raise self._mark_damaged(game_id, damage) from None
        return game

    # -- reading -------------------------------------------------------------------------

    def ruleset_of(self, game_id: UUID) -> str:
        """The game's ruleset, which never changes: what its commands are read by."""
        ruleset: str = self.read(game_id).state.ruleset
        return ruleset

    def cached_ruleset(self, game_id: UUID) -> str | None:
        """The ruleset of a game in the cache, or None (without reading the store: safe on the event loop)."""
        game = self._cached(game_id)
        return None if game is None else game.state.ruleset

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


class PreconditionFailed(Malformed):
    """If-Match names a version that is not the game's current one (412)."""
