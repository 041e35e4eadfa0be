"""What the application answers about a game's stored log: `/verify`'s report (every row, snapshot, restored
state and, once revealed, server roll checked), a seat's presented head (`Known-Head`), and which token a
damaged game's creation still vouches for. A part of `Warlog` (domain/application.py), reading its store
and its books through `self`."""
from __future__ import annotations

import copy
import hashlib
import hmac
from typing import TYPE_CHECKING, Any, TypeVar
from uuid import UUID

from warlog.domain import chain, dice, integrity, rerun, words
from warlog.domain.game import logged
from warlog.domain.integrity import Damaged
from warlog.domain.rulings import NotFound

if TYPE_CHECKING:
    import threading
    from collections.abc import Callable, Iterator

    from eventsourcing.persistence import ApplicationRecorder, Mapper

    from warlog.domain.game import Game
    from warlog.domain.heads import HeadStore

T = TypeVar("T")
K = TypeVar("K")
V = TypeVar("V")


def digest(token: str) -> str:
    """A token as the store keeps it: its SHA-256 (the token itself is never stored)."""
    return hashlib.sha256(token.encode()).hexdigest()


def remember(book: dict[K, V], key: K, value: V, most: int = 100_000) -> None:
    """A bounded book: past `most` entries, forget the oldest half (several threads may be forgetting the same
    entries at once: one that is already gone is no error)."""
    if len(book) >= most:
        for old in list(book)[: most // 2]:
            book.pop(old, None)
    book[key] = value


class Verifying:
    """A part of `Warlog`: its checks of a stored log."""

    if TYPE_CHECKING:  # what it reads of `Warlog` (domain/application.py), which defines each of these
        mapper: Mapper[UUID]
        recorder: ApplicationRecorder
        heads: HeadStore
        _heads_held: dict[tuple[UUID, int], str]
        _damaged: dict[UUID, Damaged]

        def lock(self, game_id: UUID) -> threading.RLock: ...
        def game(self, game_id: UUID) -> Game: ...
        def game_at(self, game_id: UUID, version: int) -> Game: ...
        def inspect(self, game_id: UUID, keep_events: bool = False) -> integrity.Inspection: ...
        def stored(self, game_id: UUID, after: int = 0, limit: int | None = None) -> Iterator[Any]: ...
        def viewing(self, game_id: UUID, view: Callable[[Game], T]) -> T: ...
        def _cached(self, game_id: UUID) -> Game | None: ...
        def _evict(self, game_id: UUID) -> None: ...

    def holds_head(self, game_id: UUID, seq: int, hash_: str) -> bool:
        """Whether this process already knows the log holds the head (seq, hash): found so before, or the
        cached game's own head. No store access (it runs on the event loop)."""
        if self._heads_held.get((game_id, seq)) == hash_:
            return True
        cached = self._cached(game_id)
        return cached is not None and cached.version == seq and cached.head == hash_

    def known_head(self, game_id: UUID, seq: int, hash_: str, seat: str) -> None:
        """A head seat `seat` presents (`Known-Head`): the log must hold it, as SVC.DAMAGED says. When it does
        not (it ends before that seq, or has another event there), the seat's claim is left beside the head
        record, so that every read and write of the game is refused from now on, after a restart too, and
        this raises the damage (`/verify` reports it)."""
        with self.lock(game_id):
            game = self.game(game_id)  # the store's latest: a cached game is fast-forwarded first
            version, head = game.version, game.head
        if seq == version:
            held = hash_ == head
        elif seq < version:
            held = next(self.stored(game_id, seq - 1, 1)).entry["hash"] == hash_
        else:
            held = False
        if held:
            remember(self._heads_held, (game_id, seq), hash_)
            return
        self.heads.claim_head(game_id, seq, hash_, seat)
        with self.lock(game_id):
            self._evict(game_id)
            damage = self.inspect(game_id).damage() or Damaged(
                min(seq, version + 1), f"{words.player_name(game.state, seat)} saw a head this log does not hold",
                "truncated" if seq > version else "head")
            remember(self._damaged, game_id, damage)
        raise damage

    def _role_in_damaged(self, game_id: UUID, token: str, damage: Damaged) -> tuple[UUID, str] | None:
        """A damaged game's token (for /verify, the one read it still answers), judged by its creation row
        as stored and, where the creation committed to the tokens, by that commitment too. When the creation
        itself is the damage, a token it does not vouch for is answered with the damage, not 401: the
        seat's own token may be the one whose digest was changed."""
        try:
            created = logged(self.mapper.to_domain_event(self.recorder.select_events(game_id, limit=1)[0]))
            stored, committed = created.meta["tokens"], created.entry["data"].get("token_commitments")
        except Exception:  # the creation row itself is unreadable: no token can be judged, all are refused
            raise Damaged(1, "the creation event cannot be read", "unreadable") from None
        wanted = digest(token)
        for role, value in stored.items():
            if hmac.compare_digest(value, wanted) and (
                    committed is None or committed.get(role) == integrity.token_commitment(wanted)):
                return game_id, role
        if damage.first_bad_seq == 1:
            raise damage
        return None

    def verify(self, game_id: UUID, upto: int | None = None, head: str | None = None) -> dict[str, Any]:
        """Every stored row checked (`domain.integrity.inspect`), every snapshot and every restored state
        rebuilt from the events they stand for, and once the game has ended, every server roll re-derived from
        the revealed seed (up to seq `upto`: a delayed spectator's horizon; `head`: a head hash a seat kept,
        `extends_head`).
        A damaged game is answered here, with its first bad seq, and refused everywhere else from now on."""
        with self.lock(game_id):
            if not self.recorder.select_events(game_id, limit=1):
                raise NotFound(f"no game {game_id}")
            inspection = self.inspect(game_id, keep_events=True)
            # copied before any replay: applying an event lets the state share (and later change) its data
            pristine = copy.deepcopy(inspection.events) if inspection.ok else []
            if inspection.ok:
                self._check_snapshots_by_replay(game_id, inspection)
            if inspection.ok:
                self._check_restores(game_id, inspection)
            damage = inspection.damage()
            if damage is not None:
                remember(self._damaged, game_id, damage)
                self._evict(game_id)
        # the requests played again from the rows already read, outside the game's lock (a long game's replay
        # would hold its writes back)
        replayed = rerun.first_unmatched(pristine) if inspection.ok else None
        entries = inspection.entries if upto is None else inspection.entries[:upto]
        bad = inspection.first_bad_seq
        seed = None
        if bad is None:
            def seed_seen(game: Game) -> str | None:  # once the caller sees the end
                return game.revealed_seed() if upto is None or upto >= game.version else None
            try:
                seed = self.viewing(game_id, seed_seen)
            except Damaged as damage:  # found by the load the walk does not make: /verify still reports
                inspection.fail(damage.first_bad_seq, damage.why, damage.form)
                bad = inspection.first_bad_seq
        dice_ok = None if seed is None else dice.first_unfair_roll(entries, bytes.fromhex(seed)) is None
        unmatched = replayed if replayed is None or upto is None or replayed[0] <= upto else None
        result = {"chain_ok": bad is None, "events": inspection.rows if upto is None else len(entries),
                  "head_hash": entries[-1]["hash"] if entries else chain.GENESIS,
                  "first_bad_seq": bad, "dice_ok": dice_ok, "server_seed": seed,
                  "commands_ok": None if bad is not None else unmatched is None,
                  "first_unmatched_seq": unmatched and unmatched[0]}
        if unmatched is not None:
            result["commands_mismatch"] = unmatched[1]
        if bad is not None:
            result["damage"], result["detail"] = inspection.form, inspection.why
        if head is not None:
            result.update(chain.extends(head, entries))
        return result

    def _check_snapshots_by_replay(self, game_id: UUID, inspection: integrity.Inspection) -> None:
        """Every snapshot against the game the events up to its version make (one full replay)."""
        game, applied = None, 0
        for snapshot in inspection.snapshots:  # as `inspect` read them (each decoded once a /verify)
            try:
                game = integrity.checked(game, inspection.events[applied: snapshot.version])
            except Damaged as damage:  # an event whose meta the game cannot apply
                inspection.fail(damage.first_bad_seq, damage.why, damage.form)
                return
            applied = snapshot.version
            if integrity.snapshot_disagrees(snapshot, game):
                inspection.fail(applied, "a snapshot disagrees with the events it stands for", "snapshot")
                return

    def _check_restores(self, game_id: UUID, inspection: integrity.Inspection) -> None:
        """The state an undo or redo restores travels in `meta`, outside the chain: it must be the state
        the events make as of the seq the entry names (before the undone action, after the redone one)."""
        for event in inspection.events:
            at = integrity.restores_as_of(event.entry)
            if at is None:
                continue
            try:
                expected = self.game_at(game_id, at).state.to_json() if at >= 1 else None
            except Damaged as damage:
                inspection.fail(damage.first_bad_seq, damage.why, damage.form)
                return
            if integrity.restore_problem(event.meta, expected):
                inspection.fail(event.entry["seq"], "an undo's or redo's restored state is not what the events make",
                                "metadata")
                return
