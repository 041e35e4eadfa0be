"""The Game aggregate: one game's append-only, hash-chained log.

Every entry of the public log is one `Logged` event whose `entry` is exactly
the contract's Event (less `undone`, which is a read-side fact). Public
commands ask the ruleset for a ruling, roll any server dice *before* the event
is triggered, then trigger small events that only mutate state. Things that
must not leak before the end (the dice seed, token digests) and the
bookkeeping of requests (idempotency, actions) travel in `meta`, outside the
hashed entry.
"""
from __future__ import annotations

import copy
import hashlib
import hmac
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any, Protocol, cast
from uuid import UUID

from eventsourcing.domain import Aggregate, event
from typing_extensions import TypedDict, Unpack

from warlog.domain import army, chain, dice, integrity, rolls
from warlog.domain import events as ev
from warlog.domain.commands import Command, as_data, sent
from warlog.domain.rules import actions, clock, editions
from warlog.domain.rules.actions import Action
from warlog.domain.rules.basics import other
from warlog.domain.rules.registry import find_ruleset
from warlog.domain.rules.ruleset import Ruleset
from warlog.domain.rules.titles import titled
from warlog.domain.rulings import Malformed, Refused
from warlog.domain.state import GameState
from warlog.domain.words import player_name


def records_dice(entry: ev.Entry) -> bool:
    return "faces" in entry["data"]


def evolve(state: GameState | None, entry: ev.Entry, meta: ev.Meta) -> GameState:
    """The state after one event: an undo's or redo's restores the state it carries, any other is its ruleset's
    applier's (the creation's names the ruleset)."""
    if meta.get("kind") == "restore":
        return GameState.from_json(meta["state"])
    ruleset = find_ruleset(entry["data"]["ruleset"] if state is None else state.ruleset)
    return ruleset.apply(state, entry)


class Logged(Protocol):
    """A game's event, stored or pending, as the domain reads it: the library makes the classes at run time from
    `Game.__init__` ("Created") and `Game._log` ("Logged"), each keeping the entry and meta it was triggered with."""

    entry: ev.Entry
    meta: ev.Meta
    originator_version: int

    def mutate(self, aggregate: Game | None) -> Game | None: ...


class Restoring(TypedDict, total=False):
    """What an undo or redo adds to its event's `meta` (`Game.emit`'s keywords; `ev.Meta` says what each is): the
    kind "restore", the state restored (its JSON, `GameState.to_json`) and the seat that undid the action."""

    kind: str
    state: dict[str, Any] | None
    undone_by: str


def logged(event: object) -> Logged:
    """One of `Game`'s own events (the library types them as its protocol only)."""
    return cast(Logged, event)


_OFFERED: dict[tuple[str, str], tuple[GameState, list[Action]]] = {}  # (game, seat) -> the state last offered on
_OFFERED_SIZE = 1024  # as many as projections.state.SeatViews keeps views: a state kept here is mostly one a kept view reads


def offers(ruleset: Ruleset, state: GameState, seat: str) -> list[Action]:
    """`ruleset.actions(state, seat)`, worked out once a state: a seat's answer offers it (its `view`), and the
    command it sends next is ruled on the very same state, by the very same offers. A state is immutable and
    replaced by every event, so the state kept (strongly: its identity is never another's) says whether they
    still hold."""
    key = (state.game_id, seat)
    kept = _OFFERED.get(key)
    if kept is not None and kept[0] is state:
        return kept[1]
    made = ruleset.actions(state, seat)
    if len(_OFFERED) >= _OFFERED_SIZE:
        _OFFERED.clear()
    _OFFERED[key] = (state, made)
    return made


