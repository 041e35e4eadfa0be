"""Heresy's Combat driven alone (domain/rules/parts.py), as tests/unit/test_ruleset_parts.py drives the first parts:
built with a fake of what it reads of its ruleset (`CombatRules`), its handler run on that file's fake table, which
applies what the part emits with the part's own appliers."""
from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from tests.support.client import unit
from tests.unit.test_ruleset_parts import Table
from tests.unit.test_ruleset_parts_ha import heresy_at
from warlog.domain.commands import Select
from warlog.domain.rules.actions import Action
from warlog.domain.rules.basics import Step
from warlog.domain.rules.heresy.combat import Combat
from warlog.domain.rulings import Malformed, Refused
from warlog.domain.state import GameState, HeresyTurn


class Phase:
    """`CombatRules`: seat A's Shooting or Assault phase, the fight's strikers as set, and the charges it is asked to
    offer, judge and roll, kept."""

    def __init__(self, phase: str) -> None:
        self.current = Step(phase, None, "phase", "CORE.SEQ.1", "HH.MOV.5", active="A")
        self.striking: list[str] = []
        self.calls: list[tuple[Any, ...]] = []

    def step(self, state: GameState) -> Step | None:
        return self.current

    def strikers(self, state: GameState) -> list[str]:
        return self.striking

    def charge_actions(self, state: GameState, seat: str, ready: list[str]) -> list[Action]:
        self.calls.append(("offer", seat, ready))
        return []

    def check_charge(self, state: GameState, command: Select, targets: list[str]) -> None:
        self.calls.append(("check", command.unit, targets))

    def roll_charge(self, t: Any, seat: str, command: Select, target: str) -> None:
        self.calls.append(("roll", seat, command.unit, target))


def combat_in(phase: str, army_a: list[dict[str, Any]], army_b: list[dict[str, Any]]) -> tuple[Combat, Phase, Table]:
    state = replace(heresy_at("move", army_a, army_b), phase=phase, sub_phase=None)
    rules = Phase(phase)
    combat = Combat(rules)
    return combat, rules, Table(state, combat)


def test_combat_alone_offers_and_judges_a_unit_selected_to_shoot_and_its_applier_marks_it_as_having_shot():
    combat, rules, t = combat_in("shooting", [unit("squad", 5), unit("psykers", 5, ranged=False), unit("rushed", 5)],
                                 [unit("foes", 5), unit("reserve", 5, in_reserves=True)])
    rushed = t.state.units["rushed"]
    t.state = t.state.with_unit("rushed", replace(rushed, turn=HeresyTurn(moved="rush", rushed=True)))
    assert combat.combat_block(t.state, "psykers") == ("HH.MOV.5", "it has no ranged weapon")
    assert combat.combat_block(t.state, "rushed") == ("HH.MOV.5", "it rushed this turn: it cannot shoot")
    assert combat.combat_block(t.state, "foes") == ("HH.MOV.5", "it is Alice's Shooting phase")
    [offer] = combat.combat_actions(t.state, "A")
    assert (offer.type, offer.rule) == ("select", "HH.MOV.5")
    assert offer.schema["properties"]["unit"]["enum"] == ["squad"]
    assert offer.schema["properties"]["targets"]["items"]["enum"] == ["foes"]  # never a unit in reserves
    assert rules.calls == []  # no charge offered in the Shooting phase
    with pytest.raises(Malformed) as malformed:
        combat.select(t, "A", Select(unit="squad", targets=("foes",), distance=6))
    assert malformed.value.field == "distance" and t.events == []
    combat.select(t, "A", Select(unit="squad", targets=("foes",)))
    assert t.events == [("ShootingDeclared", {"unit": "squad", "seat": "A", "targets": ["foes"], "moved": "none"},
                         "HH.MOV.5")]
    squad = t.state.units["squad"]
    assert squad.selected and HeresyTurn.of(squad.turn).shot and HeresyTurn.of(squad.turn).targets == ("foes",)
    with pytest.raises(Refused) as refused:
        combat.select(t, "A", Select(unit="squad", targets=("foes",)))
    assert (refused.value.rule, str(refused.value)) == ("HH.MOV.5", "it was already selected to shoot this phase")
    assert combat.combat_actions(t.state, "A") == []  # nobody left to shoot
    assert rules.calls == []


def test_combat_alone_declares_a_charge_rolled_through_its_ruleset_and_waits_while_the_fight_goes_on():
    combat, rules, t = combat_in("assault", [unit("squad", 5), unit("locked", 5, statuses=("locked_in_combat",))],
                                 [unit("foes", 5)])
    assert combat.combat_block(t.state, "locked") == ("HH.MOV.2",
                                                      "it is Locked in Combat: a charge is a move (convention)")
    offered = combat.combat_actions(t.state, "A")
    assert [a.type for a in offered] == ["select"] and rules.calls == [("offer", "A", ["squad"])]
    rules.striking = ["foes"]
    assert combat.combat_block(t.state, "squad") == ("RS.FGT.3", "the fight goes on: foes strikes next")
    with pytest.raises(Refused):
        combat.select(t, "A", Select(unit="squad", targets=("foes",), distance=7))
    assert t.events == [] and rules.calls == [("offer", "A", ["squad"])]
    rules.striking = []
    combat.select(t, "A", Select(unit="squad", targets=("foes",), distance=7))
    [(kind, data, rule)] = t.events
    assert (kind, rule, data["targets"], data["distance"]) == ("ChargeDeclared", "HH.MOV.5", ["foes"], "7")
    assert rules.calls[1:] == [("check", "squad", ["foes"]), ("roll", "A", "squad", "foes")]  # the Assault's
    squad = t.state.units["squad"]
    assert squad.selected and HeresyTurn.of(squad.turn).charged
    assert combat.combat_block(t.state, "squad") == ("HH.MOV.5", "it was already selected to charge this phase")
