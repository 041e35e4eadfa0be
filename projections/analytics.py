"""Luck and tempo: what the dice and the goes of one game (or of many) add up to.

For each seat and roll purpose the observed faces are set against the exact
distribution of their total. `p_at_least_this_good` is the probability that
fair dice give a total at least this good; `luck_percentile` is the mid-p
percentile (100 × (P(worse) + P(equal) / 2)): 50 is average luck, above 50
luckier. "Good" is high for most rolls and low for Leadership tests passed on
2D6 ≤ Ld (AA.MOV.2 regroup, HH.ROUT.3).

The total of n dice with s sides is counted exactly by inclusion–exclusion,
    #(sum of faces − n ≤ u) = Σ_k (−1)^k C(n, k) C(u − k·s + n, n),
in whole numbers. That costs about n²/s big-number steps, so past
`EXACT_DICE_LIMIT` dice in one group the normal approximation (with continuity
correction, already well under 0.1 percentile points off there) is used and
`method` says so.
"""
from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from fractions import Fraction
from functools import lru_cache
from typing import Any

EXACT_DICE_LIMIT = 1000
LOW_IS_GOOD_PURPOSES = frozenset({"regroup", "leadership", "rout", "leadership_test"})
LOW_IS_GOOD_RULES = frozenset({"AA.MOV.2", "HH.ROUT.3"})


def rolls(n: int, sides: int) -> int:
    """sides**n, the equally likely rolls of n dice (an int: typeshed types int ** int as Any, since a negative
    power is a float)."""
    return int(sides ** n)


