"""Heresy's charge and fight driven alone as a part (domain/rules/parts.py), as tests/unit/test_ruleset_parts.py drives
the first ones: `Assault` built with a fake of `AssaultRules` (the step, the dice, the statuses, a strike's attack kept
as calls), its `strike` run on that file's fake table, which applies what it emits with its own appliers (an
attack's counts are given to the fight as shooting.py's appliers give them, through `fight_counted`)."""
from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from tests.support.client import unit
from tests.unit.test_ruleset_parts import Recorded, Table, mustered
from warlog.domain.commands import Select
from warlog.domain.rules.basics import Step
from warlog.domain.rules.heresy.assault import Assault, fight_counted, fight_under_way
from warlog.domain.rules.heresy.commands import Strike
from warlog.domain.rulings import Malformed, Refused
from warlog.domain.state import GameState, HeresyStep

ASSAULT = Step("assault", None, "phase", "CORE.SEQ.1", "HH.MOV.5", active="A")


class Fighting(Recorded):
    """`AssaultRules`: seat A's Assault phase; what the part asks its ruleset to do, kept in `calls`."""

    def step(self, state: GameState) -> Step | None:
        return ASSAULT

    def request_roll(self, t: Any, seat: str, purpose: str, spec: str, rule: str, unit: str, **context: object) -> None:
        self.calls.append(("roll", seat, purpose, spec, rule, unit, context))

    def change_status(self, t: Any, uid: str, status: str, value: bool, rule: str, **extra: Any) -> None:
        self.calls.append(("status", uid, status, value, rule, extra.get("reason")))

    def start_attack(self, t: Any, uid: str, arms: Any, target: str, models: int, phase: str,
                     facing: str | None = None, snap_shots: bool = False, within_half_range: bool = False,
                     then: Any = None) -> None:
        self.calls.append(("attack", uid, arms.name, target, models, phase, then))


def quick(uid: str, initiative: int, **fields: Any) -> dict[str, Any]:
    """A unit of five whose models strike at `initiative`."""
    body = unit(uid, 5, **fields)
    body["models"][0]["I"] = initiative
    return body


def fighting(army_a: list[dict[str, Any]], army_b: list[dict[str, Any]]) -> tuple[Assault, Fighting, Table]:
    state = mustered("heresy", army_a, army_b)
    state = replace(state, status="in_progress", battle_round=1, phase="assault", sub_phase=None, active_seat="A",
                    step=HeresyStep())
    rules = Fighting()
    assault = Assault(rules)
    return assault, rules, Table(state, assault)


def counted(t: Table, attacker: str, wounds_lost: int) -> None:
    """A strike's attack declared and resolved, counted by the fight as shooting.py's appliers count it."""
    t.state = fight_counted(t.state, "AttackDeclared", {"attacker": attacker, "phase": "assault"})  # type: ignore[arg-type]
    t.state = fight_counted(t.state, "AttackResolved", {"attacker": attacker, "wounds_lost": wounds_lost})  # type: ignore[arg-type]


def test_assault_alone_offers_a_charge_judges_it_rolls_it_and_a_charge_that_reaches_begins_the_fight():
    assault, rules, t = fighting([quick("squad", 5), quick("unarmed", 4, weapons=[])], [quick("foes", 3)])
    [charge] = assault.charge_actions(t.state, "A", ["squad", "unarmed"])  # the unarmed one: the table's charge
    assert (charge.type, charge.rule, charge.schema["properties"]["targets"]["items"]["enum"]) == \
        ("select", "HH.MOV.5", ["foes"])
    for command, targets, error, text in (
            (Select(unit="squad", act=True, targets=("foes",), distance=13), ["foes", "foes"], Malformed,
             "a charge the service rolls names one target unit"),
            (Select(unit="unarmed", act=True, targets=("foes",), distance=6), ["foes"], Refused,
             "Unarmed has no melee weapon the tables can strike Bob's Foes with: declare the charge without a distance "
             "and record what happens")):
        with pytest.raises(error) as refused:
            assault.check_charge(t.state, command, targets)
        assert str(refused.value) == text
    charging = Select(unit="squad", act=True, targets=("foes",), distance=7)
    assault.check_charge(t.state, charging, ["foes"])
    assault.roll_charge(t, "A", charging, "foes")  # type: ignore[arg-type]
    assert rules.calls == [("roll", "A", "charge", "2D6", "RS.CHG.2", "squad", {"target": "foes", "distance": "7"})]
    request = {"context": {"target": "foes", "distance": "7"}}
    assault.charge_rolled(t, "squad", request, {"faces": [3, 3], "total": 6})  # type: ignore[arg-type]  # short
    assert t.events == [("ChargeRolled", {"unit": "squad", "target": "foes", "total": 6, "distance": "7",
                                          "reached": False}, "RS.CHG.2")]
    assert len(rules.calls) == 1 and fight_under_way(t.state) is None
    assault.charge_rolled(t, "squad", request, {"faces": [4, 3], "total": 7})  # type: ignore[arg-type]
    reason = "the charge of Alice's Squad reached Bob's Foes"
    assert rules.calls[1:] == [("status", "squad", "locked_in_combat", True, "HH.MOV.2", reason),
                               ("status", "foes", "locked_in_combat", True, "HH.MOV.2", reason)]
    assert [(kind, rule) for kind, _, rule in t.events[1:]] == [("ChargeRolled", "RS.CHG.2"), ("FightBegan", "RS.FGT.3"),
                                                                ("InitiativeStepBegan", "RS.FGT.3")]
    assert t.events[2][1] == {"units": ["squad", "foes"], "initiative_steps": [5, 3],
                              "initiative": {"squad": 5, "foes": 3}}
    fight = fight_under_way(t.state)  # its appliers
    assert fight is not None and (fight.step, fight.striking) == (5, ("squad",))
    assert HeresyStep.of(t.state.step).fought == ("squad", "foes")  # RS.FGT.2: each fights once a phase
    assert assault.strikers(t.state) == ["squad"]


