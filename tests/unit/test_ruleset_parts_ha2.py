"""More parts driven alone (domain/rules/parts.py), as tests/unit/test_ruleset_parts.py drives the first ones:
each built with a fake of what it reads of its ruleset (its Protocol), run on that file's fake table, which applies
what the part emits with the part's own appliers."""
from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from tests.support.client import unit
from tests.unit.test_ruleset_parts import Table, mustered
from tests.unit.test_ruleset_parts_ha import SubPhase, heresy_at
from warlog.domain.rules.alternating.combats import Combats, fought
from warlog.domain.rules.heresy.commands import Move
from warlog.domain.rules.heresy.common import heresy_step
from warlog.domain.rules.heresy.movement import Movement
from warlog.domain.rulings import Malformed, Refused
from warlog.domain.state import AlternatingStep, Combat, GameState, HeresyTurn

# -- alternating: Combats (AA.CC.1) ----------------------------------------------------------------------------

LOCKED = ("locked_in_combat",)


class Numbered(Table):
    """The fake table, each entry numbered as the log numbers it (`seq`: a combat is named after the event that
    joined it)."""

    def emit(self, kind: str, data: Any, rule: str | None, by: str | None = None) -> dict[str, Any]:
        self.events.append((kind, dict(data), rule or ""))
        entry = {"type": kind, "data": dict(data), "rule": rule, "seq": len(self.events)}
        applier = type(self.part).appliers.get(kind)
        if applier is not None:
            self.state = applier(self.part, self.state, entry["data"], entry)
        return entry


