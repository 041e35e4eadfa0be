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

Games created before these commitments existed (no `token_commitments` in the creation data, snapshots
without a digest) are checked as before: the chain, the seqs, the dice commitment.
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from eventsourcing.domain import Snapshot

from domain import chain
from domain.rulings import Refused

DIGEST_KEY = "state_digest"


class Damaged(Refused):
    """The stored log of this game fails its own check (409 SVC.DAMAGED, naming the first bad seq)."""

    def __init__(self, first_bad_seq: int, why: str) -> None:
        super().__init__(f"the stored log of this game is damaged at seq {first_bad_seq} ({why}); "
                         "nothing more is read from it or written to it", rule="SVC.DAMAGED")
        self.first_bad_seq = first_bad_seq
        self.why = why


def _canonical(value: Any) -> str:
    """The chain's canonical JSON, with what JSON lacks (a snapshot's datetimes) as text."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


def token_commitment(token_digest: str) -> str:
    """What the creation entry commits to about one token: a hash of its digest (the digest itself
    lives outside the chain, in `meta`, and must not be published)."""
    return hashlib.sha256(f"warlog-token:{token_digest}".encode()).hexdigest()


def token_commitments(token_digests: dict[str, str]) -> dict[str, str]:
    return {role: token_commitment(value) for role, value in token_digests.items()}


def state_digest(state: dict[str, Any]) -> str:
    """SHA-256 of a snapshot's state (its datetimes and ids as text), without the digest itself."""
    body = {key: value for key, value in state.items() if key != DIGEST_KEY}
    text = _canonical(body)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class CheckedSnapshot(Snapshot):
    """The library's snapshot with a digest of what it holds; loading it checks the digest."""

    @classmethod
    def take(cls, aggregate: Any) -> "CheckedSnapshot":
        snapshot = super().take(aggregate)
        snapshot.state[DIGEST_KEY] = state_digest(snapshot.state)
        return snapshot

    def mutate(self, _: None) -> Any:
        stored = self.state.get(DIGEST_KEY)
        if stored is None or stored != state_digest(self.state):
            raise Damaged(self.originator_version, "the snapshot does not match its digest")
        aggregate = super().mutate(None)
        vars(aggregate).pop(DIGEST_KEY, None)  # the digest describes the snapshot, not the game
        return aggregate


def creation_problem(entry: dict[str, Any], meta: dict[str, Any], game_id: Any = None) -> str | None:
    """Why the creation metadata no longer matches what the creation entry committed to, or None."""
    data = entry["data"]
    if game_id is not None and data["game_id"] != str(game_id):
        return "the creation event is another game's"
    committed = data.get("token_commitments")
    if committed is not None and committed != token_commitments(meta["tokens"]):
        return "the token digests are not the ones the creation committed to"
    if data.get("dice_commitment") is not None:
        if hashlib.sha256(bytes.fromhex(meta["seed"])).hexdigest() != data["dice_commitment"]:
            return "the dice seed is not the one the creation committed to"
    return None


def entry_problem(entry: Any, seq: int, prev_hash: str) -> str | None:
    """Why this stored entry is not event `seq` following `prev_hash`, or None."""
    if not isinstance(entry, dict):
        return "the event holds no entry"
    try:
        if entry["seq"] != seq:
            return f"the event stored at seq {seq} says seq {entry['seq']}"
        if entry["prev_hash"] != prev_hash:
            return "the event does not link to the one before it"
        if chain.event_hash(entry) != entry["hash"]:
            return "the event's hash does not match its content"
    except (KeyError, TypeError, ValueError):
        return "the event's entry is malformed"
    return None


def _event_problem(event: Any, seq: int, prev_hash: str) -> str | None:
    entry = getattr(event, "entry", None)
    why = entry_problem(entry, seq, prev_hash)
    if why is None and seq == 1:
        try:
            why = creation_problem(entry, event.meta, event.originator_id)
        except (AttributeError, KeyError, TypeError, ValueError):
            why = "the creation metadata is malformed"
    return why


def checked(aggregate: Any, events: Iterable[Any]) -> Any:
    """The library's `project_aggregate`, checking each event before it is applied (see above)."""
    stream = iter(events)
    while True:
        seq = 1 if aggregate is None else aggregate.version + 1
        try:
            event = next(stream)
        except StopIteration:
            return aggregate
        except Exception as error:  # a row that does not decode
            raise Damaged(seq, "an event cannot be read") from error
        if isinstance(event, Snapshot):
            try:
                aggregate = event.mutate(None)
            except Damaged:
                raise
            except Exception as error:
                raise Damaged(event.originator_version, "the snapshot cannot be applied") from error
            continue
        if event.originator_version != seq:
            raise Damaged(seq, "an event is missing")
        why = _event_problem(event, seq, chain.GENESIS if aggregate is None else aggregate.head)
        if why is not None:
            raise Damaged(seq, why)
        try:
            aggregate = event.mutate(aggregate)
        except Exception as error:  # the hashed entry is sound, so it is what travels beside it
            raise Damaged(seq, "the event's metadata cannot be applied") from error


