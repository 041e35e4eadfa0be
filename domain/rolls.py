"""What a roll means (CONTRACT.md "In the players' words", "Rolls that say what they mean"): the face each die must
reach or the total the roll must reach (`needed`), each face's outcome, the successes and the roll in a sentence.

One function reads every roll: `read(faces, spec, reading)`. The rule that asks for the roll knows what it needs
and says so with a `Reading` (a hit roll's skill and critical hits, a charge's distance, a battle-shock test's
Ld); a roll nothing reads (a free roll) has `None`. What it returns joins the roll event's `data` (hashed: new
events carry it; old ones stay as they were logged). Pure module: no I/O, no clock.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Literal, TypedDict

from warlog.domain.words import inches

Outcome = Literal["success", "critical", "fail", "rerolled", "unused"]
KEYS = ("needed", "outcomes", "successes", "text")  # the keys `read` adds to a roll event's data


class Read(TypedDict):
    needed: int | None
    outcomes: list[str]
    successes: int | None
    text: str


@dataclass(frozen=True)
class Reading:
    """What one roll is read against.

    `each`: every die on its own reaches `needed` (after `modifier`; an unmodified 1 fails where `ones_fail`, a
    face of `critical_on` or more is a critical success); `successes` counts them, `noun` names one ("hit").
    `total`: the roll's total reaches `needed` (at most `needed` where `at_most`: a Leadership test of the older
    editions); `against` says what the total is set against ('9"', "Ld 7"), `passed`/`failed` the verdict.
    `apart`: each die read against its own number, given the faces (`read_apart`).
    """

    what: str  # the roll as the players name it: "Hit roll", "Charge", "Battle-shock"
    needed: int | None = None
    each: bool = False
    noun: str = "success"
    critical_on: int | None = None
    modifier: int = 0
    ones_fail: bool = True
    at_most: bool = False
    against: str | None = None
    passed: str = "passed"
    failed: str = "failed"
    apart: Callable[[Sequence[int]], Sequence[Against]] | None = None


@dataclass(frozen=True)
class Against:
    """What one die of a roll read apart is read against: the face it must reach, and whose die it is ("Bob's
    Master"; empty where the roll's own unit is the only one it is read for)."""

    needed: int
    who: str = ""


def _plural(count: int, one: str) -> str:
    many = one + ("es" if one.endswith(("s", "sh", "ch")) else "s")
    return f"{count} {one if count == 1 else many}"


def _faces(values: Sequence[int]) -> str:
    words = [str(v) for v in values]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}" if words else "no dice"


def die_outcome(face: int, reading: Reading) -> Outcome:
    """One die against its `each` reading: 1 fails (`ones_fail`), then criticals, then the modified face."""
    if reading.needed is None:
        return "unused"
    if reading.ones_fail and face == 1:
        return "fail"
    if reading.critical_on is not None and face >= reading.critical_on:
        return "critical"
    return "success" if face + reading.modifier >= reading.needed else "fail"


def read(faces: Sequence[int], spec: str, reading: Reading | None, total: int | None = None,
         rerolled: Sequence[int] = (), unused: Sequence[int] = ()) -> Read:
    """The roll's `needed`, `outcomes`, `successes` and `text`. `total`: the roll's total where it is not the sum
    of the faces (a modifier); `rerolled`: the places of faces re-rolled since (they count no more); `unused`:
    the places of faces nothing reads."""
    faces = list(faces)
    total = sum(faces) if total is None else total
    if reading is not None and reading.apart is not None:
        return read_apart(faces, reading, reading.apart(faces))
    if reading is None:  # a free roll, or a total the players read
        shown = f"{_faces(faces)} (total {total})" if len(faces) > 1 else _faces(faces)
        return Read(needed=None, outcomes=["unused"] * len(faces), successes=None, text=f"{spec}: {shown}")
    if reading.each:
        outcomes: list[Outcome] = ["unused" if i in unused else "rerolled" if i in rerolled
                                   else die_outcome(f, reading) for i, f in enumerate(faces)]
        successes = outcomes.count("success") + outcomes.count("critical")
        counted = len(faces) - len(set(unused) | set(rerolled))
        text = f"{reading.what}: {_plural(successes, reading.noun)} of {counted}"
        if reading.needed is not None:
            text += f" at {reading.needed}+" if reading.needed <= 6 else f" needing {reading.needed}"
        if reading.modifier:
            text += f" ({reading.modifier:+d} to each die)"
        if outcomes.count("critical"):
            text += f", {outcomes.count('critical')} of them critical"
        return Read(needed=reading.needed, outcomes=list(outcomes), successes=successes, text=text)
    text = f"{reading.what}: {total} on {spec}"
    if reading.needed is None:
        return Read(needed=None, outcomes=["unused"] * len(faces), successes=None, text=text)
    passes = total <= reading.needed if reading.at_most else total >= reading.needed
    against = reading.against or str(reading.needed)
    verdict = reading.passed if passes else reading.failed
    return Read(needed=reading.needed, outcomes=["success" if passes else "fail"] * len(faces), successes=None,
                text=f"{text} against {against}: {verdict}")


