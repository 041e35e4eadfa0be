"""Dice: expressions, provably fair server dice, table dice and roll records.

Pure module: no I/O, no clock, no logging. Rules: CORE.DICE.1..6 (RULES.md);
server dice as in CONTRACT.md "Server dice".
"""
from __future__ import annotations

import functools
import hashlib
import hmac
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypedDict

from warlog.domain.state.values import replace

if TYPE_CHECKING:
    from warlog.domain import events as ev

MAX_DICE, MIN_SIDES, MAX_SIDES, MAX_MODIFIER = 50, 2, 100, 1000


class DiceSpecError(ValueError):  # a malformed dice expression
    pass


class TableDiceError(ValueError):  # entered dice do not fit the roll (count or faces)
    pass


@dataclass(frozen=True)
class DiceExpr:
    count: int  # number of dice; 0 for a constant such as "2"
    sides: int  # 0 for a constant
    modifier: int = 0

    def __post_init__(self) -> None:
        if self.count == 0:
            if self.sides != 0:
                raise DiceSpecError("a constant has no sides")
        elif not 1 <= self.count <= MAX_DICE:
            raise DiceSpecError(f"between 1 and {MAX_DICE} dice allowed, got {self.count}")
        elif not MIN_SIDES <= self.sides <= MAX_SIDES:
            raise DiceSpecError(f"a die has {MIN_SIDES} to {MAX_SIDES} sides, got {self.sides}")

    def __str__(self) -> str:
        if self.count == 0:
            return str(self.modifier)
        text = f"{'' if self.count == 1 else self.count}D{self.sides}"
        return text + (f"{self.modifier:+d}" if self.modifier else "")

    @property
    def is_constant(self) -> bool:
        return self.count == 0

    def total(self, faces: Sequence[int]) -> int:
        return sum(check_table_dice(self, faces)) + self.modifier


# What parse() reads, as the JSON Schema `pattern` the API documents (a subset: parse() also lets whitespace and
# leading zeros pass); tests/unit/test_dice.py checks that every match parses.
PATTERN = (r"^(?:[0-9]|[1-9][0-9]{1,2}|1000|(?:[1-9]|[1-4][0-9]|50)?[dD](?:[2-9]|[1-9][0-9]|100)"
           r"(?:[+-](?:[0-9]|[1-9][0-9]{1,2}|1000))?)$")
MAX_SPEC = 20  # "50D100+1000" is 11 characters; a longer text is no expression (and int() of 5,000 digits fails)
_CONST = re.compile(r"([0-9]{1,4})")
_DICE = re.compile(r"([0-9]{0,4})[dD]([0-9]{0,4})(?:([+-])([0-9]{0,4}))?")  # ASCII digits only: "２D６" is none


def parse(spec: str) -> DiceExpr:
    """Parse "2", "D6", "d6", "D3+1", "2D6", "D6-1", "2D6+2" (whitespace tolerant)."""
    if not isinstance(spec, str):
        raise DiceSpecError(f"a dice expression is text, got {type(spec).__name__}")
    return _parsed(spec)


@functools.lru_cache(maxsize=512)  # a game asks for the same few specs on every roll; a refusal is never kept
def _parsed(spec: str) -> DiceExpr:
    text = re.sub(r"\s+", "", spec)
    if not text:
        raise DiceSpecError("empty dice expression")
    if len(text) > MAX_SPEC or not text.isascii():
        raise DiceSpecError(f"a dice expression is at most {MAX_SPEC} ASCII characters (digits, D, + or -) "
                            "like 2, D6, D3+1 or 2D6")
    if m := _CONST.fullmatch(text):
        value = int(m.group(1))
        if value > MAX_MODIFIER:
            raise DiceSpecError(f"constant {value} is larger than {MAX_MODIFIER}")
        return DiceExpr(0, 0, value)
    m = _DICE.fullmatch(text)
    if m is None:
        raise DiceSpecError(f"{spec!r} is not a dice expression like 2, D6, D3+1 or 2D6")
    count_s, sides_s, sign, mod_s = m.groups()
    if not sides_s:
        raise DiceSpecError(f"{spec!r}: the number of sides is missing after D")
    if sign and not mod_s:
        raise DiceSpecError(f"{spec!r}: a number is missing after {sign}")
    count, sides, modifier = int(count_s or 1), int(sides_s), int(mod_s or 0)
    if count == 0 or modifier > MAX_MODIFIER:
        raise DiceSpecError(f"{spec!r}: needs 1 to {MAX_DICE} dice and a modifier up to {MAX_MODIFIER}")
    try:
        return DiceExpr(count, sides, -modifier if sign == "-" else modifier)
    except DiceSpecError as exc:
        raise DiceSpecError(f"{spec!r}: {exc}") from None


# --- server dice (CONTRACT.md "Server dice") ---------------------------------

