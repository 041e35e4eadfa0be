"""The exact distribution of an attack's outcome, abilities and re-rolls included, and the luck of one outcome.

It follows `sequence.attack_sequence` step for step, but sums probabilities instead of rolling:

1. number of attacks: the distribution of A (and BLAST / RAPID FIRE) over the attacking models;
2. per attack, the joint law of (wounds to save, devastating wounds) and of hits scored — a hit die
   (re-rolled as the policy says), SUSTAINED extra hits, LETHAL, then one wound die per hit —
   convolved attack by attack (dynamic programming, never the 6^n rolls);
3. saves and damage group by group as `_allocate` does: F ~ Binomial(wounds, P(fail)) failures are
   applied lowest result first; the chain over the group's models (which model, wounds on it)
   says where the group is destroyed, and the unassigned wounds carry to the next group;
4. devastating mortal wounds afterwards, spilling, Feel No Pain per wound, folded in by Horner's
   scheme over their count.

PRECISION (EXT.WPN.PRECISION) with the attacker's CHARACTER line: each attack's law tells the critical hits'
wounds apart, those are saved by that line alone first (its group as step 3 reads one), and the rest of the
attack is read against the target as they left it, the wounds they did not use added to the others.
The allocation order is the target's (`Target.order`, the defender's choice; `as_allocated` makes it the
order the defender picked as the attack went, RS.ATK.3).

Floats throughout; `luck` gives the mid-p percentile of an observed value (50 = average).
"""
from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from warlog.domain import dice
from warlog.domain.attacks.abilities import effects
from warlog.domain.attacks.allocation import allocation_order
from warlog.domain.attacks.profile import Profile
from warlog.domain.attacks.steps import (
    _to_reroll,
    attack_parts,
    automatic_hits,
    critical_wound_on,
    damage_parts,
    fnp_of,
    hit_modifier,
    hit_result,
    hits_to_reroll,
    lethal,
    saved,
    sustained_parts,
    wound_modifier,
    wound_reroll_policy,
    wound_result,
    wound_target,
)
from warlog.domain.state.values import replace

Dist = dict[int, float]
Pair = tuple[int, int]  # (wounds to save, devastating wounds); or a model's state: (slot, wounds on it)
Law = dict[Pair, float]  # a joint distribution over pairs
Triple = tuple[int, int, int]  # (PRECISION wounds, other wounds to save, devastating wounds)
Law3 = dict[Triple, float]
K = TypeVar("K", bound=Hashable)  # what a distribution is over: a count, or a pair
TINY = 1e-16  # probabilities below this are dropped while convolving


class Unsupported(ValueError):
    """The profile uses a choice the exact distribution does not model (none since PRECISION is modelled; kept
    for the readers that catch it)."""


@dataclass(frozen=True)
class Odds:
    attacks: Dist
    hits: Dist  # hits scored, SUSTAINED extra hits included
    wounds: Dist  # wounds scored, LETHAL and DEVASTATING included
    wounds_lost: Dist  # damage that took effect on the target
    models_destroyed: Dist

    @staticmethod
    def mean(dist: Mapping[int, float]) -> float:
        return sum(k * p for k, p in dist.items())


# -- small distributions ----------------------------------------------------------------------------

def convolve(a: Mapping[int, float], b: Mapping[int, float]) -> Dist:
    out: Dist = defaultdict(float)
    for i, p in a.items():
        for j, q in b.items():
            out[i + j] += p * q
    return {k: v for k, v in out.items() if v > TINY}


def expr_dist(expr: dice.DiceExpr, times: int = 1) -> Dist:
    """The sum of `times` copies of a dice expression."""
    out: Dist = {expr.modifier * times: 1.0}
    die = {f: 1 / expr.sides for f in range(1, expr.sides + 1)} if not expr.is_constant else {}
    for _ in range(expr.count * times):
        out = convolve(out, die)
    return out


def parts_dist(parts: Iterable[dice.DiceExpr], times: int = 1, floor: int | None = None) -> Dist:
    out: Dist = {0: 1.0}
    for part in parts:
        out = convolve(out, expr_dist(part, times))
    if floor is None:
        return out
    clipped: Dist = defaultdict(float)
    for k, p in out.items():
        clipped[max(floor, k)] += p
    return dict(clipped)