def test_assault_alone_strikes_in_initiative_order_through_the_ruleset_and_settles_the_fight():
    assault, rules, t = fighting([quick("squad", 5)], [quick("foes", 3)])
    assault.begin_fight(t, "squad", "foes", "RS.FGT.3")
    assert assault.strike_actions(t.state, "B") == []
    [offer] = assault.strike_actions(t.state, "A")
    assert (offer.type, offer.rule, offer.summary) == \
        ("strike", "RS.FGT.3", "Squad strikes Bob's Foes at Initiative 5 with 5 models, one melee weapon (WS against WS)")
    for seat, command, error, text in (
            ("B", Strike(unit="foes", weapon="Knife"), Refused,
             "no strike is awaited from this unit: a fight strikes in Initiative order, Alice's Squad next"),
            ("B", Strike(unit="squad", weapon="Knife"), Refused, "Alice's Squad is another player's unit"),
            ("A", Strike(unit="squad", weapon="Boltgun"), Malformed,
             "Squad has no melee weapon 'Boltgun' the tables read")):
        with pytest.raises(error) as refused:
            assault.strike(t, seat, command)  # type: ignore[arg-type]
        assert str(refused.value) == text
    assault.strike(t, "A", Strike(unit="squad", weapon="Knife"))  # type: ignore[arg-type]
    assert rules.calls == [("attack", "squad", "Knife", "foes", 5, "assault", {"kind": "fight"})]
    counted(t, "squad", 1)
    assault.fight_goes_on(t, {"kind": "fight"})  # the next Initiative step: the foes strike back
    assert assault.strikers(t.state) == ["foes"] and t.events[-1][1]["striking"] == ["foes"]
    assault.strike(t, "B", Strike(unit="foes", weapon="Knife"))  # type: ignore[arg-type]
    counted(t, "foes", 0)
    assault.fight_goes_on(t, {"kind": "fight"})
    (kind, data, rule) = t.events[-1]
    assert (kind, rule, data) == ("FightResolved", "RS.FGT.3", {"units": ["squad", "foes"],
                                                                "wounds_caused": {"squad": 1, "foes": 0},
                                                                "destroyed": [], "loser": "foes"})
    assert fight_under_way(t.state) is None and assault.strikers(t.state) == []  # its applier: over
    assert rules.calls[-1] == ("roll", "B", "fight_leadership", "2D6", "HH.ROUT.3", "foes", {"ld": 7, "foe": "squad"})
    request = {"context": {"ld": 7, "foe": "squad"}}
    assault.fight_leadership_rolled(t, "foes", request, {"faces": [4, 4], "total": 8})  # type: ignore[arg-type]
    assert t.events[-1] == ("LeadershipTested", {"unit": "foes", "total": 8, "ld": 7, "passed": False,
                                                 "for": "it lost the fight"}, "HH.ROUT.3")
    assert rules.calls[-3:] == [
        ("status", "foes", "routed", True, "HH.ROUT.1", "it lost the fight and failed its Leadership test (convention)"),
        ("status", "foes", "locked_in_combat", False, "HH.MOV.2", "it is Routed: it falls back"),
        ("status", "squad", "locked_in_combat", False, "HH.MOV.2", "Bob's Foes broke from the fight")]


def test_assault_alone_fights_again_a_combat_that_goes_on_once_a_phase():
    locked = ("locked_in_combat",)
    assault, rules, t = fighting([quick("squad", 4, statuses=locked, engaged_with=["foes"])],
                                 [quick("foes", 4, statuses=locked), quick("others", 4)])
    assert assault.engaged_with(t.state, "foes") == ("squad",) and assault.engaged_with(t.state, "others") == ()
    assert assault.continuing_combat(t.state) == ("squad", "foes")  # the active player's unit first
    assert assault.continue_combat(t)
    assert [(kind, rule) for kind, _, rule in t.events] == [("FightBegan", "RS.FGT.2"), ("InitiativeStepBegan", "RS.FGT.3")]
    assert t.events[1][1]["striking"] == ["squad", "foes"]  # an equal Initiative: they strike simultaneously
    assert not assault.continue_combat(t)  # the fight under way goes first
    t.state = replace(t.state, step=replace(t.state.step, fight=None))  # type: ignore[type-var]
    assert assault.continuing_combat(t.state) is None and not assault.continue_combat(t)  # each once a phase
    assert rules.calls == []
