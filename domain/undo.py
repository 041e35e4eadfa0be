"""Which events are undone (CONTRACT.md "Undo and redo"): the one rule every reader of the log follows.

An event's `undone` is true when the latest ActionUndone/ActionRedone naming it is an ActionUndone. The
aggregate keeps its own books of the same events (`Game.undone`, for undo and redo themselves); everything that
reads entries (the audit, the export, the analytics, the ledger, the delayed spectator's view) asks here."""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from warlog.domain import events as ev

UNDOES, REDOES = "ActionUndone", "ActionRedone"


def effect(entry: Mapping[str, object]) -> tuple[list[int], bool] | None:
    """(the seqs it names, whether it undoes them) for an ActionUndone or ActionRedone entry; None otherwise.
    `entry`: any reader's (`ev.Entry`, or an answer's with its `undone`); its `data` is its kind's payload."""
    if entry["type"] == UNDOES:
        return cast("ev.ActionUndone", entry["data"])["seqs"], True
    if entry["type"] == REDOES:
        return cast("ev.ActionRedone", entry["data"])["seqs"], False
    return None


def follow(undone: set[int], entry: Mapping[str, object]) -> None:
    """Bring `undone` (the seqs undone before `entry`) up to after it."""
    found = effect(entry)
    if found is not None:
        (undone.update if found[1] else undone.difference_update)(found[0])


def undone_seqs(entries: Iterable[Mapping[str, object]]) -> set[int]:
    """The seqs undone once these entries (oldest first) have happened."""
    undone: set[int] = set()
    for entry in entries:
        follow(undone, entry)
    return undone
