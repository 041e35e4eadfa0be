"""Reference's Movement and Fight driven alone (domain/rules/parts.py), as tests/unit/test_ruleset_parts.py drives the first
parts: built with a fake of what it reads of its ruleset (`MoveRules`), its handlers run on that file's fake table,
which applies what the part emits with the part's own appliers."""
from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from tests.support.client import unit, vehicle
from tests.unit.test_ruleset_parts import Table, mustered
from warlog.domain.rules.basics import Step
from warlog.domain.rules.reference.commands import Consolidate, EndFight, PileIn, ReferenceSelect
from warlog.domain.rules.reference.fight import Fight
from warlog.domain.rules.reference.movement import Movement
from warlog.domain.rulings import Refused
from warlog.domain.state import GameState, ReferenceStep, ReferenceTurn

# -- reference: Movement (RS.MOV.1-4, RS.RES.1, CORE.OFF.1) -------------------------------------------------------


class Moving:
    """`MoveRules`: the rolls asked, the mortal wounds dealt, the battle-shock tests asked and the units
    disengaged, kept."""

    def __init__(self) -> None:
        self.rolls: list[dict[str, Any]] = []
        self.wounds: list[tuple[Any, ...]] = []
        self.tests: list[tuple[Any, ...]] = []
        self.disengaged: list[tuple[str, str, str]] = []

    def request_roll(self, t: Any, seat: str, purpose: str, spec: str, rule: str, unit: str, **context: Any) -> None:
        self.rolls.append({"seat": seat, "purpose": purpose, "spec": spec, "rule": rule, "unit": unit,
                           "context": context})

    def mortal_wounds(self, t: Any, uid: str, amount: int, rule: str, party: list[str] | None = None,
                      **then: object) -> None:
        self.wounds.append((uid, amount, rule, party, then))

    def battle_shock_roll(self, t: Any, seat: str, uid: str, band: str, rule: str) -> None:
        self.tests.append((seat, uid, band, rule))

    def disengage(self, t: Any, uid: str, rule: str, reason: str) -> None:
        self.disengaged.append((uid, rule, reason))


def movement_phase(state: GameState, battle_round: int = 2) -> tuple[Movement, Moving, Table]:
    """A's Movement phase of `battle_round`."""
    state = replace(state, status="in_progress", battle_round=battle_round, phase="movement", active_seat="A",
                    step=ReferenceStep())
    rules = Moving()
    movement = Movement(rules)
    return movement, rules, Table(state, movement)


def test_movement_alone_advances_with_its_roll_and_embarks_in_a_transport_with_room():
    state = mustered("reference", [unit("squad", 5), unit("scouts", 5), vehicle("rhino", capacity=8)],
                     [unit("foes", 5)])
    movement, rules, t = movement_phase(state)
    assert movement.room_in(t.state, "A", "squad") == ["rhino"]
    offered = movement.movement_actions(t.state, "A", ["squad", "scouts"])
    assert [(a.type, a.rule) for a in offered] == \
        [("select", "RS.MOV.1"), ("select", "CORE.OFF.1"), ("select", "CORE.OFF.1")]  # each may embark
    assert offered[0].schema["properties"]["unit"]["enum"] == ["squad", "scouts"]
    movement.select_movement(t, "A", ReferenceSelect(unit="squad", move="advance", embark="rhino"),
                             t.state.units["squad"])
    assert [(kind, rule) for kind, _, rule in t.events] == [("UnitSelected", "RS.MOV.3"), ("UnitEmbarked", "CORE.OFF.1")]
    assert (t.events[0][1]["move"], t.events[0][1]["phase"]) == ("advance", "movement")
    assert t.state.units["squad"].embarked_in == "rhino"
    [request] = rules.rolls
    assert (request["purpose"], request["spec"], request["rule"], request["unit"], request["context"]) == \
        ("advance", "D6", "RS.MOV.3", "squad", {"M": 6})
    t.events.clear()
    movement.advanced(t, request, {"faces": [4], "total": 4})  # type: ignore[arg-type]
    [(kind, data, rule)] = t.events
    assert (kind, rule, data["total"], data["max_move"], data["rerollable"]) == ("AdvanceRolled", "RS.MOV.3", 4, 10, True)
    turn = t.state.units["squad"].turn
    assert isinstance(turn, ReferenceTurn) and turn.max_move == 10
    assert movement.room_in(t.state, "A", "scouts") == []  # the squad's 5 aboard of 8 leave no room for 5 more
    with pytest.raises(Refused) as refused:
        movement.select_movement(t, "A", ReferenceSelect(unit="scouts", move="normal", embark="rhino"),
                                 t.state.units["scouts"])
    assert refused.value.rule == "CORE.OFF.1"


