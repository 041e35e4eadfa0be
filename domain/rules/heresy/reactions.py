"""Reaction windows: the opponent answers before the active player goes on.

Two windows open in the active player's Movement phase: a reaction move (HH.REACT.1) for each of the
opponent's units an enemy unit ended its move within 12" of, and snap shots at a unit entering play from
reserves (HH.RES.4). Each waits for `react` (or `react` with `act: false`, declining); a window nobody can
answer any more (the unit destroyed, Pinned since) closes by itself.

Snap shots are rolled by the service through the attack module on the heresy tables (hitting only on a 6,
`shooting`), weapon after weapon; a weapon the tables cannot read is the table's (`free_roll`), as the
action says.

Conventions where the seed is silent: a reaction move opens no further reaction (HH.REACT.1 lets a unit
react in its opponent's Movement phase to an enemy unit's move; the unit that reacted moves in the active
player's own Movement phase, where the active player has no reaction); a fall back (`rout`) is the active
player's move and does open reactions. A unit makes at most one reaction per battle round (it reacts only
in the opponent's turn, so once per opponent's Movement phase); a reaction move is a move, so HH.MOV.2's
list (Pinned, Routed, Locked in Combat, Movement 0) stops it too; snap shots come from a unit on the
battlefield, not Locked in Combat, with ranged weapons (a vehicle only with DEFENSIVE ones).
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from warlog.domain import army
from warlog.domain import events as ev
from warlog.domain.rules import actions as act
from warlog.domain.rules.actions import Action
from warlog.domain.rules.basics import Awaiting, evolves, seat_units
from warlog.domain.rules.heresy import events as own
from warlog.domain.rules.heresy.commands import React
from warlog.domain.rules.heresy.common import (
    KIND_RULE,
    LOCKED,
    REACTION_RANGE,
    Block,
    heresy_step,
    initiative,
    movement_block,
    named_enemies,
    on_battlefield,
    reaction_seat,
    reaction_window,
)
from warlog.domain.rules.heresy.shooting import FACINGS, Shooting, SnapShotsGoOn, has_facings, tables_gap
from warlog.domain.rules.ruleset import alive, handles, inches
from warlog.domain.rulings import Malformed, Refused
from warlog.domain.state import GameState, HeresyTurn, Unit, Weapon, Window

if TYPE_CHECKING:
    from warlog.domain.game import Table

DIRECTIONS = ("toward", "away")


def snap_weapons(unit: Unit) -> list[str]:
    """HH.RES.4: the ranged weapons a unit may fire snap shots with (a vehicle: its DEFENSIVE ones only)."""
    ranged = [w for w in unit.weapons if w.type == "ranged"]
    if army.unit_is_vehicle(unit):
        ranged = [w for w in ranged if "DEFENSIVE" in {k.upper() for k in w.keywords}]
    return list(dict.fromkeys(w.name for w in ranged))


def ranged_weapon(unit: Unit, name: str) -> Weapon:
    """The unit's (first) ranged weapon of that name."""
    return next(w for w in unit.weapons if w.name == name and w.type == "ranged")


def near_field(enemies: list[str]) -> dict[str, Any]:
    """HH.REACT.1, attested: the enemy units a unit ended its move within 12" of."""
    return act.subset(enemies, 0, f"enemy units within {REACTION_RANGE}\" of it at the end of its move: each may react")


def checked_near(state: GameState, seat: str, near: Iterable[str]) -> list[str]:
    return named_enemies(state, seat, near, "near")


