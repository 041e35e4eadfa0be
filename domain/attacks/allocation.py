"""Who takes the next wounds (RS.ATK.3): the target's models as the attack goes (`Standing`), the allocation
order, the group the next wounds go to and the groups tied for them (the defender's pick)."""
from __future__ import annotations

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
