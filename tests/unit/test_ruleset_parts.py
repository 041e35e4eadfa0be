"""Each part a ruleset is composed of (domain/rules/parts.py), driven alone: built with a fake of what it reads of
its ruleset (its Protocol), its handler run on a fake table that applies what it emits with the part's own
appliers, no ruleset class and no application in the loop (the state it starts from is a real game's, mustered)."""
from __future__ import annotations

from dataclasses import replace
from typing import Any
from uuid import UUID

import pytest

from tests.support.client import unit
from warlog.domain.application import Warlog
from warlog.domain.rules.parts import Part
from warlog.domain.rules.reference.commands import Split
from warlog.domain.rules.reference.split import Splitting
from warlog.domain.rulings import Refused
from warlog.domain.state import GameState

AT = "2026-01-01T00:00:00.000Z"


def mustered(ruleset: str, army_a: list[dict[str, Any]], army_b: list[dict[str, Any]]) -> GameState:
    """A table-dice game's state in set-up, both armies mustered."""
    warlog = Warlog(env={"PERSISTENCE_MODULE": "eventsourcing.popo"})
    game_id = UUID(warlog.create_game(ruleset, {"A": "Alice", "B": "Bob"}, "table", {}, AT)["game_id"])
    warlog.muster(game_id, "A", army_a, AT)
    warlog.muster(game_id, "B", army_b, AT)
    return warlog.game(game_id).state


class Table:
    """What a part's handler reads and does: `state`, and `emit`, which logs the event and applies it with the
    part's own applier for its kind (a kind the part does not apply leaves the state as it was)."""

    def __init__(self, state: GameState, part: Part[Any]) -> None:
        self.state, self.part = state, part
        self.events: list[tuple[str, dict[str, Any], str]] = []

    def emit(self, kind: str, data: Any, rule: str | None, by: str | None = None) -> dict[str, Any]:
        entry = {"type": kind, "data": dict(data), "rule": rule}
        self.events.append((kind, dict(data), rule or ""))
        applier = type(self.part).appliers.get(kind)
        if applier is not None:
            self.state = applier(self.part, self.state, entry["data"], entry)
        return entry


# -- reference: Splitting (CORE.SPL.1) -------------------------------------------------------------------------

def test_splitting_alone_offers_a_split_emits_it_and_its_applier_makes_two_units():
    state = mustered("reference", [unit("squad", 5), unit("hero", 1)], [unit("foes", 5)])
    splitting = Splitting(object())  # it reads nothing of its ruleset
    offered = splitting.setup_actions(state, "A")
    assert [(a.type, a.schema["properties"]["unit"]["const"]) for a in offered] == [("split", "squad")]  # not one model
    t = Table(state, splitting)
    splitting.split(t, "A", Split(unit="squad", models=2))  # type: ignore[arg-type]
    [(kind, data, rule)] = t.events
    assert (kind, rule, data["new_unit"], data["moved"], data["kept"]) == ("UnitSplit", "CORE.SPL.1", "squad-2", [2], [3])
    squad, part = t.state.units["squad"], t.state.units["squad-2"]
    assert (squad.models_alive, squad.starting_strength, squad.split_into) == (3, 3, "squad-2")
    assert (part.name, part.owner, part.models_alive, part.starting_strength, part.split_from) == \
        ("Squad (2)", "A", 2, 2, "squad")
    with pytest.raises(Refused, match="split once"):  # CORE.SPL.1: neither part is split again
        splitting.split(t, "A", Split(unit="squad-2", models=1))  # type: ignore[arg-type]
    assert splitting.setup_actions(t.state, "A") == []


def test_splitting_alone_refuses_another_seats_unit_and_a_split_once_the_game_has_started():
    state = mustered("reference", [unit("squad", 5)], [unit("foes", 5)])
    splitting = Splitting(object())
    with pytest.raises(Refused) as refused:
        splitting.split(Table(state, splitting), "A", Split(unit="foes", models=2))  # type: ignore[arg-type]
    assert refused.value.rule == "CORE.SPL.1"
    with pytest.raises(Refused, match="before the battle begins"):
        splitting.split(Table(replace(state, status="in_progress"), splitting), "A",  # type: ignore[arg-type]
                        Split(unit="squad", models=2))
