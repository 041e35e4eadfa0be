"""The Move sub-phase (HH.MOV.1-5): a normal move, a rush or Stationary, with terrain and coherency.

Distances are the table's (CORE.DIST.1): the move carries the inches measured, whether the path crossed
difficult terrain, how many models went through dangerous terrain, whether coherency was lost, and which
enemy units it ended within 12" of (each may react, HH.REACT.1). The service works out the allowance and
shows it as the distance's `maximum`. A unit selected that moves 0" has not moved: it is Stationary (HH.MOV.1).
Every move (a rush into play and a reaction move too) attests that no model ends within 1" of an enemy model,
on impassable terrain, on another model or off the table (`clear`, HH.MOV.3); its event cites HH.MOV.4 where
terrain bore on it, else the rule of the move (HH.MOV.1, a rush HH.MOV.5).
"""
from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING, Any

from warlog.domain import events as ev
from warlog.domain.rules import actions as act
from warlog.domain.rules import editions
from warlog.domain.rules.actions import Action
from warlog.domain.rules.basics import evolves, seat_units
from warlog.domain.rules.heresy import common
from warlog.domain.rules.heresy import events as own
from warlog.domain.rules.heresy.commands import Disembark, Move
from warlog.domain.rules.heresy.reactions import checked_near, near_field
from warlog.domain.rules.ruleset import Part, alive, handles, inches
from warlog.domain.rulings import Malformed, Refused
from warlog.domain.state import GameState, HeresyTurn, Unit
from warlog.domain.state.values import replace
from warlog.domain.words import unit_named, whose

if TYPE_CHECKING:
    from warlog.domain.game import Table

MOVES = ("normal", "rush", "stationary")
CLEAR_FIX = "HH.MOV.3"  # the fix by which a move attests that it ends clear, offered and judged


class Movement(Part[common.MoveRules]):
    """A part of `Heresy`: the Move sub-phase. `move` is dispatched to it and `UnitMoved` (a move, a disembarking)
    applied by it; `Heresy` asks it `move_block` (who may be selected), `move_actions` (what its Move offers),
    `dangerous_rolled` (a roll read) and `stationary_at_end_of_move` (the step ended)."""

    def move_block(self, state: GameState, uid: str) -> common.Block:
        """May this unit make its move now? HH.MOV.1 (once, its owner's), HH.RES.3, HH.MOV.2."""
        step = self.rules.step(state)
        unit = state.units[uid]
        if step is None or step.name != "move":
            return ("HH.MOV.1", "units move in the Move sub-phase")
        if unit.owner != step.active:
            return ("HH.MOV.1", f"it is {whose(state, step.active)} Move sub-phase")
        if not alive(unit):
            return ("HH.MOV.1", "the unit is destroyed")
        if HeresyTurn.of(unit.turn).arrived:
            return ("HH.RES.3", "it arrived from reserves this turn: it does not move a second time")
        if unit.in_reserves:
            return ("HH.RES.1", "it is in reserves")
        if unit.embarked_in:
            return ("HH.MOV.1", f"it is embarked in {unit.embarked_in}")
        return common.selected_block(unit, "HH.MOV.1", "moved")

    def move_actions(self, state: GameState, seat: str) -> list[Action]:
        ready = [uid for uid, _ in seat_units(state, seat) if self.move_block(state, uid) is None]
        if not ready:
            return []
        offered = [act.action("move", "HH.MOV.1", "leave a unit Stationary (pivoting on the spot only is "
                              "Stationary)", ["unit", "move"], unit=act.one_of(ready), move=act.const("stationary"))]
        enemies = common.enemies_on_battlefield(state, seat)
        for uid in ready:
            offered += _move_offers(state, uid, enemies)
        return offered

    @handles("move")
    def move_unit(self, t: Table, seat: str, command: Move) -> None:
        state = t.state
        uid = command.unit
        common.refuse_blocked(state, seat, self.move_block(state, uid), uid, "move")
        if command.move not in MOVES:
            raise Malformed(f"move is one of {', '.join(MOVES)}", field="move")
        unit = state.units[uid]
        if command.move == "stationary":
            t.emit("UnitMoved", own.UnitMoved(unit=uid, seat=seat, move="stationary"), "HH.MOV.1")
            self.rules.change_status(t, uid, "stationary", True, "HH.MOV.1", reason="it remained stationary")
            return
        if command.distance is None:
            raise Malformed("a move gives the inches moved (distance)", field="distance")
        distance = inches(command.distance, "distance", 1000)
        if Decimal(distance) == 0 and editions.fixed(state, "HH.MOV.1"):
            self.stayed_put(t, seat, uid, command)
            return
        rush = command.move == "rush"
        most = common.allowance(unit, rush, bool(command.difficult))
        if Decimal(distance) > most:
            rule = "HH.MOV.4" if command.difficult and Decimal(distance) <= most + common.DIFFICULT_PENALTY else \
                "HH.MOV.5" if rush else "HH.MOV.1"
            raise Refused(f"{unit_named(state, uid, seat)} may move at most {most}\" this way, not {distance}\"", rule=rule)
        moved = attested_move(state, seat, command, command.move, distance, most, CLEAR_FIX)
        t.emit("UnitMoved", moved, common.move_rule(state, "HH.MOV.5" if rush else "HH.MOV.1", bool(command.difficult),
                                             moved["dangerous"]))
        self.rules.after_move(t, seat, uid, bool(command.coherency_lost), moved["dangerous"], moved["near"])

    def stayed_put(self, t: Table, seat: str, uid: str, command: Move) -> None:
        """HH.MOV.1: a unit selected that moves 0" has not moved: it is Stationary (no rush, no terrain crossed,
        no move ended near an enemy); coherency it genuinely cannot keep still costs it Suppressed (HH.MOV.3)."""
        t.emit("UnitMoved", own.UnitMoved(unit=uid, seat=seat, move="stationary", distance="0", attested_by=seat),
               "HH.MOV.1")
        self.rules.change_status(t, uid, "stationary", True, "HH.MOV.1", reason="it moved 0\": it remained stationary")
        if command.coherency_lost:
            self.rules.change_status(t, uid, "suppressed", True, "HH.MOV.3", reason="it could not keep unit coherency")

    def dangerous_rolled(self, t: Table, uid: str, roll: ev.DiceRolled) -> None:
        """HH.MOV.4 convention: each model's D6 fails on a 1, and that model is removed as a casualty."""
        failed = sum(1 for face in roll["faces"] if face <= common.DANGEROUS_FAILS_ON)
        t.emit("DangerousTerrainTested", own.DangerousTerrainTested(unit=uid, tests=len(roll["faces"]), failed=failed,
                                          fails_on=common.DANGEROUS_FAILS_ON), "HH.MOV.4")
        unit = t.state.units[uid]
        if failed and alive(unit):
            self.rules.casualties(t, uid, min(failed, unit.models_alive), 0, "HH.MOV.4",
                            reason="failed a dangerous terrain test")

    def stationary_at_end_of_move(self, t: Table, seat: str) -> None:
        """HH.MOV.1: a unit on the battlefield that did not move (and will not fall back) is Stationary."""
        for uid, unit in seat_units(t.state, seat):  # a Stationary gained changes no other unit
            if alive(unit) and not unit.in_reserves and not unit.embarked_in and not unit.selected \
                    and not HeresyTurn.of(unit.turn).arrived and "routed" not in unit.statuses:
                self.rules.change_status(t, uid, "stationary", True, "HH.MOV.1", reason="it did not move")

    @evolves("UnitMoved")
    def _moved(self, state: GameState, data: own.UnitMoved, entry: ev.Entry) -> GameState:
        unit = state.units[data["unit"]]
        turn = replace(HeresyTurn.of(unit.turn), moved=data["move"])
        if data["move"] == "rush":
            turn = replace(turn, rushed=True)
        state = state.with_unit(data["unit"], replace(unit, selected=True, turn=turn))
        return state if data["move"] == "stationary" else common.moved_last(state, data["unit"])