def commitment(seed: bytes) -> str:
    return hashlib.sha256(seed).hexdigest()


def server_faces(seed: bytes, game_id: str, counter: int, entropy_a: str,
                 entropy_b: str, count: int, sides: int) -> list[int]:
    """Faces of roll `counter`: HMAC-SHA256 byte stream with rejection sampling."""
    if not 1 <= sides <= 256:
        raise ValueError(f"server dice need 1..256 sides, got {sides}")
    if count < 0:
        raise ValueError(f"dice count must not be negative, got {count}")
    limit = 256 - 256 % sides  # bytes >= limit are skipped, so every face is equally likely
    faces: list[int] = []
    block = 0
    while len(faces) < count:
        msg = f"{game_id}:{counter}:{block}:{entropy_a}:{entropy_b}".encode()
        for b in hmac.new(seed, msg, hashlib.sha256).digest():
            if b < limit:
                faces.append(b % sides + 1)
                if len(faces) == count:
                    break
        block += 1
    return faces


# --- table dice ------------------------------------------------------------

def needs_text(expr: DiceExpr) -> str:
    if expr.count == 0:
        return f"no dice ({expr})"
    return f"{expr.count} {'die' if expr.count == 1 else 'dice'} of {expr.sides} sides ({expr})"


def _check_faces(dice: object, count: int, sides: int, needs: str) -> list[int]:
    if not isinstance(dice, (list, tuple)):
        raise TableDiceError(f"this roll needs {needs}, given as a list of numbers")
    if len(dice) != count:
        raise TableDiceError(f"this roll needs {needs}, got {len(dice)}")
    for i, face in enumerate(dice, 1):
        if isinstance(face, bool) or not isinstance(face, int):
            raise TableDiceError(f"die {i} is {face!r}, not a whole number; this roll needs {needs}")
        if not 1 <= face <= sides:
            raise TableDiceError(f"die {i} shows {face}, but a D{sides} shows 1 to {sides}")
    return list(dice)


def check_table_dice(expr: DiceExpr, dice: Sequence[int]) -> list[int]:
    return _check_faces(dice, expr.count, expr.sides, needs_text(expr))


# --- reading results ---------------------------------------------------------

def is_double(faces: Sequence[int]) -> bool:  # CORE.DICE.4
    return any(list(faces).count(f) >= 2 for f in set(faces))


def is_triple(faces: Sequence[int]) -> bool:  # CORE.DICE.4
    return any(list(faces).count(f) >= 3 for f in set(faces))


def highest_indexes(faces: Sequence[int]) -> list[int]:  # CORE.DICE.5
    return [i for i, f in enumerate(faces) if f == max(faces)] if faces else []


def lowest_indexes(faces: Sequence[int]) -> list[int]:  # CORE.DICE.5
    return [i for i, f in enumerate(faces) if f == min(faces)] if faces else []


def pick(faces: Sequence[int], index: int, among: Sequence[int]) -> int:
    """CORE.DICE.5: the active player picks which of the tied dice counts."""
    if index not in among:
        raise ValueError(f"die {index} is not one of the dice to choose from {list(among)}")
    return faces[index]


def roll_off_winner(face_a: int, face_b: int) -> str | None:
    """CORE.DICE.3: highest D6 wins; None on a tie (roll again)."""
    return None if face_a == face_b else ("A" if face_a > face_b else "B")


# --- roll records ------------------------------------------------------------

@dataclass(frozen=True)
class Die:
    face: int
    sides: int
    rerolled: bool = False  # this die is itself a re-roll
    replaced: bool = False  # this die was re-rolled; its face no longer counts
    critical: bool = False


class DieData(TypedDict):
    """One die of a roll as `Roll.to_data` writes it."""

    face: int
    sides: int
    rerolled: bool
    replaced: bool
    critical: bool


class RollData(TypedDict):
    """A roll as `Roll.to_data` writes it and `roll_from_data` reads it back."""

    spec: str
    faces: list[int]
    total: int | None
    dice: list[DieData]
    automatic: bool
    treated_as: int | None


@dataclass(frozen=True)
class Roll:
    expr: DiceExpr
    dice: tuple[Die, ...] = ()
    automatic: bool = False  # CORE.DICE.1
    treated_as: int | None = None  # CORE.DICE.6

    @property
    def counting(self) -> list[Die]:
        return [d for d in self.dice if not d.replaced]

    @property
    def faces(self) -> list[int]:
        return [d.face for d in self.counting]

    @property
    def total(self) -> int | None:
        if self.automatic:  # CORE.DICE.1: not rolled, no result
            return None
        if self.treated_as is not None:  # CORE.DICE.6
            return self.treated_as
        return sum(self.faces) + self.expr.modifier  # CORE.DICE.2: modifiers after re-rolls

    def to_data(self) -> RollData:
        return {
            "spec": str(self.expr),
            "faces": self.faces,
            "total": self.total,
            "dice": [{"face": d.face, "sides": d.sides, "rerolled": d.rerolled,
                      "replaced": d.replaced, "critical": d.critical} for d in self.dice],
            "automatic": self.automatic,
            "treated_as": self.treated_as,
        }


