"""Whether a game's stored log still holds (RULES.md SVC.DAMAGED), and where it first fails.

What is checked when:

- Every load through the repository (`checked`, the projector the application hands to
  `repository.get`, so also a cached game's fast-forward and `state_at`): each event read is the
  next version, its entry's `seq` is that version, its `prev_hash` is the head before it and its
  `hash` recomputes; a snapshot's digest recomputes over the state it holds, and the first event
  after it must link to the snapshot's head. The creation event's `meta` (the token digests, the
  dice seed) must match what its hashed `data` committed to. Cost: one hash per event read, which
  is the events after the latest snapshot, usually none on a cached game.
- Once per game per process (its first load; a later cache miss reuses the verdict) and on every
  `GET /verify`: `inspect` walks every stored row, decoding each: a row that does not decode, a
  version missing or out of place, a broken link or hash, the creation metadata, and every snapshot
  (an older one still serves `state_at`, undo included) against the hash of the event at its
  version and against its own digest. About 0.2-0.4 s for 5,000 events here; a cached game pays
  nothing. `/verify` also replays the events once and compares each snapshot with the game they
  make (`snapshot_disagrees`), which catches a snapshot rewritten with a fresh digest, and rebuilds
  the state each undo and redo restored (it travels in `meta`, outside the chain).
- Every read of stored events (`Warlog.stored`): each is the next seq and decodes.

- The request beside each event (`request_problem`): an entry that carries `request` commits to the books
  stored beside it in `meta` (`request_record`: the command, the seat that sent it, its Idempotency-Key
  and body digest, the answer's status, the action books, the digest of a state an undo restores); the
  first event of a request holds the record, the others the same digest and nothing but their kind.
- The head (`head_problem`): the head record the store keeps apart from the events, written in the same
  transaction as each append, and any head a seat presented that the log did not hold. A log that ends
  before a head is "truncated" at its first missing seq; one whose event at the head's seq has another
  hash is damaged there ("head"): rewritten.

Every damage has a form (`FORMS`), reported as `/verify`'s `damage`, and a sentence saying why.

Games created before these commitments existed (no `token_commitments` in the creation data, snapshots
without a digest, events without `request`, no head record) are checked as before: the chain, the seqs,
the dice commitment; a game with no head record takes its head when first read.
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, TypedDict, TypeVar, cast
from uuid import UUID

import orjson
from eventsourcing.domain import AggregateCreated, DomainEventProtocol, MutableOrImmutableAggregate, Snapshot

from warlog.domain import chain, words
from warlog.domain import events as ev
from warlog.domain.rulings import Refused
from warlog.domain.state import GameState

if TYPE_CHECKING:
    from warlog.domain.game import Game

DIGEST_KEY = "state_digest"
# the forms of damage (CONTRACT.md `/verify`): what `damage` names
FORMS = ("altered", "missing", "reordered", "unreadable", "snapshot", "metadata", "truncated", "head")
Problem = tuple[str, str]  # (form, why)
A = TypeVar("A")


class Row(Protocol):
    """One of a game's events as decoded from its stored row, once it is of the kind its place needs
    (`kind_problem`): its `entry` and `meta` are the JSON the store held, judged here key by key (the JSON
    boundary: read as `object` until checked)."""

    @property
    def originator_id(self) -> UUID: ...
    @property
    def originator_version(self) -> int: ...
    @property
    def entry(self) -> object: ...
    @property
    def meta(self) -> object: ...
    def mutate(self, aggregate: Game | None) -> Game | None: ...


class Opened(TypedDict):
    """The request an event leaves open for the events after it: its first event's `kind` (as stored) and
    digest."""

    kind: object
    request: str


class Damaged(Refused):
    """The stored log of this game fails its own check (409 SVC.DAMAGED, naming the first bad seq)."""

    def __init__(self, first_bad_seq: int, why: str, form: str = "altered") -> None:
        super().__init__(f"the stored log of this game is damaged at seq {first_bad_seq} ({why}); "
                         "nothing more is read from it or written to it", rule="SVC.DAMAGED")
        self.first_bad_seq = first_bad_seq
        self.why = why
        self.form = form

    @classmethod
    def at(cls, seq: int, problem: Problem) -> Damaged:
        return cls(seq, problem[1], problem[0])


def _canonical(value: object) -> str:
    """The chain's canonical JSON, with what JSON lacks (a snapshot's datetimes) as text."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


