"""The Reserves sub-phase (HH.RES.1-3): reserve rolls, then each arriving unit enters play."""
from __future__ import annotations

from dataclasses import replace
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from warlog.domain import events as ev
from warlog.domain.rules import actions as act
from warlog.domain.rules.actions import Action
from warlog.domain.rules.basics import evolves, seat_units
from warlog.domain.rules.heresy.commands import Enter
from warlog.domain.rules.heresy.common import (
    RESERVES_ON,
    allowance,
    enemies_on_battlefield,
    initiative,
    movement,
    refuse_while_reacting,
)
from warlog.domain.rules.heresy.reactions import Reactions, checked_near, near_field
from warlog.domain.rules.ruleset import alive, handles, inches
from warlog.domain.rulings import Malformed, Refused
from warlog.domain.state import GameState, HeresyTurn

if TYPE_CHECKING:
    from warlog.domain.game import Table


class Reserves(Reactions):
    """Mixed into `Heresy`: the hooks it calls for the Reserves sub-phase."""

    def begin_reserves(self, t: Table, seat: str) -> None:
        """HH.RES.1: each unit in reserves rolls a D6; CORE.OFF.1-style, embarked units come with their transport."""
        for uid, _ in seat_units(t.state, seat):
            unit = t.state.units[uid]  # as the rolls before it left it
            if unit.in_reserves and alive(unit) and not unit.embarked_in:
                self.request_roll(t, seat, "reserve", "D6", "HH.RES.1", uid)

    def reserve_rolled(self, t: Table, uid: str, roll: ev.DiceRolled) -> None:
        arrives = roll["faces"][0] >= RESERVES_ON
        t.emit("ReserveArriving" if arrives else "ReserveDelayed",
               {"unit": uid, "total": roll["total"], "needed": RESERVES_ON}, "HH.RES.1")

    @staticmethod
    def arriving(state: GameState, seat: str) -> list[str]:
        """Units that passed their reserve roll and wait to be placed (HH.RES.2)."""
        return [uid for uid, unit in seat_units(state, seat) if unit.arriving and alive(unit)]

    def enter_actions(self, state: GameState, seat: str) -> list[Action]:
        offered = []
        for uid in self.arriving(state, seat):
            unit = state.units[uid]
            removed = act.integer(0, unit.models_alive - 1, "models that cannot enter in coherency: removed "
                                                            "as casualties")
            edge = {**act.const(True), "description": "attested: the first model is placed on a point of your "
                                                      "deployment zone's table edge"}
            offered.append(act.action("enter", "HH.RES.2", f"bring {uid} into play from your deployment zone's edge "
                                      "(it may shoot and charge this turn)", ["unit", "from_edge"],
                                      unit=act.const(uid), from_edge=edge, removed=removed, rush=act.const(False)))
            most = allowance(unit, rush=True, difficult=False)
            enemies = enemies_on_battlefield(state, seat)
            offered.append(act.action(
                "enter", "HH.MOV.5", f"bring {uid} into play and rush up to {most}\" (M {movement(unit)} + I "
                f"{initiative(unit)}): it can neither shoot nor charge this turn", ["unit", "from_edge", "rush",
                                                                                          "distance"],
                unit=act.const(uid), from_edge=edge, removed=removed, rush=act.const(True),
                distance=act.number(0, most, f"inches rushed, at most {most}\""),
                near=near_field(enemies) if enemies else None))
        return offered

    @handles("enter")
    def enter_play(self, t: Table, seat: str, command: Enter) -> None:
        state = t.state
        step = self.step(state)
        uid = command.unit
        if step is None or step.name != "reserves" or step.active is None:
            raise Refused("units enter play in their owner's Reserves sub-phase", rule="HH.RES.2")
        refuse_while_reacting(state)
        if seat != step.active:
            raise Refused(f"it is seat {step.active}'s Reserves sub-phase", rule="HH.RES.2")
        unit = state.units[uid]
        if unit.owner != seat or not unit.arriving or not alive(unit):
            raise Refused(f"{uid} has not passed a reserve roll this turn", rule="HH.RES.1")
        if command.from_edge is not True:
            raise Refused("an arriving unit enters from a point on its deployment zone's table edge "
                          "(from_edge: true)", rule="HH.RES.2")
        if type(command.removed) is not int or not 0 <= command.removed < unit.models_alive:
            raise Malformed(f"removed: 0..{unit.models_alive - 1} models (the first model is always placed)",
                            field="removed")
        data: dict[str, Any] = {"unit": uid, "seat": seat, "from_edge": True, "removed": command.removed,
                                "rush": bool(command.rush)}
        if command.rush:
            if command.distance is None:
                raise Malformed("a rush gives the inches moved (distance)", field="distance")
            data["distance"] = inches(command.distance, "distance", 1000)
            data["allowance"] = allowance(unit, rush=True, difficult=False)
            if Decimal(data["distance"]) > data["allowance"]:
                raise Refused(f"a rush moves at most M + I = {data['allowance']}\"", rule="HH.MOV.5")
            data["near"] = checked_near(state, seat, command.near)
        elif command.distance is not None or command.near:
            raise Malformed("an arriving unit is placed; only a rush gives a distance and the units it ended near",
                            field="distance" if command.distance is not None else "near")
        t.emit("ReserveArrived", data, "HH.MOV.5" if command.rush else "HH.RES.2")
        if command.removed:
            self.casualties(t, uid, command.removed, 0, "HH.RES.2", reason="could not enter in coherency")
        self.offer_snap_shots(t, uid)
        for target in data.get("near", ()):  # a rush is a move: HH.REACT.1 as for any other
            self.offer_reaction(t, target, against=uid)

    @evolves("ReserveArrived")
    def _arrived(self, state: GameState, data: ev.ReserveArrived, entry: ev.Entry) -> GameState:
        unit = state.units[data["unit"]]
        # HH.RES.3: no second move; a rush costs its shooting
        turn = replace(HeresyTurn.of(unit.turn), arrived=True, rushed=data["rush"])
        return state.with_unit(data["unit"], replace(unit, arriving=False, in_reserves=False, selected=True,
                                                     turn=turn))