class Game(Aggregate):
    """Rebuilt from its events; `state` is the ruleset's pure view of the table, a `GameState`."""

    Snapshot = integrity.CheckedSnapshot  # a snapshot carries a digest of what it holds, checked on load
    state: GameState

    @event("Created")
    def __init__(self, entry: ev.Entry, meta: ev.Meta) -> None:
        self.seed: str = meta["seed"]
        self.token_digests: dict[str, str] = meta["tokens"]
        self.head = chain.GENESIS
        self.next_counter = 0
        self.done: list[list[Any]] = []      # actions not undone: [first, last, seat, rolled]
        self.redo_stack: list[list[Any]] = []
        self.undone: list[list[int]] = []    # [first, last] ranges currently undone
        self.pending_undo: dict[str, Any] | None = None
        self.requests: dict[str, list[Any]] = {}  # "seat:key" -> [body digest, status, first, last, endpoint]
        self._apply(entry, meta)

    @classmethod
    def create(cls, game_id: UUID, ruleset: str, players: dict[str, str], dice_mode: str,
               options: Mapping[str, object], seed: bytes, token_digests: dict[str, str], at: str) -> Game:
        find_ruleset(ruleset)
        data = {"game_id": str(game_id), "ruleset": ruleset, "players": players, "dice": dice_mode,
                "options": options,
                "dice_commitment": dice.commitment(seed) if dice_mode == "server" else None,
                "token_commitments": integrity.token_commitments(token_digests),  # meta is outside the chain
                **editions.created_under()}
        entry = cls._entry(1, "GameCreated", at, None, "SVC.SETUP", data, chain.GENESIS)
        return cls(entry=entry, meta={"seed": seed.hex(), "tokens": token_digests})

    @staticmethod
    def create_id(entry: ev.Entry) -> UUID:
        return UUID(entry["data"]["game_id"])

    # -- the one mutator -----------------------------------------------------------------

    @event("Logged")
    def _log(self, entry: ev.Entry, meta: ev.Meta) -> None:
        self._apply(entry, meta)

    def _apply(self, entry: ev.Entry, meta: ev.Meta) -> None:
        self.head = entry["hash"]
        data = entry["data"]
        if "counter" in data:
            self.next_counter = max(self.next_counter, data["counter"] + 1)
        before: GameState | None = vars(self).get("state")
        charged = None if before is None or before.clock is None else clock.charged(  # a game with no clock: no
            find_ruleset(before.ruleset), before, self.pending_undo is not None, entry["at"])  # lookup per event
        self.state = clock.kept(evolve(before, entry, meta), charged, entry["at"])
        if self._made is not None:
            self._made.append(self.state)
        self._book(entry, meta)

    _made: list[GameState] | None = None  # while a write runs (`making`): the state after each event it makes

    @contextmanager
    def making(self) -> Iterator[list[GameState]]:
        """The states the events made inside it leave, in order (what their texts are told from: no event
        applied twice). Held only while it runs, so that no snapshot takes it."""
        made: list[GameState] = []
        self._made = made
        try:
            yield made
        finally:
            vars(self).pop("_made", None)

    def _book(self, entry: ev.Entry, meta: ev.Meta) -> None:
        """Keep the request and action books that undo, redo and idempotency read."""
        seq = entry["seq"]
        if "key" in meta:
            endpoint = meta.get("endpoint") or self.endpoint_of(entry, meta)  # an entry stored before keys named it
            self.requests[meta["key"]] = [meta["body"], meta["status"], seq, seq, endpoint]
            self._open_request = meta["key"]
        elif meta.get("continues") and getattr(self, "_open_request", None):
            self.requests[self._open_request][3] = seq
        kind = meta.get("kind")
        if kind == "action":
            if meta.get("starts"):
                self.done.append([seq, seq, entry["by"], False])
                self.redo_stack.clear()
            self.done[-1][1] = seq
            self.done[-1][3] = self.done[-1][3] or records_dice(entry)
        elif kind == "restore" and entry["type"] == "ActionUndone":
            action = self.done.pop()
            self.redo_stack.append([*action, meta["undone_by"]])
            self.undone.append(action[:2])
            self.pending_undo = None
        elif kind == "restore":  # ActionRedone
            action = self.redo_stack.pop()
            self.done.append(action[:4])
            self.undone.remove(action[:2])
        elif entry["type"] == "UndoRequested":
            self.pending_undo = {"seat": entry["by"], "seqs": entry["data"]["seqs"]}
        elif entry["type"] in ("UndoRejected", "UndoWithdrawn"):
            self.pending_undo = None

    # -- entries -------------------------------------------------------------------------

    @staticmethod
    def _entry(seq: int, type_: str, at: str, by: str | None, rule: str | None,
               data: Mapping[str, object], prev_hash: str, request: str | None = None) -> ev.Entry:
        entry: dict[str, Any] = {"seq": seq, "type": type_, "at": at, "by": by, "rule": rule, "data": data,
                 "prev_hash": prev_hash}
        if request is not None:  # the digest of the request that made it (domain.integrity.request_record)
            entry["request"] = request
        entry["hash"] = chain.event_hash(entry)
        return cast(ev.Entry, entry)

    def emit(self, type_: str, data: Mapping[str, object], rule: str | None = None,
             by: str | None = None, **restoring: Unpack[Restoring]) -> ev.Entry:
        """Append one entry to the log (used by the rules through `Table`; an undo or redo says what it restores)."""
        ctx = self._ctx
        request = None
        meta: Mapping[str, object] = restoring
        if ctx is not None:
            meta = {**ctx.next_meta(), **restoring}
            by = by if by is not None else ctx.seat
            request = ctx.request_of(cast(ev.Meta, meta)) if self._digests else None
        if not self._roll_words:
            data = rolls.as_before(type_, data)
        entry = self._entry(self.version + 1, type_, self._now(), by, rule, data, self.head, request)
        # what `self._log(entry=entry, meta=meta)` triggers, without the library binding the decorated method anew
        # and matching its arguments on every call
        self.trigger_event(LOGGED, entry=entry, meta=meta)
        return entry

    _ctx: Table | None = None
    _digests = True  # entries carry their request's digest; false while a request stored before them is
    # played again (domain/rerun.py), so that it makes the entries it made then
    _roll_words = True  # roll events say what they mean (domain/rolls.py); false while a request stored before
    # they did is played again, likewise

    def _now(self) -> str:
        return self._ctx.at if self._ctx else ""

    # -- public commands -----------------------------------------------------------------

    @property
    def status(self) -> str:
        return self.state.status

    def pending_entries(self) -> list[ev.Entry]:
        """The entries of the events made and not yet stored (what a write answers)."""
        return [logged(event).entry for event in self.pending_events]

    def check_token(self, token: str) -> str | None:
        digest = hashlib.sha256(token.encode()).hexdigest()
        for role, stored in self.token_digests.items():
            if hmac.compare_digest(stored, digest):
                return role
        return None

    @staticmethod
    def endpoint_of(entry: ev.Entry, meta: ev.Meta) -> str:
        """The endpoint that started this entry's request, read off what it records (for entries stored
        before the request books named their endpoint)."""
        if meta.get("kind") == "action":
            return "armies" if (meta.get("command") or {}).get("type") == "muster" else "commands"
        if entry["type"] == "ActionUndone":
            return "approve" if "approved_by" in entry["data"] else "undo"
        return {"UndoRequested": "undo", "UndoRejected": "reject", "ActionRedone": "redo"}.get(entry["type"],
                                                                                              "commands")

    def answer(self, seat: str, key: str | None, body: str, endpoint: str = "commands") -> list[Any] | None:
        """The stored answer for this seat's Idempotency-Key on this endpoint, or None; another body, or
        another endpoint, is 422."""
        if key is None:
            return None
        stored = self.requests.get(f"{seat}:{key}")
        if stored is None:
            return None
        if len(stored) > 4 and stored[4] != endpoint:  # a book from an older snapshot has no endpoint: any
            raise Malformed(f"this Idempotency-Key was used on {stored[4]}; a key belongs to one endpoint",
                            field="Idempotency-Key")
        if stored[0] != body:
            raise Malformed("this Idempotency-Key was used with another body", field="Idempotency-Key")
        return stored

    def muster(self, seat: str, units: list[dict[str, Any]], at: str, key: str | None = None,
               body: str = "") -> None:
        """Muster (or replace) a seat's army; allowed until the game starts. `units`: its JSON as sent (the JSON
        boundary, judged by `army.validate_army` and the ruleset's `check_army`). An id the other army already uses
        is renamed (`army.distinct_ids`), and the event says how (`renamed`), so unit ids stay unique in a game."""
        if self.state.status == "ended":
            raise Refused("the game has ended", rule="SVC.ENDED")
        if self.state.status != "setup":
            raise Refused("armies are mustered before the game starts", rule="SVC.SETUP")
        if self.pending_undo is not None:
            raise Refused("an undo request is waiting for an answer", rule="SVC.UNDO.PENDING")
        others = {uid for uid, u in self.state.units.items() if u.owner != seat}  # the other seat's unit ids
        army.validate_army(seat, units)  # as sent: an id the other army uses is renamed, not refused
        if editions.fixed(self.state, "SVC.SETUP"):
            army.check_engaged(units, others if self.state.mustered[other(seat)] else None)
        units, renamed = army.distinct_ids(units, others)
        find_ruleset(self.state.ruleset).check_army(units)
        mustered = ev.ArmyMustered(seat=seat, units=units)
        if renamed:  # only then: a muster that renamed nothing is logged as it always was
            mustered["renamed"] = renamed
        with Table(self, seat, at, key, body, kind="action", command={"type": "muster", "units": len(units)},
                   endpoint="armies"):
            self.emit("ArmyMustered", mustered, "SVC.SETUP")

    def validate(self, seat: str, command: Command) -> None:
        """422/404 checks that need the game (table dice shapes, unknown units)."""
        ruleset = find_ruleset(self.state.ruleset)
        ruleset.validate(self.state, seat, command)

    def execute(self, seat: str, command: Command, at: str, key: str | None = None,
                body: str = "", gate: bool = True) -> None:
        """Judge, then play, one command: judged before any event is made (`ruling`), so a refusal leaves the
        game as it was. A stored command played again (`domain.rerun`, `gate=False`) was judged when sent."""
        self._guard_play()
        ruleset = find_ruleset(self.state.ruleset)
        if gate:
            self.ruling(ruleset, seat, command)
        with Table(self, seat, at, key, body, kind="action", command=as_data(command)) as table:
            ruleset.handle(table, seat, command)
            ruleset.advance(table)
            if self.state.status != "ended" and self.state.options.clock_loses and clock.out(self.state, seat):
                ruleset.end_game(table, "time", winner=other(seat))  # MSN.CLK.1, at the end of its action

    def ruling(self, ruleset: Ruleset, seat: str, command: Command) -> None:
        """CONTRACT.md "Legal actions": a command that moves the game on is accepted only as an instance of an
        action offered now, the very list GET /state shows; the command types open at any time are judged by
        their own rules. A refusal (raised) says what the rules say is wrong: the handler's own checks, run on
        a copy of the game that is then dropped (a refusal is rare, and some come only after a first event),
        or else that it is none of the actions open now."""
        state = self.state
        if command.type in ruleset.anytime(state, seat):
            return
        if actions.offered(offers(ruleset, state, seat), sent(command)):
            return
        scratch = copy.deepcopy(self)
        with Table(scratch, seat, "", None, "", kind="action") as table:
            ruleset.handle(table, seat, command)
        raise Refused(f"this {command.type} is none of the actions open to you now: "
                      "GET /state lists them with their schemas", rule=ruleset.awaited_rule(state))

    def _guard_play(self) -> None:
        if self.state.status == "ended":
            raise Refused("the game has ended", rule="SVC.ENDED")
        if self.pending_undo is not None:
            raise Refused("an undo request is waiting for an answer", rule="SVC.UNDO.PENDING")

    def undo(self, seat: str, at: str, key: str | None, body: str, before: dict[str, Any] | None) -> int:
        """Undo at once (200) or ask the other seat (202). `before` is the state to restore, as its JSON
        (`GameState.to_json`, kept in `meta`: the state codec's JSON boundary)."""
        self._guard_play()
        if not self.done:
            raise Refused("there is no action to undo", rule="SVC.UNDO.NONE")
        first, last, by, rolled = self.done[-1]
        seqs = list(range(first, last + 1))
        with Table(self, seat, at, key, body, kind="control", status=0, endpoint="undo") as table:
            if by == seat and not rolled:
                table.status = 200
                self.emit("ActionUndone", ev.ActionUndone(seqs=seqs, action_by=by), "SVC.UNDO.CONSENT",
                          kind="restore", state=before, undone_by=seat)  # own, dice-free: no consent needed
            else:
                table.status = 202
                took = f"{player_name(self.state, by)} took it" if editions.fixed(self.state, "SVC.UNDO.CONSENT") \
                    else "the other seat took it"
                reason = "it rolled dice" if rolled else took
                self.emit("UndoRequested", ev.UndoRequested(seqs=seqs, action_by=by, reason=reason),
                          "SVC.UNDO.CONSENT")
        return table.status

    def undo_first_seq(self) -> int:
        return self.done[-1][0] if self.done else 0

    def answer_undo(self, seat: str, approve: bool, at: str, key: str | None, body: str,
                    before: dict[str, Any] | None) -> None:
        """Approve or reject the pending undo; `before`: the state an approval restores, as its JSON (`undo`'s)."""
        if self.state.status == "ended":
            raise Refused("the game has ended", rule="SVC.ENDED")
        pending = self.pending_undo
        if pending is None:
            raise Refused("no undo request is waiting", rule="SVC.UNDO.NONE")
        if pending["seat"] == seat:
            raise Refused(f"you asked for this undo: {player_name(self.state, other(seat))} approves or rejects it",
                          rule="SVC.UNDO.WHO")
        with Table(self, seat, at, key, body, kind="control", status=200, endpoint="approve" if approve else "reject"):
            data = {"seqs": pending["seqs"], "requested_by": pending["seat"]}
            if approve:
                self.emit("ActionUndone", {**data, "approved_by": seat}, "SVC.UNDO.CONSENT",
                          kind="restore", state=before, undone_by=pending["seat"])
            else:
                self.emit("UndoRejected", {**data, "rejected_by": seat}, "SVC.UNDO.CONSENT")

    def withdraw_undo(self, seat: str, at: str, key: str | None, body: str) -> None:
        """The seat that asked takes its pending undo request back (SVC.UNDO.CONSENT): the action stands, and the
        request stays in the log."""
        if self.state.status == "ended":
            raise Refused("the game has ended", rule="SVC.ENDED")
        pending = self.pending_undo
        if pending is None:
            raise Refused("no undo request is waiting to be withdrawn", rule="SVC.UNDO.NONE")
        if pending["seat"] != seat:
            raise Refused("only the player who asked for this undo may withdraw it; the other player approves or "
                          "rejects it", rule="SVC.UNDO.WHO")
        with Table(self, seat, at, key, body, kind="control", status=200, endpoint="withdraw"):
            self.emit("UndoWithdrawn", ev.UndoWithdrawn(seqs=pending["seqs"], requested_by=seat), "SVC.UNDO.CONSENT")

    def redo_last_seq(self) -> int:
        return self.redo_stack[-1][1] if self.redo_stack else 0

    def redo(self, seat: str, at: str, key: str | None, body: str, after: dict[str, Any] | None) -> None:
        """Redo the latest undone action; `after`: the state it restores, as its JSON (`undo`'s `before`)."""
        self._guard_play()
        if not self.redo_stack:
            raise Refused("there is no undone action to redo", rule="SVC.UNDO.NONE")
        first, last, _by, _rolled, undone_by = self.redo_stack[-1]
        if undone_by != seat:
            raise Refused(f"only {player_name(self.state, undone_by)}, who undid this action, may redo it",
                          rule="SVC.UNDO.WHO")
        with Table(self, seat, at, key, body, kind="control", status=200, endpoint="redo"):
            self.emit("ActionRedone", ev.ActionRedone(seqs=list(range(first, last + 1))), "SVC.UNDO.WHO",
                      kind="restore", state=after)

    # -- reading -------------------------------------------------------------------------

    def actions(self, seat: str) -> list[Action]:
        """CONTRACT.md "Legal actions": what this seat may send now; nothing while an undo waits."""
        if seat not in ("A", "B") or self.pending_undo is not None:
            return []
        return titled(self.state, seat, offers(find_ruleset(self.state.ruleset), self.state, seat))

    def records(self, seat: str, open_now: list[str]) -> list[Action]:
        """Forms for the record-only commands among `open_now` (this seat's `anytime`; see `Ruleset.records`)."""
        ruleset = find_ruleset(self.state.ruleset)
        return titled(self.state, seat, [a for a in ruleset.records(self.state, seat) if a.type in open_now])

    def anytime(self, seat: str) -> list[str]:
        """What is open now besides the actions: record-only commands, and undo, redo or the answer to a
        pending undo request when that endpoint would be accepted."""
        if seat not in ("A", "B") or self.state.status == "ended":
            return []
        if self.pending_undo is not None:
            return ["approve", "reject"] if self.pending_undo["seat"] != seat else ["withdraw"]
        ruleset = find_ruleset(self.state.ruleset)
        open_now = ruleset.anytime(self.state, seat)
        if self.state.status == "setup":  # POST /armies, open to either seat until the start: an undone muster
            open_now.append("muster")     # is offered again, so an undo never strands the set-up
        if self.done:
            open_now.append("undo")
        if self.redo_stack and self.redo_stack[-1][4] == seat:
            open_now.append("redo")
        return open_now

    def is_undone(self, seq: int) -> bool:
        return any(first <= seq <= last for first, last in self.undone)

    def revealed_seed(self) -> str | None:
        return self.seed if self.state.status == "ended" and self.state.dice == "server" else None


