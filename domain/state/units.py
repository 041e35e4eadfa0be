"""A unit as the state keeps it: the contract's Unit as the army was mustered (`models`, `weapons`, ...) and
the counters the game keeps beside it (`models_alive`, `wounds_lost`, `statuses`, `turn`, ...).

These are the roster's values. The attack sequence reads its own (`attacks.profile.Weapon`, `ModelLine`,
`Target`: a weapon's parsed keywords, a target line's wounds taken), which the attack driver builds from
these; a paused or awaited attack keeps them as their JSON (`attacks.profile.to_data`), a `JSON` value here.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, Self, cast, get_args

from warlog.domain.state.turns import OtherTurn, Turn
from warlog.domain.state.values import (
    Codec,
    Frozen,
    Record,
    load_record,
    nullable,
    read_by_owner,
    record,
    replace,
    tuple_of,
)

Status = Literal["battle_shocked", "engaged", "falling_back", "gone_to_ground", "immobilised", "locked_in_combat",
                 "no_weapons_left", "pinned", "regrouped", "routed", "stationary", "suppressed"]
STATUS_NAMES: frozenset[str] = frozenset(get_args(Status))  # domain.army.STATUSES (tests/unit/test_state_values)


def _status(value: object) -> Status:
    if value not in STATUS_NAMES:
        raise ValueError(f"{value!r} is no status")
    return cast(Status, value)  # one of the names


STATUS = Codec(_status, lambda v: v)
SINCE = Codec(lambda v: Frozen({_status(k): tuple(x) for k, x in v.items()}),
              lambda v: {k: list(x) for k, x in v.items()})  # heresy: status -> the turn stamp it was gained at


@dataclass(frozen=True, slots=True, kw_only=True)
class Armour(Record):
    """Older editions' vehicle armour, facing by facing."""

    front: int                                   # the Armour Value of each facing, as the datasheet gives it
    side: int
    rear: int


@dataclass(frozen=True, slots=True, kw_only=True)
class ModelLine(Record):
    """`count` identical models of the unit, with the contract's characteristics (null: not stated)."""

    CODECS: ClassVar[dict[str, Codec]] = {"armour": nullable(record(Armour))}
    DEFAULTED: ClassVar[frozenset[str]] = frozenset(
        {"count", "M", "T", "Sv", "InSv", "W", "Ld", "OC", "BS", "WS", "I", "A", "hull_points", "armour"})

    name: str
    count: int = 1
    M: int | None = None
    T: int | None = None
    Sv: int | None = None
    InSv: int | None = None
    W: int = 1
    Ld: int | None = None
    OC: int | None = None
    BS: int | None = None
    WS: int | None = None
    I: int | None = None  # noqa: E741 -- the profile's Initiative, named as the contract names it
    A: int | None = None
    hull_points: int | None = None
    armour: Armour | None = None

    @property
    def wounds(self) -> int:
        """The W of one model of the line: a vehicle's hull points where it has them (`army.model_wounds`)."""
        return self.hull_points or self.W


@dataclass(frozen=True, slots=True, kw_only=True)
class Weapon(Record):
    """A weapon as the roster states it (`A` and `D` dice expressions; `skill` its BS or WS)."""

    CODECS: ClassVar[dict[str, Codec]] = {"keywords": tuple_of()}
    DEFAULTED: ClassVar[frozenset[str]] = frozenset({"range", "A", "skill", "S", "AP", "D", "kind", "keywords"})

    name: str
    type: Literal["ranged", "melee"]
    range: int | None = None
    A: str = "1"
    skill: int | None = None
    S: int | None = None
    AP: int | None = None
    D: str = "1"
    kind: str | None = None  # rapid_fire, heavy, assault, pistol, salvo
    keywords: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Transport(Record):
    DEFAULTED: ClassVar[frozenset[str]] = frozenset({"fire_points"})

    capacity: int
    fire_points: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class Lines(Record):
    """After an attack, the unit's model lines as it left them: models alive and the wounds one model of each
    line has taken (the next attack's `line_standing` reads them, RS.ATK.3)."""

    CODECS: ClassVar[dict[str, Codec]] = {"alive": tuple_of(), "taken": tuple_of()}

    alive: tuple[int, ...]
    taken: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Effect(Record):
    """Reference, CORE.PER.1/2: what lasts on the unit for a while (a stratagem's, a status for a stated time)."""

    CODECS: ClassVar[dict[str, Codec]] = {"status": nullable(STATUS)}

    effect: str
    status: Status | None
    by: str
    until: str
    stated: bool
    seq: int  # the event that started it
    battle_round: int
    phase: str


CONTRACT_DEFAULTS = frozenset({"keywords", "abilities", "weapons", "transport", "embarked_in", "in_reserves",
                               "leader_of", "statuses", "engaged_with"})


def _dump_turn(turn: Turn) -> dict[str, Any]:
    return turn.to_json()