def test_movement_alone_brings_a_unit_from_reserves_from_the_second_round_by_ingress_only():
    state = mustered("reference", [unit("squad", 5), unit("reserve", 5, in_reserves=True)], [unit("foes", 5)])
    movement, rules, t = movement_phase(state, battle_round=1)
    assert movement.movement_ineligible(t.state, t.state.units["reserve"]) == \
        ("RS.RES.1", "strategic reserves arrive from the 2nd battle round")
    movement, rules, t = movement_phase(state)
    assert movement.movement_ineligible(t.state, t.state.units["reserve"]) is None
    [arrive] = [a for a in movement.movement_actions(t.state, "A", ["reserve"]) if a.rule == "RS.RES.1"]
    assert "not in the opponent's deployment zone" in arrive.summary
    with pytest.raises(Refused) as refused:
        movement.select_movement(t, "A", ReferenceSelect(unit="reserve", move="normal"), t.state.units["reserve"])
    assert refused.value.rule == "RS.RES.1" and t.events == []
    movement.select_movement(t, "A", ReferenceSelect(unit="reserve", move="ingress"), t.state.units["reserve"])
    assert [(kind, rule) for kind, _, rule in t.events] == [("UnitSelected", "RS.RES.1"), ("ReserveArrived", "RS.RES.1")]
    assert len(t.events[0][1]["attested"]) == 3 and t.events[1][1]["attested_by"] == "A"
    assert not t.state.units["reserve"].in_reserves and rules.rolls == []


def test_movement_alone_makes_a_desperate_escape_disengaging_rolling_hazards_and_testing_after_the_wounds():
    state = mustered("reference", [unit("squad", 5)], [unit("foes", 5)])
    movement, rules, t = movement_phase(state)
    t.state = t.state.with_unit("squad", replace(t.state.units["squad"], engaged_with=("foes",)))
    [engaged] = movement.movement_actions(t.state, "A", ["squad"])
    assert (engaged.rule, engaged.schema["properties"]["escape"]["enum"]) == ("RS.MOV.4", ["ordered", "desperate"])
    with pytest.raises(Refused) as refused:
        movement.select_movement(t, "A", ReferenceSelect(unit="squad", move="normal"), t.state.units["squad"])
    assert refused.value.rule == "RS.MOV.2"
    movement.select_movement(t, "A", ReferenceSelect(unit="squad", move="fall_back", escape="desperate"),
                             t.state.units["squad"])
    [(kind, data, rule)] = t.events
    assert (kind, rule, data["move"], data["escape"]) == ("UnitSelected", "RS.MOV.4", "fall_back", "desperate")
    assert rules.disengaged == [("squad", "RS.MOV.4", "fell back")]
    [request] = rules.rolls
    assert (request["purpose"], request["spec"], request["rule"], request["context"]) == \
        ("hazard", "5D6", "RS.MOV.4", {"shocked": False})
    movement.hazards(t, request, [1, 2, 3, 6, 5])  # type: ignore[arg-type]
    [(kind, data, rule)] = t.events[1:]
    assert (kind, rule, data["failures"], data["mortal_wounds"]) == ("HazardsRolled", "RS.MOV.4", 2, 2)
    assert rules.wounds == [("squad", 2, "RS.MOV.4", ["squad"], {"escaped": "A", "shocked": False})]
    movement.after_mortal_wounds(t, "squad", {"escaped": "A", "shocked": False})  # what MortalWounds calls back
    assert rules.tests == [("A", "squad", "full", "RS.MOV.4")]
    movement.after_mortal_wounds(t, "squad", {"escaped": "A", "shocked": True})  # it was battle-shocked already
    movement.after_mortal_wounds(t, "squad", {})  # a hazardous weapon's wounds: nothing waits
    assert len(rules.tests) == 1


