"""The payloads of the events only `alternating` logs (domain/events.py: the shared kinds, and how these are used)."""

from typing import NotRequired

from typing_extensions import TypedDict

from warlog.domain.events import JSONObject, RollNeeded


class CountedUnit(TypedDict):
    """AA.PP.1: a unit a seat's claim left out of the count or put in it, by whom and why."""

    unit: str
    seat: str
    by: str
    reason: str
    service_reason: NotRequired[str]


class BlastHitResolved(TypedDict):
    unit: str
    strength: int
    weapon_strength: int
    centre_over_hull: bool
    attested_by: str


class ChargeRollCalled(TypedDict):
    unit: str
    seat: str


class RollWithdrawn(TypedDict):
    """AA.CHG.1, AA.MOV.2: the roll awaited for a unit that is gone (`ChargeRollWithdrawn`: a charger's charge
    roll; `RegroupRollWithdrawn`: a fleeing unit's regroup roll), withdrawn."""

    unit: str
    seat: str
    reason: str


class CombatEnded(TypedDict):
    combat: str
    units: list[str]
    reason: str


class CombatFought(TypedDict):
    combat: str
    chosen: str
    seat: str
    units: list[str]


class CombatJoined(TypedDict):
    units: list[str]
    reason: str


class CountConfirmed(TypedDict):
    seat: str
    sub_phase: str | None
    exclude: dict[str, str]
    include: dict[str, str]


class DeclaredDone(TypedDict):
    seat: str
    sub_phase: str | None



class OngoingReservesEntered(TypedDict):
    unit: str
    reason: str
    attested_by: str


class OverwatchFired(TypedDict):
    unit: str
    against: str
    weapons: list[JSONObject]
    volleys: int


class OverwatchHeld(TypedDict):
    unit: str
    against: str
    reason: str


class OverwatchResolved(RollNeeded):
    unit: str
    against: str
    weapon: str
    shots: int
    faces: list[int]


class OverwatchShotsRolled(TypedDict):
    unit: str
    against: str
    weapon: str
    shots_per_model: list[int]
    shots: int
    volleys: int


class PassPointSpent(TypedDict):
    seat: str
    sub_phase: str | None
    remaining: int


class PassPointsCalculated(TypedDict):
    sub_phase: str
    counts: dict[str, int]
    counted: dict[str, list[str]]
    excluded: list[CountedUnit]
    included: list[CountedUnit]
    pass_points: dict[str, int]


class RegroupFailed(TypedDict):
    unit: str
    fall_back: str
    total: int
    ld: int


class RegroupPassed(TypedDict):
    unit: str
    total: NotRequired[int]
    ld: NotRequired[int]
    automatic: NotRequired[bool]
    untested: NotRequired[str]  # why no regroup test was taken (a unit with no Leadership, AA.MOV.2)


class VehicleHit(TypedDict):
    unit: str
    hit: str
    hull_points: int
    hull_points_left: int
    outcome: str
    attested_by: str


EVENTS: dict[str, type] = {  # its own kinds; with domain/events.py's SHARED, all it logs
    "BlastHitResolved": BlastHitResolved,
    "ChargeRollCalled": ChargeRollCalled,
    "ChargeRollWithdrawn": RollWithdrawn,
    "CombatEnded": CombatEnded,
    "CombatFought": CombatFought,
    "CombatJoined": CombatJoined,
    "CountConfirmed": CountConfirmed,
    "DeclaredDone": DeclaredDone,
    "OngoingReservesEntered": OngoingReservesEntered,
    "OverwatchFired": OverwatchFired,
    "OverwatchHeld": OverwatchHeld,
    "OverwatchResolved": OverwatchResolved,
    "OverwatchShotsRolled": OverwatchShotsRolled,
    "PassPointSpent": PassPointSpent,
    "PassPointsCalculated": PassPointsCalculated,
    "RegroupFailed": RegroupFailed,
    "RegroupPassed": RegroupPassed,
    "RegroupRollWithdrawn": RollWithdrawn,
    "VehicleHit": VehicleHit,
}
