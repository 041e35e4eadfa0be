"""Alternating's goes (AA.ACT.1-5, AA.MOV.2, AA.RES.1; domain/rules/alternating/goes.py) as a part driven alone, as
tests/unit/test_ruleset_parts.py drives the others: `Goes` built with a fake of `GoRules` (the step, what the game
awaits, the rolls and statuses, and what the counts, charges and combats judge, kept as calls), its `select`, `pass`
and `declare_done` run on that file's fake table, which applies what the part emits with its own appliers."""
from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from tests.support.client import unit
from tests.unit.test_ruleset_parts import Table, mustered
from warlog.domain.rules.alternating import Alternating
from warlog.domain.rules.alternating.commands import AlternatingSelect, DeclareDone, Pass
from warlog.domain.rules.alternating.common import LAYOUT
from warlog.domain.rules.alternating.goes import Goes
from warlog.domain.rules.basics import Awaiting, Step
from warlog.domain.rulings import Refused
from warlog.domain.state import AlternatingStep, AlternatingTurn, GameState, PerSeat

STEPS = {step.name: step for step in LAYOUT}


class Going:
    """`GoRules`: the step named, a go awaited of whoever has the next one (as `Alternating` awaits it), and what
    the part asks its ruleset to do, kept in `calls`."""

    def __init__(self, step: str) -> None:
        self.at, self.calls = STEPS[step], list[tuple[Any, ...]]()
        self.goes: Goes | None = None

    def step(self, state: GameState) -> Step | None:
        return self.at

    def awaiting(self, state: GameState) -> Awaiting:
        assert self.goes is not None
        return {"seat": self.goes.next_go(state), "action": "select"}

    def request_roll(self, t: Any, seat: str, purpose: str, spec: str, rule: str, unit: str, **context: object) -> None:
        self.calls.append(("roll", seat, purpose, spec, rule, unit, context))

    def change_status(self, t: Any, uid: str, status: str, value: bool, rule: str, **extra: Any) -> None:
        self.calls.append(("status", uid, status, value, rule))

    def count_action(self, state: GameState, seat: str, step: Step) -> Any:
        return ("count", seat)

    def charge_targets(self, state: GameState, seat: str) -> list[str]:
        return [uid for uid, u in state.units.items() if u.owner != seat]

    def check_charge(self, state: GameState, seat: str, targets: list[str], distance: str | None) -> None:
        self.calls.append(("check_charge", seat, targets, distance))

    def declare_charge(self, t: Any, seat: str, uid: str, act: bool, targets: list[str], distance: str | None) -> None:
        self.calls.append(("declare_charge", seat, uid, act, targets, distance))

    def overwatch(self, t: Any, seat: str, command: AlternatingSelect, awaiting: Awaiting) -> None:
        self.calls.append(("overwatch", seat, command.unit))

    def overwatch_actions(self, state: GameState, awaiting: Awaiting) -> list[Any]:
        return []

    def combat_of(self, state: GameState, uid: str) -> str | None:
        return None

    def combat_foes(self, state: GameState, uid: str) -> list[str]:
        return [foe for foe, u in state.units.items() if u.owner != state.units[uid].owner and u.statuses]

    def check_combat(self, state: GameState, seat: str, uid: str, targets: list[str]) -> None:
        self.calls.append(("check_combat", seat, uid, targets))

    def fight(self, t: Any, seat: str, uid: str, targets: list[str]) -> None:
        self.calls.append(("fight", seat, uid, targets))


def going(step: str, army_a: list[dict[str, Any]], army_b: list[dict[str, Any]], first: str = "A",
          pass_points: tuple[int, int] = (0, 0)) -> tuple[Goes, Going, Table]:
    state = mustered("alternating", army_a, army_b)
    state = replace(state, status="in_progress", battle_round=1, step=AlternatingStep(first=first, settled=True),
                    pass_points=PerSeat(*pass_points))
    rules = Going(step)
    goes = rules.goes = Goes(rules)
    return goes, rules, Table(state, goes)


