"""An events export checked with no server and no database (`warlog verify FILE`): what a judge runs.

Each row of `GET /games/{id}/export` (or of `warlog export`'s events.ndjson, every game) carries the event's
hashed fields, `prev_hash`, `hash` and `request`; the first row of each request its `sent` record, of which
`request` is the SHA-256 (CONTRACT.md `/verify`); the creation row the `server_seed` once the game has ended.
So, per game, in the file's order: every seq in turn from 1, every link and hash recomputed (the contract's
canonical JSON), every request digest recomputed from its record (the events after a request's first carry its
digest), and, where the seed is revealed, the seed against the creation's commitment and every server roll
derived again. The first failure names its seq and why; a game checked whole names its head.
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, cast

from warlog.domain import chain, dice
from warlog.domain import events as ev

HASHED = ("seq", "type", "at", "by", "rule", "data", "prev_hash")


@dataclass(frozen=True)
class Verdict:
    """One game of the file: whole (`first_bad_seq` None), or damaged at a seq in a form, and why."""

    game_id: str
    events: int
    head: str
    first_bad_seq: int | None = None
    form: str | None = None
    why: str | None = None
    dice: str = ""

    @property
    def ok(self) -> bool:
        return self.first_bad_seq is None

    def line(self) -> str:
        if self.ok:
            return f"game {self.game_id}: verified: {self.events} events, head {self.head}; {self.dice}"
        return f"game {self.game_id}: damaged at seq {self.first_bad_seq} ({self.form}): {self.why}"


class NotAnExport(ValueError):
    """The file holds no events export (another table, or not NDJSON)."""


def read_games(lines: Iterable[str]) -> dict[str, list[dict[str, Any]]]:
    """The file's event rows by game, each game's in the file's order."""
    games: dict[str, list[dict[str, Any]]] = {}
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except ValueError:
            raise NotAnExport(f"line {number} is not JSON: an events export is NDJSON, one event a line") from None
        if not isinstance(row, dict) or not {"game_id", "hash", *HASHED} <= set(row):
            raise NotAnExport(f"line {number} is no event row (the events table of an export: "
                              "GET /games/{id}/export?table=events, or warlog export's events.ndjson)")
        games.setdefault(str(row["game_id"]), []).append(row)
    return games


def entry_of(row: dict[str, Any]) -> dict[str, Any]:
    """The event as the chain hashed it: `data` back to an object (an older export kept it as JSON text),
    `request` where the event has one."""
    entry = {name: row[name] for name in HASHED}
    if isinstance(entry["data"], str):
        entry["data"] = json.loads(entry["data"])
    if row.get("request") is not None:
        entry[chain.REQUEST] = row["request"]
    entry["hash"] = row["hash"]
    return entry


def verify_game(game_id: str, rows: list[dict[str, Any]]) -> Verdict:
    seqs = {row.get("seq") for row in rows}
    prev, opened = chain.GENESIS, None
    entries: list[ev.Entry] = []

    def bad(seq: int, form: str, why: str) -> Verdict:
        return Verdict(game_id, len(entries), prev, seq, form, why)

    for seq, row in enumerate(rows, start=1):
        if row["seq"] != seq:
            if seq in seqs:
                return bad(seq, "reordered", f"the line of seq {seq} comes after that of seq {row['seq']}")
            return bad(seq, "missing", f"no line holds seq {seq}")
        try:
            entry = entry_of(row)
        except (ValueError, TypeError):
            return bad(seq, "unreadable", "its data is not JSON")
        if entry["prev_hash"] != prev:
            return bad(seq, "altered", "it does not link to the event before it")
        if chain.event_hash(entry) != entry["hash"]:
            return bad(seq, "altered", "its hash does not match its content")
        if seq == 1 and entry["data"].get("game_id") != game_id:
            return bad(seq, "altered", "the creation is another game's")
        problem = request_problem(entry, row.get("sent"), opened)
        if problem is not None:
            return bad(seq, "metadata", problem)
        if entry.get(chain.REQUEST) is not None and row.get("sent") is not None:
            opened = entry[chain.REQUEST]
        entries.append(cast(ev.Entry, entry))  # its hash holds: the entry the chain made
        prev = entry["hash"]
    if not entries:
        return Verdict(game_id, 0, chain.GENESIS, 1, "missing", "the file holds none of its events")
    return dice_verdict(Verdict(game_id, len(entries), prev), entries, rows[0].get("server_seed"))


def request_problem(entry: dict[str, Any], sent: Any, opened: str | None) -> str | None:
    digest = entry.get(chain.REQUEST)
    if digest is None:
        return None  # an event stored before request digests
    if sent is None:
        return None if digest == opened else "it carries a request digest that no request before it opened"
    if not isinstance(sent, dict) or chain.digest(sent) != digest:
        return "its sent record is not the request its digest commits to"
    return None


def dice_verdict(verdict: Verdict, entries: list[ev.Entry], seed: str | None) -> Verdict:
    rolls = sum("counter" in e["data"] for e in entries)
    if seed is None:
        said = "no server roll" if not rolls else f"{rolls} server rolls, the seed not revealed yet (the game goes on)"
        return Verdict(**{**vars(verdict), "dice": said})
    commitment = entries[0]["data"].get("dice_commitment")
    try:
        raw = bytes.fromhex(seed)
    except ValueError:
        raw = b""
    if hashlib.sha256(raw).hexdigest() != commitment:
        return Verdict(**{**vars(verdict), "first_bad_seq": 1, "form": "dice",
                          "why": "the revealed seed is not the one the creation committed to"})
    unfair = dice.first_unfair_roll(entries, raw)
    if unfair is not None:
        return Verdict(**{**vars(verdict), "first_bad_seq": unfair, "form": "dice",
                          "why": "its faces are not the ones the revealed seed derives"})
    return Verdict(**{**vars(verdict), "dice": f"all {rolls} server rolls derived again from the revealed seed"})


def verify_lines(lines: Iterable[str]) -> list[Verdict]:
    return [verify_game(game_id, rows) for game_id, rows in read_games(lines).items()]
