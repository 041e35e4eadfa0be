"""The step being played (`state["step"]`): the core every ruleset shares, which `StepStarted` sets afresh each
step, and each ruleset's own parts beside it (a charge, a fight, reaction windows), set by its events.

The state holds `{}` until the first step starts: `GameState.step` is None then. A part's key is absent until
its first event sets it (None here); `charge` holds null once the charge is over, so its absence is ABSENT.
A ruleset reads its own parts through its class: `ReferenceStep.of(state.step).fight`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar, Self

from warlog.domain.state.values import (
    ABSENT,
    JSON,
    JSONV,
    Absent,
    Codec,
    Frozen,
    PerSeat,
    Record,
    map_of,
    nullable,
    per_seat,
    record,
    replace,
    tuple_of,
)

STRS = tuple_of()


@dataclass(frozen=True, slots=True, kw_only=True)
class RollOff(Record):
    """A roll-off is under way; `choice`: its winner chooses who goes first (else the winner does)."""

    choice: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class Claims(Record):
    """Alternating, AA.PP (counting): the units a seat claims are to be left out of, or counted in, the count,
    each with the reason it gives."""

    CODECS: ClassVar[dict[str, Codec]] = {"exclude": map_of(), "include": map_of()}

    exclude: Frozen[str, str]
    include: Frozen[str, str]


NO_CLAIMS: PerSeat[Claims | None] = PerSeat(None, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class StepState(Record):
    """The core of the step (`StepStarted`): the roll-off for who goes first, the seats' turns in it, the count's
    claims, and whether it has been calculated, skipped or settled. The defaults are a step as it starts."""

    CODECS: ClassVar[dict[str, Codec]] = {"roll_off": nullable(record(RollOff)),
                                          "confirmed": per_seat(nullable(record(Claims)))}

    roll_off: RollOff | None = None
    winner: str | None = None
    first: str | None = None
    last: str | None = None  # the seat that acted last in the step
    confirmed: PerSeat[Claims | None] = NO_CLAIMS
    calculated: bool = False
    skipped: bool = False
    settled: bool = False

    @classmethod
    def of(cls, step: StepState | None) -> Self:
        """This ruleset's step: the step of a game of this ruleset under way (else TypeError)."""
        if not isinstance(step, cls):
            raise TypeError(f"{'no step has started' if step is None else type(step).__name__}: no {cls.__name__}")
        return step


# -- alternating ------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class AlternatingCharge(Record):
    """AA.CHG: the charge declared, the overwatch it waits for, the volleys still to roll."""

    CODECS: ClassVar[dict[str, Codec]] = {"targets": STRS, "pending": STRS}
    OPTIONAL: ClassVar[frozenset[str]] = frozenset({"fired", "resumed"})

    unit: str
    seat: str
    targets: tuple[str, ...]
    distance: str
    pending: tuple[str, ...]  # units that may still fire overwatch
    volleys: int
    fired: bool | None = None
    resumed: bool | None = None

    def without_pending(self, uid: str) -> AlternatingCharge:
        """`uid` answered the charge (fired its overwatch or held it): it is no longer awaited (ValueError if it
        was not)."""
        at = self.pending.index(uid)
        return replace(self, pending=self.pending[:at] + self.pending[at + 1:])


@dataclass(frozen=True, slots=True, kw_only=True)
class AlternatingStep(StepState):
    CODECS: ClassVar[dict[str, Codec]] = {**StepState.CODECS, "charge": nullable(record(AlternatingCharge))}

    charge: AlternatingCharge | Absent | None = ABSENT

    @property
    def declared(self) -> AlternatingCharge | None:
        """The charge under way; None before one is declared (ABSENT) and once it has ended (null)."""
        return self.charge if isinstance(self.charge, AlternatingCharge) else None


# -- reference --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class ReferenceCharge(Record):
    """RS.CHG: the charge rolled, waiting for its move."""

    unit: str                                    # the unit that declared the charge
    seat: str                                    # its player's seat, who makes the charge move
    total: int                                   # the 2D6 rolled: the farthest the charge move may go


@dataclass(frozen=True, slots=True, kw_only=True)
class ReferenceFight(Record):
    """RS.FGT: the fight phase's stage (pile_in, fight, consolidate) and the units through each."""

    CODECS: ClassVar[dict[str, Codec]] = {"eligible": STRS, "piled": STRS, "fought": STRS, "consolidated": STRS,
                                          "engaged_at_start": STRS}

    stage: str
    eligible: tuple[str, ...]
    piled: tuple[str, ...]
    fought: tuple[str, ...]
    consolidated: tuple[str, ...]
    current: str | None
    last: str | None
    engaged_at_start: tuple[str, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class ReferenceStep(StepState):
    """`attack_pause` is the attack driver's paused attack (a re-roll offered, an allocation to choose): the
    event's data as it came, with the attack's own context (`attacks.profile.to_data`), so JSON."""

    CODECS: ClassVar[dict[str, Codec]] = {
        **StepState.CODECS, "charge": nullable(record(ReferenceCharge)), "fight": record(ReferenceFight),
        "attack_pause": JSONV, "stratagems": map_of(STRS)}
    OPTIONAL: ClassVar[frozenset[str]] = frozenset({"fight", "ended", "attack_pause", "stratagems"})

    charge: ReferenceCharge | Absent | None = ABSENT
    fight: ReferenceFight | None = None
    stratagems: Frozen[str, tuple[str, ...]] | None = None  # seat -> the stratagems it used in the phase
    ended: bool | None = None  # the phase's end was declared (igougo's end_phase)
    attack_pause: JSON = None


# -- heresy -----------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class Window(Record):
    """HH.REA: a reaction the other seat may make now (`unit` null: any unit of its)."""

    kind: str
    unit: str | None
    against: str
    seat: str


@dataclass(frozen=True, slots=True, kw_only=True)
class HeresyFight(Record):
    """HH.AST: a combat fought initiative step by initiative step; unit -> its initiative, its models striking
    in the current step, the wounds it has caused."""

    CODECS: ClassVar[dict[str, Codec]] = {
        "units": STRS, "initiative_steps": tuple_of(), "initiative": map_of(), "striking": STRS, "struck": STRS,
        "models": map_of(), "caused": map_of()}

    units: tuple[str, ...]
    initiative_steps: tuple[int, ...]
    initiative: Frozen[str, int]
    step: int | None  # the initiative step under way
    striking: tuple[str, ...]
    struck: tuple[str, ...]
    models: Frozen[str, int]
    caused: Frozen[str, int]
    over: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class HeresyStep(StepState):
    CODECS: ClassVar[dict[str, Codec]] = {**StepState.CODECS, "fight": record(HeresyFight),
                                          "windows": tuple_of(record(Window)), "fought": STRS}
    OPTIONAL: ClassVar[frozenset[str]] = frozenset({"fight", "ended", "windows", "fought", "last_moved"})

    fight: HeresyFight | None = None
    windows: tuple[Window, ...] | None = None  # the reactions on offer, the first one open now
    ended: bool | None = None
    fought: tuple[str, ...] | None = None  # RS.FGT.2 (edition 2): the units that fought in this step
    last_moved: str | None = None  # HH.REACT.1 (edition 3): the unit whose move ended last in this step


# -- a ruleset this module does not know ------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class OtherStep(StepState):
    """The step of a ruleset this module does not know (a plugin's): its own keys kept as JSON."""

    EXTRA: ClassVar[str | None] = "parts"

    parts: Frozen[str, JSON] = field(default_factory=Frozen)