def test_movement_alone_makes_a_battle_shocked_unit_escape_desperately():
    state = mustered("reference", [unit("squad", 5)], [unit("foes", 5)])
    movement, rules, t = movement_phase(state)
    t.state = t.state.with_unit("squad", replace(t.state.units["squad"], engaged_with=("foes",),
                                                 statuses=("battle_shocked",)))
    [engaged] = movement.movement_actions(t.state, "A", ["squad"])
    assert engaged.schema["properties"]["escape"]["enum"] == ["desperate"]
    with pytest.raises(Refused) as refused:
        movement.select_movement(t, "A", ReferenceSelect(unit="squad", move="fall_back", escape="ordered"),
                                 t.state.units["squad"])
    assert refused.value.rule == "RS.MOV.4" and t.events == [] and rules.disengaged == []
    movement.select_movement(t, "A", ReferenceSelect(unit="squad", move="fall_back"), t.state.units["squad"])
    assert t.events[0][1]["escape"] == "desperate"
    assert [(r["purpose"], r["context"]) for r in rules.rolls] == [("hazard", {"shocked": True})]


# -- reference: Fight (RS.FGT.1-4) -----------------------------------------------------------------------------------

FIGHT = Step("fight", None, "phase", "RS.FGT.2", "RS.FGT.2", active="A")


class Fighting:
    """`FightRules`: A's Fight phase, what it awaits read from the part (as `Reference.step_awaiting` does), no
    attacks open, and the units engaged and disengaged, kept."""

    def __init__(self) -> None:
        self.fight: Fight | None = None
        self.engaged: list[tuple[Any, ...]] = []
        self.disengaged: list[tuple[str, str, str]] = []

    def step(self, state: GameState) -> Step | None:
        return FIGHT

    def awaiting(self, state: GameState) -> dict[str, Any]:
        assert self.fight is not None
        return dict(self.fight.fight_awaiting(state, FIGHT) or {"seat": "A", "action": "end_phase"})

    def turn_seat(self, step: Step) -> str:
        return step.active or "A"

    def attack_actions(self, state: GameState, seat: str, phase: str) -> list[Any]:
        return []

    def engage(self, t: Any, units: list[str], targets: list[str], rule: str, reason: str) -> None:
        self.engaged.append((units, targets, rule, reason))

    def disengage(self, t: Any, uid: str, rule: str, reason: str) -> None:
        self.disengaged.append((uid, rule, reason))


def fight_phase() -> tuple[Fight, Fighting, Table]:
    """A's Fight phase: A's squad engaged with B's foes, A's scouts and B's near unengaged."""
    state = mustered("reference", [unit("squad", 5), unit("scouts", 5)], [unit("foes", 5), unit("near", 5)])
    state = replace(state, status="in_progress", battle_round=2, phase="fight", active_seat="A", step=ReferenceStep())
    units = state.units
    state = state.with_unit("squad", replace(units["squad"], engaged_with=("foes",)))
    state = state.with_unit("foes", replace(units["foes"], engaged_with=("squad",)))
    rules = Fighting()
    fight = Fight(rules)
    rules.fight = fight
    return fight, rules, Table(state, fight)


