"""The attack driver (domain/attacks/driver.py) is a part a ruleset holds, testable alone: driven here by a fake
of `AttackRules` (dice from a list, casualties and outcomes kept) on a fake table (events kept, never applied), no
ruleset class at all. One attack with fixed dice: what it asks for, the events it makes, the casualties it
records and the outcome it hands to `attack_finished`."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import pytest

from tests.support.client import unit
from warlog.domain import dice
from warlog.domain.attacks import Need, Outcome, Profile, Situation, Weapon, to_data
from warlog.domain.attacks.driver import AttackDriver, standing_target
from warlog.domain.rules import editions
from warlog.domain.state import ReferenceTurn, Unit

SHOOTERS = Unit.mustered("A", unit("shooters", 4), ReferenceTurn)
SQUAD = Unit.mustered("B", unit("squad", 5), ReferenceTurn)  # five W1 T4 Sv4+ models, one line


@dataclass
class FakeTable:
    """What the driver reads of a table: `state.units` (and the edition `wounded_note` reads) and `emit`."""

    units: dict[str, Unit]
    events: list[tuple[str, dict[str, Any], str]] = field(default_factory=list)

    @property
    def state(self) -> SimpleNamespace:
        return SimpleNamespace(units=self.units, edition=editions.CURRENT)

    def emit(self, kind: str, data: Mapping[str, Any], rule: str, by: str | None = None) -> None:
        self.events.append((kind, dict(data), rule))

    def event(self, kind: str) -> dict[str, Any]:
        [data] = [data for emitted, data, _ in self.events if emitted == kind]
        return data


class FakeRules:
    """The four hooks `AttackRules` names and nothing else: server dice from `faces`, in order."""

    def __init__(self, faces: list[int]) -> None:
        self.faces = faces
        self.asked: list[tuple[str, str, str, str, str]] = []
        self.lost: list[tuple[Any, ...]] = []
        self.finished: list[Outcome] = []
        self.driver = AttackDriver(self)

    def request_roll(self, t: Any, seat: str, purpose: str, spec: str, rule: str, unit: str,
                     **context: Any) -> None:
        count = dice.parse(spec).count
        faces, self.faces = self.faces[:count], self.faces[count:]
        self.asked.append((seat, purpose, spec, rule, unit))
        request = {"seat": seat, "purpose": purpose, "spec": spec, "rule": rule, "unit": unit, "context": context}
        self.driver.attack_rolled(t, request, {"faces": faces})

    def casualties(self, t: Any, uid: str, models: int, wounds: int, rule: str, **extra: Any) -> None:
        self.lost.append((uid, models, wounds, rule, extra))

    @staticmethod
    def attack_party(units: Mapping[str, Unit], uid: str) -> list[str]:
        return [uid]

    def attack_finished(self, t: Any, context: Any, outcome: Outcome) -> None:
        self.finished.append(outcome)


def declare(rules: FakeRules, table: FakeTable, models: int = 4) -> None:
    """`shooters` fire a BS3+ S4 AP0 D1 weapon, one shot a model, at `squad`."""
    profile = Profile(Weapon.of("Bolter", A=1, skill=3, S=4), standing_target(table.units, ["squad"]),
                      Situation(models=models))
    rules.driver.declare_attack(table, {"attacker": "shooters", "target": "squad", "weapon": "Bolter",
                                        "models": models, "phase": "shooting", "profile": to_data(profile)}, "RS.SHO.2")


def test_one_attack_with_fixed_dice_goes_from_its_declaration_to_its_outcome_through_the_fakes_alone():
    table = FakeTable({"shooters": SHOOTERS, "squad": SQUAD})
    rules = FakeRules([6, 5, 3, 2,  # hits on 3+: three
                       4, 6, 1,  # wounds S4 against T4 on 4+: two
                       2, 1])  # saves 4+: none
    declare(rules, table)
    assert rules.asked == [("A", "hit", "4D6", "RS.ATK.1", "shooters"), ("A", "wound", "3D6", "RS.ATK.2", "shooters"),
                           ("B", "save", "2D6", "RS.ATK.3", "squad")]  # the defender rolls its own saves
    assert [(kind, rule) for kind, _, rule in table.events] == [
        ("AttackDeclared", "RS.SHO.2"), ("AttacksRolled", "RS.SHO.2"), ("HitsScored", "RS.ATK.1"),
        ("WoundsScored", "RS.ATK.2"), ("SavesRolled", "RS.ATK.3"), ("DamageInflicted", "RS.ATK.4"),
        ("AttackResolved", "RS.ATK.4")]
    assert table.event("HitsScored")["text"] == "Hit roll: 3 hits of 4 at 3+, 1 of them critical"
    assert table.event("WoundsScored")["text"] == "Wound roll: 2 wounds of 3 at 4+, 1 of them critical"
    assert (table.event("SavesRolled")["failed"], table.event("DamageInflicted")["models_destroyed"]) == (2, 2)
    resolved = table.event("AttackResolved")
    assert {key: resolved[key] for key in ("hits", "wounds", "failed_saves", "wounds_lost", "models_destroyed")} == \
        {"hits": 3, "wounds": 2, "failed_saves": 2, "wounds_lost": 2, "models_destroyed": 2}
    assert resolved["lines"] == {"squad": {"alive": [3], "taken": [0]}}
    assert rules.lost == [("squad", 2, 2, "RS.ATK.4", {"wounds_lost": 0})]
    [outcome] = rules.finished
    assert (outcome.hits, outcome.wounds, outcome.models_destroyed, outcome.standing.alive) == (3, 2, 2, (3,))
    assert rules.faces == []  # every die given was asked for, none more


def test_what_a_ruleset_adds_is_given_to_the_driver_a_pause_between_batches_and_the_outcomes_fields():
    table = FakeTable({"shooters": SHOOTERS, "squad": SQUAD})
    rules = FakeRules([6, 6, 4, 3, 3])
    paused: list[tuple[str, list[int]]] = []

    def batch_rolled(t: Any, context: Any, need: Need, faces: list[int]) -> None:
        paused.append((need.step, faces))
        rules.driver.batch_done(t, context, faces)  # the choice made: the attack goes on with the batch

    rules.driver = AttackDriver(rules, resolved_fields=("hits", "models_destroyed"), batch_rolled=batch_rolled,
                                resolved_extra=lambda profile, outcome: {"weapon_S": profile.weapon.S})
    declare(rules, table, models=2)
    assert paused == [("hit", [6, 6]), ("wound", [4, 3]), ("save", [3])]
    assert table.event("AttackResolved") == {"attacker": "shooters", "target": "squad", "weapon": "Bolter", "hits": 2,
                                             "models_destroyed": 1, "lines": {"squad": {"alive": [4], "taken": [0]}},
                                             "weapon_S": 4}


def test_a_hazardous_roll_after_the_last_target_costs_what_the_rulesets_hook_says_and_needs_one():
    table = FakeTable({"shooters": SHOOTERS, "squad": SQUAD})
    rules = FakeRules([1, 4, 1])
    suffered: list[tuple[str, Mapping[str, Any]]] = []
    rules.driver = AttackDriver(rules, hazard_suffered=lambda t, uid, facts: suffered.append((uid, facts)))
    rules.driver.weapon_hazard(table, {"attacker": "shooters", "target": "squad", "weapon": "Bolter"}, 3)
    assert rules.asked == [("A", "hazardous", "3D6", "EXT.WPN.HAZARDOUS", "shooters")]
    assert [(uid, facts["models_destroyed"]) for uid, facts in suffered] == [("shooters", 2)]
    rules = FakeRules([1])
    with pytest.raises(NotImplementedError, match="FakeRules rolls no HAZARDOUS weapon"):
        rules.driver.weapon_hazard(table, {"attacker": "shooters", "target": "squad", "weapon": "Bolter"}, 1)
