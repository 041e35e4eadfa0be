"""The payloads of the events only `heresy` logs (domain/events.py: the shared kinds, and how these are used)."""

from typing import NotRequired

from typing_extensions import TypedDict


class DangerousTerrainTested(TypedDict):
    unit: str
    tests: int
    failed: int
    fails_on: int


class FallBackRolled(TypedDict):
    unit: str
    distance: str
    initiative: int


class FellBack(TypedDict):
    unit: str
    seat: str
    distance: str | None  # the inches it fell back (its roll, 2" less through difficult terrain)
    reached_edge: bool
    near: list[str]
    attested_by: str
    # HH.MOV.3/4 on a fall back (edition 2): the terrain it crossed, coherency, where no model ended (attested)
    difficult: NotRequired[bool]
    dangerous: NotRequired[int]
    coherency_lost: NotRequired[bool]
    clear: NotRequired[bool]


class FightBegan(TypedDict):
    units: list[str]
    initiative_steps: list[int]
    initiative: dict[str, int]


class FightResolved(TypedDict):
    units: list[str]
    wounds_caused: dict[str, int]
    destroyed: list[str]
    loser: str | None


class InitiativeStepBegan(TypedDict):
    initiative: int
    striking: list[str]
    models: dict[str, int]


LeadershipTested = TypedDict("LeadershipTested", {
    "unit": str,
    "total": int,
    "ld": int,
    "passed": bool,
    "for": NotRequired[str],
})


class ReactionDeclined(TypedDict):
    kind: str
    unit: str | None
    against: str
    seat: str
    reason: str


class ReactionMade(TypedDict):
    kind: str
    unit: str
    against: str
    seat: str
    direction: NotRequired[str]
    distance: NotRequired[str]
    up_to: NotRequired[int]
    difficult: NotRequired[bool]
    dangerous: NotRequired[int]
    coherency_lost: NotRequired[bool]
    clear: NotRequired[bool]
    attested_by: str
    weapons: NotRequired[list[str]]
    facing: NotRequired[None]


class ReactionOffered(TypedDict):
    kind: str
    unit: str | None
    against: str
    seat: str
    up_to: NotRequired[int]
    claimed: NotRequired[bool]
    attested_by: NotRequired[str]


class ShootingDeclared(TypedDict):
    unit: str
    seat: str
    targets: list[str]
    moved: str


class UnitMoved(TypedDict):
    unit: str
    seat: str
    move: str
    distance: NotRequired[str]
    allowance: NotRequired[int]
    difficult: NotRequired[bool]
    dangerous: NotRequired[int]
    coherency_lost: NotRequired[bool]
    near: NotRequired[list[str]]
    attested_by: NotRequired[str]
    clear: NotRequired[bool]


EVENTS: dict[str, type] = {  # its own kinds; with domain/events.py's SHARED, all it logs
    "DangerousTerrainTested": DangerousTerrainTested,
    "FallBackRolled": FallBackRolled,
    "FellBack": FellBack,
    "FightBegan": FightBegan,
    "FightResolved": FightResolved,
    "InitiativeStepBegan": InitiativeStepBegan,
    "LeadershipTested": LeadershipTested,
    "ReactionDeclined": ReactionDeclined,
    "ReactionMade": ReactionMade,
    "ReactionOffered": ReactionOffered,
    "ShootingDeclared": ShootingDeclared,
    "UnitMoved": UnitMoved,
}
