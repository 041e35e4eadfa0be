"""More of reference's parts driven alone (domain/rules/parts.py), as tests/unit/test_ruleset_parts.py drives the
first ones: each built with a fake of what it reads of its ruleset (its Protocol), its handler run on that file's
fake table, which applies what the part emits with the part's own appliers."""
from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from tests.support.client import unit
from tests.unit.test_ruleset_parts import Table, mustered
from warlog.domain.rules.basics import Step
from warlog.domain.rules.reference.charge import Charge
from warlog.domain.rules.reference.command import CommandPhase
from warlog.domain.rules.reference.commands import ChargeMove, ReferenceSelect, UseStratagem
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
    assert rules.engaged == [(["squad"], ["foes"], "RS.CHG.3", "charge by Alice's Squad")]  # by name (edition 4)
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


# -- reference: CommandPhase (RS.CMD.1, RS.CMD.2, RS.CMD.3, EXT.CP.1, EXT.VP.1) ----------------------------------

class Commanding:
    """`CommandRules`: whose turn a step is, and the rolls, statuses and effects the part asks for, kept."""

    def __init__(self) -> None:
        self.rolls: list[dict[str, Any]] = []
        self.changed: list[tuple[Any, ...]] = []
        self.effects: list[tuple[Any, ...]] = []

    def turn_seat(self, step: Step) -> str:
        assert step.active is not None
        return step.active

    def request_roll(self, t: Any, seat: str, purpose: str, spec: str, rule: str, unit: str, **context: Any) -> None:
        self.rolls.append({"seat": seat, "purpose": purpose, "spec": spec, "rule": rule, "unit": unit,
                           "context": context})

    def change_status(self, t: Any, uid: str, status: str, value: bool, rule: str, **extra: Any) -> None:
        self.changed.append((uid, status, value, rule, extra.get("reason")))

    def start_effect(self, t: Any, uid: str, name: str, seat: str, until: str | None) -> None:
        self.effects.append((uid, name, seat, until))


def test_command_phase_alone_gives_cp_tests_battle_shock_and_rerolls_it_with_a_stratagem():
    state = mustered("reference", [unit("squad", 5), unit("fresh", 5)], [unit("foes", 5)])
    state = replace(state, status="in_progress", battle_round=2, phase="command", active_seat="A", step=ReferenceStep())
    state = state.with_unit("squad", replace(state.units["squad"], models_alive=2))  # below half strength
    rules = Commanding()
    command = CommandPhase(rules)
    t = Table(state, command)
    command.begin_turn(t, Step("command", None, "phase", "RS.CMD.1", "RS.CMD.1", active="A"))
    assert [(kind, rule) for kind, _, rule in t.events] == \
        [("TurnStarted", "CORE.PER.2"), ("CommandPointGained", "RS.CMD.1"), ("CommandPointGained", "RS.CMD.1")]
    assert (t.state.cp.A, t.state.cp.B) == (1, 1)
    [request] = rules.rolls  # RS.CMD.2: only the unit below half strength tests
    assert (request["unit"], request["purpose"], request["spec"], request["rule"]) == \
        ("squad", "battle_shock", "2D6", "RS.CMD.2")
    assert (request["context"]["ld"], request["context"]["strength"]) == (7, "below_half")
    t.events.clear()
    command.battle_shock_tested(t, request, {"faces": [2, 3], "total": 5})  # type: ignore[arg-type]
    [(kind, data, rule)] = t.events
    assert (kind, rule, data["passed"], data["rerollable"]) == ("BattleShockTested", "RS.CMD.2", False, True)
    assert rules.changed == [("squad", "battle_shocked", True, "RS.CMD.2", "failed a battle-shock test")]
    t.state = t.state.with_unit("squad", t.state.units["squad"].with_status("battle_shocked"))
    assert command.rerollable(t.state, "A") == ["squad"]  # the test that made it so may be re-rolled
    assert command.stratagem_targets(t.state, "A") == ["fresh"]  # RS.CMD.3: not a battle-shocked unit
    [reroll, other] = command.stratagem_actions(t.state, "A")
    assert reroll.schema["properties"]["unit"]["enum"] == ["squad"] and other.schema["properties"]["unit"]["enum"] == ["fresh"]
    t.events.clear()
    rules.rolls.clear()
    command.use_stratagem(t, "A", UseStratagem(name="Command Re-roll", unit="squad"))
    [(kind, data, rule)] = t.events
    assert (kind, rule, data["cp"], data["cp_left"]) == ("StratagemUsed", "EXT.CP.1", 1, 0)
    [again] = rules.rolls  # CORE.DICE.2: the whole roll again, once
    assert (again["purpose"], again["rule"], again["context"]["rerolled"], again["context"]["ld"]) == \
        ("battle_shock", "CORE.DICE.2", True, 7)
    squad_turn = t.state.units["squad"].turn
    assert t.state.cp.A == 0 and isinstance(squad_turn, ReferenceTurn) and squad_turn.reroll is None
    assert command.stratagem_actions(t.state, "A") == []  # no CP left


def test_command_phase_alone_starts_a_stratagems_effect_through_its_ruleset_and_refuses_it_twice():
    state = mustered("reference", [unit("squad", 5)], [unit("foes", 5)])
    state = replace(state, status="in_progress", battle_round=1, phase="shooting", active_seat="A", step=ReferenceStep())
    state = replace(state, cp=state.cp.replace("B", 3))
    rules = Commanding()
    command = CommandPhase(rules)
    t = Table(state, command)
    command.use_stratagem(t, "B", UseStratagem(name="Go to Ground", unit="foes", duration="end_of_turn"))
    assert [(kind, data["name"], data["cp_left"]) for kind, data, _ in t.events] == [("StratagemUsed", "Go to Ground", 2)]
    assert rules.effects == [("foes", "Go to Ground", "B", "end_of_turn")] and t.state.cp.B == 2
    with pytest.raises(Refused) as refused:  # EXT.CP.1: each once a phase
        command.use_stratagem(t, "B", UseStratagem(name="Go to Ground", unit="foes"))
    assert refused.value.rule == "EXT.CP.1" and "already used" in refused.value.detail
    with pytest.raises(Refused) as refused:
        command.use_stratagem(t, "B", UseStratagem(name="Smokescreen", unit="squad"))  # not B's unit
    assert refused.value.rule == "EXT.CP.1" and len(t.events) == 1 and len(rules.effects) == 1
    assert command.winner(t.state) is None  # EXT.VP.1: equal VP is a draw