@dataclass(frozen=True)
class SnapshotSeen:
    """A snapshot as `inspect` read it: its digest, checked against what it holds, or, for a snapshot from
    before digests, what it holds (a whole game: not kept for the others, as a game has one every 100 events)."""

    version: int
    digest: str | None
    state: dict[str, Any] | None


@dataclass
class Inspection:
    """A walk over every stored row of one game: the entries read, and the first bad seq if any."""

    entries: list[dict[str, Any]]
    events: list[Any] = field(default_factory=list)  # the decoded events, when asked to keep them
    snapshots: list["SnapshotSeen"] = field(default_factory=list)  # and the snapshots, when asked
    rows: int = 0                                      # rows stored, read or not
    first_bad_seq: int | None = None
    why: str | None = None

    @property
    def ok(self) -> bool:
        return self.first_bad_seq is None

    def fail(self, seq: int, why: str) -> "Inspection":
        if self.first_bad_seq is None or seq < self.first_bad_seq:
            self.first_bad_seq, self.why = seq, why
        return self

    def raise_if_bad(self) -> None:
        if self.first_bad_seq is not None:
            raise Damaged(self.first_bad_seq, self.why or "damaged")


def inspect(rows: Iterable[tuple[int, Callable[[], Any]]],
            snapshots: Iterable[tuple[int, Callable[[], Any]]] = (), keep_events: bool = False) -> Inspection:
    """Walk `(version, decode)` pairs oldest first (`decode()` gives the domain event or raises), then
    the snapshots given, each against the event at its version and against its own digest."""
    found = Inspection([])
    prev = chain.GENESIS
    heads: dict[int, str] = {}
    rows = list(rows)
    found.rows = len(rows)
    for seq, (version, decode) in enumerate(rows, start=1):
        if version != seq:
            return found.fail(seq, "an event is missing" if version > seq else "events are out of order")
        try:
            event = decode()
        except Exception:
            return found.fail(seq, "an event cannot be read")
        why = _event_problem(event, seq, prev)
        if why is not None:
            return found.fail(seq, why)
        found.entries.append(event.entry)
        if keep_events:
            found.events.append(event)
        prev = event.entry["hash"]
        heads[seq] = prev
    committed = bool(found.entries) and found.entries[0]["data"].get("token_commitments") is not None
    for version, decode in snapshots:  # a game made since snapshots carry a digest must have one
        if version not in heads:
            found.fail(len(heads) + 1, "a snapshot stands for events that are not stored")
            continue
        try:
            state = decode().state
            head = state.get("head")
        except Exception:
            found.fail(version, "a snapshot cannot be read")
            continue
        if head != heads[version]:
            found.fail(version, "a snapshot's head is not the hash of the event at its version")
        elif (committed or DIGEST_KEY in state) and state.get(DIGEST_KEY) != state_digest(state):
            found.fail(version, "a snapshot does not match its digest")
        elif keep_events:
            digest = state.get(DIGEST_KEY)
            found.snapshots.append(SnapshotSeen(version, digest, None if digest else state))
    return found


RESTORES = {"ActionUndone": lambda seqs: seqs[0] - 1, "ActionRedone": lambda seqs: seqs[-1]}


def restores_as_of(entry: dict[str, Any]) -> int | None:
    """The seq whose state an undo (the one before the action) or a redo (its last) restores, or None."""
    as_of = RESTORES.get(entry["type"])
    return None if as_of is None else as_of(entry["data"]["seqs"])


def restore_problem(meta: dict[str, Any], expected: dict[str, Any] | None) -> bool:
    return meta.get("kind") != "restore" or _canonical(meta.get("state")) != _canonical(expected)


def snapshot_disagrees(snapshot: SnapshotSeen, replayed: Any) -> bool:
    """Whether the snapshot holds another game than the events up to its version make: compared by its digest,
    which `inspect` checked against what it holds (one canonical text of the game instead of two, each as long
    as the game), or for a snapshot without one by what it holds."""
    from_events = {k: v for k, v in vars(replayed).items()
                   if k not in ("_id", "_version", "_pending_events")}
    if snapshot.digest is not None:
        return state_digest(from_events) != snapshot.digest
    return _canonical(snapshot.state) != _canonical(from_events)
