"""The game's whole state (`Game.state`): `GameState`, and the small values it holds.

`GameState.from_json(d).to_json() == d` for every state the rulesets make, key for key (values.py says how).
Which turn flags and step parts a game's units and steps hold depends on its ruleset: `parts_of(name)`.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from warlog.domain.state.steps import AlternatingStep, HeresyStep, OtherStep, ReferenceStep, StepState
from warlog.domain.state.turns import AlternatingTurn, HeresyTurn, OtherTurn, ReferenceTurn, Turn
from warlog.domain.state.units import Unit
from warlog.domain.state.values import (
    JSON,
    JSONV,
    Codec,
    Frozen,
    PerSeat,
    Record,
    load_record,
    map_of,
    nullable,
    per_seat,
    read_by_owner,
    record,
    replace,
    tuple_of,
)


@dataclass(frozen=True, slots=True)
class RulesetParts:
    """The classes of a ruleset's own parts of the state."""

    step: type[StepState]
    turn: type[Turn]


# The built-in rulesets' parts. A ruleset this module does not know keeps its own keys as JSON (`OtherStep`,
# `OtherTurn`); once the rulesets read typed values, each can name its parts on its class instead.
PARTS: dict[str, RulesetParts] = {
    "alternating": RulesetParts(AlternatingStep, AlternatingTurn),
    "reference": RulesetParts(ReferenceStep, ReferenceTurn),
    "heresy": RulesetParts(HeresyStep, HeresyTurn),
}
OTHER = RulesetParts(OtherStep, OtherTurn)


def parts_of(ruleset: str) -> RulesetParts:
    return PARTS.get(ruleset, OTHER)


@dataclass(frozen=True, slots=True, kw_only=True)
class Options(Record):
    """The game's options as created (`POST /games`); `objectives` and `actions` are absent from a game created
    without them (the domain's own defaults, `application.DEFAULT_OPTIONS`, name only the first three, which a
    game made by `Game.create` alone may lack: they are read with those defaults)."""

    CODECS: ClassVar[dict[str, Codec]] = {"objectives": tuple_of(), "actions": tuple_of()}
    OPTIONAL: ClassVar[frozenset[str]] = frozenset({"objectives", "actions", "clock_minutes", "clock_loses",
                                                 "one_reaction_per_round"})
    DEFAULTED: ClassVar[frozenset[str]] = frozenset({"battle_rounds", "reserves_from_round", "spectator_delay_s"})

    battle_rounds: int = 5
    reserves_from_round: int = 2
    spectator_delay_s: int = 0
    objectives: tuple[str, ...] | None = None  # the objective markers' names (EXT.OBJ.1, MSN.OBJ.1)
    actions: tuple[str, ...] | None = None  # reference: the actions a unit may start (RS.CMD.3)
    clock_minutes: int | None = None  # MSN.CLK.1: each seat's time; None: no chess clock
    clock_loses: bool | None = None  # MSN.CLK.1: a seat out of time loses at the end of its action
    one_reaction_per_round: bool | None = None  # heresy, HH.REACT.1: a unit reacts at most once a battle round


@dataclass(frozen=True, slots=True, kw_only=True)
class RollRequest(Record):
    """A roll the rules call for and await from a seat (`RollRequested`), in CORE.SEQ.1's order. `context` is
    what the roll will be read against, which differs by purpose (a morale test's `ld`; an attack roll's whole
    attack, `attacks.profile.to_data`'s JSON): JSON."""

    CODECS: ClassVar[dict[str, Codec]] = {"context": JSONV}

    seat: str
    purpose: str
    spec: str
    rule: str
    unit: str | None
    context: JSON


@dataclass(frozen=True, slots=True, kw_only=True)
class LastRoll(Record):
    """The last roll the state shows (`last_roll`; a free roll's is `last_free_roll`)."""

    CODECS: ClassVar[dict[str, Codec]] = {"faces": tuple_of(), "outcomes": tuple_of()}
    # what the roll means (domain/rolls.py): None where its event was logged before rolls said so, and for a
    # `needed` or `successes` the roll has none of (GET /state shows null either way)
    OPTIONAL: ClassVar[frozenset[str]] = frozenset({"needed", "outcomes", "successes", "text"})

    seq: int
    purpose: str
    faces: tuple[int, ...]
    total: int | None
    seat: str | None
    unit: str | None
    needed: int | None = None
    outcomes: tuple[str, ...] | None = None
    successes: int | None = None
    text: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class RoundHead(Record):
    """The head each seat may keep at a battle round's end (`verify?head=`)."""

    battle_round: int
    seq: int                                     # the seq of the round's last event before BattleRoundEnded
    head_hash: str                               # that event's hash: the head a seat keeps


