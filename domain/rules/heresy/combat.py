"""Shooting and Assault: who may shoot or charge is enforced here; what follows is rolled where it can be.

The seed details neither phase. A unit is selected to shoot (its targets named) or to declare a charge;
what follows is rolled by the service where the units' profiles allow it (`shooting`: each weapon with
`shoot`; `assault`: a charge with a measured distance, its roll and the fight), and otherwise the
table's, recorded with `free_roll`, `record_casualties` and `set_status` (Pinned, Routed, Locked in
Combat, each with its reason). What the seed does say is enforced here: a unit that rushed, in the Move
sub-phase or entering play, neither shoots nor charges that turn (HH.MOV.5, HH.RES.3); and, as HH.MOV.2
stops a unit Locked in Combat from moving, it does not charge (convention: a charge is a move), nor (edition 2)
does a Pinned or Routed unit, which HH.MOV.2 stops from moving too.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from warlog.domain import army
from warlog.domain import commands as cmd
from warlog.domain import events as ev
from warlog.domain.rules import actions as act
from warlog.domain.rules import editions
from warlog.domain.rules.actions import Action
from warlog.domain.rules.basics import Step, evolves, seat_units
from warlog.domain.rules.heresy import common
from warlog.domain.rules.heresy import events as own
from warlog.domain.rules.heresy.assault import CHARGE_RANGE
from warlog.domain.rules.ruleset import Part, alive, handles, inches
from warlog.domain.rulings import Malformed, Refused
from warlog.domain.state import GameState, HeresyTurn
from warlog.domain.state.values import replace
from warlog.domain.words import phase_called, whose

if TYPE_CHECKING:
    from warlog.domain.game import Table

DOING = {"shooting": "shoot", "assault": "charge"}
NOT_SELECTING = ("HH.MOV.1", "units move with `move` and `enter`; `select` picks a unit to shoot or charge")


class CombatRules(Protocol):
    """What selecting units to shoot or charge calls back in its ruleset: the step being played, and the charge
    and the fight (heresy's Assault): who strikes next, the charges the service rolls, judged and rolled."""

    def step(self, state: GameState) -> Step | None:
        """The step being played; None outside play."""

    def strikers(self, state: GameState) -> list[str]:
        """The units still to strike in the fight's current Initiative step."""

    def charge_actions(self, state: GameState, seat: str, ready: list[str]) -> list[Action]:
        """The charges the service rolls that the `ready` units may declare."""

    def check_charge(self, state: GameState, command: cmd.Select, targets: list[str]) -> None:
        """A charge the service rolls: one target the tables can fight, a distance measured within 12"."""

    def roll_charge(self, t: Table, seat: str, command: cmd.Select, target: str) -> None:
        """After ChargeDeclared: the charge roll (2D6 against the distance measured)."""


class Combat(Part[CombatRules]):
    """A part of `Heresy`: selecting units to shoot or charge. `select` is dispatched to it and `ShootingDeclared`
    and `ChargeDeclared` applied by it; `Heresy` asks it `combat_block` (who may be selected) and `combat_actions`
    (what its Shooting and Assault offer)."""

    def combat_block(self, state: GameState, uid: str) -> common.Block:
        step = self.rules.step(state)
        unit = state.units[uid]
        if step is None or step.phase not in DOING:
            return NOT_SELECTING
        doing = DOING[step.phase]
        if unit.owner != step.active:
            return ("HH.MOV.5", f"it is {phase_called(step.phase, whose(state, step.active) + ' ')}")
        if not alive(unit):
            return ("HH.MOV.5", "the unit is destroyed")
        if not common.on_battlefield(unit):
            return ("HH.MOV.5", "it is not on the battlefield")
        if unit.selected:
            return ("HH.MOV.5", f"it was already selected to {doing} this phase")
        if doing == "shoot" and not army.unit_ranged_weapons(unit):
            return ("HH.MOV.5", "it has no ranged weapon")
        if not common.enemies_on_battlefield(state, unit.owner):
            return ("HH.MOV.5", f"no enemy unit is on the battlefield to {doing} at")
        if doing == "charge" and common.LOCKED in unit.statuses:
            return ("HH.MOV.2", "it is Locked in Combat: a charge is a move (convention)")
        if doing == "charge" and editions.fixed(state, "HH.MOV.2"):
            for status, named in (("pinned", "Pinned"), ("routed", "Routed")):
                if status in unit.statuses:
                    return ("HH.MOV.2", f"it is {named}: a charge is a move (convention)")
        strikers = self.rules.strikers(state)
        if strikers:
            return ("RS.FGT.3", f"the fight goes on: {strikers[0]} strikes next")
        return common.rushed_block(unit, doing)

    def combat_actions(self, state: GameState, seat: str) -> list[Action]:
        step = self.rules.step(state)
        ready = [uid for uid, _ in seat_units(state, seat) if self.combat_block(state, uid) is None]
        if step is None or not ready:
            return []
        doing = DOING[step.phase]
        targets = act.subset(common.enemies_on_battlefield(state, seat), 1,
                             "the enemy units " + ("shot at" if doing == "shoot" else "charged"))
        summary = ("select a unit to shoot and name its targets; then fire its weapons one by one (the service "
                   "rolls it on the heresy tables; a weapon they cannot read is rolled as a free roll and its "
                   "casualties recorded)" if doing == "shoot" else
                   "declare a charge and name its targets, its outcome the table's (set Locked in Combat when it "
                   "reaches, record the fight's casualties)")
        offered = [act.action("select", "HH.MOV.5", summary, ["unit", "targets"], unit=act.one_of(ready),
                              act=act.const(True), targets=targets)]
        return offered + (self.rules.charge_actions(state, seat, ready) if doing == "charge" else [])

    @handles("select")
    def select(self, t: Table, seat: str, command: cmd.Select) -> None:
        state = t.state
        common.refuse_while_reacting(state, seat)
        step = self.rules.step(state)
        block = self.combat_block(state, command.unit)
        if block or step is None:  # no step: combat_block says NOT_SELECTING
            rule, reason = block or NOT_SELECTING
            raise Refused(reason, rule=rule)
        if not command.act:
            raise Malformed("a unit selected here shoots or charges (act: true); to do neither, end the phase",
                            field="act")
        if not command.targets:
            raise Malformed("name the target units (targets)", field="targets")
        targets = common.named_enemies(state, seat, command.targets, "targets")
        rolled = step.phase == "assault" and command.distance is not None
        if step.phase == "shooting" and command.distance is not None:
            raise Malformed("a unit selected to shoot gives no distance", field="distance")
        if rolled:
            self.rules.check_charge(state, command, targets)
        turn = HeresyTurn.of(state.units[command.unit].turn)
        rule = "HH.RES.3" if turn.arrived else "HH.MOV.5"
        kind = "ShootingDeclared" if step.phase == "shooting" else "ChargeDeclared"
        measured = {"distance": inches(command.distance, "distance", CHARGE_RANGE)} if rolled else {}
        t.emit(kind, {"unit": command.unit, "seat": seat, "targets": targets,
                      "moved": turn.moved or ("arrived" if turn.arrived else "none"), **measured}, rule)
        if rolled:
            self.rules.roll_charge(t, seat, command, targets[0])

    @evolves("ShootingDeclared")
    def _shooting(self, state: GameState, data: own.ShootingDeclared, entry: ev.Entry) -> GameState:
        unit = state.units[data["unit"]]
        turn = replace(HeresyTurn.of(unit.turn), shot=True, targets=tuple(data["targets"]))
        return state.with_unit(data["unit"], replace(unit, selected=True, turn=turn))

    @evolves("ChargeDeclared")
    def _charge(self, state: GameState, data: ev.ChargeDeclared, entry: ev.Entry) -> GameState:
        unit = state.units[data["unit"]]
        turn = replace(HeresyTurn.of(unit.turn), charged=True)
        return state.with_unit(data["unit"], replace(unit, selected=True, turn=turn))
