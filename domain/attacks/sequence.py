"""One attack from start to end: the steps in order, asking for dice one batch at a time.

`attack_sequence(profile)` is a generator written top to bottom in the order of the rules. It
yields a `Need` when it waits for dice (and is sent the faces) and a `Decision` when a step has
decided something (and is sent `[]`, which it ignores); its return value is the `Outcome`. Two drivers:

- `resolve(profile, rolls)` replays the batches of faces rolled so far and returns the decisions,
  the next `Need` (or None) and, once done, the `Outcome`: the rules store the batches with the
  pending roll and call it again when the next batch arrives (pure, replay-safe);
- `simulate(profile, rng)` rolls with a `random.Random` (tests, Monte Carlo).

Before a Feel No Pain roll it yields the `Wounds` the roll stands against (and is sent `[]`): `resolve` gives
them with the Need, so the roll is read die by die against the model each wound would be lost by (EXT.FNP).
"""
from __future__ import annotations

import random
from collections.abc import Generator, Sequence
from dataclasses import dataclass
from typing import TypeVar

from warlog.domain.attacks.allocation import Standing, Wounds, next_group, tied_groups
from warlog.domain.attacks.profile import Profile
from warlog.domain.attacks.steps import (
    ATTACKER,
    DEFENDER,
    FNP_STEPS,
    Decision,
    Need,
    any_fnp,
    apply_damage,
    apply_mortal_wounds,
    attack_needs,
    automatic_hits,
    damage_amounts,
    damage_parts,
    fnp_of,
    hazardous,
    hazardous_roll,
    hit_roll,
    hits_to_reroll,
    lethal,
    number_of_attacks,
    part_needs,
    rerolled,
    save_roll,
    sustained_hits,
    sustained_parts,
    wound_roll,
    wounds_to_reroll,
)


@dataclass(frozen=True)
class Outcome:
    attacks: int
    hits: int  # hits scored, SUSTAINED extra hits included
    critical_hits: int
    wounds: int  # wounds scored (LETHAL and DEVASTATING included)
    critical_wounds: int
    devastating: int  # critical wounds that became mortal wounds
    failed_saves: int
    mortal_wounds: int
    wounds_lost: int  # damage that took effect (excess and Feel No Pain saves not counted)
    models_destroyed: int
    standing: Standing  # the target after the attack
    hazardous: Decision | None = None


class DiceMismatch(ValueError):
    """The faces given do not fit the dice the step needs (count or sides)."""


_T = TypeVar("_T")
Step = Generator[Need | Decision | Wounds, list[int], _T]  # sent the faces after a Need, [] after the others
Sequence_ = Step[Outcome]
NOT_DICE = (Decision, Wounds)  # what the sequence yields that waits for no dice (it is sent [])


def attack_sequence(profile: Profile) -> Sequence_:
    rolled: list[list[int]] = []
    for need in attack_needs(profile):
        rolled.append((yield need))
    decision = number_of_attacks(profile, rolled)
    yield decision
    attacks = decision.facts["attacks"]

    hits, extra = yield from _hits(profile, attacks)
    criticals = hits.facts["criticals"]

    # RS.ATK.2 wound roll: critical hits first (PRECISION tells them apart), then hits, then extra hits
    lethal_hits = criticals if lethal(profile) else 0
    critical_rolls = criticals - lethal_hits
    count = hits.facts["hits"] - lethal_hits + extra
    faces: list[int] = []
    again: list[int] = []
    if count:
        faces = yield Need("wound", count, 6, ATTACKER, "RS.ATK.2")
        again = wounds_to_reroll(profile, faces)
        if again:
            faces = rerolled(faces, again, (yield Need("wound_reroll", len(again), 6, ATTACKER, "CORE.DICE.2")))
    wounds = wound_roll(profile, faces, lethal_hits, again, critical_rolls)
    yield wounds

    # RS.ATK.3 / RS.ATK.4 saves and damage, group by group; PRECISION wounds first, at the chosen CHARACTER
    standing = Standing.of(profile.target)
    tally = {"failed": 0, "lost": 0, "destroyed": 0}
    to_save, precision = wounds.facts["to_save"], wounds.facts["precision"]
    if precision:
        standing, left = yield from _allocate(profile, standing, precision, tally, profile.situation.precision_line)
        to_save += left - precision
    standing, _ = yield from _allocate(profile, standing, to_save, tally)

    devastating = wounds.facts["devastating"]
    standing, mortal = yield from _mortal_wounds(profile, standing, devastating, tally)

    hazard = None
    if hazardous(profile) and profile.situation.models and not profile.situation.hazard_after:  # EXT.WPN.HAZARDOUS
        hazard = hazardous_roll(profile, (yield Need("hazardous", profile.situation.models, 6, ATTACKER,
                                                     "EXT.WPN.HAZARDOUS")))
        yield hazard
    return Outcome(attacks, hits.facts["hits"] + extra, criticals, wounds.facts["wounds"],
                   wounds.facts["criticals"], devastating, tally["failed"], mortal, tally["lost"],
                   tally["destroyed"], standing, hazard)


