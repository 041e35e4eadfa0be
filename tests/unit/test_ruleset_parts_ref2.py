"""More of reference's parts driven alone (domain/rules/parts.py), as tests/unit/test_ruleset_parts.py drives the
first ones: each built with a fake of what it reads of its ruleset (its Protocol), its handler run on that file's
fake table, which applies what the part emits with the part's own appliers."""
from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from tests.support.client import unit
from tests.unit.test_ruleset_parts import Table, mustered
from warlog.domain.rules.reference.charge import Charge
from warlog.domain.rules.reference.commands import ChargeMove, ReferenceSelect
from warlog.domain.rulings import Refused
from warlog.domain.state import ReferenceCharge, ReferenceStep, ReferenceTurn

# -- reference: Charge (RS.CHG.1, RS.CHG.2, RS.CHG.3) --------------------------------------------------------------


class Charging:
    """`ChargeRules`: the rolls asked and the engagements made, kept."""

    def __init__(self) -> None:
        self.rolls: list[dict[str, Any]] = []
        self.engaged: list[tuple[Any, ...]] = []

    def request_roll(self, t: Any, seat: str, purpose: str, spec: str, rule: str, unit: str, **context: Any) -> None:
        self.rolls.append({"seat": seat, "purpose": purpose, "spec": spec, "rule": rule, "unit": unit,
                           "context": context})

    def engage(self, t: Any, units: list[str], targets: list[str], rule: str, reason: str) -> None:
        self.engaged.append((units, targets, rule, reason))


def charging_phase() -> tuple[Charge, Charging, Table]:
    """A's Charge phase, A's squad and B's foes and far on the battlefield."""
    state = mustered("reference", [unit("squad", 5)], [unit("foes", 5), unit("far", 5)])
    state = replace(state, status="in_progress", battle_round=2, phase="charge", active_seat="A", step=ReferenceStep())
    rules = Charging()
    charge = Charge(rules)
    return charge, rules, Table(state, charge)


def rolled(charge: Charge, rules: Charging, t: Table, total: int) -> dict[str, Any]:
    """The squad declares a charge (RS.CHG.1) and its 2D6 come up `total` (RS.CHG.2)."""
    charge.select_charge(t, "A", ReferenceSelect(unit="squad"), t.state.units["squad"])
    [request] = rules.rolls
    charge.charge_rolled(t, request, {"faces": [total - 1, 1], "total": total})  # type: ignore[arg-type]
    return request


def test_charge_alone_declares_rolls_and_engages_the_targets_it_reaches_fighting_first():
    charge, rules, t = charging_phase()
    [offer] = charge.charge_actions(t.state, "A", ["squad"])
    assert (offer.type, offer.rule, offer.schema["properties"]["unit"]["enum"]) == ("select", "RS.CHG.1", ["squad"])
    assert charge.charge_actions(t.state, "A", []) == []
    assert charge.pending_charge(t.state) is None
    request = rolled(charge, rules, t, 7)
    assert (request["seat"], request["purpose"], request["spec"], request["rule"], request["unit"]) == \
        ("A", "charge", "2D6", "RS.CHG.2", "squad")
    assert [(kind, rule) for kind, _, rule in t.events] == [("UnitSelected", "RS.CHG.1"), ("ChargeRolled", "RS.CHG.2")]
    assert (t.events[0][1]["phase"], t.events[1][1]["total"], t.events[1][1]["rerollable"]) == ("charge", 7, True)
    assert charge.pending_charge(t.state) == ReferenceCharge(unit="squad", seat="A", total=7)
    squad_turn = t.state.units["squad"].turn
    assert isinstance(squad_turn, ReferenceTurn) and squad_turn.reroll is not None  # EXT.CP.1: may be re-rolled
    [move] = charge.charge_move_actions(t.state, ReferenceCharge(unit="squad", seat="A", total=7))
    assert (move.type, move.rule, move.schema["properties"]["targets"]["items"]["enum"]) == \
        ("charge_move", "RS.CHG.2", ["foes", "far"])
    t.events.clear()
    charge.charge_move(t, "A", ChargeMove(unit="squad", targets=("foes",), distance=6))
    assert [(kind, rule) for kind, _, rule in t.events] == \
        [("ChargeResolved", "RS.CHG.2"), ("FightsFirstGained", "RS.CHG.3")]
    assert (t.events[0][1]["success"], t.events[0][1]["targets"], t.events[0][1]["distance"]) == (True, ["foes"], "6")
    assert rules.engaged == [(["squad"], ["foes"], "RS.CHG.3", "charge by squad")]
    assert charge.pending_charge(t.state) is None and ReferenceStep.of(t.state.step).charge is None
    squad_turn = t.state.units["squad"].turn
    assert isinstance(squad_turn, ReferenceTurn)
    assert (squad_turn.charged, squad_turn.fights_first, squad_turn.reroll) == (True, True, None)


def test_charge_alone_refuses_the_wrong_seat_and_target_fails_beyond_its_roll_and_is_lost_with_its_charger():
    charge, rules, t = charging_phase()
    rolled(charge, rules, t, 7)
    t.events.clear()
    with pytest.raises(Refused) as refused:
        charge.charge_move(t, "B", ChargeMove(unit="squad", targets=("foes",), distance=6))
    assert refused.value.rule == "RS.CHG.2"
    with pytest.raises(Refused) as refused:  # its own unit is not an enemy unit on the battlefield
        charge.charge_move(t, "A", ChargeMove(unit="squad", targets=("squad",), distance=6))
    assert refused.value.rule == "RS.CHG.2" and t.events == []
    charge.charge_move(t, "A", ChargeMove(unit="squad", targets=("foes", "far"), distance=8))  # beyond the 7" rolled
    [(kind, data, rule)] = t.events
    assert (kind, rule, data["success"], data["total"]) == ("ChargeResolved", "RS.CHG.2", False, 7)
    assert rules.engaged == [] and charge.pending_charge(t.state) is None
    squad_turn = t.state.units["squad"].turn
    assert isinstance(squad_turn, ReferenceTurn) and not squad_turn.charged and not squad_turn.fights_first
    assert not charge.charge_lost(t)  # no charge waits
    rules.rolls.clear()
    t.state = t.state.with_unit("squad", replace(t.state.units["squad"], selected=False))
    rolled(charge, rules, t, 9)
    t.state = t.state.with_unit("squad", replace(t.state.units["squad"], models_alive=0))  # destroyed before its move
    t.events.clear()
    assert charge.charge_lost(t)  # RS.CHG.2: it makes no charge
    [(kind, data, rule)] = t.events
    assert (kind, rule, data["success"], data["targets"], data["reason"]) == \
        ("ChargeResolved", "RS.CHG.2", False, [], "the charging unit was destroyed")
    assert charge.pending_charge(t.state) is None