def select(unit: str, act: bool = True, **fields: Any) -> AlternatingSelect:
    return AlternatingSelect(unit=unit, act=act, **fields)


def refused(call: Any) -> tuple[str | None, str]:
    with pytest.raises(Refused) as refusal:
        call()
    return refusal.value.rule, str(refusal.value)


def test_goes_alone_alternate_selections_spend_a_pass_point_and_end_a_seat_that_declares_done():
    goes, _, t = going("move_units", [unit("squad"), unit("scouts")], [unit("boyz")], pass_points=(1, 0))
    assert goes.eligible(t.state, "squad") and not goes.eligible(t.state, "boyz")  # AA.ACT.3: seat A goes first
    offered = goes.play_actions(t.state, "A", goes.rules.awaiting(t.state))
    assert [(a.type, a.rule) for a in offered] == [("select", "AA.ACT.2"), ("pass", "AA.ACT.2"),
                                                  ("declare_done", "AA.ACT.4")]
    assert goes.play_actions(t.state, "B", goes.rules.awaiting(t.state)) == []
    goes.select(t, "A", select("squad"))  # type: ignore[arg-type]
    assert t.events == [("UnitSelected", {"unit": "squad", "act": True, "sub_phase": "move_units", "seat": "A"},
                         "AA.ACT.2")]
    squad = t.state.units["squad"]
    assert squad.selected and AlternatingTurn.of(squad.turn).moved  # its applier
    assert AlternatingStep.of(t.state.step).last == "A" and goes.next_go(t.state) == "B"
    assert refused(lambda: goes.select(t, "A", select("scouts"))) == ("AA.ACT.3", "it is Bob's go")
    assert refused(lambda: goes.pass_go(t, "B", Pass())) == ("AA.ACT.2", "you have no pass points left; select a unit")
    goes.select(t, "B", select("boyz"))  # type: ignore[arg-type]
    assert not goes.can_go(t.state, "B") and goes.next_go(t.state) == "A"  # B has nothing left: A finishes
    assert refused(lambda: goes.pass_go(t, "A", Pass())) == \
        ("AA.ACT.3", "the opponent has no eligible unit left; select one of yours")
    goes.declare_done(t, "A", DeclareDone())
    assert t.events[-1] == ("DeclaredDone", {"seat": "A", "sub_phase": "move_units"}, "AA.ACT.4")
    assert t.state.declared_done == PerSeat(True, False) and goes.next_go(t.state) is None  # its applier
    assert refused(lambda: goes.select(t, "A", select("scouts"))) == \
        ("AA.ACT.4", "you declared you will select no more units this phase")


def test_goes_alone_bring_arrivals_on_first_and_spend_a_pass_point_while_the_opponent_can_go():
    goes, _, t = going("move_units", [unit("squad"), unit("reserve", in_reserves=True)], [unit("boyz")],
                       pass_points=(2, 0))
    reserve = t.state.units["reserve"]
    t.state = t.state.with_unit("reserve", replace(reserve, arriving=True))
    assert goes.ineligible(t.state, "squad") == ("AA.RES.1", "arriving reserves are selected before any other unit")
    assert refused(lambda: goes.declare_done(t, "A", DeclareDone())) == \
        ("AA.RES.1", "units arriving from reserve must be selected first")
    assert refused(lambda: goes.select(t, "A", select("reserve", act=False))) == \
        ("AA.RES.1", "a unit arriving from reserve comes on; it cannot move zero")
    goes.pass_go(t, "A", Pass())  # type: ignore[arg-type]
    assert t.events == [("PassPointSpent", {"seat": "A", "sub_phase": "move_units", "remaining": 1}, "AA.ACT.2")]
    assert t.state.pass_points == PerSeat(1, 0) and goes.next_go(t.state) == "B"  # its applier
    goes.select(t, "B", select("boyz"))  # type: ignore[arg-type]
    goes.select(t, "A", select("reserve"))  # type: ignore[arg-type]
    assert [kind for kind, _, _ in t.events[-2:]] == ["UnitSelected", "ReserveArrived"]
    arrived = t.state.units["reserve"]
    assert not arrived.arriving and not arrived.in_reserves  # its applier