class Reactions(Shooting):
    """Mixed into `Heresy`: opening, offering and answering reaction windows (snap shots are `Shooting`'s attacks;
    the window open now is `common.reaction_window`, which every part that must wait for it reads)."""

    def reaction_block(self, state: GameState, uid: str, kind: str, against: str) -> Block:
        unit = state.units[uid]
        rule = KIND_RULE[kind]
        if unit.owner != reaction_seat(state):
            return ("HH.REACT.1", "no reaction on your own turn: reactions are made in the opponent's turn")
        if not on_battlefield(unit):
            return (rule, "it is not on the battlefield")
        if HeresyTurn.of(unit.turn).reacted:
            return (rule, "it has already reacted this battle round")
        if not on_battlefield(state.units[against]):
            return (rule, f"{against} is no longer on the battlefield")
        if kind == "move":
            return movement_block(unit)
        if LOCKED in unit.statuses:
            return (rule, "it is Locked in Combat")
        if not snap_weapons(unit):
            return (rule, "it has no weapon to fire snap shots with" + (" (a vehicle fires only DEFENSIVE weapons)"
                                                                          if army.unit_is_vehicle(unit) else ""))
        return None

    def snap_shooters(self, state: GameState, against: str) -> list[str]:
        seat = reaction_seat(state)
        if seat is None:
            return []
        return [uid for uid, _ in seat_units(state, seat)
                if self.reaction_block(state, uid, "snap_shots", against) is None]

    def offer_reaction(self, t: Table, uid: str, against: str) -> None:
        """HH.REACT.1: an enemy unit ended its move within 12" of `uid`."""
        state = t.state
        unit = state.units[uid]
        if self.reaction_block(state, uid, "move", against) is None:
            t.emit("ReactionOffered", own.ReactionOffered(kind="move", unit=uid, against=against, seat=unit.owner,
                                       up_to=initiative(unit)), "HH.REACT.1")

    def offer_snap_shots(self, t: Table, against: str) -> None:
        """HH.RES.4: a unit entered play; a nearby enemy unit may make snap shots at it."""
        state = t.state
        seat = reaction_seat(state)
        if seat is not None and self.snap_shooters(state, against):
            t.emit("ReactionOffered", own.ReactionOffered(kind="snap_shots", unit=None, against=against, seat=seat),
                   "HH.RES.4")

    def close_dead_window(self, t: Table) -> bool:
        """A window nobody can answer any more closes by itself (the `progress` hook)."""
        state = t.state
        window = reaction_window(state)
        if window is None:
            return False
        if window.kind == "move":
            block = self.reaction_block(state, _window_unit(window), "move", window.against)
        else:
            block = None if self.snap_shooters(state, window.against) else \
                (KIND_RULE["snap_shots"], "no unit can fire snap shots at it any more")
        if block is None:
            return False
        t.emit("ReactionDeclined", {**_ids(window), "reason": block[1]}, block[0], by=None)
        return True

    def awaiting_reaction(self, state: GameState) -> Awaiting | None:
        window = reaction_window(state)
        if window is None:
            return None
        return {"seat": window.seat, "action": "react", "reaction": window.kind, "unit": window.unit,
                "against": window.against, "rule": KIND_RULE[window.kind]}

    def react_actions(self, state: GameState, seat: str) -> list[Action]:
        window = reaction_window(state)
        if window is None or window.seat != seat:
            return []
        against, rule = window.against, KIND_RULE[window.kind]
        offered = []
        if window.kind == "move":
            uid = _window_unit(window)
            most = initiative(state.units[uid])
            offered.append(act.action(
                "react", rule, f"react with {uid}: move up to {most}\" (its Initiative) toward or away from {against}",
                ["unit", "direction", "distance"], unit=act.const(uid), act=act.const(True),
                move=act.one_of(["normal"], "a reaction is never a rush"), direction=act.one_of(DIRECTIONS),
                distance=act.number(0, most, f"inches moved, at most {most}\" (I)")))
        else:
            offered += self._snap_offers(state, rule, against)
        offered.append(act.action("react", rule, f"decline the reaction to {against}", ["act"], act=act.const(False)))
        return offered

    def _snap_offers(self, state: GameState, rule: str, against: str) -> list[Action]:
        """Snap shots at a unit entering play: one action for each unit that may fire them."""
        vehicle = has_facings(state.units[against])
        fields = {"facing": act.one_of(FACINGS, "the armour facing hit (attested)")} if vehicle else {}
        offered = []
        for uid in self.snap_shooters(state, against):
            names = snap_weapons(state.units[uid])
            rolled = [n for n in names if self.snap_resolvable(state, uid, n, against)]
            how = ("the service rolls " + ", ".join(rolled) + " on the heresy tables, hitting on 6s"
                   if rolled else "")
            table = [n for n in names if n not in rolled]
            how += ("; " if how and table else "") + (
                "the table rolls " + ", ".join(table) + " with free_roll and records the casualties" if table else "")
            offered.append(act.action(
                "react", rule, f"snap shots from {uid} at {against}, which entered play (attested: nearby): {how}",
                ["unit", "weapons", *fields], unit=act.const(uid), act=act.const(True),
                weapons=act.subset(names, 1, "the weapons fired"), **fields))
        return offered

    @handles("react")
    def react(self, t: Table, seat: str, command: React) -> None:
        state = t.state
        if seat == state.active_seat:
            raise Refused("no reaction on your own turn: reactions are made in the opponent's turn",
                          rule="HH.REACT.1")
        window = reaction_window(state)
        if window is None or window.seat != seat:
            raise Refused("no reaction is offered to you now", rule="HH.REACT.1")
        rule = KIND_RULE[window.kind]
        if command.move == "rush":
            raise Refused("a unit never rushes in a reaction", rule="HH.MOV.5")
        if command.move != "normal":
            raise Malformed("a reaction's move is normal", field="move")
        if not command.act:
            t.emit("ReactionDeclined", {**_ids(window), "reason": "declined by its player"}, rule)
            return
        if command.unit is None:
            raise Malformed("a reaction names the unit that reacts", field="unit")
        if window.kind == "move":
            self._reaction_move(t, seat, command, window)
        else:
            self._snap_shots(t, seat, command.unit, command, window)

    def _reaction_move(self, t: Table, seat: str, command: React, window: Window) -> None:
        uid = _window_unit(window)
        if command.unit != uid:
            raise Refused(f"the reaction offered is {uid}'s, to {window.against}", rule="HH.REACT.1")
        if command.direction not in DIRECTIONS:
            raise Malformed("direction is toward or away", field="direction")
        if command.distance is None:
            raise Malformed("a reaction move gives the inches moved (distance)", field="distance")
        distance = inches(command.distance, "distance", 1000)
        most = initiative(t.state.units[uid])
        if Decimal(distance) > most:
            raise Refused(f"a reaction moves at most the unit's Initiative, {most}\"", rule="HH.REACT.1")
        t.emit("ReactionMade", {**_ids(window), "direction": command.direction, "distance": distance,
                                "up_to": most, "attested_by": seat}, "HH.REACT.1")

    def _snap_shots(self, t: Table, seat: str, uid: str, command: React, window: Window) -> None:
        state = t.state
        block = self.reaction_block(state, uid, "snap_shots", window.against)
        if block:
            raise Refused(block[1], rule=block[0])
        weapons = list(dict.fromkeys(command.weapons))
        allowed = snap_weapons(state.units[uid])
        if not weapons or any(name not in allowed for name in weapons):
            raise Refused(f"{uid} fires snap shots with some of: {', '.join(allowed)}", rule="HH.RES.4")
        against = window.against
        facing = self.checked_facing(state.units[against], command.facing)
        t.emit("ReactionMade", {**_ids(window), "unit": uid, "weapons": weapons, "facing": facing,
                                "attested_by": seat}, "HH.RES.4")
        rolled = [n for n in weapons if self.snap_resolvable(state, uid, n, against)]
        self.next_snap_shot(t, {"kind": "snap_shots", "unit": uid, "against": against, "facing": facing,
                                "weapons": rolled})

    @staticmethod
    def snap_resolvable(state: GameState, uid: str, name: str, against: str) -> bool:
        return tables_gap(state.units, uid, ranged_weapon(state.units[uid], name), against) is None

    def next_snap_shot(self, t: Table, then: SnapShotsGoOn) -> None:
        """HH.RES.4: the snap shots' weapons one after another through the attack module (6s to hit), while
        the shooter and the unit that entered play stand. `then`: what follows the attack, carried with its dice."""
        units = t.state.units
        uid, against = then["unit"], then["against"]
        if not then["weapons"] or not alive(units[uid]) or not on_battlefield(units[against]):
            return
        name, rest = then["weapons"][0], then["weapons"][1:]
        self.start_attack(t, uid, ranged_weapon(units[uid], name), against, units[uid].models_alive, "snap_shots",
                          then["facing"], snap_shots=True, then={**then, "weapons": rest})

    @evolves("ReactionOffered")
    def _offered(self, state: GameState, data: own.ReactionOffered, entry: ev.Entry) -> GameState:
        step = heresy_step(state)
        window = Window(kind=data["kind"], unit=data["unit"], against=data["against"], seat=data["seat"])
        return replace(state, step=replace(step, windows=(*(step.windows or ()), window)))

    @evolves("ReactionMade")
    def _made(self, state: GameState, data: own.ReactionMade, entry: ev.Entry) -> GameState:
        state = _window_closed(state)
        unit = state.units[data["unit"]]
        return state.with_unit(data["unit"], replace(unit, turn=replace(HeresyTurn.of(unit.turn), reacted=True)))

    @evolves("ReactionDeclined")
    def _declined(self, state: GameState, data: own.ReactionDeclined, entry: ev.Entry) -> GameState:
        return _window_closed(state)


def _window_closed(state: GameState) -> GameState:
    """The window open now answered: the next one waiting opens."""
    step = heresy_step(state)
    if not step.windows:
        raise ValueError("no reaction window is open")
    return replace(state, step=replace(step, windows=step.windows[1:]))


def _window_unit(window: Window) -> str:
    """The unit a reaction move is offered to (a move's window always names it)."""
    if window.unit is None:
        raise ValueError(f"a {window.kind} window names no unit")
    return window.unit


def _ids(window: Window) -> dict[str, Any]:
    return {"kind": window.kind, "unit": window.unit, "against": window.against, "seat": window.seat}
