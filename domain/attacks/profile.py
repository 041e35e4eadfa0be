"""What an attack is made of: the weapon, the attacker's situation and the target (frozen values).

Nothing here rolls or decides; `steps` and `sequence` read these values. Keywords are parsed
once (`abilities.parse_keywords`) so that `weapon.has("LETHAL HITS")` is a set lookup.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from warlog.domain import dice
from warlog.domain.attacks.abilities import Keyword, parse_keywords
from warlog.domain.attacks.tables import MODERN, TABLES

ROLLED = ("ones", "failed")  # re-roll policies: which dice of a roll the attacker re-rolls (CORE.DICE.2)


@dataclass(frozen=True)
class Weapon:
    name: str
    A: str = "1"  # a dice expression per model (RS.SHO.2 / RS.FGT.3)
    skill: int = 4  # BS or WS (RS.ATK.1)
    S: int = 4
    AP: int = 0
    D: str = "1"  # a dice expression per failed save (RS.ATK.4)
    keywords: tuple[Keyword, ...] = ()
    melee: bool = False  # RS.FGT.3 (skill is WS) rather than RS.SHO.2 (BS)

    @classmethod
    def of(cls, name: str = "weapon", *, A: str | int = "1", skill: int = 4, S: int = 4, AP: int = 0, D: str | int = "1",
           keywords: Iterable[str] = (), melee: bool = False) -> Weapon:
        """A weapon as a roster writes it: `keywords` are strings such as "[SUSTAINED HITS 1]"."""
        return cls(name, str(A), skill, S, AP, str(D), parse_keywords(keywords), melee)

    def get(self, name: str) -> Keyword | None:
        return next((k for k in self.keywords if k.name == name and k.known), None)

    def has(self, name: str) -> bool:
        return self.get(name) is not None

    @property
    def attacks(self) -> dice.DiceExpr:
        return dice.parse(self.A)

    @property
    def damage(self) -> dice.DiceExpr:
        return dice.parse(self.D)


@dataclass(frozen=True)
class Situation:
    """The attacker's side, as attested by the players (CORE.DIST.1)."""

    models: int = 1  # models attacking with this weapon
    remained_stationary: bool = False  # EXT.WPN.HEAVY
    charged: bool = False  # EXT.WPN.LANCE: made a charge move this turn
    within_half_range: bool = False  # EXT.WPN.RAPID, EXT.WPN.MELTA
    target_engaged_with_friendly: bool = False  # EXT.WPN.BLAST never applies then
    hit_modifier: int = 0  # other modifiers (cover, abilities); capped with HEAVY (EXT.MOD.1)
    wound_modifier: int = 0  # capped with LANCE (EXT.MOD.1)
    reroll_hits: str | None = None  # "ones" or "failed" (a rule the attacker has, CORE.DICE.2)
    reroll_wounds: str | None = None  # "ones" or "failed"; TWIN-LINKED gives "failed"
    critical_hit_on: int = 6  # an unmodified roll at or above this is a critical hit (RS.ATK.1)
    attacker_keywords: frozenset[str] = frozenset()  # EXT.WPN.HAZARDOUS: CHARACTER/MONSTER/VEHICLE
    precision_line: int | None = None  # EXT.WPN.PRECISION: the CHARACTER line the attacker picks
    defender_allocates: bool = False  # RS.ATK.3: the defender picks among tied groups as the attack goes ("allocate")
    snap_shots: bool = False  # heresy tables: snap shots hit only on a 6 (HH.RES.4)
    hazard_after: bool = False  # EXT.WPN.HAZARDOUS: rolled once after the weapon's last target (RS.SHO.2), not here

    def __post_init__(self) -> None:
        for policy in (self.reroll_hits, self.reroll_wounds):
            if policy not in (None, *ROLLED):
                raise ValueError(f"a re-roll policy is one of {ROLLED} or None, not {policy!r}")
        if self.models < 0:
            raise ValueError("models attacking cannot be negative")


@dataclass(frozen=True)
class ModelLine:
    """Models of one statline in the target unit (a sergeant, a heavy weapon, an attached leader)."""

    name: str
    count: int  # models of this line still alive
    W: int = 1
    T: int = 4
    Sv: int | None = None  # None: no armour save
    InSv: int | None = None
    fnp: int | None = None  # EXT.FNP: FEEL NO PAIN X+ of these models
    keywords: frozenset[str] = frozenset()
    wounds_taken: int = 0  # wounds already lost by one model of this line (RS.ATK.3: allocated first)

    def __post_init__(self) -> None:
        if self.count < 0 or self.W < 1:
            raise ValueError("a model line has 0 or more models of at least 1 wound")
        if self.wounds_taken and not (self.count and 0 < self.wounds_taken < self.W):
            raise ValueError("the wounded model is alive and has lost fewer wounds than its W")

    @property
    def character(self) -> bool:
        return "CHARACTER" in self.keywords


