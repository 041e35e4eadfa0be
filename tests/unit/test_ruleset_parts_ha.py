"""More parts driven alone (domain/rules/parts.py), as tests/unit/test_ruleset_parts.py drives the first ones:
each built with a fake of what it reads of its ruleset (its Protocol), its handler run on that file's fake table,
which applies what the part emits with the part's own appliers."""
from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from tests.support.client import unit
from tests.unit.test_ruleset_parts import Table, mustered
from warlog.domain.rules.alternating.commands import ConfirmCount
from warlog.domain.rules.alternating.counting import Counting
from warlog.domain.rules.basics import Step
from warlog.domain.rules.heresy.commands import Enter, FallBack
from warlog.domain.rules.heresy.reserves import Reserves, arriving
from warlog.domain.rules.heresy.rout import Rout, falling_back
from warlog.domain.rulings import Refused
from warlog.domain.state import AlternatingStep, GameState, HeresyStep, HeresyTurn, PerSeat

# -- alternating: Counting (AA.PP.1, AA.PP.2, AA.SPP.1) ---------------------------------------------------------

MOVEMENT_COUNT = Step("movement", "movement_pass_points", "count", "AA.MOV.1", "AA.PP.1")
SHOOTING_COUNT = Step("shooting", "shooting_pass_points", "count", "AA.SHO.1", "AA.SPP.1")


class Counted:
    """`CountRules`: the count being confirmed is this step."""

    def __init__(self, step: Step) -> None:
        self.current = step

    def step(self, state: GameState) -> Step | None:
        return self.current


def counting_at(step: Step, army_a: list[dict[str, Any]], army_b: list[dict[str, Any]]) -> tuple[Counting, Table]:
    state = mustered("alternating", army_a, army_b)
    state = replace(state, status="in_progress", battle_round=1, phase=step.phase, step=AlternatingStep())
    counting = Counting(Counted(step))
    return counting, Table(state, counting)


def test_counting_alone_takes_both_confirmations_then_gives_the_fewer_side_the_difference_in_pass_points():
    counting, t = counting_at(MOVEMENT_COUNT, [unit("squad", 5), unit("scouts", 5), unit("reserve", 5, in_reserves=True)],
                              [unit("foes", 5), unit("foes-2", 5), unit("foes-3", 5)])
    offer = counting.count_action(t.state, "A", MOVEMENT_COUNT)
    assert (offer.type, offer.rule) == ("confirm_count", "AA.PP.1")
    assert list(offer.schema["properties"]["exclude"]["properties"]) == ["squad", "scouts"]  # reserves left out already
    assert "include" not in offer.schema["properties"]  # AA.PP.1: the movement count brings nothing in
    with pytest.raises(Refused) as refused:
        counting.confirm_count(t, "A", ConfirmCount(include={"reserve": "it walks on"}))  # type: ignore[arg-type]
    assert refused.value.rule == "AA.PP.1" and t.events == []
    counting.confirm_count(t, "A", ConfirmCount(exclude={"scouts": "hidden in ruins"}))  # type: ignore[arg-type]
    assert t.events == [("CountConfirmed", {"seat": "A", "sub_phase": "movement_pass_points",
                                            "exclude": {"scouts": "hidden in ruins"}, "include": {}}, "AA.PP.1")]
    with pytest.raises(Refused) as refused:  # the applier kept seat A's claims
        counting.confirm_count(t, "A", ConfirmCount())  # type: ignore[arg-type]
    assert refused.value.rule == "AA.PP.1" and len(t.events) == 1
    counting.confirm_count(t, "B", ConfirmCount())  # type: ignore[arg-type]
    [_, (kind, data, rule)] = t.events[1:]
    assert (kind, rule, data["counts"], data["pass_points"]) == ("PassPointsCalculated", "AA.PP.2", {"A": 1, "B": 3},
                                                                  {"A": 2, "B": 0})
    assert data["excluded"] == [{"unit": "scouts", "seat": "A", "by": "A", "reason": "hidden in ruins"},
                                {"unit": "reserve", "seat": "A", "by": "service", "reason": "in reserves"}]
    assert t.state.pass_points == PerSeat(2, 0) and AlternatingStep.of(t.state.step).calculated
    with pytest.raises(Refused):  # counted: nothing more is confirmed in this step
        counting.confirm_count(t, "B", ConfirmCount())  # type: ignore[arg-type]


