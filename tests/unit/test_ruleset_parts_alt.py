"""alternating's Charges driven alone (domain/rules/parts.py), as tests/unit/test_ruleset_parts.py drives the first
parts: built with a fake of what it calls back in its ruleset (`ChargeRules`), run on the numbered fake table of
tests/unit/test_ruleset_parts_ha2.py, which applies what the part emits with the part's own appliers."""
from __future__ import annotations

from dataclasses import replace
from typing import Any, cast

import pytest

from tests.support.client import unit
from tests.unit.test_ruleset_parts import mustered
from tests.unit.test_ruleset_parts_ha2 import Numbered, destroyed
from warlog.domain import events as ev
from warlog.domain.rules.alternating.charges import Charges
from warlog.domain.rules.alternating.commands import AlternatingSelect, ResolveCharge
from warlog.domain.rules.basics import Awaiting
from warlog.domain.rulings import Malformed, Refused
from warlog.domain.state import AlternatingStep

NONE: Awaiting = {"seat": None, "action": "none"}


class Charging:
    """`ChargeRules`: what the game waits for, as the test sets it; the rolls asked and the statuses changed,
    kept."""

    def __init__(self) -> None:
        self.awaited: Awaiting = NONE
        self.calls: list[tuple[Any, ...]] = []

    def awaiting(self, state: Any) -> Awaiting:
        return self.awaited

    def request_roll(self, t: Any, seat: str, purpose: str, spec: str, rule: str, uid: str, **context: object) -> None:
        self.calls.append(("roll", seat, purpose, spec, rule, uid, context))

    def change_status(self, t: Any, uid: str, status: str, value: bool, rule: str, **extra: Any) -> None:
        self.calls.append(("status", uid, status, value, rule))


def charges_at(army_b: list[dict[str, Any]]) -> tuple[Charges, Charging, Numbered]:
    state = mustered("alternating", [unit("squad", 5), unit("guard", 5)], army_b)
    state = replace(state, status="in_progress", battle_round=1, phase="charge", step=AlternatingStep())
    rules = Charging()
    charges = Charges(rules)
    return charges, rules, Numbered(state, charges)


def rolled(request: tuple[Any, ...], faces: list[int]) -> tuple[ev.RollRequested, ev.DiceRolled]:
    """A roll the part asked for (`Charging.calls`), come back with its faces."""
    _, seat, purpose, spec, rule, uid, context = request
    asked = ev.RollRequested(seat=seat, purpose=purpose, spec=spec, rule=rule, unit=uid, context=context)
    return asked, cast(ev.DiceRolled, {"faces": faces, "spec": spec, "total": sum(faces)})


