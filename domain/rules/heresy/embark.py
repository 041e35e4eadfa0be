"""Disembarking (HH.EMB.1, a convention: the seed names transports but not how units leave them).

A unit embarked in a transport may disembark when selected in its owner's Move sub-phase, unless its transport
rushed or arrived from reserves this turn: each model is placed within 2" of the transport (attested by the
player who sends it) and the unit may then make a normal move less 2" (difficult and dangerous terrain as any
move, HH.MOV.4). It counts as having moved; like any move it may draw reactions (HH.REACT.1, `near`), and from
edition 5 (`HH.EMB.1/clear`) it attests, offered and judged by the move's own code, that no model ends within 1" of an
enemy model, on impassable terrain, on another model or off the table (`clear`, HH.MOV.3).
A game of edition 1 (before the rule was written) offers no way out, as it did.
"""
from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING, Any, Protocol

from warlog.domain import events as ev
from warlog.domain.rules import actions as act
from warlog.domain.rules import editions
from warlog.domain.rules.actions import Action
from warlog.domain.rules.basics import Step, seat_units
from warlog.domain.rules.heresy import common
from warlog.domain.rules.heresy import events as own
from warlog.domain.rules.heresy.commands import Disembark
from warlog.domain.rules.heresy.movement import attested_fields, attested_move
from warlog.domain.rules.ruleset import Part, alive, handles, inches
from warlog.domain.rulings import Malformed, Refused
from warlog.domain.state import GameState, HeresyTurn, Unit
from warlog.domain.state.values import replace
from warlog.domain.words import unit_named, unit_title, whose

if TYPE_CHECKING:
    from warlog.domain.game import Table

DISEMBARK_PENALTY = 2  # HH.EMB.1: the move after disembarking is a normal move less 2"
CLEAR_FIX = "HH.EMB.1/clear"  # the fix by which the move out attests that it ends clear (HH.MOV.3), as every move


def disembark_allowance(unit: Unit, difficult: bool) -> int:
    """HH.EMB.1: M less 2" (and less 2" more through difficult terrain, HH.MOV.4)."""
    return max(0, common.allowance(unit, False, difficult) - DISEMBARK_PENALTY)


class EmbarkRules(Protocol):
    """What disembarking reads of its ruleset: the step being played, and what any move sets going after it."""

    def step(self, state: GameState) -> Step | None:
        """The step being played; None outside play."""

    def after_move(self, t: Table, seat: str, uid: str, coherency_lost: bool, dangerous: int,
                   near: list[str]) -> None:
        """Suppressed for coherency lost, the dangerous terrain tests, the reactions offered (heresy's Reactions)."""


class Embarking(Part[EmbarkRules]):
    """A part of `Heresy`: a unit leaving its transport in the Move sub-phase. `disembark` is dispatched to it;
    `Heresy` asks it `disembark_block` (who may be selected) and `disembark_actions` (what its Move offers)."""

    def disembark_block(self, state: GameState, uid: str) -> common.Block:
        """May this unit disembark now? HH.EMB.1 (its transport neither rushed nor arrived), HH.MOV.2."""
        step = self.rules.step(state)
        unit = state.units[uid]
        if not editions.fixed(state, "HH.EMB.1"):
            return ("HH.EMB.1", "this game's edition of the rules has no disembarking")
        if step is None or step.name != "move":
            return ("HH.EMB.1", "a unit disembarks when selected in the Move sub-phase")
        if unit.owner != step.active:
            return ("HH.EMB.1", f"it is {whose(state, step.active)} Move sub-phase")
        if not alive(unit) or not unit.embarked_in:
            return ("HH.EMB.1", "it is not embarked in a transport")
        transport = state.units.get(unit.embarked_in)
        if transport is None or not common.on_battlefield(transport):
            return ("HH.EMB.1", f"its transport {unit.embarked_in} is not on the battlefield")
        carried = HeresyTurn.of(transport.turn)
        if carried.rushed:
            return ("HH.EMB.1", f"its transport {unit.embarked_in} rushed this turn")
        if carried.arrived:
            return ("HH.EMB.1", f"its transport {unit.embarked_in} arrived from reserves this turn")
        return common.selected_block(unit, "HH.EMB.1", "been selected")

    def disembark_actions(self, state: GameState, seat: str) -> list[Action]:
        enemies = common.enemies_on_battlefield(state, seat)
        offered = []
        for uid, unit in seat_units(state, seat):
            if self.disembark_block(state, uid) is None:
                offered += _disembark_offers(state, uid, unit, enemies)
        return offered

    @handles("disembark")
    def disembark(self, t: Table, seat: str, command: Disembark) -> None:
        moved = self.judged(t.state, seat, command)
        uid = command.unit
        t.emit("UnitDisembarked", ev.UnitDisembarked(unit=uid, transport=t.state.units[uid].embarked_in or "",
                                                     reason="each model placed within 2\" of it (attested)"),
               "HH.EMB.1")
        t.emit("UnitMoved", moved, "HH.EMB.1")  # it counts as having moved, even 0"
        self.rules.after_move(t, seat, uid, bool(command.coherency_lost), moved["dangerous"], moved["near"])

    def judged(self, state: GameState, seat: str, command: Disembark) -> own.UnitMoved:
        """The move a disembarking makes, as its player attests it, or the refusal: the unit may disembark now
        (`disembark_block`), each model is placed within 2" of the transport, the move is within M less 2"."""
        uid = command.unit
        common.refuse_blocked(state, seat, self.disembark_block(state, uid), uid, "disembark")
        if command.placed is not True:
            raise Malformed("each model of a disembarking unit is placed within 2\" of its transport: attest that it "
                            "is", field="placed")
        distance = inches(0 if command.distance is None else command.distance, "distance", 1000)
        most = disembark_allowance(state.units[uid], bool(command.difficult))
        if Decimal(distance) > most:
            raise Refused(f"{unit_named(state, uid, seat)} may move at most {most}\" after disembarking, not {distance}\"", rule="HH.EMB.1")
        return attested_move(state, seat, command, "normal", distance, most, CLEAR_FIX)


def _disembark_offers(state: GameState, uid: str, unit: Unit, enemies: list[str]) -> list[Action]:
    """Disembarking, then a move in the open or through difficult terrain."""
    transport = unit_title(state, unit.embarked_in or "", owner=False, counts=False)
    offered = []
    for difficult in (False, True):
        most = disembark_allowance(unit, difficult)
        fields: dict[str, Any] = {
            "unit": act.const(uid),
            "placed": {"const": True, "description": "attested: each model is placed within 2\" of the transport"},
            "distance": act.number(0, most, f"inches moved after disembarking, at most {most}\" (M less "
                                            f"{DISEMBARK_PENALTY}\"" + (", less 2\" difficult terrain)" if difficult
                                                                        else ")")),
            "difficult": act.const(difficult),
            **attested_fields(state, unit, enemies, CLEAR_FIX),
        }
        summary = (f"disembark {unit_named(state, uid)} from {transport}: place each model within 2\" of it, then "
                   f"move up to {most}\"" + (" through difficult terrain" if difficult else ""))
        title = f"Disembark from {transport}" + (" through difficult terrain" if difficult else "")
        offered.append(replace(act.action("disembark", "HH.EMB.1", summary,
                                          ["unit", "placed", *(["difficult"] if difficult else [])], **fields),
                               title=title))
    return offered
