"""From the state's typed units and weapons (`domain/state/units.py`: the contract's Unit as mustered) to a
`Profile`.

The rules hold units as the state's `Unit` values; these helpers are the one place that reads them into the attack
module's values, so the rules and analytics read them alike.
"""
from __future__ import annotations

from collections.abc import Sequence

from warlog.domain.attacks.abilities import effects, parse_keywords
from warlog.domain.attacks.profile import ModelLine, Profile, Situation, Target, Weapon
from warlog.domain.state import Unit
from warlog.domain.state import Weapon as UnitWeapon


def weapon_from(weapon: UnitWeapon, unit: Unit | None = None) -> Weapon:
    """A contract weapon; a missing skill falls back to the first model's BS (ranged) or WS (melee)."""
    melee = weapon.type == "melee"
    line = unit.models[0] if unit is not None else None
    skill = weapon.skill or (None if line is None else line.WS if melee else line.BS) or 4
    return Weapon.of(weapon.name, A=weapon.A, skill=skill, S=weapon.S or 4, AP=weapon.AP or 0, D=weapon.D,
                     keywords=weapon.keywords, melee=melee)


def feel_no_pain(abilities: Sequence[str]) -> int | None:
    """EXT.FNP: the best FEEL NO PAIN X+ among a unit's abilities, if any."""
    found = [v for _, v in effects(parse_keywords(abilities), "feel_no_pain", None)]  # type: ignore[arg-type]
    return min(found) if found else None


def target_from(units: Sequence[Unit], alive: Sequence[Sequence[int]] | None = None,
                wounds_taken: Sequence[Sequence[int]] | None = None, order: Sequence[int] | None = None) -> Target:
    """The target unit: a bodyguard unit and the leader(s) attached to it, each model line one ModelLine.

    `alive[u][i]` / `wounds_taken[u][i]` give models alive and the wounded model's lost wounds for line i
    of unit u (default: the mustered counts, unwounded). A unit's keywords and FEEL NO PAIN apply to its
    lines; VEHICLE hull points count as W.
    """
    lines = []
    for u, unit in enumerate(units):
        keywords = frozenset(k.upper() for k in unit.keywords)
        fnp = feel_no_pain(unit.abilities)
        for i, model in enumerate(unit.models):
            lines.append(ModelLine(
                model.name, alive[u][i] if alive else model.count, W=model.wounds, T=model.T or 4, Sv=model.Sv,
                InSv=model.InSv, fnp=fnp, keywords=keywords, wounds_taken=wounds_taken[u][i] if wounds_taken else 0))
    return Target(tuple(lines), frozenset().union(*(line.keywords for line in lines)),
                  order=tuple(order) if order is not None else None)


def profile_from(weapon: UnitWeapon, attacker: Unit, targets: Sequence[Unit], situation: Situation,
                 alive: Sequence[Sequence[int]] | None = None, wounds_taken: Sequence[Sequence[int]] | None = None,
                 order: Sequence[int] | None = None) -> Profile:
    return Profile(weapon_from(weapon, attacker), target_from(targets, alive, wounds_taken, order), situation)