@dataclass(frozen=True, slots=True, kw_only=True)
class Clock(Record):
    """MSN.CLK.1 (rules/clock.py): each seat's seconds used, counted up to the time of the entry `at`."""

    CODECS: ClassVar[dict[str, Codec]] = {"used": per_seat()}

    used: PerSeat[float]
    at: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Result(Record):
    """How the game ended (RULES.md MSN, rules/results.py): who won or a draw, how it was decided, the score that
    decided it and the rule."""

    CODECS: ClassVar[dict[str, Codec]] = {"score": per_seat()}

    reason: str
    winner: str | None
    draw: bool
    by: str
    score: PerSeat[int]
    rule: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Combat(Record):
    """Alternating, AA.CC: the units locked in one combat, and whether it has been fought this round."""

    CODECS: ClassVar[dict[str, Codec]] = {"units": tuple_of()}

    units: tuple[str, ...]
    fought: bool


SEATS = per_seat()
def _dump_units(units: Frozen[str, Unit]) -> dict[str, dict[str, Any]]:
    return {uid: unit.to_json() for uid, unit in units.items()}


def _dump_step(step: StepState | None) -> dict[str, Any]:
    return {} if step is None else step.to_json()


UNITS = read_by_owner(_dump_units, "the turns' class")
STEP = read_by_owner(_dump_step, "the step's class")


@dataclass(frozen=True, slots=True, kw_only=True)
class GameState(Record):
    """The game as its events have made it, in the order `GameCreated` writes its keys, then the keys some
    games gain later (absent until then). `players` keeps the order the game was created with (GET /state
    shows it as it is); `units` the order the armies were mustered in."""

    CODECS: ClassVar[dict[str, Codec]] = {
        "players": map_of(), "options": record(Options), "pass_points": SEATS, "declared_done": SEATS, "cp": SEATS,
        "entropy": SEATS, "mustered": SEATS, "units": UNITS, "step": STEP, "rolls": tuple_of(record(RollRequest)),
        "combats": map_of(record(Combat)), "result": nullable(record(Result)),
        "last_roll": nullable(record(LastRoll)), "destroyed": tuple_of(), "last_free_roll": record(LastRoll),
        "round_heads": tuple_of(record(RoundHead)), "turn_order": tuple_of(), "vp": SEATS,
        "shooting_included": map_of(), "clock": record(Clock)}
    OPTIONAL: ClassVar[frozenset[str]] = frozenset(
        {"last_free_roll", "round_heads", "turn_order", "vp", "shooting_included", "edition", "clock"})

    game_id: str
    ruleset: str
    players: Frozen[str, str]  # seat -> the player's name
    dice: str  # "server" or "table"
    options: Options
    dice_commitment: str | None
    status: str  # setup, in_progress, ended
    battle_round: int
    phase: str | None
    sub_phase: str | None
    active_seat: str | None
    pos: int | None  # the step's position in the round's layout
    pass_points: PerSeat[int]
    declared_done: PerSeat[bool]
    cp: PerSeat[int]
    entropy: PerSeat[str]
    mustered: PerSeat[bool]
    units: Frozen[str, Unit]
    step: StepState | None  # None: `{}`, before the first step starts
    rolls: tuple[RollRequest, ...]
    combats: Frozen[str, Combat]  # alternating: combat id -> combat
    result: Result | None
    last_roll: LastRoll | None
    destroyed: tuple[str, ...]
    # kept once something sets them
    turn_order: tuple[str, ...] | None = None  # reference, heresy: the seats in the order they take turns
    shooting_included: Frozen[str, str] | None = None  # alternating, AA.PP: unit -> why the count included it
    round_heads: tuple[RoundHead, ...] | None = None
    vp: PerSeat[int] | None = None  # EXT.VP.1 (reference; a plugin's score)
    last_free_roll: LastRoll | None = None  # the overlay's; not part of GET /state
    edition: int | None = None  # the rules' edition it was created under; None: 1 (rules/editions.py)
    clock: Clock | None = None  # MSN.CLK.1: from the start on (rules/clock.py)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        """The state read from its JSON (a snapshot's, a restore's: the state codec's JSON boundary)."""
        parts = parts_of(data["ruleset"])
        step = parts.step.from_json(data["step"]) if data["step"] else None
        units = Frozen({uid: Unit.from_json(unit, parts.turn) for uid, unit in data["units"].items()})
        return load_record(cls, data, step=step, units=units)

    @property
    def parts(self) -> RulesetParts:
        return parts_of(self.ruleset)

    def with_unit(self, uid: str, unit: Unit) -> GameState:
        return replace(self, units=self.units.set(uid, unit))

    def with_units(self, change: Callable[[Unit], Unit]) -> GameState:
        """Every unit changed alike (a new round's fresh turns, a new step's selections cleared)."""
        return replace(self, units=Frozen({uid: change(unit) for uid, unit in self.units.items()}))
