"""Reading the public log itself: undone flags as of any point, actions, links.

Everything here is pure: it takes the entries (and, for actions, the stored
`meta` bookkeeping) and never touches storage, so the audit, the analytics, the
export and the delayed spectator view all read the log the same way.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from warlog.domain import events as ev
from warlog.domain.undo import effect

UNDO_TYPES = ("UndoRequested", "UndoRejected", "UndoWithdrawn", "ActionUndone", "ActionRedone")
ENDPOINTS = {"UndoRequested": "undo", "UndoRejected": "undo/reject", "UndoWithdrawn": "undo/withdraw",
             "ActionRedone": "redo"}


def link(game_id: str, seq: int) -> str:
    return f"/games/{game_id}/audit/{seq}"


def flags_before(page: Sequence[dict[str, Any]], later: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """`page` carries today's `undone` flags; give them as they stood before the `later` entries.

    An action is only ever undone when it stands and redone when it is undone, so the
    first later ActionUndone/ActionRedone naming a seq tells what its flag was before it.
    """
    first_later: dict[int, bool] = {}  # seq -> whether the first later entry naming it undoes it
    for entry in later:
        found = effect(entry)
        if found is not None:
            for seq in found[0]:
                first_later.setdefault(seq, found[1])
    return [{**e, "undone": not first_later[e["seq"]]} if e["seq"] in first_later else e for e in page]


@dataclass
class Action:
    """One accepted request: a command (and everything it set off), an undo, a redo..."""

    first: int
    last: int
    sent_by: str | None
    at: str
    command: dict[str, Any] | None
    endpoint: str
    seqs: list[int] = field(default_factory=list)


def endpoint_of(entry: dict[str, Any], command: dict[str, Any] | None) -> str:
    kind = entry["type"]
    if kind == "GameCreated":
        return "POST /games"
    if kind == "ActionUndone":
        return "POST undo/approve" if "approved_by" in entry["data"] else "POST undo"
    if kind in ENDPOINTS:
        return f"POST {ENDPOINTS[kind]}"
    if command and command.get("type") == "muster":
        return "POST armies"
    return "POST commands"


def actions(stored: Iterable[tuple[dict[str, Any], ev.Meta]]) -> Iterator[Action]:
    """Group (entry, meta) pairs into the requests that appended them."""
    current: Action | None = None
    for entry, meta in stored:
        if current is None or meta.get("starts") or not meta.get("continues"):
            if current is not None:
                yield current
            command = meta.get("command")
            sent_by = meta.get("sent_by", entry["by"])
            current = Action(entry["seq"], entry["seq"], sent_by, entry["at"], command,
                             endpoint_of(entry, command))
        current.last = entry["seq"]
        current.seqs.append(entry["seq"])
    if current is not None:
        yield current


def mentions_unit(entry: dict[str, Any], uid: str) -> bool:
    """Whether an event is part of a unit's story (it names the unit anywhere it says which)."""
    data = entry["data"]
    if uid in (data.get("unit"), data.get("against"), data.get("chosen"), data.get("transport")):
        return True
    for key in ("units", "targets"):
        value = data.get(key)
        if isinstance(value, list) and any(u == uid or (isinstance(u, dict) and u.get("id") == uid)
                                           for u in value):
            return True
    if entry["type"] == "PassPointsCalculated":
        return (any(uid in units for units in data.get("counted", {}).values())
                or any(item.get("unit") == uid for item in data.get("excluded", []) + data.get("included", [])))
    if entry["type"] == "GameStarted":
        return uid in data.get("starting_strength", {})
    if entry["type"] == "CountConfirmed":
        return uid in data.get("exclude", {}) or uid in data.get("include", {})
    return False


def involves_seat(entry: dict[str, Any], seat: str) -> bool:
    data = entry["data"]
    if entry["by"] == seat:
        return True
    named = (data.get("seat"), data.get("action_by"), data.get("requested_by"), data.get("approved_by"),
             data.get("rejected_by"), data.get("winner"), data.get("first"))
    if seat in named:
        return True
    return entry["type"] in ("PassPointsCalculated", "RollOff")  # both seats' counts, both seats' dice