def _hits(profile: Profile, attacks: int) -> Step[tuple[Decision, int]]:
    """RS.ATK.1 hit roll (EXT.WPN.TORRENT: none) and EXT.WPN.SUSTAINED's extra hits: the decision and those."""
    faces: list[int] = []
    again: list[int] = []
    if not automatic_hits(profile) and attacks:
        faces = yield Need("hit", attacks, 6, ATTACKER, "RS.ATK.1")
        again = hits_to_reroll(profile, faces)
        if again:
            faces = rerolled(faces, again, (yield Need("hit_reroll", len(again), 6, ATTACKER, "CORE.DICE.2")))
    hits = hit_roll(profile, attacks, faces, again)
    yield hits
    criticals = hits.facts["criticals"]
    extra = 0
    parts, _ = sustained_parts(profile)
    if criticals and parts:  # EXT.WPN.SUSTAINED
        rolled: list[list[int]] = []
        for need in part_needs(parts, criticals, "sustained", ATTACKER, "EXT.WPN.SUSTAINED"):
            rolled.append((yield need))
        decision = sustained_hits(profile, criticals, rolled)
        yield decision
        extra = decision.facts["extra_hits"]
    return hits, extra


def _mortal_wounds(profile: Profile, standing: Standing, devastating: int,
                   tally: dict[str, int]) -> Step[tuple[Standing, int]]:
    """EXT.WPN.DEVASTATING: mortal wounds after the attack's other wounds, spilling over."""
    mortal = 0
    if devastating and standing.models:
        rolled: list[list[int]] = []
        for need in part_needs(damage_parts(profile)[0], devastating, "mortal_damage", ATTACKER,
                               "EXT.WPN.DEVASTATING"):
            rolled.append((yield need))
        mortal = sum(damage_amounts(profile, devastating, rolled))
        fnp: list[int] = []
        if mortal and any_fnp(profile, standing):
            yield Wounds(standing, None, (mortal,))
            fnp = yield Need("mortal_feel_no_pain", mortal, 6, DEFENDER, "EXT.FNP")
        decision, standing = apply_mortal_wounds(profile, standing, mortal, fnp)
        yield decision
        tally["lost"] += decision.facts["wounds_lost"]
        tally["destroyed"] += decision.facts["models_destroyed"]
    return standing, mortal