def token_commitment(token_digest: str) -> str:
    """What the creation entry commits to about one token: a hash of its digest (the digest itself
    lives outside the chain, in `meta`, and must not be published)."""
    return hashlib.sha256(f"warlog-token:{token_digest}".encode()).hexdigest()


def token_commitments(token_digests: dict[str, str]) -> dict[str, str]:
    return {role: token_commitment(value) for role, value in token_digests.items()}


def state_digest(state: Mapping[str, object]) -> str:
    """SHA-256 of a snapshot's state (its datetimes and ids as text), without the digest itself."""
    body = {key: value for key, value in state.items() if key != DIGEST_KEY}
    text = _canonical(body)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# orjson writing what `_canonical` writes: keys sorted, compact, UTF-8, what JSON lacks as its text (`default=str`)
ORJSON_CANONICAL = (orjson.OPT_SORT_KEYS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS
                    | orjson.OPT_PASSTHROUGH_SUBCLASS)


def digest_holds(state: Mapping[str, object], digest: str | None) -> bool:
    """Whether `digest` is the state's `state_digest`: asked of orjson's canonical text first (a tenth of the
    standard encoder's time; a game's state is the longest JSON the service writes), then, where that differs (a
    float orjson writes otherwise, such as 1e-05; a value it will not write), of `_canonical`'s. Bytes that hash
    to the digest are the text the digest was taken of, whoever wrote them: no verdict changes."""
    if digest is None:
        return False
    body = {key: value for key, value in state.items() if key != DIGEST_KEY}
    try:
        if hashlib.sha256(orjson.dumps(body, default=str, option=ORJSON_CANONICAL)).hexdigest() == digest:
            return True
    except TypeError:  # orjson.JSONEncodeError: a key that is no text, an integer past 64 bits
        pass
    return state_digest(state) == digest


def stored_form(held: Mapping[str, object]) -> dict[str, object]:
    """A game's attributes as a snapshot stores them: its typed state as its JSON (`GameState.to_json`)."""
    stored = dict(held)
    state = stored.get("state")
    if state is not None and not isinstance(state, dict):
        stored["state"] = cast(GameState, state).to_json()
    return stored


def typed_game(aggregate: A) -> A:
    """A game read from a snapshot, its state (the JSON a snapshot holds, as the library's own snapshots of
    older games do too) as a `GameState`."""
    held = vars(aggregate)
    if isinstance(held.get("state"), dict):
        held["state"] = GameState.from_json(held["state"])
    return aggregate


class CheckedSnapshot(Snapshot):
    """The library's snapshot with a digest of what it holds; loading it checks the digest. The game's state
    is held as its JSON and read back as a `GameState`."""

    @classmethod
    def take(cls, aggregate: MutableOrImmutableAggregate[UUID]) -> CheckedSnapshot:
        snapshot = super().take(aggregate)
        held = stored_form(snapshot.state)
        snapshot.state.clear()
        snapshot.state.update(held)
        snapshot.state[DIGEST_KEY] = state_digest(snapshot.state)
        return snapshot

    def mutate(self, _: None) -> Any:
        if not digest_holds(self.state, self.state.get(DIGEST_KEY)):
            raise Damaged(self.originator_version, "the snapshot does not match its digest", "snapshot")
        aggregate = super().mutate(None)
        held = vars(aggregate)
        held.pop(DIGEST_KEY, None)  # the digest describes the snapshot, not the game
        return typed_game(aggregate)


def creation_problem(entry: ev.Entry, meta: ev.Meta, game_id: object = None) -> Problem | None:
    """Why the creation metadata no longer matches what the creation entry committed to, or None."""
    data = entry["data"]
    if game_id is not None and data["game_id"] != str(game_id):
        return "altered", "the creation event is another game's"
    committed = data.get("token_commitments")
    if committed is not None and committed != token_commitments(meta["tokens"]):
        return "metadata", "the token digests are not the ones the creation committed to"
    if data.get("dice_commitment") is not None \
            and hashlib.sha256(bytes.fromhex(meta["seed"])).hexdigest() != data["dice_commitment"]:
        return "metadata", "the dice seed is not the one the creation committed to"
    return None


