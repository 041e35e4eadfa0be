"""The payloads of the events only `reference` logs (domain/events.py: the shared kinds, and how these are used)."""

from typing import NotRequired

from typing_extensions import TypedDict

from warlog.domain.events import AttackIds, AttackStep, JSONObject, JSONValue, ModelLines, RollNeeded
from warlog.domain.rules.objectives import VictoryPointsScored as VictoryPointsScored  # EXT.VP.1, as MSN.OBJ.1's


class AllocationChoice(TypedDict):
    """RS.ATK.3: a group the defender may pick to take the next wounds: its model line and the model's name."""

    line: int
    model: str


class Control(TypedDict):
    """EXT.OBJ.1: one marker: each seat's OC within range, the units counted, the seat controlling it (or none)."""

    oc: dict[str, int]
    units: list[str]
    controlled_by: str | None


class RerolledDie(TypedDict):
    """EXT.CP.1: the attack roll a Command Re-roll re-rolled: its step, the die's place in the batch, its faces."""

    step: str
    die: int
    was: list[int]


class ActionCompleted(TypedDict):
    unit: str
    action: str
    at: str


class ActionFailed(TypedDict):
    unit: str
    action: str
    reason: str


class ActionStarted(TypedDict):
    unit: str
    seat: str
    action: str
    completes: str
    rules: list[str]


class AdvanceRolled(TypedDict):
    unit: str
    total: int
    max_move: int
    rerolled: bool
    rerollable: bool


class AllocationChosen(AttackIds):
    seat: str
    line: int
    model: str


class AllocationOffered(AttackIds):
    kind: str
    seat: str
    unit: str
    step: str
    choices: list[AllocationChoice]
    need: list[str | int | list[int] | None]
    attack_roll: JSONObject


class AttackRollKept(AttackStep):
    seat: str
    batch: list[int]


class AttackRollRerolled(AttackStep):
    die: int
    was: list[int]
    now: list[int]
    batch: list[int]
    rules: list[str]


class BattleShockTested(TypedDict):
    unit: str
    total: int
    ld: int
    passed: bool
    strength: str
    rerolled: bool
    rerollable: bool
    rules: list[str]


class CommandPointGained(TypedDict):
    seat: str
    cp: int


class CommandRerollOffered(AttackIds):
    kind: str
    seat: str
    unit: str
    step: str
    batch: list[int]
    choices: list[int]
    need: list[str | int | list[JSONValue] | None]
    attack_roll: JSONObject


class Consolidated(TypedDict):
    unit: str
    mode: str
    distance: NotRequired[str]
    targets: NotRequired[list[str]]
    objective: NotRequired[str]


class DamageAllocated(TypedDict):
    unit: str
    damage: list[int]
    applied: int
    models_destroyed: int
    model_damage: int
    mortal: bool
    lines: ModelLines


class EffectEnded(TypedDict):
    unit: str
    effect: str
    until: str
    started_seq: int
    reason: str


class EffectStarted(TypedDict):
    unit: str
    effect: str
    status: str | None
    by: str
    until: str
    stated: bool
    battle_round: int
    phase: str | None
    active_seat: str | None  # null: recorded in the roll-off for the first turn, before any seat's turn
    reason: NotRequired[str]


EngagementEnded = TypedDict("EngagementEnded", {"unit": str, "with": list[str], "reason": str})


class FightEligible(TypedDict):
    units: list[str]
    reason: str


class FightStageEnded(TypedDict):
    stage: str
    next: str


class FightsFirstGained(TypedDict):
    unit: str
    until: str


class GroupAllocated(AttackStep):
    line: int
    model: str
    among: list[int]


class HazardsRolled(RollNeeded):
    unit: str
    failures: int
    mortal_wounds: int


class ModelsRevived(TypedDict):
    unit: str
    models: int
    reason: str
    attested: str
    attested_by: str


class MortalWoundsInflicted(AttackStep):
    mortal_wounds: int
    wounds_lost: int
    models_destroyed: int
    feel_no_pain_dice: int
    rules: NotRequired[list[str]]  # logged only where more than the entry's own rule decided it (a Feel No Pain)


class MortalWoundsIgnored(RollNeeded):
    """EXT.FNP outside an attack: the unit's Feel No Pain against `mortal_wounds` dealt by `cause` (a rule)."""

    unit: str
    mortal_wounds: int
    ignored: int
    lost: int
    cause: str


class ObjectivesControlled(TypedDict):
    seat: str
    objectives: dict[str, Control]
    attested_by: str


class PiledIn(TypedDict):
    unit: str
    distance: str


class StratagemUsed(TypedDict):
    seat: str
    name: str
    unit: str
    cp: int
    cp_left: int
    rules: NotRequired[list[str]]
    roll: NotRequired[RerolledDie]


class SustainedHitsScored(AttackStep):
    criticals: int
    extra_hits: int


class TurnStarted(TypedDict):
    seat: str
    battle_round: int
    expired: list[str]


class UnitEmbarked(TypedDict):
    unit: str
    transport: str
    attested: str


class UnitFought(TypedDict):
    unit: str
    seat: str


class UnitSplit(TypedDict):
    unit: str
    new_unit: str
    seat: str
    moved: list[int]
    kept: list[int]
    models: int
    new_models: int
    rules: list[str]


UnitsEngaged = TypedDict("UnitsEngaged", {"units": list[str], "with": list[str], "reason": str})


EVENTS: dict[str, type] = {  # its own kinds; with domain/events.py's SHARED, all it logs
    "ActionCompleted": ActionCompleted,
    "ActionFailed": ActionFailed,
    "ActionStarted": ActionStarted,
    "AdvanceRolled": AdvanceRolled,
    "AllocationChosen": AllocationChosen,
    "AllocationOffered": AllocationOffered,
    "AttackRollKept": AttackRollKept,
    "AttackRollRerolled": AttackRollRerolled,
    "BattleShockTested": BattleShockTested,
    "CommandPointGained": CommandPointGained,
    "CommandRerollOffered": CommandRerollOffered,
    "Consolidated": Consolidated,
    "DamageAllocated": DamageAllocated,
    "EffectEnded": EffectEnded,
    "EffectStarted": EffectStarted,
    "EngagementEnded": EngagementEnded,
    "FightEligible": FightEligible,
    "FightStageEnded": FightStageEnded,
    "FightsFirstGained": FightsFirstGained,
    "GroupAllocated": GroupAllocated,
    "HazardsRolled": HazardsRolled,
    "ModelsRevived": ModelsRevived,
    "MortalWoundsIgnored": MortalWoundsIgnored,
    "MortalWoundsInflicted": MortalWoundsInflicted,
    "ObjectivesControlled": ObjectivesControlled,
    "PiledIn": PiledIn,
    "StratagemUsed": StratagemUsed,
    "SustainedHitsScored": SustainedHitsScored,
    "TurnStarted": TurnStarted,
    "UnitEmbarked": UnitEmbarked,
    "UnitFought": UnitFought,
    "UnitSplit": UnitSplit,
    "UnitsEngaged": UnitsEngaged,
    "VictoryPointsScored": VictoryPointsScored,
}