def test_counting_alone_brings_a_unit_into_the_shooting_count_and_its_applier_keeps_why():
    counting, t = counting_at(SHOOTING_COUNT, [unit("squad", 5), unit("psykers", 5, ranged=False)],
                              [unit("foes", 5), unit("foes-2", 5)])
    offer = counting.count_action(t.state, "A", SHOOTING_COUNT)
    assert list(offer.schema["properties"]["include"]["properties"]) == ["psykers"]  # AA.SPP.1: no ranged weapons
    with pytest.raises(Refused) as refused:
        counting.confirm_count(t, "A", ConfirmCount(include={"foes": "it shoots"}))  # type: ignore[arg-type]
    assert refused.value.rule == "AA.SPP.1" and t.events == []
    counting.confirm_count(t, "A", ConfirmCount(include={"psykers": "Smite"}))  # type: ignore[arg-type]
    counting.confirm_count(t, "B", ConfirmCount())  # type: ignore[arg-type]
    (kind, data, rule) = t.events[-1]
    assert (kind, rule, data["counts"], data["pass_points"]) == ("PassPointsCalculated", "AA.SPP.1", {"A": 2, "B": 2},
                                                                  {"A": 0, "B": 0})
    assert data["included"] == [{"unit": "psykers", "seat": "A", "by": "A", "reason": "Smite",
                                 "service_reason": "no ranged weapons"}]
    assert dict(t.state.shooting_included or {}) == {"psykers": "Smite"}


# -- heresy: Reserves (HH.RES.1-3) and Rout (HH.ROUT.1-3) -------------------------------------------------------

class SubPhase:
    """`ReserveRules` and `RoutRules`: seat A's sub-phase `name`, and what the part asks its ruleset to do, kept."""

    def __init__(self, name: str, play_rule: str) -> None:
        self.current = Step("movement", name, "phase", "HH.MOV.0", play_rule, active="A")
        self.calls: list[tuple[Any, ...]] = []

    def step(self, state: GameState) -> Step | None:
        return self.current

    def request_roll(self, t: Any, seat: str, purpose: str, spec: str, rule: str, unit: str, **context: object) -> None:
        self.calls.append(("roll", seat, purpose, spec, rule, unit, context))

    def casualties(self, t: Any, uid: str, models: int, wounds: int, rule: str, **extra: Any) -> None:
        self.calls.append(("casualties", uid, models, wounds, rule))

    def change_status(self, t: Any, uid: str, status: str, value: bool, rule: str, **extra: Any) -> None:
        self.calls.append(("status", uid, status, value, rule))

    def offer_snap_shots(self, t: Any, against: str) -> None:
        self.calls.append(("snap_shots", against))

    def offer_reaction(self, t: Any, uid: str, against: str) -> None:
        self.calls.append(("reaction", uid, against))

    def after_move(self, t: Any, seat: str, uid: str, coherency_lost: bool, dangerous: int, near: list[str]) -> None:
        self.calls.append(("moved", seat, uid, coherency_lost, dangerous, near))


def heresy_at(sub_phase: str, army_a: list[dict[str, Any]], army_b: list[dict[str, Any]]) -> GameState:
    state = mustered("heresy", army_a, army_b)
    return replace(state, status="in_progress", battle_round=1, phase="movement", sub_phase=sub_phase,
                   active_seat="A", step=HeresyStep())


