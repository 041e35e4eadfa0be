"""The head record (RULES.md SVC.DAMAGED): each game's head (seq, hash), kept apart from its events.

The store writes it in the same transaction as every append (`api/storage.py`: the events' recorder takes
`head=(game_id, seq, hash)` beside the events and raises it, never lowers it), so a log that later ends
before it, or holds another event at its seq, is damaged there: the newest events cannot be deleted
unnoticed, nor the chain rewritten from some event to the head without rewriting this record too. A seat
that presents a head the log does not hold (`Known-Head`) leaves a claim beside the record, so that the
game stays refused after a restart: its phone saw events this log lacks (a restore from an older backup,
or a rewrite of both the events and the record).

A store without a head table (the library's in-memory store, used by unit tests) keeps the record in
the process (`MemoryHeads`), which is as durable as its events.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Protocol, cast
from uuid import UUID

from warlog.domain.integrity import Head


@dataclass(frozen=True)
class HeadRow:
    """What the store holds for one game: its head, and a seat's claim if one was left."""

    seq: int
    hash: str
    claim_seq: int | None = None
    claim_hash: str | None = None
    claim_by: str | None = None

    def heads(self) -> list[Head]:
        heads = [Head(self.seq, self.hash)]
        if self.claim_seq is not None and self.claim_hash is not None:
            heads.append(Head(self.claim_seq, self.claim_hash, self.claim_by or "?"))
        return heads


class HeadStore(Protocol):
    """What a recorder with a head table answers (api/storage.py)."""

    def select_head(self, game_id: UUID) -> HeadRow | None: ...

    def take_head(self, game_id: UUID, seq: int, hash: str) -> None:
        """Record the head of a game stored before head records, when first read (only if none is)."""

    def claim_head(self, game_id: UUID, seq: int, hash: str, by: str) -> None:
        """Leave a seat's presented head that the log did not hold (the first claim stays)."""


class MemoryHeads:
    """Head records in the process, for a store that has no head table."""

    def __init__(self) -> None:
        self._rows: dict[UUID, HeadRow] = {}
        self._lock = threading.Lock()

    def appended(self, head: tuple[UUID, int, str] | None) -> None:
        if head is None:
            return
        game_id, seq, hash_ = head
        with self._lock:
            row = self._rows.get(game_id)
            if row is None or row.seq < seq:
                self._rows[game_id] = HeadRow(seq, hash_, *(() if row is None else
                                                            (row.claim_seq, row.claim_hash, row.claim_by)))

    def select_head(self, game_id: UUID) -> HeadRow | None:
        return self._rows.get(game_id)

    def take_head(self, game_id: UUID, seq: int, hash: str) -> None:
        with self._lock:
            row = self._rows.get(game_id)
            if row is None or row.seq == 0:  # none yet, or only a seat's claim
                self._rows[game_id] = HeadRow(seq, hash, *(() if row is None else
                                                           (row.claim_seq, row.claim_hash, row.claim_by)))

    def claim_head(self, game_id: UUID, seq: int, hash: str, by: str) -> None:
        with self._lock:
            row = self._rows.get(game_id) or HeadRow(0, "")
            if row.claim_seq is None:
                self._rows[game_id] = HeadRow(row.seq, row.hash, seq, hash, by)


def head_store(recorder: object) -> tuple[HeadStore, MemoryHeads | None]:
    """The recorder itself where it keeps heads, else an in-process book (and that book, to be told of
    each append, since that recorder ignores `head=`)."""
    if hasattr(recorder, "select_head"):
        return cast(HeadStore, recorder), None  # one with a head table (api/storage.py)
    memory = MemoryHeads()
    return memory, memory


def parse_known_head(value: str) -> tuple[int, str] | None:
    """`<seq>:<hash>` (a seq from 1, of at most 18 digits: what a database integer column holds; 64 lower-case
    hex digits), or None when it is not that."""
    seq, sep, digest = value.partition(":")
    if not sep or not seq.isdigit() or len(seq) > 18 or len(digest) != 64:
        return None
    if any(c not in "0123456789abcdef" for c in digest) or int(seq) < 1:
        return None
    return int(seq), digest