def test_goes_alone_regroup_a_fleeing_unit_through_the_rulesets_rolls_and_statuses():
    goes, rules, t = going("move_fleeing", [unit("scouts", statuses=("falling_back",)),
                                            unit("marines", abilities=("ATSKNF",), statuses=("falling_back",))],
                           [unit("boyz")])
    assert [a.schema["properties"]["act"] for a in goes.play_actions(t.state, "A", rules.awaiting(t.state))] == \
        [{"const": True}]  # AA.MOV.2: a fleeing unit is resolved, never held
    goes.select(t, "A", select("scouts"))  # type: ignore[arg-type]
    assert rules.calls == [("roll", "A", "regroup", "2D6", "AA.MOV.2", "scouts", {"ld": 7})]
    goes.select(t, "A", select("marines"))  # type: ignore[arg-type]  # ATSKNF: regroups without a roll
    assert t.events[-1] == ("RegroupPassed", {"unit": "marines", "automatic": True}, "AA.MOV.2")
    assert rules.calls[1:] == [("status", "marines", "falling_back", False, "AA.MOV.2"),
                               ("status", "marines", "regrouped", True, "AA.MOV.2")]
    goes.regroup(t, "scouts", passed=False, total=9, ld=7)  # as `Alternating.on_roll` hands it the roll
    assert t.events[-1] == ("RegroupFailed", {"unit": "scouts", "fall_back": "the players move it", "total": 9,
                                              "ld": 7}, "AA.MOV.2")
    assert len(rules.calls) == 3


def test_goes_alone_judge_and_declare_a_charge_and_fight_a_combat_through_the_ruleset():
    goes, rules, t = going("select_charges", [unit("squad")], [unit("boyz")])
    goes.select(t, "A", select("squad", targets=("boyz",), distance=7.5))  # type: ignore[arg-type]
    assert rules.calls == [("check_charge", "A", ["boyz"], "7.5"),
                           ("declare_charge", "A", "squad", True, ["boyz"], "7.5")]
    assert t.events[-1][1]["distance"] == "7.5"  # CORE.DIST.1: recorded as a string
    rules.at = STEPS["resolve_combats"]
    for uid in ("squad", "boyz"):
        t.state = t.state.with_unit(uid, replace(t.state.units[uid], statuses=("locked_in_combat",)))
    t.state = replace(t.state, step=AlternatingStep(first="B", settled=True))
    offered = goes.play_actions(t.state, "B", rules.awaiting(t.state))  # no combat known: its foes are named
    assert [(a.type, a.schema["properties"]["unit"]) for a in offered] == \
        [("select", {"const": "boyz"})]  # the squad was selected this phase already (its charge)
    goes.select(t, "B", select("boyz", targets=("squad",)))  # type: ignore[arg-type]
    assert rules.calls[2:] == [("check_combat", "B", "boyz", ["squad"]), ("fight", "B", "boyz", ["squad"])]


def test_alternating_holds_its_goes_as_a_part_that_answers_select_pass_and_declare_done_not_as_a_base():
    assert Goes in Alternating.parts and not issubclass(Alternating, Goes)
    assert {kind: Alternating.handled_by[kind] for kind in ("select", "pass", "declare_done")} == \
        {"select": Goes, "pass": Goes, "declare_done": Goes}
    assert all(Alternating.applied_by[kind] is Goes for kind in
               ("UnitSelected", "PassPointSpent", "DeclaredDone", "ReserveArrived", "OngoingReservesEntered"))