def _die(outcome_of: Callable[[int], int], reroll: Callable[[int], bool]) -> list[float]:
    """P(outcome 0, 1, 2) of one D6 with its re-roll policy (CORE.DICE.2: re-rolls before modifiers)."""
    fresh = [0.0, 0.0, 0.0]
    for face in range(1, 7):
        fresh[outcome_of(face)] += 1 / 6
    final = [0.0, 0.0, 0.0]
    for face in range(1, 7):
        if reroll(face):
            for o in range(3):
                final[o] += fresh[o] / 6
        else:
            final[outcome_of(face)] += 1 / 6
    return final


# -- per attack --------------------------------------------------------------------------------------

def _per_attack(profile: Profile, precise: bool = False) -> tuple[Law3, Dist]:
    """One attack's joint law of (PRECISION wounds, other wounds to save, devastating wounds) and its hits scored;
    `precise`: the critical hits' wounds go to the attacker's CHARACTER line (their count apart, else 0)."""
    if automatic_hits(profile):
        hit = [0.0, 1.0, 0.0]  # CORE.DICE.1: automatic hits are never critical
    else:
        modifier, _ = hit_modifier(profile)
        hit = _die(lambda f: hit_result(profile, f, modifier),
                   lambda f: bool(hits_to_reroll(profile, [f])))
    needed = wound_target(profile)
    w_mod, _ = wound_modifier(profile)
    critical_on, _ = critical_wound_on(profile)
    policy, _ = wound_reroll_policy(profile)
    wound = _die(lambda f: wound_result(profile, f, needed, w_mod, critical_on),
                 lambda f: bool(_to_reroll(policy, [f], lambda g: wound_result(profile, g, needed, w_mod,
                                                                                critical_on) == 0)))
    devastating = bool(effects(profile.weapon.keywords, "critical_wound_mortal", profile))
    to = (1, 0, 0) if precise else (0, 1, 0)  # where a critical hit's wound goes (PRECISION: the CHARACTER)
    one_wound = {(0, 0, 0): wound[0], (0, 1, 0): wound[1] + (0 if devastating else wound[2])}
    critical_wound = {(0, 0, 0): wound[0], to: wound[1] + (0 if devastating else wound[2])}
    if devastating:
        one_wound[(0, 0, 1)] = critical_wound[(0, 0, 1)] = wound[2]
    sustained = parts_dist(sustained_parts(profile)[0]) if sustained_parts(profile)[0] else {0: 1.0}
    is_lethal = lethal(profile)

    joint: Law3 = defaultdict(float)
    hits: Dist = defaultdict(float)
    hits[0] += hit[0]
    joint[(0, 0, 0)] += hit[0]
    _add(joint, _wound_dice(one_wound, 1), hit[1])
    hits[1] += hit[1]
    own = {to: 1.0} if is_lethal else critical_wound  # LETHAL: the critical hit wounds at once
    for extra, p in sustained.items():
        _add(joint, _convolve3(own, _wound_dice(one_wound, extra)), hit[2] * p)
        hits[1 + extra] += hit[2] * p
    return dict(joint), dict(hits)


def _add(into: dict[K, float], dist: Mapping[K, float], weight: float) -> None:
    for k, p in dist.items():
        into[k] += weight * p


def _convolve3(a: Mapping[Triple, float], b: Mapping[Triple, float]) -> Law3:
    out: Law3 = defaultdict(float)
    for (i, j, k), p in a.items():
        for (x, y, z), q in b.items():
            out[(i + x, j + y, k + z)] += p * q
    return {key: v for key, v in out.items() if v > TINY}


def _wound_dice(one: Mapping[Triple, float], n: int) -> Law3:
    out: Law3 = {(0, 0, 0): 1.0}
    for _ in range(n):
        out = _convolve3(out, one)
    return out


def _mixture(counts: Mapping[int, float], one: Mapping[K, float],
             convolve_with: Callable[[Mapping[K, float], Mapping[K, float]], dict[K, float]],
             start: dict[K, float]) -> dict[K, float]:
    """Σ_n P(N=n) · one^{*n}."""
    total: dict[K, float] = defaultdict(float)
    power = start
    for n in range(max(counts) + 1 if counts else 0):
        _add(total, power, counts.get(n, 0.0))
        power = convolve_with(power, one)
    return dict(total)


