"""The Reserves sub-phase (HH.RES.1-3): reserve rolls, then each arriving unit enters play."""
from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING, Any, Protocol

from warlog.domain import events as ev
from warlog.domain.rules import actions as act
from warlog.domain.rules import editions
from warlog.domain.rules.actions import Action
from warlog.domain.rules.basics import evolves, seat_units
from warlog.domain.rules.heresy import common
from warlog.domain.rules.heresy.commands import Enter
from warlog.domain.rules.heresy.reactions import checked_near, near_field
from warlog.domain.rules.ruleset import Part, alive, handles, inches
from warlog.domain.rulings import Malformed, Refused
from warlog.domain.state import GameState, HeresyTurn
from warlog.domain.state.values import replace
from warlog.domain.words import unit_named, whose

if TYPE_CHECKING:
    from warlog.domain.game import Table


def arriving(state: GameState, seat: str) -> list[str]:
    """Units that passed their reserve roll and wait to be placed (HH.RES.2)."""
    return [uid for uid, unit in seat_units(state, seat) if unit.arriving and alive(unit)]


class ReserveRules(common.TableRules, Protocol):
    """What the Reserves sub-phase calls back in its ruleset besides the table's (`TableRules`): the snap shots
    and reactions an arrival draws (heresy's Reactions)."""

    def offer_snap_shots(self, t: Table, against: str) -> None:
        """HH.RES.4: the snap shots the arrival `against` draws, offered."""

    def offer_reaction(self, t: Table, uid: str, against: str) -> None:
        """HH.REACT.1: a reaction move offered to `uid`, which a move of `against` ended near."""