def test_fight_alone_piles_in_the_active_seat_first_then_alternates_the_fighters_the_other_seat_first():
    fight, _, t = fight_phase()
    fight.begin_fight(t, FIGHT)
    [(kind, data, rule)] = t.events
    assert (kind, rule, data["units"]) == ("FightEligible", "RS.FGT.1", ["foes", "squad"])
    assert fight.fight_awaiting(t.state, FIGHT) == {"seat": "A", "action": "pile_in"}
    assert not fight.fight_progress(t, FIGHT)  # somebody is still to pile in
    with pytest.raises(Refused) as refused:
        fight.pile_in(t, "B", PileIn(unit="foes", distance=2))
    assert refused.value.rule == "RS.FGT.1"
    fight.pile_in(t, "A", PileIn(unit="squad", distance=2))
    assert fight.fight_awaiting(t.state, FIGHT) == {"seat": "B", "action": "pile_in"}
    fight.pile_in(t, "B", PileIn(unit="foes", distance=3))
    assert fight.fight_progress(t, FIGHT)
    assert [(kind, rule) for kind, _, rule in t.events[1:]] == \
        [("PiledIn", "RS.FGT.1"), ("PiledIn", "RS.FGT.1"), ("FightStageEnded", "RS.FGT.1")]
    assert fight.fight_stage(t.state) is not None and fight.fight_stage(t.state).stage == "fight"  # type: ignore[union-attr]
    assert fight.fighters(t.state) == ["foes", "squad"]
    assert fight.next_fighter(t.state, FIGHT) == "B"  # RS.FGT.2: the non-active player first
    [offer] = fight.fight_actions(t.state, "B", {"seat": "B", "action": "select"})
    assert (offer.rule, offer.schema["properties"]["unit"]["enum"]) == ("RS.FGT.2", ["foes"])
    with pytest.raises(Refused) as refused:  # engaged since the phase began: a Normal fight
        fight.select_fight(t, "B", ReferenceSelect(unit="foes", fight="overrun"), t.state.units["foes"])
    assert refused.value.rule == "RS.FGT.2"
    t.events.clear()
    fight.select_fight(t, "B", ReferenceSelect(unit="foes"), t.state.units["foes"])
    [(kind, data, rule)] = t.events
    assert (kind, rule, data["fight"], data["phase"]) == ("UnitSelected", "RS.FGT.2", "normal", "fight")


def test_fight_alone_ends_a_units_fight_and_an_engaging_consolidation_makes_an_unfought_foe_eligible():
    fight, rules, t = fight_phase()
    fight.begin_fight(t, FIGHT)
    under_way = ReferenceStep.of(t.state.step).fight
    assert under_way is not None
    t.state = replace(t.state, step=replace(ReferenceStep.of(t.state.step), fight=replace(
        under_way, stage="fight", piled=("foes", "squad"), fought=("foes", "squad"), current="squad")))  # as
    # `Reference`'s UnitSelected applier leaves the squad selected to fight, both selected once
    with pytest.raises(Refused) as refused:
        fight.end_fight(t, "B", EndFight(unit="squad"))
    assert refused.value.rule == "RS.FGT.3"
    fight.end_fight(t, "A", EndFight(unit="squad"))
    assert t.events[-1][0] == "UnitFought" and fight.fight_stage(t.state).current is None  # type: ignore[union-attr]
    assert fight.fight_progress(t, FIGHT) and fight.fight_awaiting(t.state, FIGHT) == \
        {"seat": "A", "action": "consolidate"}
    t.events.clear()
    fight.consolidate(t, "A", Consolidate(unit="squad", mode="engaging", distance=3, targets=("near",)))
    assert [(kind, rule) for kind, _, rule in t.events] == [("Consolidated", "RS.FGT.4"), ("FightEligible", "RS.FGT.4")]
    assert rules.engaged == [(["squad"], ["near"], "RS.FGT.4", "consolidation by Alice's Squad")]  # edition 4
    assert t.events[-1][1]["reason"] == "engaged by the consolidation of Alice's Squad"
    assert fight.fight_stage(t.state).eligible == ("foes", "squad", "near")  # type: ignore[union-attr]
    assert fight.unfought(t.state) == ["near"]  # it fights, then consolidates, before the phase ends
    assert fight.still_to(t.state, "B", "consolidated") == ["foes"]
    with pytest.raises(Refused) as refused:
        fight.consolidate(t, "A", Consolidate(unit="squad", mode="none"))
    assert refused.value.rule == "RS.FGT.4" and rules.disengaged == []