@dataclass(frozen=True)
class Target:
    lines: tuple[ModelLine, ...]
    keywords: frozenset[str] = frozenset()  # the unit's (ANTI-KEYWORD reads them with its lines')
    fnp: int | None = None  # EXT.FNP for the whole unit; a line's own fnp wins
    order: tuple[int, ...] | None = None  # the defender's choice of allocation order (RS.ATK.3)
    WS: int | None = None  # heresy tables, melee: the foe's Weapon Skill the striker's is read against
    AV: int | None = None  # heresy tables: a vehicle's armour value on the facing hit (penetration rolls)

    def __post_init__(self) -> None:
        if not self.lines:
            raise ValueError("a target has at least one model line")

    @property
    def models(self) -> int:
        return sum(line.count for line in self.lines)

    @property
    def all_keywords(self) -> frozenset[str]:
        return self.keywords.union(*(line.keywords for line in self.lines if line.count))

    def fnp_of(self, index: int) -> int | None:
        return self.lines[index].fnp or self.fnp

    @property
    def toughness(self) -> int:
        """RS.ATK.2 convention: the T of the first living non-CHARACTER line (the bodyguard's), else the first."""
        alive = [line for line in self.lines if line.count]
        return next((line.T for line in alive if not line.character), alive[0].T if alive else self.lines[0].T)


@dataclass(frozen=True)
class Profile:
    """One weapon's attacks at one target: everything the dice are read against."""

    weapon: Weapon
    target: Target
    situation: Situation = field(default_factory=Situation)
    tables: str = MODERN  # the era's to-hit, to-wound and save tables (`tables`)

    def __post_init__(self) -> None:
        if self.tables not in TABLES:
            raise ValueError(f"tables are one of {TABLES}, not {self.tables!r}")


# -- as data (an event's or a pending roll's JSON) ----------------------------------------------------

# written only when set: the heresy tables' fields, and a field added since profiles were first logged
ERA_FIELDS = {"snap_shots": False, "WS": None, "AV": None, "tables": MODERN, "hazard_after": False}


def to_data(profile: Profile) -> dict[str, Any]:
    """The profile as plain JSON data; keywords as the roster wrote them. `from_data` reads it back.

    The fields only the heresy tables read, and `hazard_after` (`ERA_FIELDS`), are written only when they differ
    from their defaults, so a modern profile's data is what it was before they existed."""
    weapon, situation, target = profile.weapon, profile.situation, profile.target
    data = {
        "weapon": {"name": weapon.name, "A": weapon.A, "skill": weapon.skill, "S": weapon.S, "AP": weapon.AP,
                   "D": weapon.D, "keywords": [k.text for k in weapon.keywords], "melee": weapon.melee},
        "situation": _set({**{f.name: getattr(situation, f.name) for f in fields(situation)},
                           "attacker_keywords": sorted(situation.attacker_keywords)}),
        "target": _set({"lines": [{**{f.name: getattr(line, f.name) for f in fields(line)},
                                   "keywords": sorted(line.keywords)} for line in target.lines],
                        "keywords": sorted(target.keywords), "fnp": target.fnp,
                        "order": list(target.order) if target.order is not None else None,
                        "WS": target.WS, "AV": target.AV}),
    }
    return _set({**data, "tables": profile.tables})


def _set(data: dict[str, object]) -> dict[str, object]:
    return {k: v for k, v in data.items() if k not in ERA_FIELDS or v != ERA_FIELDS[k]}


_READ: list[tuple[Mapping[str, Any], Profile]] = []  # the profiles last read and the data they were read from: an
# attack's context carries one profile's data from its declaration through its rolls, each step reading it again


def from_data(data: Mapping[str, Any]) -> Profile:
    """The profile `to_data` wrote: its JSON, or the state's frozen copy of it (a paused attack's): the JSON
    boundary, read back key by key; read once while the data is the same value (never changed: JSON an event
    carries, or the state's frozen copy of it)."""
    for kept, profile in _READ:
        if kept is data:
            return profile
    made = _read_profile(data)
    _READ[:] = [(data, made), *_READ[:3]]
    return made


def _read_profile(data: Mapping[str, Any]) -> Profile:
    weapon = Weapon.of(**{k: v for k, v in data["weapon"].items()})
    situation = Situation(**{**data["situation"],
                             "attacker_keywords": frozenset(data["situation"]["attacker_keywords"])})
    target = data["target"]
    lines = tuple(ModelLine(**{**line, "keywords": frozenset(line["keywords"])}) for line in target["lines"])
    return Profile(weapon, Target(lines, frozenset(target["keywords"]), target["fnp"],
                                  tuple(target["order"]) if target["order"] is not None else None,
                                  target.get("WS"), target.get("AV")), situation, data.get("tables", MODERN))