def entry_problem(entry: object, seq: int, prev_hash: str) -> Problem | None:
    """Why this stored entry (JSON as stored, unchecked: what this judges) is not event `seq` following
    `prev_hash`, or None."""
    if not isinstance(entry, dict):
        return "unreadable", "the event holds no entry"
    try:
        if entry["seq"] != seq:
            return "reordered", f"the event stored at seq {seq} says seq {entry['seq']}"
        if entry["prev_hash"] != prev_hash:
            return "altered", "the event does not link to the one before it"
        if chain.event_hash(entry) != entry["hash"]:
            return "altered", "the event's hash does not match its content"
    except (KeyError, TypeError, ValueError):
        return "unreadable", "the event's entry is malformed"
    return None


RESTORED = "state"      # an undo's or redo's restored state: in the record by its digest (`restores`)
CONTINUES = "continues"


def request_record(meta: Mapping[str, object]) -> dict[str, object]:
    """The request as the service recorded it beside its first event (the books in `meta`: `kind`, `starts`,
    `sent_by`, `command`, `key`, `body`, `status`, `endpoint`, `undone_by`), with a restored state by its
    digest: what an entry's `request` is the digest of (`chain.digest`), and what an export shows as `sent`."""
    record = {key: value for key, value in meta.items() if key != RESTORED}
    if RESTORED in meta:
        record["restores"] = hashlib.sha256(_canonical(meta[RESTORED]).encode("utf-8")).hexdigest()
    return record


def request_problem(entry: ev.Entry, meta: object, opened: Opened | None) -> Problem | None:
    # `meta`: JSON as stored, unchecked: what this judges
    """Why the books beside an entry that carries `request` are not those it committed to, or None. `opened`:
    the request's first event's meta and digest (`{"kind", "request"}`) when the event continues one."""
    digest = entry.get(chain.REQUEST)
    if digest is None:
        return None  # stored before request digests: `/verify`'s replay (`commands_ok`) is its check
    if not isinstance(meta, dict):
        return "metadata", "the event's record of its request is missing"
    if meta.get(CONTINUES):
        if set(meta) != {"kind", CONTINUES} or (opened is not None and (
                digest != opened["request"] or meta["kind"] != opened["kind"])):
            return "metadata", "the event's record of its request is not the one its request committed to"
        return None
    try:
        matches = chain.digest(request_record(meta)) == digest
    except (TypeError, ValueError):
        matches = False
    if not matches:
        return "metadata", "the record of the request beside the event is not the one the event committed to"
    return None


def opened_by(event: Row, opened: Opened | None) -> Opened | None:
    """The request an event leaves open for the events after it (`request_problem`'s `opened`)."""
    meta = event.meta
    if isinstance(meta, dict) and meta.get(CONTINUES):
        return opened
    digest = event.entry.get(chain.REQUEST) if isinstance(event.entry, dict) else None
    # an event that carries a digest holds its request's record (`request_problem`): a dict
    return None if digest is None else {"kind": cast(ev.Meta, meta).get("kind"), "request": digest}


def kind_problem(event: object, seq: int) -> Problem | None:
    """Why the row's topic names no event of the kind its place needs (the creation first, log entries after
    it): the topic is stored beside the hashed entry, so an edit of it is seen here, not by the chain."""
    if isinstance(event, Snapshot) or (seq == 1) != isinstance(event, AggregateCreated):
        return "altered", f"the row stored at seq {seq} is of another kind ({type(event).__name__})"
    return None


def _event_problem(event: object, seq: int, prev_hash: str, opened: Opened | None) -> Problem | None:
    entry = getattr(event, "entry", None)
    problem = kind_problem(event, seq) or entry_problem(entry, seq, prev_hash)
    if problem is not None or not isinstance(entry, dict):  # entry_problem said why an entry is no dict
        return problem
    checked_entry = cast(ev.Entry, entry)  # entry_problem checked its keys and their types
    if seq == 1:
        row = cast(Row, event)  # of the creation's kind (kind_problem)
        try:  # its meta as stored, read as it must be (`ev.Meta`): what is not fails here
            problem = creation_problem(checked_entry, cast(ev.Meta, row.meta), row.originator_id)
        except (AttributeError, KeyError, TypeError, ValueError):
            problem = "metadata", "the creation metadata is malformed"
    else:
        problem = request_problem(checked_entry, getattr(event, "meta", None), opened)
    return problem


