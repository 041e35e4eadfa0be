"""Mortal wounds outside an attack (a Desperate Escape's hazards, RS.MOV.4; a HAZARDOUS weapon's 3 mortal wounds,
EXT.WPN.HAZARDOUS), and the Feel No Pain that stands against each of them (EXT.FNP).

EXT.FNP: each time a model would lose a wound, mortal wounds included, its unit's FEEL NO PAIN X+ is rolled: a D6
a mortal wound, each X or more not lost. Inside an attack the attack module rolls it (`attacks/sequence.py`);
outside one the unit's player rolls one D6 a mortal wound, however many (`FEEL_NO_PAIN`, in rolls of at most 50),
the wounds go model by model in RS.ATK.3's order (an attached unit's bodyguard before its leader, `allot`), each met
by the Feel No Pain of the model it would be lost by; `MortalWoundsIgnored` says how many are not lost, and the
rest is dealt unit by unit (`Shooting.damage`); what waits for the wounds (a Desperate Escape's battle-shock roll)
follows (`after_mortal_wounds`). The roll is read die by die, each against the Feel No Pain of the model that
wound would be lost by (`fnp_apart`), in the roll's event and in `MortalWoundsIgnored`. A game created before the
fixes (rules/editions.py: EXT.FNP, EXT.FNP/every, RS.MOV.4, EXT.FNP/read) is judged and read as it was.

`MortalWounds` is a part of `Reference` (rules/parts.py): a Desperate Escape (the part `Movement`) deals its
wounds through the ruleset to it, and `Reference` asks it first when an attack finishes and when a hazard is
suffered, and hands it the Feel No Pain roll it asked for.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from warlog.domain import dice, rolls
from warlog.domain import events as ev
from warlog.domain.attacks import Outcome, Standing, Target, feel_no_pain, lose_wounds, next_group
from warlog.domain.attacks.allocation import Wounds
from warlog.domain.attacks.driver import fnp_apart, standing_target
from warlog.domain.rules import editions
from warlog.domain.rules.reference import events as own
from warlog.domain.rules.ruleset import Part, alive
from warlog.domain.state import GameState
from warlog.domain.words import plural

if TYPE_CHECKING:
    from warlog.domain.game import Table

FEEL_NO_PAIN = "feel_no_pain_mortal"  # the roll's purpose: Feel No Pain against mortal wounds outside an attack


def allot(target: Target, amount: int, faces: Sequence[int]) -> tuple[list[int], list[rolls.Outcome]]:
    """RS.ATK.3 and EXT.FNP: `amount` mortal wounds, one by one, each to the model next in allocation order (a
    wounded one first, a CHARACTER's last: the bodyguard before its leader), each met by the next of `faces` where
    that model has Feel No Pain. The wounds each model line loses, and what each die did."""
    standing = Standing.of(target)
    lost = [0] * len(target.lines)
    outcomes: list[rolls.Outcome] = ["unused"] * len(faces)
    used = 0
    for _ in range(amount):
        line = next_group(target, standing)
        if line is None:
            break
        standing, wounds, _, rolled = lose_wounds(target, standing, line, 1, faces[used:], spill=True)
        if rolled:
            outcomes[used] = "fail" if wounds else "success"
            used += 1
        lost[line] += wounds
    return lost, outcomes


def _standing(t: Table, party: list[str], uid: str) -> str:
    """The unit the wounds leave to test (`after_mortal_wounds`): the first of the party standing, else `uid`."""
    return next((member for member in party if alive(t.state.units[member])), uid)


def fnp_reading(needed: int) -> rolls.Reading:
    """EXT.FNP: each die of X or more is a wound not lost."""
    return rolls.Reading("Feel No Pain", needed, each=True, noun="ignored wound", ones_fail=False)


class MortalRules(Protocol):
    """What mortal wounds ask of their ruleset: a roll (Feel No Pain), the damage dealt (`Shooting.damage`) and
    what waited for the wounds (`Movement.after_mortal_wounds`)."""

    def request_roll(self, t: Table, seat: str, purpose: str, spec: str, rule: str, unit: str,
                     **context: object) -> None:
        """A roll the rules call for, for `unit`: rolled now with server dice, else awaited from `seat`."""

    def damage(self, t: Table, attack: Mapping[str, str], amounts: list[int], mortal: bool = False,
               rule: str = "RS.ATK.4") -> None:
        """The damage dealt to `attack["target"]`, model by model (RS.ATK.3, RS.ATK.4)."""

    def after_mortal_wounds(self, t: Table, uid: str, then: dict[str, object]) -> None:
        """What waited for the mortal wounds (`then`, as `mortal_wounds` was given it), on the unit left to test."""


class MortalWounds(Part[MortalRules]):
    """A part of `Reference`: mortal wounds dealt outside an attack, Feel No Pain first."""

    def mortal_wounds(self, t: Table, uid: str, amount: int, rule: str, party: list[str] | None = None,
                      **then: object) -> None:
        """`amount` mortal wounds on `uid` by `rule`, or on `party` (a Desperate Escape's attached unit); the Feel
        No Pain of each model a wound would be lost by is rolled first (EXT.FNP), one die a wound, then the wounds
        not ignored are lost; `then` is what follows (`after_mortal_wounds`)."""
        if not editions.fixed(t.state, "EXT.FNP/every"):
            self._mortal_wounds_before(t, uid, amount, rule, then)
            return
        party = party or [uid]
        fnp = {line.fnp for line in standing_target(t.state.units, party).lines if line.count and line.fnp}
        if amount > 0 and fnp:
            self.rules.request_roll(t, t.state.units[uid].owner, FEEL_NO_PAIN, f"{min(amount, dice.MAX_DICE)}D6",
                              "EXT.FNP", uid, mortal_wounds=amount, fnp=fnp.pop() if len(fnp) == 1 else None,
                              cause=rule, then=then, party=party, faces=[])
            return
        lost, _ = allot(standing_target(t.state.units, party), amount, [])
        self._lose(t, party, lost, rule)
        self.rules.after_mortal_wounds(t, _standing(t, party, uid), then)

    def _mortal_wounds_before(self, t: Table, uid: str, amount: int, rule: str, then: dict[str, object]) -> None:
        """A game created before the fix (rules/editions.py, EXT.FNP/every): the named unit's own Feel No Pain, at
        most 50 dice."""
        fnp = feel_no_pain(t.state.units[uid].abilities)
        if amount > 0 and fnp is not None and editions.fixed(t.state, "EXT.FNP"):
            self.rules.request_roll(t, t.state.units[uid].owner, FEEL_NO_PAIN, f"{min(amount, dice.MAX_DICE)}D6",
                              "EXT.FNP", uid, mortal_wounds=amount, fnp=fnp, cause=rule, then=then)
            return
        if amount > 0:
            self.rules.damage(t, {"target": uid}, [amount], mortal=True, rule=rule)
        self.rules.after_mortal_wounds(t, uid, then)

    def fnp_mortal_rolled(self, t: Table, request: ev.RollRequested, roll: ev.DiceRolled) -> None:
        """EXT.FNP: each die of X or more stops one mortal wound; the rest are lost (RS.ATK.3's order). One die a
        wound: with more than 50 wounds, the rest's dice are asked next, and the wounds wait for all of them."""
        uid, context = request["unit"], request["context"]
        amount, needed, cause = context["mortal_wounds"], context["fnp"], context["cause"]
        if "party" not in context:  # asked before the fix (EXT.FNP/every): the unit's own dice, all read
            ignored = sum(1 for face in roll["faces"] if face >= needed)
            t.emit("MortalWoundsIgnored", own.MortalWoundsIgnored(
                unit=uid, mortal_wounds=amount, ignored=ignored, lost=amount - ignored, cause=cause,
                **rolls.read(roll["faces"], request["spec"], fnp_reading(needed))), "EXT.FNP")
            if amount > ignored:
                self.rules.damage(t, {"target": uid}, [amount - ignored], mortal=True, rule=cause)
            self.rules.after_mortal_wounds(t, uid, dict(context["then"]))
            return
        faces = [*context["faces"], *roll["faces"]]
        if len(faces) < amount:
            self.rules.request_roll(t, request["seat"], FEEL_NO_PAIN, f"{min(amount - len(faces), dice.MAX_DICE)}D6",
                              "EXT.FNP", uid, **{**context, "faces": faces})
            return
        party = list(context["party"])
        lost, outcomes = allot(standing_target(t.state.units, party), amount, faces)
        unused = [i for i, outcome in enumerate(outcomes) if outcome == "unused"]
        ignored = outcomes.count("success")
        if editions.fixed(t.state, "EXT.FNP/read"):  # every die as the roll's own event read it (`fnp_apart`)
            said = rolls.read(faces, f"{len(faces)}D6", self.fnp_apart(t.state, request, before=()))
        elif needed is not None:
            said = rolls.read(faces, f"{len(faces)}D6", fnp_reading(needed), unused=unused)
        else:
            said = rolls.Read(needed=None, outcomes=list(outcomes), successes=ignored,
                              text=f"Feel No Pain: {plural(ignored, 'ignored wound')} of {len(faces) - len(unused)}, "
                                   "each model at its own")
        t.emit("MortalWoundsIgnored", own.MortalWoundsIgnored(
            unit=uid, mortal_wounds=amount, ignored=ignored, lost=amount - ignored, cause=cause, **said), "EXT.FNP")
        self._lose(t, party, lost, cause)
        self.rules.after_mortal_wounds(t, _standing(t, party, uid), dict(context["then"]))

    @staticmethod
    def fnp_apart(state: GameState, request: ev.RollRequested, before: Sequence[int] | None = None) -> rolls.Reading:
        """EXT.FNP (rules/editions.py, EXT.FNP/read): the roll `request` asked for, each die read against the Feel
        No Pain of the model of the party that would lose that wound, in RS.ATK.3's order (`allot`'s, as the attack
        module reads it: `driver.fnp_apart`); `before`, the faces read before it (by default the dice of its
        earlier rolls, past 50)."""
        context = request["context"]
        party = list(context["party"])
        target = standing_target(state.units, party)
        wounds = Wounds(Standing.of(target), None, (context["mortal_wounds"],))
        return fnp_apart(state, party, target, wounds, request["unit"], context["faces"] if before is None else before)

    def _lose(self, t: Table, party: list[str], lost: list[int], rule: str) -> None:
        """The wounds each model line of the party loses (`allot`), dealt unit by unit as mortal wounds."""
        position = 0
        for member in party:
            lines = len(t.state.units[member].models)
            amount = sum(lost[position:position + lines])
            position += lines
            if amount:
                self.rules.damage(t, {"target": member}, [amount], mortal=True, rule=rule)

    def attack_finished(self, t: Table, context: ev.AttackRoll, outcome: Outcome) -> bool:
        """EXT.WPN.HAZARDOUS: a CHARACTER, MONSTER or VEHICLE's 3 mortal wounds meet its Feel No Pain (EXT.FNP):
        True when they were dealt here, and nothing else follows the attack (`Reference.attack_finished`)."""
        hazard = outcome.hazardous
        return hazard is not None and self.hazard_suffered(t, context["attack"]["attacker"], hazard.facts)

    def hazard_suffered(self, t: Table, uid: str, facts: Mapping[str, Any]) -> bool:
        """True when the hazard's mortal wounds meet Feel No Pain and were dealt here; else the ruleset deals
        the hazard as `Shooting` does (`Reference.hazard_suffered`)."""
        if self.hazard_meets_fnp(t, facts):
            self.mortal_wounds(t, uid, facts["mortal_wounds"], "EXT.WPN.HAZARDOUS")
            return True
        return False

    @staticmethod
    def hazard_meets_fnp(t: Table, facts: Mapping[str, Any]) -> bool:
        return bool(not facts["models_destroyed"] and facts["mortal_wounds"] and editions.fixed(t.state, "EXT.FNP"))
