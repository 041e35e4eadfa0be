"""The Charge phase (RS.CHG.*): declare, roll 2D6, then name the targets within that distance.

`Charge` is a part of `Reference` (rules/parts.py): `charge_move` is dispatched to it and its `ChargeRolled`,
`ChargeResolved` and `FightsFirstGained` are applied by it; `Reference` asks it by name which units may be charged
(`charge_targets`), which charge waits for its targets (`pending_charge`), what the phase offers (`charge_actions`,
`charge_move_actions`), to select a unit to charge (`select_charge`), whether the charger was lost (`charge_lost`),
and hands it the charge roll it asked for (`charge_rolled`). A charge that reaches engages its targets through the
ruleset (`ChargeRules.engage`: its part `Engagement`).
"""
from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING, Protocol

from warlog.domain import events as ev
from warlog.domain.rules import actions as act
from warlog.domain.rules import editions
from warlog.domain.rules.actions import Action
from warlog.domain.rules.basics import evolves
from warlog.domain.rules.reference import events as own
from warlog.domain.rules.reference.commands import ChargeMove, ReferenceSelect
from warlog.domain.rules.reference.common import foes, members_of, not_a_unit_alone, remember_roll, turn_of, with_turns
from warlog.domain.rules.ruleset import Part, alive, handles, inches
from warlog.domain.rulings import Malformed, Refused
from warlog.domain.state import GameState, ReferenceCharge, ReferenceStep, Unit
from warlog.domain.state.values import replace
from warlog.domain.words import owns, unit_named, unit_title, whose

if TYPE_CHECKING:
    from warlog.domain.game import Table

MAX_CHARGE = 12  # RS.CHG.1: within 12" of an enemy unit


class ChargeRules(Protocol):
    """What the charge part asks of its ruleset: the charge roll, and the engagement a charge that reaches makes."""

    def request_roll(self, t: Table, seat: str, purpose: str, spec: str, rule: str, unit: str,
                     **context: object) -> None:
        """A roll the rules call for, for `unit`: rolled now with server dice, else awaited from `seat`."""

    def engage(self, t: Table, units: list[str], targets: list[str], rule: str, reason: str) -> None:
        """`units` engaged with every unit of `targets` (and those attached to them), each side engaged."""


def charger(state: GameState, uid: str) -> str:
    """The charging unit as the reason of the engagement its charge makes stores it: by name with its owner's
    ("charge by Alice's Assault Squad", RS.CHG.3 of edition 4), by its id in a game created before."""
    return unit_title(state, uid, counts=False) if editions.fixed(state, "RS.CHG.3") else uid