class Reserves(Part[ReserveRules]):
    """A part of `Heresy`: the Reserves sub-phase. `enter` is dispatched to it, `ReserveArrived` applied by it;
    `Heresy` asks it `begin_reserves` (the step begun), `reserve_rolled` (a roll read) and `enter_actions`
    (what an arrival is offered); who waits to be placed both read with `arriving`."""

    def begin_reserves(self, t: Table, seat: str) -> None:
        """HH.RES.1: each unit in reserves rolls a D6; CORE.OFF.1-style, embarked units come with their transport."""
        for uid, _ in seat_units(t.state, seat):
            unit = t.state.units[uid]  # as the rolls before it left it
            if unit.in_reserves and alive(unit) and not unit.embarked_in:
                self.rules.request_roll(t, seat, "reserve", "D6", "HH.RES.1", uid)

    def reserve_rolled(self, t: Table, uid: str, roll: ev.DiceRolled) -> None:
        arrives = roll["faces"][0] >= common.RESERVES_ON
        t.emit("ReserveArriving" if arrives else "ReserveDelayed",
               {"unit": uid, "total": roll["total"], "needed": common.RESERVES_ON}, "HH.RES.1")

    def enter_actions(self, state: GameState, seat: str) -> list[Action]:
        fixed = editions.fixed(state, "HH.MOV.3")  # attested where the models end, on every move
        offered = []
        for uid in arriving(state, seat):
            unit = state.units[uid]
            removed = act.integer(0, unit.models_alive - 1, "models that cannot enter in coherency: removed "
                                                            "as casualties")
            edge = {**act.const(True), "description": "attested: the first model is placed on a point of your "
                                                      "deployment zone's table edge"}
            clear = common.clear_field() if fixed else None
            offered.append(act.action("enter", "HH.RES.2", f"bring {unit_named(state, uid)} into play from your "
                                      "deployment zone's edge (it may shoot and charge this turn)",
                                      ["unit", "from_edge"],
                                      unit=act.const(uid), from_edge=edge, removed=removed, rush=act.const(False),
                                      clear=clear))
            enemies = common.enemies_on_battlefield(state, seat)
            for difficult in (False, True) if editions.fixed(state, "HH.MOV.4") else (False,):
                most = common.allowance(unit, rush=True, difficult=difficult)
                terrain = " through difficult terrain" if difficult else ""
                less = f" - {common.DIFFICULT_PENALTY} difficult terrain" if difficult else ""
                offered.append(act.action(
                    "enter", "HH.MOV.5", f"bring {unit_named(state, uid)} into play and rush up to {most}\"{terrain} "
                    f"(M {common.movement(unit)} + I {common.initiative(unit)}{less}): it can neither shoot nor charge "
                    "this turn",
                    ["unit", "from_edge", "rush", "distance", *(["difficult"] if difficult else [])],
                    unit=act.const(uid), from_edge=edge, removed=removed, rush=act.const(True),
                    distance=act.number(0, most, f"inches rushed, at most {most}\""),
                    near=near_field(enemies) if enemies else None, clear=clear, **(
                        common.rush_terrain(unit, difficult) if editions.fixed(state, "HH.MOV.4") else {})))
        return offered

    @handles("enter")
    def enter_play(self, t: Table, seat: str, command: Enter) -> None:
        state = t.state
        step = self.rules.step(state)
        uid = command.unit
        if step is None or step.name != "reserves" or step.active is None:
            raise Refused("units enter play in their owner's Reserves sub-phase", rule="HH.RES.2")
        common.refuse_while_reacting(state, seat)
        if seat != step.active:
            raise Refused(f"it is {whose(state, step.active)} Reserves sub-phase", rule="HH.RES.2")
        unit = state.units[uid]
        if unit.owner != seat or not unit.arriving or not alive(unit):
            raise Refused(f"{unit_named(state, uid, seat)} has not passed a reserve roll this turn", rule="HH.RES.1")
        if command.from_edge is not True:
            raise Refused("an arriving unit enters from a point on its deployment zone's table edge: attest that "
                          "it does", rule="HH.RES.2")
        if type(command.removed) is not int or not 0 <= command.removed < unit.models_alive:
            raise Malformed(f"removed: from 0 to {unit.models_alive - 1} models (the first model is always placed)",
                            field="removed")
        data: dict[str, Any] = {"unit": uid, "seat": seat, "from_edge": True, "removed": command.removed,
                                "rush": bool(command.rush)}
        if command.rush:
            data.update(self._rush_entry(state, seat, command))
        elif command.distance is not None or command.near:
            raise Malformed("an arriving unit is placed; only a rush gives a distance and the units it ended near",
                            field="distance" if command.distance is not None else "near")
        elif editions.fixed(state, "HH.MOV.4") and (command.difficult or command.dangerous or command.coherency_lost):
            raise Malformed("an arriving unit is placed in coherency (HH.RES.2); only a rush crosses terrain",
                            field="difficult" if command.difficult else "dangerous" if command.dangerous
                            else "coherency_lost")
        if common.checked_clear(state, command.clear):
            data["clear"] = True
        rule = common.move_rule(state, "HH.MOV.5", bool(data.get("difficult")), data.get("dangerous", 0))
        t.emit("ReserveArrived", data, rule if command.rush else "HH.RES.2")
        self._arrival_follows(t, seat, uid, command, data)

    def _rush_entry(self, state: GameState, seat: str, command: Enter) -> dict[str, Any]:
        """HH.MOV.5 on entry: up to M + I; with HH.MOV.4's fix, less 2\" through difficult terrain, models through
        dangerous terrain tested, and coherency it genuinely cannot keep costing Suppressed (HH.MOV.3)."""
        if command.distance is None:
            raise Malformed("a rush gives the inches moved (distance)", field="distance")
        unit = state.units[command.unit]
        terrain = editions.fixed(state, "HH.MOV.4")
        difficult = bool(command.difficult) and terrain
        data: dict[str, Any] = {"distance": inches(command.distance, "distance", 1000),
                                "allowance": common.allowance(unit, rush=True, difficult=difficult)}
        if Decimal(data["distance"]) > data["allowance"]:
            but_for_terrain = Decimal(data["distance"]) <= data["allowance"] + common.DIFFICULT_PENALTY
            rule = "HH.MOV.4" if difficult and but_for_terrain else "HH.MOV.5"
            less = " less 2\" through difficult terrain" if difficult else ""
            raise Refused(f"a rush moves at most M + I{less} = {data['allowance']}\"", rule=rule)
        data["near"] = checked_near(state, seat, command.near)
        if terrain:
            data.update(difficult=difficult, dangerous=common.checked_dangerous(unit, command.dangerous),
                        coherency_lost=bool(command.coherency_lost))
        return data

    def _arrival_follows(self, t: Table, seat: str, uid: str, command: Enter, data: dict[str, Any]) -> None:
        """Casualties of the placing (HH.RES.2), Suppressed and dangerous terrain tests of a rush (HH.MOV.3, 4),
        snap shots at it (HH.RES.4), then the reactions its rush may draw (HH.REACT.1)."""
        if command.removed:
            self.rules.casualties(t, uid, command.removed, 0, "HH.RES.2", reason="could not enter in coherency")
        if data.get("coherency_lost"):
            self.rules.change_status(t, uid, "suppressed", True, "HH.MOV.3", reason="it could not keep unit coherency")
        if data.get("dangerous") and alive(t.state.units[uid]):
            tests = min(data["dangerous"], t.state.units[uid].models_alive)
            self.rules.request_roll(t, seat, "dangerous_terrain", f"{tests}D6", "HH.MOV.4", uid)
        self.rules.offer_snap_shots(t, uid)
        for target in data.get("near", ()):  # a rush is a move: HH.REACT.1 as for any other
            self.rules.offer_reaction(t, target, against=uid)

    @evolves("ReserveArrived")
    def _arrived(self, state: GameState, data: ev.ReserveArrived, entry: ev.Entry) -> GameState:
        unit = state.units[data["unit"]]
        # HH.RES.3: no second move; a rush costs its shooting
        turn = replace(HeresyTurn.of(unit.turn), arrived=True, rushed=data["rush"])
        state = state.with_unit(data["unit"], replace(unit, arriving=False, in_reserves=False, selected=True,
                                                      turn=turn))
        return common.moved_last(state, data["unit"]) if data["rush"] else state  # a rush into play is a move
