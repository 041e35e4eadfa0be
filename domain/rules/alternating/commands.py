"""`alternating`'s own commands (AA.*): its select, the goes, the count of pass points, a charge's
resolution, and the vehicle records the table resolves. They join its games' union through the registry
(`Alternating.commands`)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Literal

from pydantic import Field

from warlog.domain import commands as cmd


@dataclass(frozen=True)
class AlternatingSelect(cmd.Select):
    """Alternating: a unit selected to act in the sub-phase (AA.ACT.1); in overwatch, the weapons it fires."""

    weapons: Annotated[tuple[str, ...] | None, Field(
        description="overwatch: the ranged weapon of each firing model (AA.OW.1)")] = None
    type = "select"


@dataclass(frozen=True)
class ConfirmCount(cmd.Diceless):
    exclude: dict[str, str] = field(default_factory=dict)
    include: dict[str, str] = field(default_factory=dict)
    type = "confirm_count"


class Pass(cmd.Diceless):
    type = "pass"


class DeclareDone(cmd.Diceless):
    type = "declare_done"


class ResolveCharge(cmd.Diceless):
    """Alternating: the charger, once overwatch is fired and its casualties recorded, rolls the charge."""

    type = "resolve_charge"


@dataclass(frozen=True)
class VehicleHit(cmd.UnitCommand):
    """A glancing or penetrating hit on a vehicle costing hull points (AA.VEH.2)."""

    hit: Literal["glancing", "penetrating"] = "glancing"  # as the ruleset checks them
    hull_points: Annotated[int, Field(ge=1)] = 1
    type = "vehicle_hit"


@dataclass(frozen=True)
class BlastHit(cmd.UnitCommand):
    """A Blast marker's hit on a vehicle; the players attest where the centre hole lies (AA.VEH.1)."""

    strength: int
    centre_over_hull: bool
    type = "blast_hit"


@dataclass(frozen=True)
class OngoingReserves(cmd.UnitCommand):
    """Attested: a unit leaves the battlefield into Ongoing Reserves; it arrives at the next Move Units (AA.RES.1)."""

    reason: str = ""
    type = "ongoing_reserves"


COMMANDS: tuple[type[cmd.Command], ...] = (AlternatingSelect, ConfirmCount, Pass, DeclareDone, ResolveCharge,
                                           VehicleHit, BlastHit, OngoingReserves,
                                           cmd.EndPhase)  # the round's end, scoring objectives (MSN.OBJ.1)
