"""What the table resolves and records (AA.VEH.1, AA.VEH.2, AA.RES.1 ongoing reserves)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from typing_extensions import Unpack

from warlog.domain import army
from warlog.domain.rules import actions as act
from warlog.domain.rules.actions import Action
from warlog.domain.rules.alternating import events as own
from warlog.domain.rules.alternating.commands import BlastHit, OngoingReserves, VehicleHit
from warlog.domain.rules.alternating.common import immobile, on_table
from warlog.domain.rules.basics import seat_units
from warlog.domain.rules.flow import CasualtyNote, StatusNote
from warlog.domain.rules.ruleset import Part, alive, handles
from warlog.domain.rulings import Malformed, Refused
from warlog.domain.state import GameState
from warlog.domain.words import not_yours, unit_named

if TYPE_CHECKING:
    from warlog.domain.game import Table


class RecordRules(Protocol):
    """What the table's records call back in their ruleset: a vehicle's losses and statuses, recorded as any."""

    def casualties(self, t: Table, uid: str, models: int, wounds: int, rule: str,
                   **extra: Unpack[CasualtyNote]) -> None:
        """The models and wounds `uid` lost, recorded (with what follows a unit destroyed)."""

    def change_status(self, t: Table, uid: str, status: str, value: bool, rule: str,
                      **extra: Unpack[StatusNote]) -> None:
        """`uid` gains (or loses) `status`, if it has not (has) it."""


class TableRecords(Part[RecordRules]):
    """A part of `Alternating`: its record commands are dispatched to it, and `Alternating.records` adds its
    forms to the shared ones."""

    def records(self, state: GameState, seat: str) -> list[Action]:
        """The forms of the records only this ruleset keeps: vehicle hits and blasts, ongoing reserves."""
        offered: list[Action] = []
        vehicles = [uid for uid, unit in state.units.items() if alive(unit) and army.unit_is_vehicle(unit)]
        if vehicles:
            offered += [act.action("vehicle_hit", "AA.VEH.2", "record a glancing or penetrating hit on a vehicle",
                                   ["unit", "hit", "hull_points"], unit=act.one_of(vehicles),
                                   hit=act.one_of(("glancing", "penetrating")), hull_points=act.integer(1, 20)),
                        act.action("blast_hit", "AA.VEH.1", "record a Blast marker's hit on a vehicle",
                                   ["unit", "strength", "centre_over_hull"], unit=act.one_of(vehicles),
                                   strength=act.integer(1, 20, "the weapon's Strength"),
                                   centre_over_hull=act.boolean("the marker's centre hole is over the hull"))]
        leaving = [uid for uid, unit in seat_units(state, seat) if on_table(unit) and not unit.embarked_in]
        if leaving:
            offered.append(act.action("ongoing_reserves", "AA.RES.1", "a unit leaves the battlefield into Ongoing "
                                      "Reserves", ["unit"], unit=act.one_of(leaving), reason=act.text(200, "why")))
        return offered

    @handles("vehicle_hit")
    def vehicle_hit(self, t: Table, seat: str, command: VehicleHit) -> None:
        """AA.VEH.2 on the army's hull points: a vehicle's model line carries `hull_points` (null: its W)."""
        unit, named = t.state.units[command.unit], unit_named(t.state, command.unit, seat)
        if command.hit not in ("glancing", "penetrating") or command.hull_points < 1:
            raise Malformed("hit is glancing or penetrating and hull_points at least 1", field="hit")
        if not army.unit_is_vehicle(unit):
            raise Refused(f"{named} is not a vehicle", rule="AA.VEH.2")
        if not alive(unit):
            raise Refused(f"{named} is already destroyed", rule="CORE.STR.2")
        left = unit.total_wounds - (unit.wounds_lost or 0)
        loss = min(command.hull_points, left)
        if command.hit == "glancing" and loss >= left and not immobile(unit):
            outcome = "immobilised"  # AA.VEH.2: a mobile vehicle keeps its last hull point
            loss = left - 1
        else:
            outcome = "wrecked" if loss >= left else "damaged"
        t.emit("VehicleHit", own.VehicleHit(unit=command.unit, hit=command.hit, hull_points=command.hull_points,
                              hull_points_left=left - loss, outcome=outcome, attested_by=seat), "AA.VEH.2")
        if loss or outcome == "wrecked":
            self.rules.casualties(t, command.unit, 1 if outcome == "wrecked" else 0, loss, "AA.VEH.2")
        if outcome == "immobilised":
            self.rules.change_status(t, command.unit, "immobilised", True, "AA.VEH.2", reason="glancing hit")

    @handles("ongoing_reserves")
    def ongoing_reserves(self, t: Table, seat: str, command: OngoingReserves) -> None:
        unit = t.state.units[command.unit]
        if unit.owner != seat:
            raise Refused(not_yours(t.state, command.unit, seat), rule="AA.RES.1")
        if not on_table(unit) or unit.embarked_in:
            raise Refused(f"{unit_named(t.state, command.unit, seat)} is not on the battlefield", rule="AA.RES.1")
        t.emit("OngoingReservesEntered", own.OngoingReservesEntered(unit=command.unit, reason=command.reason, attested_by=seat),
               "AA.RES.1")

    @handles("blast_hit")
    def blast_hit(self, t: Table, seat: str, command: BlastHit) -> None:
        unit, named = t.state.units[command.unit], unit_named(t.state, command.unit, seat)
        if command.strength < 1:
            raise Malformed("strength must be at least 1", field="strength")
        if not army.unit_is_vehicle(unit):
            raise Refused(f"{named} is not a vehicle; AA.VEH.1 is about blast hits on vehicles", rule="AA.VEH.1")
        if not alive(unit):
            raise Refused(f"{named} is already wrecked", rule="CORE.STR.2")
        strength = command.strength if command.centre_over_hull else command.strength - 1
        t.emit("BlastHitResolved", own.BlastHitResolved(unit=command.unit, strength=strength, weapon_strength=command.strength,
                                    centre_over_hull=command.centre_over_hull, attested_by=seat), "AA.VEH.1")