# -- allocation ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Slots:
    """The target's living models in allocation order: line, W and wounds already lost, per model."""

    line: tuple[int, ...]
    W: tuple[int, ...]
    start: tuple[int, ...]  # wounds lost before this attack
    groups: tuple[tuple[int, int, int], ...]  # (line, first slot, end slot)

    @classmethod
    def of(cls, profile: Profile) -> _Slots:
        line: list[int] = []
        W: list[int] = []
        start: list[int] = []
        groups: list[tuple[int, int, int]] = []
        for index in allocation_order(profile.target):
            model = profile.target.lines[index]
            if not model.count:
                continue
            groups.append((index, len(line), len(line) + model.count))
            for k in range(model.count):
                line.append(index)
                W.append(model.W)
                start.append(model.wounds_taken if k == 0 else 0)
        return cls(tuple(line), tuple(W), tuple(start), tuple(groups))

    def entry(self, pos: int) -> tuple[int, int]:
        return (pos, self.start[pos]) if pos < len(self.line) else (pos, 0)


def _losses(amount: int, p_stop: float) -> Dist:
    """Wounds lost from `amount` wounds when each is stopped with probability p_stop (EXT.FNP)."""
    if not p_stop:
        return {amount: 1.0}
    return {k: math.comb(amount, k) * (1 - p_stop) ** k * p_stop ** (amount - k) for k in range(amount + 1)}


def _p_stop(profile: Profile, line: int) -> float:
    fnp = fnp_of(profile, line)
    return 0.0 if fnp is None else max(0, 7 - fnp) / 6


def _one_failure(slots: _Slots, profile: Profile, damage: Dist, line: int) -> Callable[[int, int], Law]:
    """Transition of one failed save on the current model of its group: damage, FNP, no spill (RS.ATK.4)."""
    stop = _p_stop(profile, line)
    lost_by_amount = {a: _losses(a, stop) for a in damage}

    def step(pos: int, taken: int) -> Law:
        out: Law = defaultdict(float)
        room = slots.W[pos] - taken
        for amount, p in damage.items():
            for lost, q in lost_by_amount[amount].items():
                if lost >= room:
                    out[slots.entry(pos + 1)] += p * q
                else:
                    out[(pos, taken + lost)] += p * q
        return out
    return step


def _group(profile: Profile, slots: _Slots, group: tuple[int, int, int],
           counts: Iterable[int]) -> tuple[dict[int, Law], dict[int, Dist]]:
    """One group's saves and damage for each number of wounds that may reach it: the states it is left in
    (slot, wounds on it; not destroyed) and, once it is destroyed, the wounds it passes on (RS.ATK.3)."""
    line, first, end = group
    damage = parts_dist(damage_parts(profile)[0], floor=0)
    counts = set(counts)
    q = sum(1 for f in range(1, 7) if not saved(profile, line, f)) / 6
    step = _one_failure(slots, profile, damage, line)
    alive = [{slots.entry(first): 1.0}]  # alive[f]: in-group states after f failures, not yet destroyed
    wiped = [0.0]  # wiped[f]: destroyed exactly at failure f
    for _ in range(max(counts, default=0)):
        nxt: Law = defaultdict(float)
        gone = 0.0
        for (pos, taken), p in alive[-1].items():
            for state, r in step(pos, taken).items():
                if state[0] >= end:
                    gone += p * r
                else:
                    nxt[state] += p * r
        alive.append({s: p for s, p in nxt.items() if p > TINY})
        wiped.append(gone)
    after: dict[int, Law] = {}
    passed: dict[int, Dist] = {}
    for w in counts:
        binomial = [math.comb(w, f) * q ** f * (1 - q) ** (w - f) for f in range(w + 1)]
        stays: Law = defaultdict(float)
        for f, b in enumerate(binomial):
            for state, p in alive[f].items():
                stays[state] += b * p
        at_least = 1.0
        moves: Dist = defaultdict(float)
        for j in range(1, w + 1):
            at_least -= binomial[j - 1]
            if wiped[j]:
                moves[w - j] += wiped[j] * max(0.0, at_least)
        after[w], passed[w] = dict(stays), dict(moves)
    return after, passed