def read_apart(faces: Sequence[int], reading: Reading, against: Sequence[Against]) -> Read:
    """Each die against its own number (`against`, one a die read; the dice after them are read for nothing):
    "Feel No Pain: 2 ignored wounds of 6, each die at the Feel No Pain of the model that would lose the wound: 5
    and 1 for Bob's Beast at 6+ (0 ignored wounds); 5, 1, 3 and 6 for Bob's Master at 4+ (2 ignored wounds)".
    `needed` is the number every die read must reach, None where they differ."""
    outcomes: list[Outcome] = [die_outcome(face, replace(reading, needed=on.needed, apart=None))
                               for face, on in zip(faces, against, strict=False)]
    outcomes += ["unused"] * (len(faces) - len(outcomes))
    won = ("success", "critical")
    groups: dict[Against, list[int]] = {}
    for i, on in enumerate(against[:len(faces)]):
        groups.setdefault(on, []).append(i)
    successes = sum(1 for outcome in outcomes if outcome in won)
    text = f"{reading.what}: {_plural(successes, reading.noun)} of {min(len(against), len(faces))}"
    needs = {on.needed for on in groups}
    if len(groups) == 1:
        ((on, _),) = groups.items()
        text += f" at {on.needed}+" + (f" for {on.who}" if on.who else "")
    elif groups:
        each = [f"{_faces([faces[i] for i in dice])} for {on.who} at {on.needed}+ "
                f"({_plural(sum(1 for i in dice if outcomes[i] in won), reading.noun)})" for on, dice in groups.items()]
        text += f", each die at the {reading.what} of the model that would lose the wound: {'; '.join(each)}"
    unused = outcomes.count("unused")
    if unused:
        text += f"; {unused} {'die' if unused == 1 else 'dice'} unused"
    return Read(needed=needs.pop() if len(needs) == 1 else None, outcomes=list(outcomes), successes=successes,
                text=text)


def free(faces: Sequence[int], spec: str, purpose: str, total: int) -> Read:
    """A free roll: nothing reads it ("2D6 for scatter: 3 and 5 (total 8)")."""
    plain = read(faces, spec, None, total)
    return Read(needed=None, outcomes=plain["outcomes"], successes=None,
                text=f"{spec} for {purpose}: {plain['text'].split(': ', 1)[1]}")


def roll_off(faces: Sequence[int], names: dict[str, str], winner: str | None) -> Read:
    """CORE.DICE.3: the highest D6 wins; a tie is rolled again."""
    rolled = ", ".join(f"{names[seat]} {face}" for seat, face in zip(("A", "B"), faces, strict=True))
    if winner is None:
        return Read(needed=None, outcomes=["rerolled"] * len(faces), successes=None,
                    text=f"Roll-off: {rolled}: a tie, rolled again")
    outcomes: list[str] = ["success" if seat == winner else "fail" for seat in ("A", "B")]
    return Read(needed=None, outcomes=outcomes, successes=None, text=f"Roll-off: {rolled}: {names[winner]} wins")


# the roll events (CONTRACT.md "Server dice": those that record dice), and those that logged `needed` already
KINDS = frozenset({"DiceRolled", "RollOff", "HitsScored", "WoundsScored", "SavesRolled", "HazardousRolled",
                   "HazardsRolled", "OverwatchResolved"})
NEEDED_BEFORE = frozenset({"HitsScored", "WoundsScored", "SavesRolled"})


def added(type_: str, data: Mapping[str, object]) -> tuple[str, ...]:
    """The keys of `data` that `read` added to an event of this kind: what an event logged before rolls said
    what they mean lacks (`needed` only where the kind had none)."""
    if type_ not in KINDS:
        return ()
    return tuple(k for k in KEYS if k in data and not (k == "needed" and type_ in NEEDED_BEFORE))


def as_before(type_: str, data: Mapping[str, object]) -> dict[str, object]:
    """`data` as it was logged before rolls said what they mean (a request stored then, played again)."""
    drop = added(type_, data)
    return {k: v for k, v in data.items() if k not in drop}


def charge(distance: str) -> Reading:
    """A charge roll against the inches measured ("7.5"): the total must reach them."""
    return Reading("Charge", math.ceil(Decimal(distance)), against=inches(distance), passed="succeeds",
                   failed="fails")


def leadership(what: str, ld: int, at_most: bool = False) -> Reading:
    """A Leadership test on 2D6: passed on Ld or more (a battle-shock test), or on at most Ld (`at_most`: the
    older editions' Leadership test)."""
    return Reading(what, ld, against=f"Ld {ld}", at_most=at_most)


def arrives_on(what: str, needed: int) -> Reading:
    """A reserve roll: one D6 that arrives on `needed`+."""
    return Reading(what, needed, against=f"{needed}+", passed="arrives", failed="stays in reserve")