def checked(aggregate: Game | None, events: Iterable[DomainEventProtocol[UUID]]) -> Game | None:
    """The library's `project_aggregate`, checking each event before it is applied (see above)."""
    stream = iter(events)
    opened: Opened | None = None
    first = aggregate is None  # only then may a snapshot come first, from the snapshots' own store
    while True:
        seq = 1 if aggregate is None else aggregate.version + 1
        try:
            event = next(stream)
        except StopIteration:
            return aggregate
        except Exception as error:  # a row that does not decode
            raise Damaged(seq, "an event cannot be read", "unreadable") from error
        if isinstance(event, Snapshot) and first:
            first = False
            try:
                aggregate = cast("Game", typed_game(event.mutate(None)))  # a game's snapshot holds a game
            except Damaged:
                raise
            except Exception as error:
                raise Damaged(event.originator_version, "the snapshot cannot be applied", "snapshot") from error
            continue
        first = False
        row = cast(Row, event)  # what its version and `_event_problem` judge
        if row.originator_version != seq:
            raise Damaged(seq, "an event is missing", "missing")
        problem = _event_problem(row, seq, chain.GENESIS if aggregate is None else aggregate.head, opened)
        if problem is not None:
            raise Damaged.at(seq, problem)
        opened = opened_by(row, opened)
        try:
            aggregate = row.mutate(aggregate)
        except Exception as error:  # the hashed entry is sound, so it is what travels beside it
            raise Damaged(seq, "the event's metadata cannot be applied", "metadata") from error


@dataclass(frozen=True)
class SnapshotSeen:
    """A snapshot as `inspect` read it: its digest, checked against what it holds, or, for a snapshot from
    before digests, what it holds (a whole game: not kept for the others, as a game has one every 100 events)."""

    version: int
    digest: str | None
    state: dict[str, Any] | None


@dataclass(frozen=True)
class Head:
    """A head (seq, hash) the log must still hold: the store's head record, or one a seat presented
    (`Known-Head`) that the log did not hold when it was presented (`by`: that seat)."""

    seq: int
    hash: str
    by: str | None = None  # None: the service's own record

    def owner(self, players: Mapping[str, str]) -> str:
        """Who acknowledged the head, as a judge reads it: the service, or the seat's player by name
        (`players`: the game's, seat -> name)."""
        return "the service" if self.by is None else words.named_player(players, self.by)


def head_problem(hashes: list[str], head: Head, players: Mapping[str, str]) -> tuple[int, Problem] | None:
    """(first bad seq, problem) when the log whose event hashes are `hashes` (seq 1 first) does not hold
    `head`: it ends before it (truncated: at its first missing seq), or its event at that seq differs.
    `players`: the game's (seat -> name), to name the player whose phone presented the head."""
    owner = head.owner(players)
    if head.seq > len(hashes):
        return len(hashes) + 1, ("truncated", f"the log ends at seq {len(hashes)}, before the head "
                                              f"{owner} acknowledged at seq {head.seq}")
    if head.seq >= 1 and hashes[head.seq - 1] != head.hash:
        return head.seq, ("head", f"the event at seq {head.seq} is not the one {owner} acknowledged "
                                  "there: the log was rewritten")
    return None


@dataclass
class Inspection:
    """A walk over every stored row of one game: the entries read, and the first bad seq if any."""

    entries: list[ev.Entry]
    events: list[Any] = field(default_factory=list)  # the decoded events, when asked to keep them
    snapshots: list[SnapshotSeen] = field(default_factory=list)  # and the snapshots, when asked
    rows: int = 0                                      # rows stored, read or not
    first_bad_seq: int | None = None
    why: str | None = None
    form: str | None = None

    @property
    def ok(self) -> bool:
        return self.first_bad_seq is None

    def fail(self, seq: int, why: str, form: str = "altered") -> Inspection:
        if self.first_bad_seq is None or seq < self.first_bad_seq:
            self.first_bad_seq, self.why, self.form = seq, why, form
        return self

    def failed(self, seq: int, problem: Problem) -> Inspection:
        return self.fail(seq, problem[1], problem[0])

    def damage(self) -> Damaged | None:
        if self.first_bad_seq is None:
            return None
        return Damaged(self.first_bad_seq, self.why or "damaged", self.form or "altered")

    def raise_if_bad(self) -> None:
        damage = self.damage()
        if damage is not None:
            raise damage


