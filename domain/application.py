"""The eventsourcing Application: get -> domain call -> save, with the library's
snapshots, aggregate cache (fast-forwarded, so several processes stay
correct) and retry on a lost race between processes.

Snapshots are taken from the game in hand when a save reaches a multiple of
the interval: the library's own `save` would load the game again from the
store (the last snapshot, then up to 100 events) to take the same snapshot.

The clock lives here, not in the aggregate: every request passes `at` in.
"""
from __future__ import annotations

import hashlib
import secrets
import threading
from collections.abc import Callable, Iterator
from typing import Any
from uuid import UUID, uuid4

from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.persistence import IntegrityError, InternalError, ProgrammingError
from eventsourcing.utils import retry

from domain import chain, dice
from domain.commands import Command
from domain.game import Game
from domain.rulings import Malformed, NotFound, Refused, Ruling

DEFAULT_OPTIONS = {"battle_rounds": 5, "reserves_from_round": 2, "spectator_delay_s": 0}
ROLES = ("A", "B", "spectator")
LOCK_STRIPES = 64


class Conflict(Refused):
    """A concurrent writer won and retrying did not settle it (409 SVC.CONFLICT)."""


def new_token(game_id: UUID) -> str:
    """>= 128 bits from `secrets`; the game id in front lets the service tell 401 from 403."""
    return f"{game_id.hex}.{secrets.token_urlsafe(24)}"


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Answer(dict):
    """What a request appended: {"version", "events"} plus the HTTP status to send."""

    status: int = 200


class Warlog(Application):
    name = "warlog"
    snapshotting_intervals = {Game: 100}
    env = {
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
        self._roles: dict[str, tuple[UUID, str]] = {}

    # -- plumbing ------------------------------------------------------------------------

    def lock(self, game_id: UUID) -> threading.RLock:
        """Serialises this process's loads and writes of one game (the cached aggregate is shared)."""
        return self._locks[game_id.int % LOCK_STRIPES]

    def game(self, game_id: UUID) -> Game:
        try:
            return self.repository.get(game_id)
        except AggregateNotFoundError:
            raise NotFound(f"no game {game_id}") from None

    def _evict(self, game_id: UUID) -> None:
        cache = self.repository.cache
        if cache is not None:
            try:
                cache.get(game_id, evict=True)
            except KeyError:
                pass

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
        retry reloads. A refusal judged on the cached game is judged again on the store's latest,
        since nothing else would tell that the cache was behind."""
        used_cache = False

        @retry(IntegrityError, max_attempts=5, wait=0.01)
        def attempt(trust_cache: bool) -> Any:
            nonlocal used_cache
            with self.lock(game_id):
                cached = self._cached(game_id) if trust_cache else None
                used_cache = cached is not None
                game = cached or self.game(game_id)
                loaded = game.version
                try:
                    result = work(game)
                    if game.pending_events:
                        self._store(game)
                    return result
                except BaseException:
                    # the cached game took events that were never stored (a refusal midway, or a lost
                    # race: `save` has already collected them): drop it so the next load is the store's
                    if game.version != loaded:
                        self._evict(game_id)
                    raise

        try:
            try:
                return attempt(True)
            except Ruling:
                if not used_cache:
                    raise
                return attempt(False)
        except IntegrityError:
            raise Conflict("another writer appended to this game first; send the command again",
                           rule="SVC.CONFLICT") from None

    def _store(self, game: Game) -> None:
        """Append the game's new events (the store's unique (game, version) key refuses a lost race);
        the game just stored is what a snapshot at this version holds, so it is taken from it."""
        events = game.collect_events()
        self.events.put(events)
        interval = self.snapshotting_intervals[Game]
        if self.snapshots is not None and game.version // interval > (events[0].originator_version - 1) // interval:
            self.snapshots.put([Game.Snapshot.take(game)])

    # -- games ---------------------------------------------------------------------------

    def create_game(self, ruleset: str, players: dict[str, str], dice_mode: str,
                    options: dict[str, Any], at: str) -> dict[str, Any]:
        game_id = uuid4()
        tokens = {role: new_token(game_id) for role in ROLES}
        seed = secrets.token_bytes(32)
        game = Game.create(game_id, ruleset, players, dice_mode, {**DEFAULT_OPTIONS, **options}, seed,
                           {role: digest(token) for role, token in tokens.items()}, at)
        self._store(game)
        return {"game_id": str(game_id), "version": game.version, "tokens": tokens,
                "dice_commitment": game.state["dice_commitment"]}

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
            game = self.read(UUID(hex=head))  # under the game's lock: a write may be mid-way in this process
        except (ValueError, NotFound):
            return None
        role = game.check_token(token)
        if role is None:
            return None
        if len(self._roles) >= 100_000:  # bounded: forget the oldest half
            for key in list(self._roles)[:50_000]:
                del self._roles[key]
        self._roles[digest(token)] = (game.id, role)
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

    def command(self, game_id: UUID, seat: str, parse: Callable[[], Command], at: str,
                key: str | None = None, body: str = "", if_match: int | str | None = None) -> Answer:
        def prepare(game: Game) -> Command:
            command = parse()
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
        if version < 1:
            return None
        return self.repository.get(game_id, version=version).state

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
        """The current game for reading (shared with the cache: do not mutate)."""
        with self.lock(game_id):
            return self.game(game_id)

    @staticmethod
    def public(entry: dict[str, Any], undone: bool) -> dict[str, Any]:
        return {**entry, "undone": undone}

    def stored(self, game_id: UUID, after: int = 0, limit: int | None = None) -> Iterator[Any]:
        return iter(self.repository.event_store.get(game_id, gt=after, limit=limit))

    def entries(self, game_id: UUID, after: int = 0, limit: int | None = None,
                game: Game | None = None) -> list[dict[str, Any]]:
        game = game or self.read(game_id)
        return [self.public(e.entry, game.is_undone(e.entry["seq"])) for e in self.stored(game_id, after, limit)]

    def verify(self, game_id: UUID, upto: int | None = None,
               stored: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        """The chain recomputed from storage (up to seq `upto`: a delayed spectator's horizon; `stored`: those
        entries, when the caller has read them already), and once the game has ended, every server roll
        re-derived from the revealed seed."""
        game = self.read(game_id)
        if stored is None:
            stored = [e.entry for e in self.stored(game_id, 0, upto)]
        bad, _, head = chain.first_break(stored)
        seed = game.revealed_seed() if upto is None or upto >= game.version else None  # the end not yet seen
        dice_ok = None if seed is None else self.dice_hold(stored, bytes.fromhex(seed))
        return {"chain_ok": bad is None, "events": len(stored), "head_hash": head if bad else stored[-1]["hash"],
                "first_bad_seq": bad, "dice_ok": dice_ok, "server_seed": seed}

    @staticmethod
    def dice_hold(entries: list[dict[str, Any]], seed: bytes) -> bool:
        """Re-derive every server roll from the revealed seed (CONTRACT.md "Server dice")."""
        game_id = entries[0]["data"]["game_id"]
        entropy = {"A": "", "B": ""}
        for entry in entries:
            if entry["type"] == "EntropyAdded":
                entropy[entry["data"]["seat"]] = entry["data"]["entropy"]
        for entry in entries:
            data = entry["data"]
            if "counter" not in data:
                continue
            faces = dice.server_faces(seed, game_id, data["counter"], entropy["A"], entropy["B"],
                                      len(data["faces"]), data["sides"])
            if faces != data["faces"]:
                return False
        return True


class PreconditionFailed(Malformed):
    """If-Match names a version that is not the game's current one (412)."""
