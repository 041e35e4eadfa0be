"""Reference's AttackChoices driven alone (domain/rules/parts.py), as tests/unit/test_ruleset_parts.py drives the first
parts: built with a fake of what it reads of its ruleset (`ChoiceRules`: the attack driver, a roll asked, the units
a stratagem may target), its handlers run on that file's fake table, which applies what the part emits with the
part's own appliers."""
from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from tests.support.client import unit
from tests.unit.test_reference_choices import TWO_LINES
from tests.unit.test_ruleset_parts import Table, mustered
from warlog.domain.attacks import ATTACKER, Need, Profile, Situation, Weapon, to_data
from warlog.domain.attacks.driver import need_data, standing_target
from warlog.domain.rules.reference.choices import AttackChoices
from warlog.domain.rules.reference.commands import Allocate, CommandReroll, KeepDice
from warlog.domain.rulings import Refused
from warlog.domain.state import GameState, ReferenceStep

HIT = Need("hit", 4, 6, ATTACKER, "RS.ATK.1")  # four hit dice at BS 3+


class Choosing:
    """`ChoiceRules`: the batches the driver was told are done, the rolls asked, and the units a stratagem may
    target (every unit of the seat's, unless `shocked`)."""

    def __init__(self) -> None:
        self.done: list[tuple[dict[str, Any], list[int]]] = []
        self.rolls: list[dict[str, Any]] = []
        self.shocked: set[str] = set()

    @property
    def attacks(self) -> Any:
        return self

    def batch_done(self, t: Any, context: Any, faces: list[int]) -> None:
        self.done.append((context, list(faces)))

    def request_roll(self, t: Any, seat: str, purpose: str, spec: str, rule: str, unit: str, **context: Any) -> None:
        self.rolls.append({"seat": seat, "purpose": purpose, "spec": spec, "rule": rule, "unit": unit,
                           "context": context})

    def stratagem_targets(self, state: GameState, seat: str) -> list[str]:
        return [uid for uid, u in state.units.items() if u.owner == seat and uid not in self.shocked]


def shooting(cp: int) -> tuple[AttackChoices, Choosing, Table, dict[str, Any]]:
    """A's Shooting phase with `cp` CP each, and the context of `shooters`' attack on `squad` (4 Troopers, 2 Gunners)."""
    state = mustered("reference", [unit("shooters", 4)], [unit("squad", 6, models=TWO_LINES)])
    state = replace(state, status="in_progress", battle_round=1, phase="shooting", active_seat="A",
                    step=ReferenceStep(), cp={"A": cp, "B": cp})
    profile = Profile(Weapon.of("Bolter", A=1, skill=3, S=4), standing_target(state.units, ["squad"]),
                      Situation(models=4))
    context = {"attack": {"attacker": "shooters", "target": "squad", "weapon": "Bolter"},
               "profile": to_data(profile), "batches": [], "decided": 0, "faces": []}
    rules = Choosing()
    choices = AttackChoices(rules)
    return choices, rules, Table(state, choices), context


def test_a_failed_hit_pauses_for_a_command_reroll_then_keeping_the_dice_goes_on_with_the_batch():
    choices, rules, t, context = shooting(cp=1)
    choices.batch_rolled(t, context, HIT, [6, 2, 5, 1])
    [(kind, offer, rule)] = t.events
    assert (kind, rule, offer["seat"], offer["choices"], rules.done) == ("CommandRerollOffered", "EXT.CP.1", "A",
                                                                         [1, 3], [])
    assert choices.pause_awaiting(t.state) == {"seat": "A", "action": "command_reroll", "unit": "shooters",
                                               "choice": {"step": "hit", "batch": [6, 2, 5, 1], "choices": [1, 3]}}
    assert [a.type for a in choices.pause_actions(t.state, "A")] == ["command_reroll", "keep_dice"]
    assert choices.pause_actions(t.state, "B") == []
    with pytest.raises(Refused, match="Alice chooses here"):
        choices.keep_dice(t, "B", KeepDice())
    with pytest.raises(Refused, match="die 0 is no roll"):
        choices.command_reroll(t, "A", CommandReroll(die=0))  # a hit: nothing to re-roll
    choices.keep_dice(t, "A", KeepDice())
    assert t.events[-1][:2] == ("AttackRollKept", {**context["attack"], "step": "hit", "seat": "A",
                                                   "batch": [6, 2, 5, 1]})
    assert rules.done == [(context, [6, 2, 5, 1])] and choices.attack_pause(t.state) is None


def test_a_command_reroll_spends_the_cp_and_asks_the_die_again_and_none_is_offered_without_cp_or_when_shocked():
    choices, rules, t, context = shooting(cp=1)
    choices.batch_rolled(t, context, HIT, [6, 2, 5, 1])
    choices.command_reroll(t, "A", CommandReroll(die=3))
    kind, used, _ = t.events[-1]
    assert (kind, used["cp_left"], used["roll"]) == ("StratagemUsed", 0, {"step": "hit", "die": 3, "was": [1]})
    [roll] = rules.rolls
    assert (roll["seat"], roll["purpose"], roll["spec"], roll["rule"]) == ("A", "hit", "D6", "CORE.DICE.2")
    assert roll["context"]["attack_reroll"] == {"die": 3, "batch": [6, 2, 5, 1], "need": need_data(HIT),
                                                "attack_roll": context}
    for cp, shocked in ((0, set()), (1, {"shooters"})):
        choices, rules, t, context = shooting(cp)
        rules.shocked = shocked
        choices.batch_rolled(t, context, HIT, [6, 2, 5, 1])
        assert t.events == [] and rules.done == [(context, [6, 2, 5, 1])]  # no pause: the attack goes on


def test_the_defender_picks_one_of_the_tied_groups_and_the_pick_goes_in_as_its_batch():
    choices, rules, t, context = shooting(cp=0)
    t.emit("AllocationOffered", {**context["attack"], "kind": "allocate", "seat": "B", "unit": "squad",
                                 "step": "allocate", "choices": [{"line": 0, "model": "Trooper"},
                                                                 {"line": 1, "model": "Gunner"}],
                                 "need": need_data(Need("allocate", 1, 2, "defender", "RS.ATK.3")),
                                 "attack_roll": context}, "RS.ATK.3")
    awaited = choices.pause_awaiting(t.state)
    assert awaited is not None and (awaited["seat"], awaited["action"]) == ("B", "allocate")
    [offer] = choices.pause_actions(t.state, "B")
    assert offer.type == "allocate"
    assert offer.schema["properties"]["line"]["oneOf"] == [{"const": 0, "title": "Trooper (4 of 4)"},
                                                           {"const": 1, "title": "Gunner (2 of 2)"}]
    with pytest.raises(Refused, match="line 2 is not one of"):
        choices.allocate(t, "B", Allocate(line=2))
    choices.allocate(t, "B", Allocate(line=1))
    assert t.events[-1][:2] == ("AllocationChosen", {**context["attack"], "seat": "B", "line": 1, "model": "Gunner"})
    assert rules.done == [(context, [2])] and choices.attack_pause(t.state) is None