def inspect(rows: Iterable[tuple[int, Callable[[], object]]],
            snapshots: Iterable[tuple[int, Callable[[], object]]] = (), keep_events: bool = False,
            heads: Iterable[Head] = ()) -> Inspection:
    """Walk `(version, decode)` pairs oldest first (`decode()` gives the domain event or raises), then
    the snapshots given, each against the event at its version and against its own digest, then the
    `heads` the log must hold (the store's head record, a seat's presented head)."""
    found = Inspection([])
    rows = list(rows)
    found.rows = len(rows)
    hashes = _walk(rows, found, keep_events)
    if found.ok:
        players = found.entries[0]["data"].get("players", {}) if found.entries else {}
        for head in heads:
            problem = head_problem(hashes, head, players)
            if problem is not None:
                found.failed(*problem)
    committed = bool(found.entries) and found.entries[0]["data"].get("token_commitments") is not None
    for version, decode in snapshots:  # a game made since snapshots carry a digest must have one
        if version > len(hashes):
            # (an earlier failure, if any, stands: `fail` keeps the first bad seq)
            found.fail(len(hashes) + 1, "a snapshot stands for events that are not stored", "truncated")
            continue
        try:
            state: dict[str, Any] = cast(Snapshot, decode()).state  # the JSON a snapshot stores (JSON boundary)
            held_head = state.get("head")
        except Exception:
            found.fail(version, "a snapshot cannot be read", "snapshot")
            continue
        if held_head != hashes[version - 1]:
            found.fail(version, "a snapshot's head is not the hash of the event at its version", "snapshot")
        elif (committed or DIGEST_KEY in state) and not digest_holds(state, state.get(DIGEST_KEY)):
            found.fail(version, "a snapshot does not match its digest", "snapshot")
        elif keep_events:
            digest = state.get(DIGEST_KEY)
            found.snapshots.append(SnapshotSeen(version, digest, None if digest else state))
    return found


def _walk(rows: list[tuple[int, Callable[[], object]]], found: Inspection, keep_events: bool) -> list[str]:
    """Every row in turn, each the next seq, decoded and checked; the hashes of the events that held."""
    prev = chain.GENESIS
    hashes: list[str] = []
    opened: Opened | None = None
    for seq, (version, decode) in enumerate(rows, start=1):
        if version != seq:
            if version > seq:
                found.fail(seq, "an event is missing", "missing")
            else:
                found.fail(seq, "events are out of order", "reordered")
            return hashes
        try:
            event = decode()
        except Exception:
            found.fail(seq, "an event cannot be read", "unreadable")
            return hashes
        problem = _event_problem(event, seq, prev, opened)
        if problem is not None:
            found.failed(seq, problem)
            return hashes
        row = cast(Row, event)  # of its kind, its entry whole (`_event_problem`)
        entry = cast(ev.Entry, row.entry)
        opened = opened_by(row, opened)
        found.entries.append(entry)
        if keep_events:
            found.events.append(event)
        prev = entry["hash"]
        hashes.append(prev)
    return hashes


RESTORES = {"ActionUndone": lambda seqs: seqs[0] - 1, "ActionRedone": lambda seqs: seqs[-1]}


def restores_as_of(entry: ev.Entry) -> int | None:
    """The seq whose state an undo (the one before the action) or a redo (its last) restores, or None."""
    as_of = RESTORES.get(entry["type"])
    return None if as_of is None else as_of(entry["data"]["seqs"])


def restore_problem(meta: ev.Meta, expected: Mapping[str, object] | None) -> bool:
    return meta.get("kind") != "restore" or _canonical(meta.get("state")) != _canonical(expected)


def snapshot_disagrees(snapshot: SnapshotSeen, replayed: object) -> bool:
    """Whether the snapshot holds another game than the events up to its version make: compared by its digest,
    which `inspect` checked against what it holds (one canonical text of the game instead of two, each as long
    as the game), or for a snapshot without one by what it holds."""
    from_events = stored_form({k: v for k, v in vars(replayed).items()
                               if k not in ("_id", "_version", "_pending_events")})
    if snapshot.digest is not None:
        return not digest_holds(from_events, snapshot.digest)
    return _canonical(snapshot.state) != _canonical(from_events)
