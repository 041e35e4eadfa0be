"""Flat rows from the log: one per event, one per die, one per analytic fact.

The same rows feed the export (CSV / NDJSON an analyst loads straight into
pandas or DuckDB), the per-game analytics and the persistent ledger
projection, so all three agree by construction.

Each row needs a little context the event itself does not carry (the battle
round and phase it happened in, the owner of a destroyed unit). `Context`
answers those questions from the facts recorded so far, skipping undone ones,
exactly as the ledger's SQL does: "the latest standing StepStarted before this
seq".
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

from warlog.domain import undo

EVENT_COLUMNS = ("game_id", "seq", "type", "at", "by", "rule", "undone", "battle_round", "phase", "sub_phase",
                 "seat", "unit", "purpose", "data", "prev_hash", "hash", "request", "sent", "server_seed")
DIE_COLUMNS = ("game_id", "seq", "die", "at", "battle_round", "phase", "sub_phase", "event_type", "rule", "seat",
               "unit", "purpose", "spec", "sides", "face", "counts", "rerolled", "replaced", "critical",
               "counter", "source", "undone")
FACT_COLUMNS = ("game_id", "seq", "n", "kind", "at", "seat", "unit", "phase", "sub_phase", "amount", "undone")
GAME_COLUMNS = ("game_id", "ruleset", "dice", "created_at", "player_a", "player_b", "battle_rounds",
                "dice_commitment")


class Context(Protocol):
    def round_at(self, seq: int) -> int | None: ...
    def step_at(self, seq: int) -> tuple[str | None, str | None]: ...
    def owner_of(self, unit: str, seq: int) -> str | None: ...


def game_row(game_id: str, entry: dict[str, Any]) -> dict[str, Any]:
    data = entry["data"]
    return {"game_id": game_id, "ruleset": data["ruleset"], "dice": data["dice"], "created_at": entry["at"],
            "player_a": data["players"].get("A"), "player_b": data["players"].get("B"),
            "battle_rounds": data["options"].get("battle_rounds"), "dice_commitment": data["dice_commitment"]}


def event_row(game_id: str, entry: dict[str, Any], undone: bool, ctx: Context) -> dict[str, Any]:
    data = entry["data"]
    phase, sub_phase = ctx.step_at(entry["seq"])
    unit = data.get("unit")
    return {"game_id": game_id, "seq": entry["seq"], "type": entry["type"], "at": entry["at"], "by": entry["by"],
            "rule": entry["rule"], "undone": undone, "battle_round": ctx.round_at(entry["seq"]),
            "phase": phase, "sub_phase": _text(data.get("sub_phase")) or sub_phase, "seat": _text(data.get("seat")),
            "unit": _text(unit), "purpose": _text(data.get("purpose")),
            "data": data, "prev_hash": entry["prev_hash"], "hash": entry["hash"],
            # the proof (projections/proof.py): the request digest the hash covers, the record it is the digest of
            # (on the first event of each request), and on the creation row the server seed once revealed
            "request": entry.get("request"), "sent": entry.get("sent"), "server_seed": entry.get("server_seed")}


def dice_of(entry: dict[str, Any]) -> list[dict[str, Any]]:
    """Every die an event records: (seat, face, sides, counts, rerolled, replaced, critical)."""
    data = entry["data"]
    if "faces" not in data:
        return []
    sides = data.get("sides", 6)
    roller = data.get("seat") if data.get("seat") in ("A", "B") else entry["by"]
    recorded = data.get("dice")
    if isinstance(recorded, dict):  # a roll-off: one D6 per seat (CORE.DICE.3)
        return [{"seat": seat, "face": recorded[seat], "sides": sides, "counts": True, "rerolled": False,
                 "replaced": False, "critical": False} for seat in sorted(recorded)]
    if isinstance(recorded, list) and all(isinstance(d, dict) for d in recorded):  # re-roll lineage
        return [{"seat": roller, "face": d["face"], "sides": d.get("sides", sides),
                 "counts": not d.get("replaced", False), "rerolled": bool(d.get("rerolled")),
                 "replaced": bool(d.get("replaced")), "critical": bool(d.get("critical"))} for d in recorded]
    return [{"seat": roller, "face": face, "sides": sides, "counts": True, "rerolled": False, "replaced": False,
             "critical": False} for face in data["faces"]]


def die_rows(game_id: str, entry: dict[str, Any], undone: bool, ctx: Context) -> list[dict[str, Any]]:
    data = entry["data"]
    phase, sub_phase = ctx.step_at(entry["seq"])
    base = {"game_id": game_id, "seq": entry["seq"], "at": entry["at"], "battle_round": ctx.round_at(entry["seq"]),
            "phase": phase, "sub_phase": sub_phase, "event_type": entry["type"], "rule": entry["rule"],
            "unit": _text(data.get("unit")), "purpose": data.get("purpose") or entry["type"], "spec": data.get("spec"),
            "counter": data.get("counter"), "source": "server" if "counter" in data else "table", "undone": undone}
    return [{**base, "die": n, **die} for n, die in enumerate(dice_of(entry))]


def fact_rows(game_id: str, entry: dict[str, Any], undone: bool, ctx: Context) -> list[dict[str, Any]]:
    """The facts analytics count: rounds, steps, unit owners, activations, pass points, losses."""
    data, seq, kind = entry["data"], entry["seq"], entry["type"]
    phase, sub_phase = ctx.step_at(seq)
    facts: list[dict[str, Any]] = []

    def fact(kind_: str, seat: str | None = None, unit: str | None = None, amount: int = 1,
             at_phase: str | None = phase, at_sub: str | None = sub_phase) -> None:
        facts.append({"game_id": game_id, "seq": seq, "n": len(facts), "kind": kind_, "at": entry["at"],
                      "seat": seat, "unit": unit, "phase": at_phase, "sub_phase": at_sub, "amount": amount,
                      "undone": undone})

    if kind == "BattleRoundStarted":
        fact("round", amount=data["battle_round"])
    elif kind == "StepStarted":
        fact("step", at_phase=data["phase"], at_sub=data.get("sub_phase"))
    elif kind == "ArmyMustered":
        for unit in data["units"]:
            fact("unit", seat=data["seat"], unit=unit["id"], amount=0)
    elif kind == "UnitSelected":
        fact("activation", seat=data.get("seat") or entry["by"], unit=data.get("unit"),
             at_sub=data.get("sub_phase") or sub_phase)
    elif kind == "PassPointsCalculated":
        for seat, points in sorted(data["pass_points"].items()):
            fact("pass_earned", seat=seat, amount=points, at_sub=data.get("sub_phase") or sub_phase)
    elif kind == "PassPointSpent":
        fact("pass_spent", seat=data.get("seat") or entry["by"], at_sub=data.get("sub_phase") or sub_phase)
    elif kind == "UnitDestroyed":
        fact("destroyed", seat=ctx.owner_of(data["unit"], seq), unit=data["unit"])
    return facts


@dataclass
class WalkContext:
    """`Context` for one game read in order, with undos applied as they happen."""

    undone_now: set[int] = field(default_factory=set)
    rounds: list[tuple[int, int]] = field(default_factory=list)
    steps: list[tuple[int, str | None, str | None]] = field(default_factory=list)
    owners: list[tuple[int, str, str]] = field(default_factory=list)

    def round_at(self, seq: int) -> int | None:
        return next((r for s, r in reversed(self.rounds) if s < seq and s not in self.undone_now), None)

    def step_at(self, seq: int) -> tuple[str | None, str | None]:
        return next(((p, sp) for s, p, sp in reversed(self.steps) if s < seq and s not in self.undone_now),
                    (None, None))

    def owner_of(self, unit: str, seq: int) -> str | None:
        return next((o for s, u, o in reversed(self.owners) if u == unit and s < seq and s not in self.undone_now),
                    None)

    def follow(self, entry: dict[str, Any], facts: list[dict[str, Any]]) -> None:
        """Remember what later rows ask about, and apply undo/redo as the ledger does."""
        for row in facts:
            if row["kind"] == "round":
                self.rounds.append((row["seq"], row["amount"]))
            elif row["kind"] == "step":
                self.steps.append((row["seq"], row["phase"], row["sub_phase"]))
            elif row["kind"] == "unit":
                self.owners.append((row["seq"], row["unit"], row["seat"]))
        undo.follow(self.undone_now, entry)


@dataclass
class GameRows:
    game: dict[str, Any]
    events: list[dict[str, Any]]
    dice: list[dict[str, Any]]
    facts: list[dict[str, Any]]


def game_rows(game_id: str, entries: Iterable[dict[str, Any]]) -> GameRows:
    """Every row of one game; `entries` carry their `undone` flags (as of the reader's horizon)."""
    ctx = WalkContext()
    game: dict[str, Any] = {}
    events, dice, facts = [], [], []
    for entry in entries:
        undone = bool(entry.get("undone"))
        if entry["type"] == "GameCreated":
            game = game_row(game_id, entry)
        events.append(event_row(game_id, entry, undone, ctx))
        dice.extend(die_rows(game_id, entry, undone, ctx))
        new_facts = fact_rows(game_id, entry, undone, ctx)
        facts.extend(new_facts)
        ctx.follow(entry, new_facts)
    return GameRows(game, events, dice, facts)



def _text(value: Any) -> str | None:
    """A flat column keeps strings only (a roll-off's `dice` or a list of units stays in `data`)."""
    return value if isinstance(value, str) else None