class Statuses:
    """`CombatRules`: the statuses the part changes, kept."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str, bool, str]] = []

    def change_status(self, t: Any, uid: str, status: str, value: bool, rule: str, **extra: Any) -> None:
        self.calls.append((uid, status, value, rule))


def combats_at(army_a: list[dict[str, Any]], army_b: list[dict[str, Any]]) -> tuple[Combats, Statuses, Numbered]:
    state = mustered("alternating", army_a, army_b)
    state = replace(state, status="in_progress", battle_round=1, phase="fight", step=AlternatingStep())
    rules = Statuses()
    combats = Combats(rules)
    return combats, rules, Numbered(state, combats)


def destroyed(state: GameState, uid: str) -> GameState:
    return state.with_unit(uid, replace(state.units[uid], models_alive=0))


def test_combats_alone_judge_the_foes_named_then_join_and_fight_the_combat_once():
    combats, _, t = combats_at([unit("squad", 5, statuses=LOCKED), unit("guard", 5)],
                               [unit("foes", 5, statuses=LOCKED), unit("foes-2", 5, statuses=LOCKED), unit("far", 5)])
    assert combats.combat_of(t.state, "squad") is None
    assert combats.combat_foes(t.state, "squad") == ["foes", "foes-2"]  # locked enemies: never the free unit
    with pytest.raises(Malformed) as malformed:  # no combat the service knows: its foes must be named
        combats.check_combat(t.state, "A", "squad", [])
    assert malformed.value.field == "targets"
    with pytest.raises(Refused) as refused:
        combats.check_combat(t.state, "A", "squad", ["far"])
    assert refused.value.rule == "AA.CC.1" and "not locked" in str(refused.value)
    combats.check_combat(t.state, "A", "squad", ["foes"])
    combats.fight(t, "A", "squad", ["foes"])
    assert t.events == [
        ("CombatJoined", {"units": ["squad", "foes"], "reason": "named when the combat was chosen"}, "AA.CC.1"),
        ("CombatFought", {"combat": "combat-1", "chosen": "squad", "seat": "A", "units": ["foes", "squad"]}, "AA.CC.1")]
    assert dict(t.state.combats) == {"combat-1": Combat(units=("foes", "squad"), fought=True)}
    assert [fought(t.state.units[uid]) for uid in ("squad", "foes", "foes-2")] == [True, True, False]
    assert AlternatingStep.of(t.state.step).last == "A" and combats.combat_of(t.state, "foes") == "combat-1"
    assert combats.combat_foes(t.state, "foes-2") == []  # its only locked enemy fought already
    with pytest.raises(Refused) as refused:
        combats.check_combat(t.state, "B", "foes-2", ["squad"])
    assert refused.value.rule == "AA.CC.1" and "already fought" in str(refused.value)


def test_combats_alone_end_a_combat_with_one_side_gone_and_free_what_stands_in_it():
    combats, rules, t = combats_at([unit("squad", 5, statuses=LOCKED), unit("scouts", 5, statuses=LOCKED)],
                                   [unit("foes", 5, statuses=LOCKED), unit("foes-2", 5, statuses=LOCKED)])
    combats.fight(t, "A", "squad", ["foes"])
    combats.fight(t, "A", "scouts", ["foes-2"])
    assert list(t.state.combats) == ["combat-1", "combat-3"]
    t.events.clear()
    assert combats.end_combats(t) is False and t.events == []  # both sides stand in each
    t.state = destroyed(t.state, "foes")
    assert combats.end_combats(t) is True
    assert t.events == [("CombatEnded", {"combat": "combat-1", "units": ["squad"], "reason": "no enemy unit left in it"},
                         "AA.CC.1")]
    assert list(t.state.combats) == ["combat-3"]
    assert rules.calls == [("squad", "locked_in_combat", False, "AA.CC.1"), ("squad", "engaged", False, "AA.CC.1")]
    assert combats.end_combats(t) is False and len(t.events) == 1


# -- heresy: Movement (HH.MOV.1-5) ------------------------------------------------------------------------------

def test_movement_alone_offers_and_judges_a_move_then_sets_going_what_follows_it_through_its_ruleset():
    state = heresy_at("move", [unit("squad", 5), unit("guard", 5), unit("pinned", 5, statuses=("pinned",)),
                               unit("reserve", 5, in_reserves=True)], [unit("foes", 5)])
    rules = SubPhase("move", "HH.MOV.1")
    movement = Movement(rules)
    t = Table(state, movement)
    assert movement.move_block(state, "pinned") == ("HH.MOV.2", "it is Pinned")
    assert movement.move_block(state, "reserve") == ("HH.RES.1", "it is in reserves")
    assert movement.move_block(state, "foes") == ("HH.MOV.1", "it is Alice's Move sub-phase")
    offered = movement.move_actions(state, "A")
    assert offered[0].schema["properties"]["unit"]["enum"] == ["squad", "guard"]  # left Stationary
    assert [(a.type, a.rule) for a in offered[1:5]] == [("move", "HH.MOV.1")] * 2 + [("move", "HH.MOV.5")] * 2
    assert offered[3].schema["properties"]["distance"]["maximum"] == 10  # HH.MOV.5: a rush is M + I
    with pytest.raises(Refused) as refused:
        movement.move_unit(t, "A", Move(unit="squad", move="rush", distance=11))  # type: ignore[arg-type]
    assert refused.value.rule == "HH.MOV.5" and t.events == []
    movement.move_unit(t, "A", Move(unit="squad", distance=5, dangerous=1, coherency_lost=True,  # type: ignore[arg-type]
                                    near=("foes",)))
    [(kind, data, rule)] = t.events
    assert (kind, rule) == ("UnitMoved", "HH.MOV.4")  # dangerous terrain bore on it
    assert (data["move"], data["distance"], data["allowance"], data["near"], data["clear"]) == \
        ("normal", "5", 6, ["foes"], True)
    squad = t.state.units["squad"]
    assert squad.selected and HeresyTurn.of(squad.turn).moved == "normal"
    assert heresy_step(t.state).last_moved == "squad"  # HH.REACT.1: the move a reaction answers
    assert movement.move_block(t.state, "squad") == ("HH.MOV.1", "it has already moved this sub-phase")
    assert rules.calls == [("moved", "A", "squad", True, 1, ["foes"])]  # suppressed, tested, reacted to: Heresy's
    movement.dangerous_rolled(t, "squad", {"faces": [1, 4], "total": 5})  # type: ignore[typeddict-item]
    assert t.events[-1] == ("DangerousTerrainTested", {"unit": "squad", "tests": 2, "failed": 1, "fails_on": 1},
                            "HH.MOV.4")
    assert rules.calls[1:] == [("casualties", "squad", 1, 0, "HH.MOV.4")]


def test_movement_alone_takes_a_move_of_nothing_as_stationary_and_makes_the_unmoved_stationary_at_the_end():
    state = heresy_at("move", [unit("squad", 5), unit("guard", 5), unit("reserve", 5, in_reserves=True),
                               unit("routed", 5, statuses=("routed",))], [unit("foes", 5)])
    rules = SubPhase("move", "HH.MOV.1")
    movement = Movement(rules)
    t = Table(state, movement)
    movement.move_unit(t, "A", Move(unit="squad", distance=0))  # type: ignore[arg-type]
    assert t.events == [("UnitMoved", {"unit": "squad", "seat": "A", "move": "stationary", "distance": "0",
                                       "attested_by": "A"}, "HH.MOV.1")]  # HH.MOV.1: 0" is no move
    assert HeresyTurn.of(t.state.units["squad"].turn).moved == "stationary"
    assert heresy_step(t.state).last_moved is None  # no move for a reaction to answer
    assert rules.calls == [("status", "squad", "stationary", True, "HH.MOV.1")]
    movement.stationary_at_end_of_move(t, "A")
    assert rules.calls[1:] == [("status", "guard", "stationary", True, "HH.MOV.1")]  # not in reserve, not Routed
