"""Who takes the next wounds (RS.ATK.3): the target's models as the attack goes (`Standing`), the allocation
order, the group the next wounds go to and the groups tied for them (the defender's pick), and the wounds lost
model by model, each met by the Feel No Pain of the model that would lose it (EXT.FNP)."""
from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from warlog.domain.attacks.memo import per_profile
from warlog.domain.attacks.profile import Target
from warlog.domain.state.values import replace


class Standing(NamedTuple):
    """The target's models as the attack goes: per line, models alive and wounds lost by its wounded model."""

    alive: tuple[int, ...]
    taken: tuple[int, ...]

    @classmethod
    def of(cls, target: Target) -> Standing:
        return _standing_of(target)

    @property
    def models(self) -> int:
        return sum(self.alive)


@per_profile
def _standing_of(target: Target) -> Standing:
    return Standing(tuple(line.count for line in target.lines), tuple(line.wounds_taken for line in target.lines))


@per_profile
def allocation_order(target: Target) -> tuple[int, ...]:
    """RS.ATK.3: lines with a wounded model first, CHARACTER lines last; the defender orders the rest.

    `target.order` is the defender's choice; lines it leaves out follow in roster order. The rule's
    two constraints win over the choice (a CHARACTER line named first still comes last).
    """
    if any(not 0 <= i < len(target.lines) for i in target.order or ()):
        raise ValueError("the allocation order names a line the target does not have")
    order = list(dict.fromkeys([*(target.order or ()), *range(len(target.lines))]))
    return tuple(sorted(order, key=lambda i: (target.lines[i].character, not target.lines[i].wounds_taken)))


def next_group(target: Target, standing: Standing) -> int | None:
    """The line the next wounds go to: one with a wounded model, else the first living one in allocation order."""
    best, best_key = None, (True, True)
    for i, character in _order_and_characters(target):
        if standing.alive[i]:
            key = (character, not standing.taken[i])  # RS.ATK.3: CHARACTER groups last, wounded models first
            if best is None or key < best_key:
                best, best_key = i, key
    return best


def tied_groups(target: Target, standing: Standing) -> tuple[int, ...]:
    """RS.ATK.3: every living line the next wounds may go to (the defender's choice when more than one):
    a line with a wounded model alone, else the living lines of the best kind (non-CHARACTER before CHARACTER),
    in allocation order."""
    keys = {i: (character, not standing.taken[i]) for i, character in _order_and_characters(target)
            if standing.alive[i]}
    if not keys:
        return ()
    best = min(keys.values())
    tied = tuple(i for i, key in keys.items() if key == best)
    return tied[:1] if not best[1] else tied


@per_profile
def _order_and_characters(target: Target) -> tuple[tuple[int, bool], ...]:
    return tuple((i, target.lines[i].character) for i in allocation_order(target))


def with_standing(target: Target, standing: Standing) -> Target:
    """The target after the attack, as a new Target (for the next weapon's profile)."""
    return replace(target, lines=tuple(replace(line, count=n, wounds_taken=t)
                                       for line, n, t in zip(target.lines, standing.alive, standing.taken)))


class Wounds(NamedTuple):
    """Wounds about to be lost, that a Feel No Pain roll stands against (EXT.FNP): the target as it stands, the
    line they go to (None: mortal wounds, spilling from model to model in allocation order) and each failed save's
    damage (mortal wounds: their number, once)."""

    standing: Standing
    line: int | None
    amounts: tuple[int, ...]


class Met(NamedTuple):
    """What wounds did (`wounds_met`, `damage_met`): the target after them, the wounds lost, the models destroyed,
    the amounts dealt (failed saves' damage; `wounds_met` deals one) and, for each Feel No Pain die in order, the
    line it was read for and the X+ it was read against."""

    standing: Standing
    lost: int
    destroyed: int
    used: int
    rolled_for: tuple[tuple[int, int], ...]


def wounds_met(target: Target, standing: Standing, line: int | None, amount: int, fnp_faces: Sequence[int]) -> Met:
    """`amount` wounds lost by one model of `line` (its excess lost, RS.ATK.4) or, where `line` is None, by the
    unit's models in allocation order (mortal wounds, also outside an attack: rules/reference/mortal.py). Each wound
    is stopped by a Feel No Pain die of X+ of the model it would be lost by (EXT.FNP), the next of `fnp_faces`; the
    wounds stop where a die is needed and none is left (a roll read before its last dice are in)."""
    lost = destroyed = 0
    rolled_for: list[tuple[int, int]] = []
    lines = target.lines
    alive, taken = list(standing.alive), list(standing.taken)
    group = line if line is not None else next_group(target, standing)
    while amount > 0 and group is not None and alive[group]:
        fnp = target.fnp_of(group)
        if fnp is not None:
            if len(rolled_for) == len(fnp_faces):
                break
            rolled_for.append((group, fnp))
            amount -= 1
            if fnp_faces[len(rolled_for) - 1] >= fnp:
                continue
        else:
            amount -= 1
        lost += 1
        taken[group] += 1
        if taken[group] >= lines[group].W:
            alive[group] -= 1
            taken[group] = 0
            destroyed += 1
            if line is not None:
                break  # RS.ATK.4 convention: excess damage from this failed save is lost
            group = next_group(target, Standing(tuple(alive), tuple(taken)))
    return Met(Standing(tuple(alive), tuple(taken)), lost, destroyed, 1, tuple(rolled_for))


def lose_wounds(target: Target, standing: Standing, line: int, amount: int, fnp_faces: Sequence[int],
                spill: bool) -> tuple[Standing, int, int, int]:
    """`wounds_met` on `line` (spill=False) or in allocation order (spill=True): (standing, wounds lost, models
    destroyed, dice used)."""
    met = wounds_met(target, standing, None if spill else line, amount, fnp_faces)
    return met.standing, met.lost, met.destroyed, len(met.rolled_for)


def damage_met(target: Target, standing: Standing, line: int, amounts: Sequence[int],
               fnp_faces: Sequence[int]) -> Met:
    """RS.ATK.4: each failed save's damage to one model of `line`, in turn, no spill-over (`wounds_met`); once the
    line's last model is destroyed the rest are not used (their wounds go to the next line, saved again)."""
    lost = destroyed = used = 0
    rolled_for: tuple[tuple[int, int], ...] = ()
    for amount in amounts:
        if not standing.alive[line]:
            break
        met = wounds_met(target, standing, line, amount, fnp_faces[len(rolled_for):])
        standing, rolled_for = met.standing, rolled_for + met.rolled_for
        lost, destroyed, used = lost + met.lost, destroyed + met.destroyed, used + 1
    return Met(standing, lost, destroyed, used, rolled_for)


def fnp_rolled_for(target: Target, wounds: Wounds, faces: Sequence[int]) -> tuple[tuple[int, int], ...]:
    """EXT.FNP: the line each die of a Feel No Pain roll against `wounds` is read for, in order, and its X+: the
    Feel No Pain of the model that would lose that wound; the dice after them are read for none (damage lost with
    its model, wounds on models without Feel No Pain)."""
    if wounds.line is None:
        return wounds_met(target, wounds.standing, None, sum(wounds.amounts), faces).rolled_for
    return damage_met(target, wounds.standing, wounds.line, wounds.amounts, faces).rolled_for