def test_charges_alone_declare_a_charge_take_its_overwatch_then_roll_it_and_lock_the_combat():
    charges, rules, t = charges_at([unit("foes", 5), unit("fleeing", 5, statuses=("falling_back",)),
                                    unit("waiting", 5, in_reserves=True)])
    assert charges.charge_targets(t.state, "A") == ["foes", "fleeing"]  # on the battlefield: not in reserves
    charges.check_charge(t.state, "A", ["foes", "fleeing"], "7")
    charges.declare(t, "A", "squad", True, ["foes", "fleeing"], "7")
    assert t.events == [("ChargeDeclared", {"unit": "squad", "seat": "A", "targets": ["foes", "fleeing"],
                                            "distance": "7", "overwatch_by": ["foes"]}, "AA.CHG.1")]  # not the fleeing
    rules.awaited = overwatch = cast(Awaiting, charges.charge_awaiting(t.state))
    assert overwatch == {"seat": "B", "action": "select", "reaction": "overwatch", "unit": "foes",
                         "against": "squad", "rule": "AA.OW.1"}
    with pytest.raises(Refused) as refused:
        charges.overwatch(t, "B", AlternatingSelect(unit="fleeing"), overwatch)
    assert refused.value.rule == "AA.OW.1" and len(t.events) == 1
    charges.overwatch(t, "B", AlternatingSelect(unit="foes"), overwatch)
    assert t.events[-1][0] == "OverwatchFired" and t.events[-1][1]["volleys"] == 1
    [request] = rules.calls  # a rapid-fire boltgun fires one shot a model: 5 dice, one volley
    assert request == ("roll", "B", "overwatch", "5D6", "AA.OW.1", "foes", {"against": "squad", "weapon": "Boltgun"})
    assert charges.charge_awaiting(t.state) is None and charges.run_on(t) is False  # the volley is to be rolled
    charges.on_roll(t, *rolled(request, [6, 6, 1, 2, 3]))
    assert t.events[-1][0] == "OverwatchResolved" and t.events[-1][1]["shots"] == 5
    rules.awaited = waits = cast(Awaiting, charges.charge_awaiting(t.state))
    assert waits == {"seat": "A", "action": "resolve_charge", "unit": "squad", "rule": "AA.CHG.1"}
    with pytest.raises(Refused) as refused:
        charges.resolve_charge(t, "B", ResolveCharge())
    assert refused.value.rule == "AA.CHG.1" and "Alice's" in str(refused.value)
    charges.resolve_charge(t, "A", ResolveCharge())  # its overwatch casualties recorded
    assert t.events[-1] == ("ChargeRollCalled", {"unit": "squad", "seat": "A"}, "AA.CHG.1")
    assert charges.charge_awaiting(t.state) is None and charges.run_on(t) is True
    charge_roll = rules.calls[-1]
    assert charge_roll == ("roll", "A", "charge", "2D6", "AA.CHG.1", "squad",
                           {"targets": ["foes", "fleeing"], "distance": "7"})
    reading = charges.roll_reading(rolled(charge_roll, [])[0])
    assert reading is not None and reading.needed == 7
    charges.on_roll(t, *rolled(charge_roll, [3, 4]))
    assert t.events[-2:] == [
        ("ChargeResolved", {"unit": "squad", "targets": ["foes", "fleeing"], "distance": "7", "total": 7,
                            "success": True}, "AA.CHG.1"),
        ("CombatJoined", {"units": ["squad", "foes", "fleeing"], "reason": "charge by Alice's Squad"},
         "AA.CHG.1")]  # the charger by name (AA.CHG.1/named, edition 4)
    assert rules.calls[-3:] == [("status", uid, "locked_in_combat", True, "AA.CHG.1")
                                for uid in ("squad", "foes", "fleeing")]
    assert AlternatingStep.of(t.state.step).declared is None and charges.run_on(t) is False  # the charge is over


def test_charges_alone_refuse_a_charge_out_of_reach_and_end_one_whose_charger_fell_to_overwatch():
    charges, rules, t = charges_at([unit("foes", 5), unit("waiting", 5, in_reserves=True)])
    with pytest.raises(Malformed) as malformed:
        charges.check_charge(t.state, "A", [], "5")
    assert malformed.value.field == "targets"
    with pytest.raises(Refused) as refused:
        charges.check_charge(t.state, "A", ["waiting"], "5")
    assert refused.value.rule == "AA.CHG.1" and "not on the battlefield" in str(refused.value)
    with pytest.raises(Refused) as refused:
        charges.check_charge(t.state, "A", ["foes"], "12.5")
    assert refused.value.rule == "AA.CHG.1" and "beyond" in str(refused.value)
    with pytest.raises(Refused):  # nothing waits to be rolled
        charges.resolve_charge(t, "A", ResolveCharge())
    charges.declare(t, "A", "squad", False, ["foes"], "5")  # held: no charge
    assert t.events == [] and charges.run_on(t) is False
    charges.declare(t, "A", "squad", True, ["foes"], "5")
    rules.awaited = cast(Awaiting, charges.charge_awaiting(t.state))
    charges.overwatch(t, "B", AlternatingSelect(unit="foes", act=False), rules.awaited)
    assert t.events[-1] == ("OverwatchHeld", {"unit": "foes", "against": "squad", "reason": "held by its player"},
                            "AA.OW.1")
    t.state = destroyed(t.state, "squad")
    assert charges.run_on(t) is True
    assert t.events[-1] == ("ChargeResolved", {"unit": "squad", "targets": ["foes"], "distance": "5", "total": None,
                                               "success": False, "reason": "the charging unit was destroyed"},
                            "AA.CHG.1")
    assert AlternatingStep.of(t.state.step).declared is None and rules.calls == []  # no roll was asked