def _allocation(profile: Profile, slots: _Slots, wounds: Mapping[Pair, float]) -> dict[tuple[Pair, int], float]:
    """{(state, devastating): p} after the wounds to save, group by group (state = (slot, wounds on it))."""
    terminal: dict[tuple[Pair, int], float] = defaultdict(float)
    carry: Law = dict(wounds)  # (wounds to allocate, devastating) at this group
    for group in slots.groups:
        after, passed = _group(profile, slots, group, (w for w, _ in carry))
        nxt_carry: Law = defaultdict(float)
        for (w, dev), p in carry.items():
            for state, r in after[w].items():
                terminal[(state, dev)] += p * r
            for left, r in passed[w].items():
                nxt_carry[(left, dev)] += p * r
        carry = {k: v for k, v in nxt_carry.items() if v > TINY}
    for (_, dev), p in carry.items():  # the last group destroyed: the unit is gone
        terminal[(slots.entry(len(slots.line)), dev)] += p
    return terminal


def _mortal(profile: Profile, slots: _Slots, by_devastating: Mapping[int, Mapping[Pair, float]]) -> Law:
    """Fold in the devastating wounds: each inflicts D mortal wounds that spill, FNP per wound."""
    if not by_devastating:
        return {}
    damage = parts_dist(damage_parts(profile)[0], floor=0)
    stops = [_p_stop(profile, line) for line in slots.line]
    end = len(slots.line)

    def one_mortal(vector: Mapping[Pair, float]) -> Law:
        out: Law = defaultdict(float)
        for (pos, taken), p in vector.items():
            if pos >= end:
                out[(pos, taken)] += p
                continue
            stop = stops[pos]
            if stop:
                out[(pos, taken)] += p * stop
            state = slots.entry(pos + 1) if taken + 1 >= slots.W[pos] else (pos, taken + 1)
            out[state] += p * (1 - stop)
        return out

    def devastate(vector: Mapping[Pair, float]) -> Law:
        out: Law = defaultdict(float)
        power = dict(vector)
        for amount in range(max(damage) + 1):
            _add(out, power, damage.get(amount, 0.0))
            power = one_mortal(power)
        return out

    top = max(by_devastating)
    result: Law = dict(by_devastating.get(top, {}))
    for m in range(top - 1, -1, -1):  # Horner: V_0 + L(V_1 + L(V_2 + ...))
        result = devastate(result)
        _add(result, by_devastating.get(m, {}), 1.0)
    return result


# -- the whole attack ----------------------------------------------------------------------------------

def distribution(profile: Profile) -> Odds:
    """The exact odds of `profile`'s attack: attacks, hits, wounds, wounds lost and models destroyed."""
    line = profile.situation.precision_line
    precise = line is not None and bool(effects(profile.weapon.keywords, "precision", profile))
    parts, _ = attack_parts(profile)
    attacks = parts_dist(parts, profile.situation.models, floor=0)
    per_attack, hits_one = _per_attack(profile, precise)
    joint = _mixture(attacks, per_attack, _convolve3, {(0, 0, 0): 1.0})
    hits = _mixture(attacks, hits_one, convolve, {0: 1.0})
    wounds: Dist = defaultdict(float)
    for (aimed, normal, dev), p in joint.items():
        wounds[aimed + normal + dev] += p
    if line is not None and precise:
        lost, destroyed = _precise_losses(profile, line, joint)
    else:
        law: Law = defaultdict(float)
        for (_, normal, dev), p in joint.items():
            law[(normal, dev)] += p
        lost, destroyed = _losses_of(profile, law)
    return Odds(_sorted(attacks), _sorted(hits), _sorted(wounds), _sorted(lost), _sorted(destroyed))