@lru_cache(maxsize=4096)
def outcomes_at_most(n: int, sides: int, total: int) -> int:
    """How many of the sides**n equally likely rolls of n dice total at most `total` (exact)."""
    u = total - n
    if u < 0:
        return 0
    top = n * (sides - 1)
    if u >= top:
        return rolls(n, sides)
    if u > top // 2:  # fewer terms from the other end: sum' = n(s+1) - sum
        return rolls(n, sides) - outcomes_at_most(n, sides, n * (sides + 1) - total - 1)
    return sum((-1) ** k * math.comb(n, k) * math.comb(u - k * sides + n, n) for k in range(u // sides + 1))


def _normal_at_most(n: int, sides: int, total: int) -> float:
    mean = n * (sides + 1) / 2
    sd = math.sqrt(n * (sides * sides - 1) / 12)
    return 0.5 * (1 + math.erf((total + 0.5 - mean) / (sd * math.sqrt(2))))


def luck(n: int, sides: int, total: int, low_is_good: bool) -> dict[str, Any]:
    """P(a total at least this good) and the mid-p luck percentile for n fair dice."""
    if n == 0:
        return {"p_at_least_this_good": None, "luck_percentile": None, "method": None}
    below: Fraction | float
    at_most: Fraction | float
    if n <= EXACT_DICE_LIMIT:
        space = rolls(n, sides)
        below = Fraction(outcomes_at_most(n, sides, total - 1), space)
        at_most = Fraction(outcomes_at_most(n, sides, total), space)
        method = "exact"
    else:
        below, at_most = _normal_at_most(n, sides, total - 1), _normal_at_most(n, sides, total)
        method = "normal approximation"
    equal = at_most - below
    above = 1 - at_most
    worse, at_least_as_good = (above, at_most) if low_is_good else (below, 1 - below)
    return {"p_at_least_this_good": round(float(at_least_as_good), 6),
            "luck_percentile": round(float(100 * (worse + equal / 2)), 2), "method": method}


def low_is_good(purpose: str, rules: Iterable[str | None]) -> bool:
    return purpose in LOW_IS_GOOD_PURPOSES or any(rule in LOW_IS_GOOD_RULES for rule in rules)


def dice_summary(dice: Iterable[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """seat -> purpose -> observed faces against the exact distribution (standing dice only)."""
    groups: dict[tuple[str, str, int], list[dict[str, Any]]] = defaultdict(list)
    for die in dice:
        groups[(die["seat"] or "-", die["purpose"], die["sides"])].append(die)
    by_sides = Counter((seat, purpose) for seat, purpose, _ in groups)
    summary: dict[str, dict[str, Any]] = defaultdict(dict)
    for (seat, purpose, sides), rows in sorted(groups.items()):
        standing = [r for r in rows if not r["undone"]]
        faces = [r["face"] for r in standing]
        total = sum(faces)
        low = low_is_good(purpose, {r["rule"] for r in rows})
        key = purpose if by_sides[(seat, purpose)] == 1 else f"{purpose} (D{sides})"
        summary[seat][key] = {
            "sides": sides, "dice": len(faces), "faces": {str(f): faces.count(f) for f in range(1, sides + 1)},
            "total": total, "expected_total": str(Fraction(len(faces) * (sides + 1), 2)),
            "better": "low" if low else "high", **luck(len(faces), sides, total, low),
            "undone_dice": len(rows) - len(standing), "rerolled_dice": sum(1 for r in standing if r["rerolled"]),
        }
    return dict(summary)


def tempo_summary(facts: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """Pass points earned and spent, activations per phase, units destroyed (standing facts only)."""
    pass_points: dict[str, dict[str, int]] = defaultdict(lambda: {"earned": 0, "spent": 0})
    activations: dict[str, Counter[str]] = defaultdict(Counter)
    destroyed: dict[str, list[str]] = defaultdict(list)
    for fact in facts:
        if fact["undone"]:
            continue
        seat = fact["seat"] or "-"
        if fact["kind"] == "pass_earned":
            pass_points[seat]["earned"] += fact["amount"]
        elif fact["kind"] == "pass_spent":
            pass_points[seat]["spent"] += fact["amount"]
        elif fact["kind"] == "activation":
            activations[seat][fact["phase"] or "-"] += 1
        elif fact["kind"] == "destroyed":
            destroyed[seat].append(fact["unit"])
    return {"pass_points": {s: pass_points[s] for s in sorted(pass_points)},
            "activations": {s: dict(sorted(activations[s].items())) for s in sorted(activations)},
            "units_destroyed": {s: {"count": len(destroyed[s]), "units": destroyed[s]} for s in sorted(destroyed)}}


def attacks_summary(entries: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every standing attack (reference) against its own exact odds (domain.attacks): the profile it was
    declared with (abilities, re-rolls and the target line by line) gives the distribution of the damage it
    could deal and of the models it could destroy; the luck is the attacker's (the defender's: 100 minus)."""
    from warlog.domain.attacks import Unsupported, as_allocated, attack_luck, from_data

    declared: dict[str, Any] | None = None
    picks: list[int] = []  # the groups its defender picked to save next, in order (RS.ATK.3)
    attacks = []
    for entry in entries:
        if entry["type"] == "AttackDeclared" and "profile" in entry["data"]:
            declared, picks = entry, []
        elif entry["type"] == "GroupAllocated" and declared is not None and not entry["undone"]:
            picks.append(entry["data"]["line"])
        elif entry["type"] == "AttackResolved" and declared is not None and not entry["undone"]:
            data = entry["data"]
            odds: Mapping[str, dict[str, float] | str]
            try:  # the odds of the attack as its defender allocated it
                odds = attack_luck(as_allocated(from_data(declared["data"]["profile"]), picks),
                                   data["wounds_lost"], data["models_destroyed"])
            except Unsupported as unsupported:  # a choice the exact odds do not model
                odds = {"unsupported": str(unsupported)}
            attacks.append({"seq": declared["seq"], "seat": declared["by"], "attacker": data["attacker"],
                            "target": data["target"], "weapon": data["weapon"], "wounds_lost": data["wounds_lost"],
                            "models_destroyed": data["models_destroyed"], **odds})
            declared = None
    return attacks


def summarize(dice: Iterable[dict[str, Any]], facts: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """The analytics document: `dice` (luck per seat and purpose) plus tempo and losses."""
    return {"dice": dice_summary(dice), **tempo_summary(facts)}


def across_games(games: list[dict[str, Any]], dice: Iterable[dict[str, Any]],
                 facts: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """The same document over many games (seats are the games' seats A and B; losses are counted)."""
    tempo = tempo_summary(facts)
    tempo["units_destroyed"] = {seat: {"count": lost["count"]} for seat, lost in tempo["units_destroyed"].items()}
    return {"games": len(games), "rulesets": dict(sorted(Counter(g["ruleset"] for g in games).items())),
            "dice": dice_summary(dice), **tempo}