class Charge(Part[ChargeRules]):
    """A part of `Reference`: a unit declares a charge, rolls 2D6 and names the targets it reaches (RS.CHG.1-3)."""

    @staticmethod
    def charge_targets(state: GameState, seat: str) -> list[str]:
        return [uid for uid, _ in foes(state, seat)]

    @staticmethod
    def pending_charge(state: GameState) -> ReferenceCharge | None:
        """A charge rolled and waiting for its targets (RS.CHG.2)."""
        charge = ReferenceStep.of(state.step).charge
        return charge if isinstance(charge, ReferenceCharge) and not state.rolls else None

    def charge_actions(self, state: GameState, seat: str, ready: list[str]) -> list[Action]:
        if not ready:
            return []
        return [act.action("select", "RS.CHG.1", "declare a charge with a unit within 12\" of an enemy unit; "
                           "then roll 2D6", ["unit"], unit=act.one_of(ready))]

    def charge_move_actions(self, state: GameState, charge: ReferenceCharge) -> list[Action]:
        most = min(MAX_CHARGE, charge.total)
        return [act.action(
            "charge_move", "RS.CHG.2", f"name {owns(unit_named(state, charge.unit))} charge targets: enemy units within 12\" and "
            f"within the {charge.total}\" rolled, and the inches to the farthest", ["unit", "targets", "distance"],
            unit=act.const(charge.unit), targets=act.subset(self.charge_targets(state, charge.seat)),
            distance=act.number(0, MAX_CHARGE, f"inches to the farthest target; beyond {most}\" the charge fails"))]

    def select_charge(self, t: Table, seat: str, command: ReferenceSelect, unit: Unit) -> None:
        t.emit("UnitSelected", ev.UnitSelected(unit=command.unit, seat=seat, phase="charge"), "RS.CHG.1")
        self.rules.request_roll(t, seat, "charge", "2D6", "RS.CHG.2", command.unit)

    def charge_rolled(self, t: Table, request: ev.RollRequested, roll: ev.DiceRolled) -> None:
        context = request["context"]
        t.emit("ChargeRolled", ev.ChargeRolled(unit=request["unit"], seat=request["seat"], total=roll["total"],
                                               rerolled=bool(context.get("rerolled")),
                                               rerollable=not context.get("rerolled")), "RS.CHG.2")

    def charge_lost(self, t: Table) -> bool:
        """A unit destroyed between its charge roll and its targets makes no charge (RS.CHG.2)."""
        state = t.state
        charge = self.pending_charge(state)
        if charge is None or alive(state.units[charge.unit]):
            return False
        t.emit("ChargeResolved", ev.ChargeResolved(unit=charge.unit, targets=[], total=charge.total, distance=None,
                                                   success=False, reason="the charging unit was destroyed"), "RS.CHG.2")
        return True

    @handles("charge_move")
    def charge_move(self, t: Table, seat: str, command: ChargeMove) -> None:
        state = t.state
        charge = self.pending_charge(state)
        if charge is None or charge.unit != command.unit:
            raise Refused("no charge of this unit waits for its targets", rule="RS.CHG.2")
        if charge.seat != seat:
            raise Refused(f"the targets of this charge are {whose(state, charge.seat)} to name", rule="RS.CHG.2")
        targets = list(dict.fromkeys(command.targets))
        if not targets:
            raise Malformed("a charge names its targets (targets)", field="targets")
        alone = not_a_unit_alone(state, seat, targets)
        if alone:
            raise Refused(alone[1], rule=alone[0])
        chargeable = self.charge_targets(state, seat)
        for target in targets:
            if target not in chargeable:  # CORE.OFF.1 where it is one not on the battlefield, else RS.CHG.2's
                off = target in state.units and state.units[target].owner != seat and alive(state.units[target])
                raise Refused(f"{unit_named(state, target, seat)} is not an enemy unit on the battlefield",
                              rule="CORE.OFF.1" if off else "RS.CHG.2")
        distance = inches(command.distance, "distance", MAX_CHARGE)
        success = Decimal(distance) <= charge.total  # RS.CHG.2: it must reach every target
        t.emit("ChargeResolved", ev.ChargeResolved(unit=command.unit, targets=targets, total=charge.total,
                                                   distance=distance, success=success), "RS.CHG.2")
        if success:  # RS.CHG.3: engaged with every target, and Fights First until the end of the turn
            self.rules.engage(t, members_of(t.state.units, command.unit), targets, "RS.CHG.3",
                              f"charge by {charger(t.state, command.unit)}")
            t.emit("FightsFirstGained", own.FightsFirstGained(unit=command.unit, until="end of turn"), "RS.CHG.3")

    # -- appliers ------------------------------------------------------------------------

    @evolves("ChargeRolled")
    def _charge_rolled(self, state: GameState, data: ev.ChargeRolled, entry: ev.Entry) -> GameState:
        uid = data["unit"]
        charge = ReferenceCharge(unit=uid, seat=data["seat"], total=data["total"])
        state = replace(state, step=replace(ReferenceStep.of(state.step), charge=charge))
        return state.with_unit(uid, remember_roll(state.units[uid], data, "charge", {}))

    @evolves("ChargeResolved")
    def _charged(self, state: GameState, data: ev.ChargeResolved, entry: ev.Entry) -> GameState:
        uid = data["unit"]
        state = replace(state, step=replace(ReferenceStep.of(state.step), charge=None))
        unit = state.units[uid]
        state = state.with_unit(uid, replace(unit, turn=replace(turn_of(unit), reroll=None)))
        if data["success"]:
            state = with_turns(state, members_of(state.units, uid), lambda turn: replace(turn, charged=True))
        return state

    @evolves("FightsFirstGained")
    def _fights_first(self, state: GameState, data: own.FightsFirstGained, entry: ev.Entry) -> GameState:
        together = members_of(state.units, data["unit"])
        return with_turns(state, together, lambda turn: replace(turn, fights_first=True))