@dataclass(frozen=True, slots=True, kw_only=True)
class Unit(Record):
    """The contract's Unit (id .. points), then the game's counters, then the keys only some rulesets keep."""

    CODECS: ClassVar[dict[str, Codec]] = {
        "keywords": tuple_of(), "abilities": tuple_of(), "models": tuple_of(record(ModelLine)),
        "weapons": tuple_of(record(Weapon)), "transport": nullable(record(Transport)),
        "statuses": tuple_of(STATUS), "engaged_with": tuple_of(),
        "turn": read_by_owner(_dump_turn, "its ruleset's class"), "since": SINCE,
        "lines": record(Lines), "effects": tuple_of(record(Effect))}
    # keys the state holds only once something set them (`wounds_lost`: a state older than its counter)
    OPTIONAL: ClassVar[frozenset[str]] = frozenset(
        {"points", "wounds_lost", "ongoing", "since", "lines", "model_damage", "split_into", "split_from",
         "effects"})
    DEFAULTED: ClassVar[frozenset[str]] = CONTRACT_DEFAULTS

    # the contract's Unit, as mustered
    id: str
    name: str
    keywords: tuple[str, ...] = ()
    abilities: tuple[str, ...] = ()
    models: tuple[ModelLine, ...]
    weapons: tuple[Weapon, ...] = ()
    transport: Transport | None = None
    embarked_in: str | None = None
    in_reserves: bool = False
    leader_of: str | None = None
    statuses: tuple[Status, ...] = ()  # sorted (the game keeps them so)
    engaged_with: tuple[str, ...] = ()
    points: int | None = None  # MSN.END.1: only where the army list states them
    # the game's counters
    owner: str
    models_alive: int
    starting_strength: int
    wounds_lost: int | None = None
    arriving: bool
    selected: bool
    turn: Turn
    # kept by some rulesets, once something sets them
    ongoing: bool | None = None  # alternating, AA.RES.1: gone into ongoing reserves
    since: Frozen[Status, tuple[int, ...]] | None = None  # heresy: the turn stamp each status was gained at
    effects: tuple[Effect, ...] | None = None  # reference, CORE.PER.1
    lines: Lines | None = None  # reference, heresy: the lines as the last attack left them
    model_damage: int | None = None  # reference, heresy: wounds on the damaged model, known only as a count
    split_into: str | None = None  # reference, CORE.SPL.1
    split_from: str | None = None

    @classmethod
    def from_json(cls, data: Mapping[str, Any], turn_type: type[Turn] = OtherTurn) -> Self:
        """The unit read from the state's JSON (the state codec's JSON boundary). `turn_type`: the class of its
        ruleset's turn flags (`parts_of(ruleset).turn`)."""
        return load_record(cls, data, turn=turn_type.from_json(data["turn"]))

    @classmethod
    def mustered(cls, seat: str, data: Mapping[str, Any], turn_type: type[Turn] = OtherTurn) -> Self:
        """The unit a seat's army brings (`ArmyMustered`), as `army.new_unit_state` makes it: `data` is the unit's
        JSON as sent (the JSON boundary)."""
        models = sum(line.get("count", 1) for line in data["models"])
        return load_record(cls, {**data, "statuses": sorted(set(data.get("statuses", []))), "owner": seat,
                                 "models_alive": models, "starting_strength": models, "wounds_lost": 0,
                                 "arriving": False, "selected": False}, turn=turn_type())

    @property
    def model_count(self) -> int:
        """Models of the army list's lines (`army.model_count`), dead or alive."""
        return sum(line.count for line in self.models)

    @property
    def total_wounds(self) -> int:
        """The wounds of one model of its first line (`army.total_wounds`): a one-model unit's W."""
        return self.models[0].wounds

    def with_casualties(self, models: int, wounds: int) -> Unit:
        """CORE.STR: `models` removed and `wounds` lost (`CasualtiesRecorded`); a one-model unit that has lost
        its every wound is destroyed."""
        lost = (self.wounds_lost or 0) + wounds
        alive = max(0, self.models_alive - models)
        if self.starting_strength == 1 and lost >= self.total_wounds:
            alive = 0
        return replace(self, models_alive=alive, wounds_lost=lost)

    def with_status(self, status: Status) -> Unit:
        """`StatusGained`: the statuses stay sorted."""
        return replace(self, statuses=tuple(sorted((*self.statuses, status))))

    def without_status(self, status: Status) -> Unit:
        """`StatusLost`: one occurrence removed, if it has it."""
        if status not in self.statuses:
            return self
        at = self.statuses.index(status)
        return replace(self, statuses=self.statuses[:at] + self.statuses[at + 1:])

    def with_fresh_turn(self) -> Unit:
        """A new turn (battle round): none of its ruleset's flags set."""
        return replace(self, turn=type(self.turn)())