def _losses_of(profile: Profile, wounds: Mapping[Pair, float]) -> tuple[Dist, Dist]:
    """Wounds lost and models destroyed by (wounds to save, devastating wounds) in the allocation order."""
    slots = _Slots.of(profile)
    terminal = _allocation(profile, slots, wounds)
    by_dev: dict[int, Law] = defaultdict(lambda: defaultdict(float))
    for (state, dev), p in terminal.items():
        by_dev[dev][state] += p
    final = _mortal(profile, slots, by_dev)
    before = [sum(slots.W[:k]) - sum(slots.start[:k]) for k in range(len(slots.line) + 1)]
    lost: Dist = defaultdict(float)
    destroyed: Dist = defaultdict(float)
    for (pos, taken), p in final.items():
        lost[before[pos] + taken - (slots.start[pos] if pos < len(slots.line) else 0)] += p
        destroyed[pos] += p
    return lost, destroyed


def _precise_losses(profile: Profile, line: int, joint: Mapping[Triple, float]) -> tuple[Dist, Dist]:
    """EXT.WPN.PRECISION: the critical hits' wounds saved by the CHARACTER line alone first (the wounds it does
    not use once destroyed join the others), then the rest as usual against the target as they left it."""
    model = profile.target.lines[line]
    slots = _Slots.of(profile)
    group = next((g for g in slots.groups if g[0] == line), None)
    rest = replace(profile, situation=replace(profile.situation, precision_line=None))
    by_aimed: dict[int, Law] = defaultdict(lambda: defaultdict(float))
    for (aimed, normal, dev), p in joint.items():
        by_aimed[aimed][(normal, dev)] += p
    after, passed = _group(profile, slots, group, by_aimed) if group else ({}, {})
    lost: Dist = defaultdict(float)
    destroyed: Dist = defaultdict(float)
    for aimed, law in by_aimed.items():
        ends: dict[Triple, float] = defaultdict(float)  # the CHARACTER line's models, wounds on one, wounds left
        if group is None:
            ends[(0, 0, aimed)] = 1.0
        else:
            for (pos, taken), r in after[aimed].items():
                ends[(group[2] - pos, taken, 0)] += r
            for left, r in passed[aimed].items():
                ends[(0, 0, left)] += r
        for (count, taken, left), r in ends.items():
            lines = tuple(replace(m, count=count, wounds_taken=taken) if i == line else m
                          for i, m in enumerate(profile.target.lines))
            then = replace(rest, target=replace(profile.target, lines=lines))
            first_lost = model.count * model.W - model.wounds_taken - (count * model.W - taken)
            more_lost, more_destroyed = _losses_of(then, {(normal + left, dev): p for (normal, dev), p in law.items()})
            _add(lost, {k + first_lost: p * r for k, p in more_lost.items()}, 1.0)
            _add(destroyed, {k + model.count - count: p * r for k, p in more_destroyed.items()}, 1.0)
    return lost, destroyed


def as_allocated(profile: Profile, picks: Sequence[int]) -> Profile:
    """The profile with the groups its defender picked as the attack went (RS.ATK.3, in the order picked) as its
    target's allocation order: the odds of the attack as the defender allocated it."""
    order = tuple(dict.fromkeys([*picks, *(profile.target.order or ())]))
    if not order or order == profile.target.order:
        return profile
    return replace(profile, target=replace(profile.target, order=order))


def _sorted(dist: Mapping[int, float]) -> Dist:
    return {k: dist[k] for k in sorted(dist) if dist[k] > TINY}


def luck(dist: Mapping[int, float], observed: int, low_is_good: bool = False) -> dict[str, float]:
    """The mid-p percentile of `observed` (100 × (P(worse) + P(equal) / 2)) and P(at least this good)."""
    below = sum(p for k, p in dist.items() if k < observed)
    equal = dist.get(observed, 0.0)
    above = sum(p for k, p in dist.items() if k > observed)
    worse, at_least = (above, below + equal) if low_is_good else (below, above + equal)
    return {"p_at_least_this_good": round(at_least, 6), "luck_percentile": round(100 * (worse + equal / 2), 2)}


def attack_luck(profile: Profile, wounds_lost: int, models_destroyed: int) -> dict[str, dict[str, float]]:
    """The luck of one resolved attack against its own odds: damage dealt and models destroyed (attacker's view;
    the defender's luck is 100 minus the percentile)."""
    odds = distribution(profile)
    return {"wounds_lost": luck(odds.wounds_lost, wounds_lost),
            "models_destroyed": luck(odds.models_destroyed, models_destroyed)}