LOGGED = vars(Game)["Logged"]  # the event class `@event("Logged")` made for `Game._log`


class Table:
    """What the rules see while one request runs: the state, `emit` and `roll`."""

    def __init__(self, game: Game, seat: str, at: str, key: str | None, body: str,
                 kind: str, status: int = 200, command: dict[str, Any] | None = None,
                 endpoint: str = "commands") -> None:
        # `command`: the command as recorded (`commands.as_data`, JSON: the boundary `ev.Meta.command` keeps)
        self.game, self.seat, self.at, self.kind, self.status = game, seat, at, kind, status
        self.endpoint = endpoint  # an Idempotency-Key belongs to one endpoint
        self.key = key
        self.body = body
        self.command = command
        self._first = True
        self._request: str | None = None

    @property
    def state(self) -> GameState:
        """The game's state now (a new value after each `emit`: read it again after one)."""
        return self.game.state

    def __enter__(self) -> Table:
        self.game._ctx = self
        return self

    def __exit__(self, *exc: object) -> None:
        vars(self.game).pop("_ctx", None)  # back to the class's None: nothing of the request stays in the game or its snapshots

    def next_meta(self) -> ev.Meta:
        meta: ev.Meta = {"kind": self.kind}
        if self._first:
            self._first = False
            meta["starts"] = True
            meta["sent_by"] = self.seat  # the audit's "who sent it" (a roll's `by` is the roller)
            if self.command is not None:
                meta["command"] = self.command
            if self.key is not None:
                meta["key"], meta["body"] = f"{self.seat}:{self.key}", self.body
                meta["status"], meta["endpoint"] = self.status, self.endpoint
        else:
            meta["continues"] = True
        return meta

    def request_of(self, meta: ev.Meta) -> str:
        """The digest every event of this request carries: of the record its first event keeps."""
        if self._request is None:
            self._request = chain.digest(integrity.request_record(meta))
        return self._request

    def emit(self, type_: str, data: Mapping[str, object], rule: str | None = None,
             by: str | None = None) -> ev.Entry:
        """`data`: the kind's payload (domain/events.py), a dict as logged."""
        return self.game.emit(type_, data, rule, by)

    def server_roll(self, expr: dice.DiceExpr) -> tuple[list[int], int]:
        """Faces for the next server roll and its counter (never reused, not even after an undo)."""
        counter = self.game.next_counter
        state = self.state
        faces = dice.server_faces(bytes.fromhex(self.game.seed), state.game_id, counter,
                                  state.entropy.A, state.entropy.B, expr.count, expr.sides)
        return faces, counter

