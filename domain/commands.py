"""What a seat asks for: plain frozen dataclasses. Parsing lives in api/."""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from pydantic import StrictInt as Face  # a die's face is a JSON integer: not true, not 1.0, not "1" (only a type hint here)


@dataclass(frozen=True)
class Command:
    """Every command knows its `type` name, the one clients send."""

    type = "command"


@dataclass(frozen=True)
class AddEntropy(Command):
    entropy: str
    dice: Any = None  # no dice here: refused (SVC.DICE.SERVER, or 422 at the table)
    type = "add_entropy"


@dataclass(frozen=True)
class StartGame(Command):
    dice: Any = None  # no dice here: refused (SVC.DICE.SERVER, or 422 at the table)
    type = "start_game"


@dataclass(frozen=True)
class RollOff(Command):
    dice: dict[str, Face] | None = None
    type = "roll_off"


@dataclass(frozen=True)
class ChooseOrder(Command):
    first: str
    dice: Any = None  # no dice here: refused (SVC.DICE.SERVER, or 422 at the table)
    type = "choose_order"


@dataclass(frozen=True)
class ConfirmCount(Command):
    exclude: dict[str, str] = field(default_factory=dict)
    include: dict[str, str] = field(default_factory=dict)
    dice: Any = None  # no dice here: refused (SVC.DICE.SERVER, or 422 at the table)
    type = "confirm_count"


@dataclass(frozen=True)
class Select(Command):
    unit: str
    act: bool = True
    targets: tuple[str, ...] = ()
    distance: str | None = None                  # alternating charges: inches the players measured
    move: str | None = None                      # reference: normal | advance | fall_back | remain_stationary
    escape: str | None = None                    # reference fall back: ordered | desperate (RS.MOV.4)
    shooting: str | None = None                  # reference: normal | assault | close_quarters | indirect
    distances: dict[str, str] | None = None      # reference charges: inches to each target (RS.CHG.2)
    weapons: dict[str, int] | None = None        # alternating overwatch: models firing each ranged weapon (AA.OW.1)
    dice: Any = None  # no dice here: refused (SVC.DICE.SERVER, or 422 at the table)
    type = "select"


@dataclass(frozen=True)
class Pass(Command):
    dice: Any = None  # no dice here: refused (SVC.DICE.SERVER, or 422 at the table)
    type = "pass"


@dataclass(frozen=True)
class DeclareDone(Command):
    dice: Any = None  # no dice here: refused (SVC.DICE.SERVER, or 422 at the table)
    type = "declare_done"


@dataclass(frozen=True)
class EndPhase(Command):
    dice: Any = None  # no dice here: refused (SVC.DICE.SERVER, or 422 at the table)
    type = "end_phase"


@dataclass(frozen=True)
class Roll(Command):
    dice: tuple[Face, ...] | None = None
    type = "roll"


@dataclass(frozen=True)
class FreeRoll(Command):
    spec: str
    purpose: str
    dice: tuple[Face, ...] | None = None
    type = "free_roll"


@dataclass(frozen=True)
class Concede(Command):
    dice: Any = None  # no dice here: refused (SVC.DICE.SERVER, or 422 at the table)
    type = "concede"


@dataclass(frozen=True)
class RecordCasualties(Command):
    """Attested: models of a unit removed as casualties (or wounds lost by a lone model)."""

    unit: str
    models: int = 0
    wounds: int = 0
    rule: str | None = None
    dice: Any = None  # no dice here: refused (SVC.DICE.SERVER, or 422 at the table)
    type = "record_casualties"


@dataclass(frozen=True)
class SetStatus(Command):
    """Attested: a status gained or lost for a reason the table resolved."""

    unit: str
    status: str
    value: bool = True
    reason: str = ""
    rule: str | None = None
    dice: Any = None  # no dice here: refused (SVC.DICE.SERVER, or 422 at the table)
    type = "set_status"


@dataclass(frozen=True)
class VehicleHit(Command):
    """A glancing or penetrating hit on a vehicle costing hull points (AA.VEH.2)."""

    unit: str
    hit: str = "glancing"
    hull_points: int = 1
    dice: Any = None  # no dice here: refused (SVC.DICE.SERVER, or 422 at the table)
    type = "vehicle_hit"


@dataclass(frozen=True)
class BlastHit(Command):
    """A Blast marker's hit on a vehicle; the players attest where the centre hole lies (AA.VEH.1)."""

    unit: str
    strength: int
    centre_over_hull: bool
    dice: Any = None  # no dice here: refused (SVC.DICE.SERVER, or 422 at the table)
    type = "blast_hit"


@dataclass(frozen=True)
class OngoingReserves(Command):
    """Attested: a unit leaves the battlefield into Ongoing Reserves; it arrives at the next Move Units (AA.RES.1)."""

    unit: str
    reason: str = ""
    dice: Any = None  # no dice here: refused (SVC.DICE.SERVER, or 422 at the table)
    type = "ongoing_reserves"


@dataclass(frozen=True)
class Attack(Command):
    """Reference: one weapon's attacks from a selected unit at one target, rolled through RS.ATK.1-4."""

    unit: str
    weapon: str
    target: str
    models: int | None = None     # attacking models (default: every model alive)
    dice: Any = None  # no dice here: refused (SVC.DICE.SERVER, or 422 at the table)
    type = "attack"


COMMANDS: dict[str, type[Command]] = {
    cls.type: cls
    for cls in (AddEntropy, StartGame, RollOff, ChooseOrder, ConfirmCount, Select, Pass,
                DeclareDone, EndPhase, Roll, FreeRoll, Concede, RecordCasualties, SetStatus,
                VehicleHit, BlastHit, Attack, OngoingReserves)
}


def as_data(command: Command) -> dict[str, Any]:
    """The command as recorded for the audit (JSON-able)."""
    data = {f.name: getattr(command, f.name) for f in fields(command)}
    data = {k: (list(v) if isinstance(v, tuple) else dict(v) if isinstance(v, dict) else v) for k, v in data.items()}
    data["type"] = command.type
    return data
