"""From the contract's JSON shapes (a unit as mustered, its weapons) to a `Profile`.

The rules hold units as the contract's dicts (`domain/army.py`); these helpers are the one place
that reads them into the attack module's values, so the rules and analytics read them alike.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from warlog.domain.army import model_wounds
from warlog.domain.attacks.abilities import effects, parse_keywords
from warlog.domain.attacks.profile import ModelLine, Profile, Situation, Target, Weapon


def weapon_from(weapon: Mapping[str, Any], unit: Mapping[str, Any] | None = None) -> Weapon:
    """A contract weapon; a missing skill falls back to the first model's BS (ranged) or WS (melee)."""
    melee = weapon.get("type") == "melee"
    line = (unit or {}).get("models", [{}])[0]
    skill = weapon.get("skill") or line.get("WS" if melee else "BS") or 4
    return Weapon.of(weapon["name"], A=weapon.get("A", "1"), skill=skill, S=weapon.get("S") or 4,
                     AP=weapon.get("AP") or 0, D=weapon.get("D", "1"), keywords=weapon.get("keywords", []),
                     melee=melee)


def feel_no_pain(abilities: Sequence[str]) -> int | None:
    """EXT.FNP: the best FEEL NO PAIN X+ among a unit's abilities, if any."""
    found = [v for _, v in effects(parse_keywords(abilities), "feel_no_pain", None)]  # type: ignore[arg-type]
    return min(found) if found else None


def target_from(units: Sequence[Mapping[str, Any]], alive: Sequence[Sequence[int]] | None = None,
                wounds_taken: Sequence[Sequence[int]] | None = None, order: Sequence[int] | None = None) -> Target:
    """The target unit: a bodyguard unit and the leader(s) attached to it, each model line one ModelLine.

    `alive[u][i]` / `wounds_taken[u][i]` give models alive and the wounded model's lost wounds for line i
    of unit u (default: the mustered counts, unwounded). A unit's keywords and FEEL NO PAIN apply to its
    lines; VEHICLE hull points count as W.
    """
    lines = []
    for u, unit in enumerate(units):
        keywords = frozenset(k.upper() for k in unit.get("keywords", []))
        fnp = feel_no_pain(unit.get("abilities", []))
        for i, model in enumerate(unit["models"]):
            lines.append(ModelLine(
                model["name"], alive[u][i] if alive else model.get("count", 1),
                W=model_wounds(model), T=model.get("T") or 4, Sv=model.get("Sv"),
                InSv=model.get("InSv"), fnp=fnp, keywords=keywords,
                wounds_taken=wounds_taken[u][i] if wounds_taken else 0))
    return Target(tuple(lines), frozenset().union(*(line.keywords for line in lines)),
                  order=tuple(order) if order is not None else None)


def profile_from(weapon: Mapping[str, Any], attacker: Mapping[str, Any], targets: Sequence[Mapping[str, Any]],
                 situation: Situation, **target_state: Any) -> Profile:
    return Profile(weapon_from(weapon, attacker), target_from(targets, **target_state), situation)