def attested_move(state: GameState, seat: str, command: Move | Disembark, move: str, distance: str,
                  most: int, fix: str) -> own.UnitMoved:
    """A move as its player attests it, once its distance is within its allowance (`most`): the models through
    dangerous terrain (HH.MOV.4, one test each), coherency lost (HH.MOV.3), the enemy units it ended near (each
    may react, HH.REACT.1) and, where the game is judged by `fix`, that it ends clear (HH.MOV.3); a move in the
    Move sub-phase and the one after disembarking (HH.EMB.1) alike. What `attested_fields` offers."""
    moved = own.UnitMoved(unit=command.unit, seat=seat, move=move, distance=distance, allowance=most,
                          difficult=bool(command.difficult),
                          dangerous=common.checked_dangerous(state.units[command.unit], command.dangerous),
                          coherency_lost=bool(command.coherency_lost), near=checked_near(state, seat, command.near),
                          attested_by=seat)
    if common.checked_clear(state, command.clear, fix):
        moved["clear"] = True
    return moved


def attested_fields(state: GameState, unit: Unit, enemies: list[str], fix: str) -> dict[str, Any]:
    """What a player attests of a move, as offered (what `attested_move` judges): its path and end
    (`common.attested_terrain`), the enemy units near it (where there are any) and, where the game is judged by
    `fix`, that it ends clear (HH.MOV.3)."""
    fields: dict[str, Any] = {**common.attested_terrain(unit)}
    if enemies:
        fields["near"] = near_field(enemies)
    if editions.fixed(state, fix):
        fields["clear"] = common.clear_field()
    return fields


def _move_offers(state: GameState, uid: str, enemies: list[str]) -> list[Action]:
    """A unit's normal moves and rushes, each in the open or through difficult terrain."""
    unit = state.units[uid]
    named = unit_named(state, uid)
    offered = []
    for move in ("normal", "rush"):
        for difficult in (False, True):
            most = common.allowance(unit, move == "rush", difficult)
            fields: dict[str, Any] = {
                "unit": act.const(uid), "move": act.const(move), "difficult": act.const(difficult),
                "distance": act.number(0, most, move_description(unit, move, difficult, most)),
                **attested_fields(state, unit, enemies, CLEAR_FIX),
            }
            summary = (f"{'rush' if move == 'rush' else 'move'} {named} up to {most}\""
                       + (" through difficult terrain" if difficult else "")
                       + (": no shooting or charging this turn" if move == "rush" else ""))
            offered.append(act.action("move", "HH.MOV.5" if move == "rush" else "HH.MOV.1", summary,
                                      ["unit", "move", "distance", *(["difficult"] if difficult else [])],
                                      **fields))
    return offered


def move_description(unit: Unit, move: str, difficult: bool, most: int) -> str:
    parts = [f"M {common.movement(unit)}"] + ([f"I {common.initiative(unit)}"] if move == "rush" else [])
    text = " + ".join(parts) + (f" - {common.DIFFICULT_PENALTY} difficult terrain" if difficult else "")
    return f"inches moved, at most {most}\" ({text})"