def test_reserves_alone_roll_for_each_unit_in_reserve_and_bring_an_arrival_into_play_through_their_ruleset():
    state = heresy_at("reserves", [unit("squad", 5, in_reserves=True), unit("guard", 5)], [unit("foes", 5)])
    rules = SubPhase("reserves", "HH.RES.1")
    reserves = Reserves(rules)
    t = Table(state, reserves)
    reserves.begin_reserves(t, "A")
    assert rules.calls == [("roll", "A", "reserve", "D6", "HH.RES.1", "squad", {})]  # HH.RES.1: not the one on the table
    reserves.reserve_rolled(t, "squad", {"faces": [2], "total": 2})  # type: ignore[typeddict-item]
    reserves.reserve_rolled(t, "squad", {"faces": [3], "total": 3})  # type: ignore[typeddict-item]
    assert [(kind, data["total"], rule) for kind, data, rule in t.events] == \
        [("ReserveDelayed", 2, "HH.RES.1"), ("ReserveArriving", 3, "HH.RES.1")]  # HH.RES.1: on a 3+
    t.state = t.state.with_unit("squad", replace(t.state.units["squad"], arriving=True))  # as the core applies it
    assert arriving(t.state, "A") == ["squad"]
    offered = reserves.enter_actions(t.state, "A")
    assert [(a.type, a.rule) for a in offered] == [("enter", "HH.RES.2"), ("enter", "HH.MOV.5"), ("enter", "HH.MOV.5")]
    t.events.clear()
    with pytest.raises(Refused) as refused:
        reserves.enter_play(t, "A", Enter(unit="squad", removed=1))  # type: ignore[arg-type]
    assert refused.value.rule == "HH.RES.2" and t.events == []  # from_edge not attested
    assert "attest that it does" in str(refused.value) and "from_edge" not in str(refused.value)  # players' words
    reserves.enter_play(t, "A", Enter(unit="squad", from_edge=True, removed=1))  # type: ignore[arg-type]
    [(kind, data, rule)] = t.events
    assert (kind, rule, data["unit"], data["removed"], data["rush"]) == ("ReserveArrived", "HH.RES.2", "squad", 1, False)
    squad = t.state.units["squad"]
    assert (squad.arriving, squad.in_reserves, squad.selected, HeresyTurn.of(squad.turn).arrived) == \
        (False, False, True, True)  # HH.RES.3: it has arrived, and makes no second move
    assert rules.calls[1:] == [("casualties", "squad", 1, 0, "HH.RES.2"), ("snap_shots", "squad")]
    assert arriving(t.state, "A") == []


def test_rout_alone_rolls_the_fall_back_then_records_it_and_tests_leadership_at_the_edge():
    state = heresy_at("rout", [unit("squad", 5, statuses=("routed",)), unit("guard", 5)], [unit("foes", 5)])
    rules = SubPhase("rout", "HH.ROUT.1")
    rout = Rout(rules)
    t = Table(state, rout)
    rout.begin_rout(t, "A")
    assert rules.calls == [("roll", "A", "fall_back", "D6+4", "HH.ROUT.2", "squad", {})]  # HH.ROUT.2: 1D6 + I
    with pytest.raises(Refused) as refused:  # not rolled for yet
        rout.fall_back_unit(t, "A", FallBack(unit="squad"))  # type: ignore[arg-type]
    assert refused.value.rule == "HH.ROUT.1"
    rout.fall_back_rolled(t, "squad", {"faces": [3], "total": 7})  # type: ignore[typeddict-item]
    assert falling_back(t.state, "A") == ["squad"]
    [offer] = rout.fall_back_actions(t.state, "A")
    assert (offer.type, offer.schema["properties"]["unit"]["const"]) == ("fall_back", "squad")
    rout.fall_back_unit(t, "A", FallBack(unit="squad", reached_edge=True, near=("foes",)))  # type: ignore[arg-type]
    assert [(kind, rule) for kind, _, rule in t.events] == [("FallBackRolled", "HH.ROUT.2"), ("FellBack", "HH.ROUT.2")]
    assert HeresyTurn.of(t.state.units["squad"].turn).fell_back == "7" and falling_back(t.state, "A") == []
    assert rules.calls[1:] == [("roll", "A", "leadership", "2D6", "HH.ROUT.3", "squad", {"ld": 7}),
                               ("moved", "A", "squad", False, 0, ["foes"])]  # a fall back is a move (HH.REACT.1)
    request: Any = {"context": {"ld": 7}}
    rout.leadership_rolled(t, "squad", request, {"faces": [4, 4], "total": 8})  # type: ignore[typeddict-item]
    rout.leadership_rolled(t, "squad", request, {"faces": [3, 4], "total": 7})  # type: ignore[typeddict-item]
    assert [(data["total"], data["passed"]) for kind, data, _ in t.events if kind == "LeadershipTested"] == \
        [(8, False), (7, True)]  # HH.ROUT.3: 2D6 at most Ld
    assert rules.calls[3:] == [("casualties", "squad", 5, 0, "HH.ROUT.3"),  # failed: the unit is lost
                               ("status", "squad", "routed", False, "HH.ROUT.3"),  # passed: it regroups
                               ("status", "squad", "suppressed", True, "HH.ROUT.3")]