def roll_from_data(data: RollData) -> Roll:  # inverse of Roll.to_data
    dice = tuple(Die(d["face"], d["sides"], d["rerolled"], d["replaced"], d["critical"])
                 for d in data["dice"])
    return Roll(parse(data["spec"]), dice, data["automatic"], data["treated_as"])


def roll_from_faces(expr: DiceExpr, faces: Sequence[int]) -> Roll:
    faces = check_table_dice(expr, faces)
    return Roll(expr, tuple(Die(f, expr.sides) for f in faces))


def server_roll(seed: bytes, game_id: str, counter: int, entropy_a: str,
                entropy_b: str, expr: DiceExpr) -> Roll:
    return roll_from_faces(expr, server_faces(seed, game_id, counter, entropy_a, entropy_b,
                                              expr.count, expr.sides))


def automatic_success(expr: DiceExpr) -> Roll:
    """CORE.DICE.1: not rolled, so no dice, no total, no critical."""
    return Roll(expr, (), automatic=True)


def reroll(roll: Roll, indexes: Sequence[int], new_faces: Sequence[int]) -> Roll:
    """CORE.DICE.2: re-roll the counting dice at `indexes` (positions in roll.faces)."""
    if roll.automatic:
        raise ValueError("an automatic success was not rolled, so it cannot be re-rolled")
    if roll.treated_as is not None:
        raise ValueError("re-rolls happen before a result is treated as another value")
    counting = roll.counting
    if not counting:
        raise ValueError(f"{roll.expr} has no dice to re-roll")
    chosen = list(indexes)
    if not chosen or len(set(chosen)) != len(chosen):
        raise ValueError("name each die to re-roll once")
    for i in chosen:
        if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < len(counting):
            raise ValueError(f"no die {i!r} in this roll of {len(counting)} dice")
    if roll.expr.count > 1 and sorted(chosen) != list(range(len(counting))):
        raise ValueError(f"a {roll.expr} re-rolls all its dice")  # CORE.DICE.2
    for i in chosen:
        if counting[i].rerolled:  # CORE.DICE.2: no die is re-rolled more than once
            raise ValueError(f"die {i} is already a re-roll and cannot be re-rolled again")
    sides = roll.expr.sides
    noun = "die" if len(chosen) == 1 else "dice"
    faces = _check_faces(new_faces, len(chosen), sides,
                         f"{len(chosen)} {noun} of {sides} sides for the re-roll")
    positions = [j for j, d in enumerate(roll.dice) if not d.replaced]  # counting -> dice
    old = {positions[i] for i in chosen}
    dice = tuple(replace(d, replaced=True, critical=False) if j in old else d
                 for j, d in enumerate(roll.dice))
    return replace(roll, dice=dice + tuple(Die(f, sides, rerolled=True) for f in faces))


def treat_as(roll: Roll, value: int) -> Roll:
    """CORE.DICE.6: the result counts as `value` (may exceed 6)."""
    if roll.automatic:
        raise ValueError("an automatic success has no result to treat as another value")
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"a result is treated as a whole number, got {value!r}")
    return replace(roll, treated_as=value)


def mark_criticals(roll: Roll, on: int = 6) -> Roll:
    """Mark counting D6 dice whose unmodified face is >= `on` (CORE.DICE.1: never automatic ones)."""
    if not 1 <= on <= 6:
        raise ValueError(f"a critical needs an unmodified 1..6, got {on}")
    dice = tuple(replace(d, critical=not d.replaced and d.sides == 6 and d.face >= on)
                 for d in roll.dice)
    return replace(roll, dice=dice)


def first_unfair_roll(entries: Sequence[ev.Entry], seed: bytes) -> int | None:
    """The seq of the first server roll whose recorded faces are not what the revealed seed derives
    (CONTRACT.md "Server dice"), or None when every one holds. `entries`: a game's log, oldest first."""
    if not entries:
        return None
    game_id = entries[0]["data"]["game_id"]
    entropy = {"A": "", "B": ""}
    for entry in entries:
        if entry["type"] == "EntropyAdded":
            entropy[entry["data"]["seat"]] = entry["data"]["entropy"]
    for entry in entries:
        data = entry["data"]
        if "counter" not in data:
            continue
        faces = server_faces(seed, game_id, data["counter"], entropy["A"], entropy["B"], len(data["faces"]),
                             data["sides"])
        if faces != data["faces"]:
            seq: int = entry["seq"]
            return seq
    return None
