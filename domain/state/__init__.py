"""The game's state as typed, immutable values (frozen dataclasses with slots), read from and written to the
JSON the log stores (undo's restore events, snapshots) exactly as the dict-of-dicts state made it.

`values` the building blocks (`Frozen`, `PerSeat`, `JSON`, `Record`); `units` a unit and its lines and weapons;
`turns` a unit's turn flags, a class a ruleset; `steps` the step under way and each ruleset's parts of it;
`game` the whole `GameState` and the small values it holds.
"""
from warlog.domain.state.game import (
    OTHER,
    PARTS,
    Clock,
    Combat,
    GameState,
    LastRoll,
    Options,
    Result,
    RollRequest,
    RoundHead,
    RulesetParts,
    parts_of,
)
from warlog.domain.state.steps import (
    AlternatingCharge,
    AlternatingStep,
    Claims,
    HeresyFight,
    HeresyStep,
    OtherStep,
    ReferenceCharge,
    ReferenceFight,
    ReferenceStep,
    RollOff,
    StepState,
    Window,
)
from warlog.domain.state.turns import AlternatingTurn, HeresyTurn, OtherTurn, ReferenceTurn, Reroll, Turn
from warlog.domain.state.units import STATUS_NAMES, Armour, Effect, Lines, ModelLine, Status, Transport, Unit, Weapon
from warlog.domain.state.values import ABSENT, JSON, Absent, Frozen, PerSeat, Record, freeze, thaw

__all__ = [
    "ABSENT",
    "JSON",
    "OTHER",
    "PARTS",
    "STATUS_NAMES",
    "Absent",
    "AlternatingCharge",
    "AlternatingStep",
    "AlternatingTurn",
    "Armour",
    "Claims",
    "Clock",
    "Combat",
    "Effect",
    "Frozen",
    "GameState",
    "HeresyFight",
    "HeresyStep",
    "HeresyTurn",
    "LastRoll",
    "Lines",
    "ModelLine",
    "Options",
    "OtherStep",
    "OtherTurn",
    "PerSeat",
    "Record",
    "ReferenceCharge",
    "ReferenceFight",
    "ReferenceStep",
    "ReferenceTurn",
    "Reroll",
    "Result",
    "RollOff",
    "RollRequest",
    "RoundHead",
    "RulesetParts",
    "Status",
    "StepState",
    "Transport",
    "Turn",
    "Unit",
    "Weapon",
    "Window",
    "freeze",
    "parts_of",
    "thaw",
]