def _allocate(profile: Profile, standing: Standing, count: int, tally: dict[str, int],
              only: int | None = None) -> Step[tuple[Standing, int]]:
    """Saves for `count` wounds against one group at a time; a destroyed group passes the unused wounds on.

    With `only`, the wounds go to that line alone (PRECISION) and the ones left when it is
    destroyed are returned for the usual allocation.
    """
    while count and standing.models:
        line = only if only is not None else next_group(profile.target, standing)
        if line is None or not standing.alive[line]:
            break
        tied = tied_groups(profile.target, standing) if only is None and profile.situation.defender_allocates else ()
        if len(tied) > 1:  # RS.ATK.3: the defender chooses which of the tied groups saves next
            line = tied[(yield Need("allocate", 1, len(tied), DEFENDER, "RS.ATK.3", None, tied))[0] - 1]
            yield Decision("allocate", ("RS.ATK.3",), {"line": line, "model": profile.target.lines[line].name,
                                                       "among": list(tied)})
        save = save_roll(profile, line, (yield Need("save", count, 6, DEFENDER, "RS.ATK.3", line)))
        yield save
        failed = save.facts["failed"]
        if not failed:
            return standing, 0
        rolled: list[list[int]] = []
        for need in part_needs(damage_parts(profile)[0], failed, "damage", ATTACKER, "RS.ATK.4"):
            rolled.append((yield need))
        amounts = damage_amounts(profile, failed, rolled)
        fnp: list[int] = []
        if fnp_of(profile, line) and sum(amounts):
            yield Wounds(standing, line, tuple(amounts))
            fnp = yield Need("feel_no_pain", sum(amounts), 6, DEFENDER, "EXT.FNP", line)
        decision, standing, used = apply_damage(profile, standing, line, amounts, fnp)
        yield decision
        tally["failed"] += used
        tally["lost"] += decision.facts["wounds_lost"]
        tally["destroyed"] += decision.facts["models_destroyed"]
        if standing.alive[line]:
            return standing, 0  # every result was assigned to a model of this group
        count -= used  # the results not assigned: rolled again against the next group (RS.ATK.3)
        if only is not None:
            break
    return standing, count


@dataclass(frozen=True)
class Progress:
    decisions: tuple[Decision, ...]
    need: Need | None  # the dice the next step waits for; None once the attack is resolved
    outcome: Outcome | None
    wounds: Wounds | None = None  # what the Feel No Pain roll `need` asks for stands against (EXT.FNP)


def _check(need: Need, faces: Sequence[int]) -> list[int]:
    faces = list(faces)
    if len(faces) != need.number or any(isinstance(f, bool) or not isinstance(f, int) or not 1 <= f <= need.sides
                                       for f in faces):
        raise DiceMismatch(f"the {need.step} step needs {need.spec} from the {need.seat}, got {faces}")
    return faces


def resolve(profile: Profile, rolls: Sequence[Sequence[int]] = ()) -> Progress:
    """Replay the batches rolled so far (one list of faces per Need, in order)."""
    run = attack_sequence(profile)
    decisions: list[Decision] = []
    batches = iter(rolls)
    wounds: Wounds | None = None
    try:
        item = next(run)
        while True:
            if isinstance(item, NOT_DICE):
                if isinstance(item, Decision):
                    decisions.append(item)
                else:
                    wounds = item  # the wounds the next Need's Feel No Pain roll stands against
                item = run.send([])
                continue
            faces = next(batches, None)
            if faces is None:
                return Progress(tuple(decisions), item, None, wounds if item.step in FNP_STEPS else None)
            item = run.send(_check(item, faces))
    except StopIteration as done:
        if next(batches, None) is not None:
            raise DiceMismatch("more batches of dice than the attack needs") from None
        return Progress(tuple(decisions), None, done.value)


def simulate(profile: Profile, rng: random.Random) -> Outcome:
    """The attack with dice from `rng` (Monte Carlo, tests)."""
    run = attack_sequence(profile)
    choices = rng.choices
    faces: dict[int, range] = {}
    try:
        item = next(run)
        while True:
            if isinstance(item, NOT_DICE):
                item = run.send([])
            else:
                sides = faces.setdefault(item.sides, range(1, item.sides + 1))
                item = run.send(choices(sides, k=item.number))
    except StopIteration as done:
        outcome: Outcome = done.value  # StopIteration.value is Any (typeshed): here the sequence's return
        return outcome
