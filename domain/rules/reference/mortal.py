"""Mortal wounds outside an attack (a Desperate Escape's hazards, RS.MOV.4; a HAZARDOUS weapon's 3 mortal wounds,
EXT.WPN.HAZARDOUS), and the Feel No Pain that stands against each of them (EXT.FNP).

EXT.FNP: each time a model would lose a wound, mortal wounds included, its unit's FEEL NO PAIN X+ is rolled: a D6
a mortal wound, each X or more not lost. Inside an attack the attack module rolls it (`attacks/sequence.py`);
outside one the unit's player rolls one D6 a mortal wound (`FEEL_NO_PAIN`), `MortalWoundsIgnored` says how many
are not lost, and the rest is dealt (`Shooting.damage`); what waits for the wounds (a Desperate Escape's
battle-shock roll) follows (`after_mortal_wounds`). A game created before the fix (rules/editions.py) loses them
all, as it did.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from warlog.domain import dice, rolls
from warlog.domain import events as ev
from warlog.domain.attacks import Outcome, feel_no_pain
from warlog.domain.rules import editions
from warlog.domain.rules.reference import events as own
from warlog.domain.rules.reference.shooting import Shooting

if TYPE_CHECKING:
    from warlog.domain.game import Table

FEEL_NO_PAIN = "feel_no_pain_mortal"  # the roll's purpose: Feel No Pain against mortal wounds outside an attack


def fnp_reading(needed: int) -> rolls.Reading:
    """EXT.FNP: each die of X or more is a wound not lost."""
    return rolls.Reading("Feel No Pain", needed, each=True, noun="ignored wound", ones_fail=False)


class MortalWounds(Shooting):
    """Mixed into `Reference` (under `Movement`): mortal wounds dealt outside an attack, Feel No Pain first."""

    def mortal_wounds(self, t: Table, uid: str, amount: int, rule: str, **then: object) -> None:
        """`amount` mortal wounds on `uid` by `rule`; its Feel No Pain is rolled first where it has one (EXT.FNP),
        then the wounds not ignored are lost; `then` is what follows (`after_mortal_wounds`)."""
        fnp = feel_no_pain(t.state.units[uid].abilities)
        if amount > 0 and fnp is not None and editions.fixed(t.state, "EXT.FNP"):
            self.request_roll(t, t.state.units[uid].owner, FEEL_NO_PAIN, f"{min(amount, dice.MAX_DICE)}D6",
                              "EXT.FNP", uid, mortal_wounds=amount, fnp=fnp, cause=rule, then=then)
            return
        if amount > 0:
            self.damage(t, {"target": uid}, [amount], mortal=True, rule=rule)
        self.after_mortal_wounds(t, uid, then)

    def fnp_mortal_rolled(self, t: Table, request: ev.RollRequested, roll: ev.DiceRolled) -> None:
        """EXT.FNP: each die of X or more stops one mortal wound; the rest are lost (RS.ATK.3's order)."""
        uid, context = request["unit"], request["context"]
        amount, needed = context["mortal_wounds"], context["fnp"]
        ignored = sum(1 for face in roll["faces"] if face >= needed)
        t.emit("MortalWoundsIgnored", own.MortalWoundsIgnored(
            unit=uid, mortal_wounds=amount, ignored=ignored, lost=amount - ignored, cause=context["cause"],
            **rolls.read(roll["faces"], request["spec"], fnp_reading(needed))), "EXT.FNP")
        if amount > ignored:
            self.damage(t, {"target": uid}, [amount - ignored], mortal=True, rule=context["cause"])
        self.after_mortal_wounds(t, uid, dict(context["then"]))

    def after_mortal_wounds(self, t: Table, uid: str, then: dict[str, object]) -> None:
        """Hook: what waited for the mortal wounds (a Desperate Escape's battle-shock roll, `Movement`)."""

    def attack_finished(self, t: Table, context: ev.AttackRoll, outcome: Outcome) -> None:
        """EXT.WPN.HAZARDOUS: a CHARACTER, MONSTER or VEHICLE's 3 mortal wounds meet its Feel No Pain (EXT.FNP)."""
        hazard = outcome.hazardous
        if hazard is not None and self.hazard_meets_fnp(t, hazard.facts):
            self.hazard_suffered(t, context["attack"]["attacker"], hazard.facts)
            return
        super().attack_finished(t, context, outcome)

    def hazard_suffered(self, t: Table, uid: str, facts: Mapping[str, Any]) -> None:
        if self.hazard_meets_fnp(t, facts):
            self.mortal_wounds(t, uid, facts["mortal_wounds"], "EXT.WPN.HAZARDOUS")
            return
        super().hazard_suffered(t, uid, facts)

    @staticmethod
    def hazard_meets_fnp(t: Table, facts: Mapping[str, Any]) -> bool:
        return bool(not facts["models_destroyed"] and facts["mortal_wounds"] and editions.fixed(t.state, "EXT.FNP"))
