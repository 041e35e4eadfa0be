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
player's move and does open reactions. The moving player names the enemy units it ended near (`near`); the
reacting player may also claim a reaction itself (`react` with `against`, attested) for any of its units to
the latest move the active player's units ended in the sub-phase under way (before edition 3: to any of them),
until another move or the sub-phase's end, one reaction per unit to each move. No seed caps reactions a round: the
option `one_reaction_per_round` does (games of the first edition always had that cap). A reaction move is a move:
difficult and dangerous terrain count (HH.MOV.4), and so HH.MOV.2's list (Pinned, Routed, Locked in Combat,
Movement 0) stops it too; snap shots come from a unit on the battlefield, not Locked in Combat, with ranged weapons
(a vehicle only with DEFENSIVE ones).
"""
from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Protocol

from warlog.domain import army, dice
from warlog.domain import events as ev
from warlog.domain.rules import actions as act
from warlog.domain.rules import editions
from warlog.domain.rules.actions import Action
from warlog.domain.rules.basics import Awaiting, evolves, seat_units
from warlog.domain.rules.heresy import common
from warlog.domain.rules.heresy import events as own
from warlog.domain.rules.heresy.commands import React
from warlog.domain.rules.heresy.shooting import FACINGS, SnapShotsGoOn, Then, has_facings, tables_gap
from warlog.domain.rules.ruleset import Part, alive, handles, inches
from warlog.domain.rulings import Malformed, NotFound, Refused
from warlog.domain.state import GameState, HeresyTurn, Unit, Weapon, Window
from warlog.domain.state.values import replace
from warlog.domain.words import owns, unit_named

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
    return act.subset(enemies, 0, f"enemy units within {common.REACTION_RANGE}\" of it at the end of its move: each "
                                  "may react")


def checked_near(state: GameState, seat: str, near: Iterable[str]) -> list[str]:
    return common.named_enemies(state, seat, near, "near")


def capped(state: GameState) -> bool:
    """A unit reacts at most once a battle round: always before HH.REACT.1's fix, since it only with the option
    `one_reaction_per_round` (no seed states the cap)."""
    return not editions.fixed(state, "HH.REACT.1") or bool(state.options.one_reaction_per_round)


def reaction_allowance(unit: Unit, difficult: bool) -> int:
    """HH.REACT.1 and HH.MOV.4: its Initiative, less 2" through difficult terrain."""
    return max(0, common.initiative(unit) - (common.DIFFICULT_PENALTY if difficult else 0))


def terrain_fields(unit: Unit, difficult: bool) -> dict[str, Any]:
    """HH.MOV.4 on a reaction move: difficult terrain (its allowance less 2"), models through dangerous terrain."""
    most = reaction_allowance(unit, difficult)
    text = f"I {common.initiative(unit)}" + (f" - {common.DIFFICULT_PENALTY} difficult terrain" if difficult else "")
    return {"difficult": act.const(difficult), "distance": act.number(0, most, f"inches moved, at most {most}\" ({text})"),
            "dangerous": act.integer(0, min(unit.models_alive, dice.MAX_DICE),
                                     f"models that moved through dangerous terrain: each tests, removed on a "
                                     f"{common.DANGEROUS_FAILS_ON}")}


class ReactionRules(common.TableRules, Protocol):
    """What the reactions call back in their ruleset besides the table's (`TableRules`): a snap shot's attack
    (heresy's `Shooting`: the facing named, the weapon's attack declared and rolled)."""

    def checked_facing(self, target: Unit, facing: str | None) -> str | None:
        """The armour facing an attack on `target` hits: named for a vehicle with armour values, else None."""

    def start_attack(self, t: Table, uid: str, arms: Weapon, target: str, models: int, phase: str,
                     facing: str | None = None, snap_shots: bool = False, within_half_range: bool = False,
                     then: Then | None = None) -> None:
        """One weapon's attack declared on the heresy tables and rolled; `then` says what follows it."""


class Reactions(Part[ReactionRules]):
    """A part of `Heresy`: opening, offering and answering reaction windows (snap shots are `Shooting`'s attacks,
    asked of the ruleset; the window open now is `common.reaction_window`, which every part that must wait for it
    reads). `react` is dispatched to it, `ReactionOffered`, `ReactionMade` and `ReactionDeclined` applied by it;
    `Heresy` asks it the rest by name (`after_move`, `offer_reaction`, `offer_snap_shots` for its parts' moves and
    arrivals; `close_dead_window`, `awaiting_reaction`, `react_actions`, `claim_actions`, `claim_block`,
    `moved_this_sub_phase`, `snap_shooters`, `next_snap_shot` for its own hooks)."""

    def reaction_block(self, state: GameState, uid: str, kind: str, against: str) -> common.Block:
        unit = state.units[uid]
        rule = common.KIND_RULE[kind]
        if unit.owner != common.reaction_seat(state):
            return ("HH.REACT.1", "no reaction on your own turn: reactions are made in the opponent's turn")
        if not common.on_battlefield(unit):
            return (rule, "it is not on the battlefield")
        if HeresyTurn.of(unit.turn).reacted and capped(state):
            return (rule, "it has already reacted this battle round")
        # a window it closes stores the reason: by name since edition 4
        if not common.on_battlefield(state.units[against]):
            gone = unit_named(state, against, unit.owner) if editions.fixed(state, "HH.REACT.1/named") else against
            return (rule, f"{gone} is no longer on the battlefield")
        if kind == "move":
            return common.movement_block(unit)
        if common.LOCKED in unit.statuses:
            return (rule, "it is Locked in Combat")
        if not snap_weapons(unit):
            return (rule, "it has no weapon to fire snap shots with" + (" (a vehicle fires only DEFENSIVE weapons)"
                                                                          if army.unit_is_vehicle(unit) else ""))
        return None

    def snap_shooters(self, state: GameState, against: str) -> list[str]:
        seat = common.reaction_seat(state)
        if seat is None:
            return []
        return [uid for uid, _ in seat_units(state, seat)
                if self.reaction_block(state, uid, "snap_shots", against) is None]

    def after_move(self, t: Table, seat: str, uid: str, coherency_lost: bool, dangerous: int,
                   near: list[str]) -> None:
        """What a move made sets going: Suppressed for coherency it could not keep (HH.MOV.3), a dangerous terrain
        test a model through it (HH.MOV.4), and a reaction offered to each enemy unit it ended near (HH.REACT.1)."""
        if coherency_lost:
            self.rules.change_status(t, uid, "suppressed", True, "HH.MOV.3", reason="it could not keep unit coherency")
        if dangerous:
            self.rules.request_roll(t, seat, "dangerous_terrain", f"{dangerous}D6", "HH.MOV.4", uid)
        for target in near:
            self.offer_reaction(t, target, against=uid)

    def offer_reaction(self, t: Table, uid: str, against: str) -> None:
        """HH.REACT.1: an enemy unit ended its move within 12" of `uid`."""
        state = t.state
        unit = state.units[uid]
        if self.reaction_block(state, uid, "move", against) is None:
            t.emit("ReactionOffered", own.ReactionOffered(kind="move", unit=uid, against=against, seat=unit.owner,
                                       up_to=common.initiative(unit)), "HH.REACT.1")

    def offer_snap_shots(self, t: Table, against: str) -> None:
        """HH.RES.4: a unit entered play; a nearby enemy unit may make snap shots at it."""
        state = t.state
        seat = common.reaction_seat(state)
        if seat is not None and self.snap_shooters(state, against):
            t.emit("ReactionOffered", own.ReactionOffered(kind="snap_shots", unit=None, against=against, seat=seat),
                   "HH.RES.4")

    def close_dead_window(self, t: Table) -> bool:
        """A window nobody can answer any more closes by itself (the `progress` hook)."""
        state = t.state
        window = common.reaction_window(state)
        if window is None:
            return False
        if window.kind == "move":
            block = self.reaction_block(state, _window_unit(window), "move", window.against)
        else:
            block = None if self.snap_shooters(state, window.against) else \
                (common.KIND_RULE["snap_shots"], "no unit can fire snap shots at it any more")
        if block is None:
            return False
        t.emit("ReactionDeclined", {**_ids(window), "reason": block[1]}, block[0], by=None)
        return True

    def awaiting_reaction(self, state: GameState) -> Awaiting | None:
        window = common.reaction_window(state)
        if window is None:
            return None
        return {"seat": window.seat, "action": "react", "reaction": window.kind, "unit": window.unit,
                "against": window.against, "rule": common.KIND_RULE[window.kind]}

    def react_actions(self, state: GameState, seat: str) -> list[Action]:
        window = common.reaction_window(state)
        if window is None or window.seat != seat:
            return []
        against, rule = window.against, common.KIND_RULE[window.kind]
        offered = []
        if window.kind == "move" and editions.fixed(state, "HH.REACT.1"):
            offered += reaction_move_offers(state, _window_unit(window), [against])
        elif window.kind == "move":
            uid = _window_unit(window)
            most = common.initiative(state.units[uid])
            offered.append(act.action(
                "react", rule, f"react with {unit_named(state, uid)}: move up to {most}\" (its Initiative) toward or "
                f"away from {unit_named(state, against, seat)}",
                ["unit", "direction", "distance"], unit=act.const(uid), act=act.const(True),
                move=act.one_of(["normal"], "a reaction is never a rush"), direction=act.one_of(DIRECTIONS),
                distance=act.number(0, most, f"inches moved, at most {most}\" (I)")))
        else:
            offered += self._snap_offers(state, seat, rule, against)
        offered.append(act.action("react", rule, f"decline the reaction to {unit_named(state, against, seat)}", ["act"],
                                  act=act.const(False)))
        return offered

    def moved_this_sub_phase(self, state: GameState) -> list[str]:
        """HH.REACT.1: the active player's units that ended a move in the Movement sub-phase under way (a move, a
        rush, a rush entering play, a fall back): each is a move the opponent may claim a reaction to; since edition
        3 only the latest (`last_moved`), the move that opened the chance to react."""
        step = self.rules.step(state)
        if step is None or step.phase != "movement" or step.active is None:
            return []
        if editions.fixed(state, "HH.REACT.1/latest"):
            last = common.heresy_step(state).last_moved
            return [last] if last is not None and common.on_battlefield(state.units[last]) else []
        moved = []
        for uid, unit in seat_units(state, step.active):
            turn = HeresyTurn.of(unit.turn)
            if common.on_battlefield(unit) and (
                    (step.name == "move" and unit.selected and turn.moved not in (None, "stationary"))
                    or (step.name == "reserves" and bool(turn.arrived and turn.rushed))
                    or (step.name == "rout" and turn.fell_back is not None)):
                moved.append(uid)
        return moved

    def claim_block(self, state: GameState, uid: str, against: str) -> common.Block:
        """May the reacting seat claim a reaction move of `uid` to `against`'s move (HH.REACT.1)?"""
        if not editions.fixed(state, "HH.REACT.1"):
            return ("HH.REACT.1", "a reaction is made when the moving player names the unit near (near)")
        if common.reaction_window(state) is not None:
            return ("HH.REACT.1", "answer the reaction offered first")
        seat = state.units[uid].owner  # the reacting player, whom a refusal is said to
        if against not in self.moved_this_sub_phase(state):
            last = common.heresy_step(state).last_moved
            if editions.fixed(state, "HH.REACT.1/latest") and last not in (None, against):
                return ("HH.REACT.1", f"a reaction answers the latest enemy move, the move of "
                                      f"{unit_named(state, last, seat)}, not that of {unit_named(state, against, seat)}")
            return ("HH.REACT.1", f"{unit_named(state, against, seat)} has ended no move this sub-phase that a "
                                  "reaction may answer")
        if against in (HeresyTurn.of(state.units[uid].turn).reacted_to or ()):
            return ("HH.REACT.1", f"it has already been offered a reaction to the move of "
                                  f"{unit_named(state, against, seat)}")
        return self.reaction_block(state, uid, "move", against)

    def claim_actions(self, state: GameState, seat: str) -> list[Action]:
        """HH.REACT.1: the reacting seat claims a reaction itself, for a unit the moving player did not name."""
        if (seat != common.reaction_seat(state) or not editions.fixed(state, "HH.REACT.1")
                or common.reaction_window(state)):
            return []
        moved = self.moved_this_sub_phase(state)
        offered = []
        for uid, _ in seat_units(state, seat):
            against = [x for x in moved if self.claim_block(state, uid, x) is None]
            if against:
                offered += reaction_move_offers(state, uid, against, claim=True)
        return offered

    def _snap_offers(self, state: GameState, seat: str, rule: str, against: str) -> list[Action]:
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
                "the table rolls " + ", ".join(table) + " as free rolls and records the casualties" if table else "")
            offered.append(act.action(
                "react", rule, f"snap shots from {unit_named(state, uid)} at {unit_named(state, against, seat)}, which "
                "entered play (attested: nearby): " + how,
                ["unit", "weapons", *fields], unit=act.const(uid), act=act.const(True),
                weapons=act.subset(names, 1, "the weapons fired"), **fields))
        return offered

    @handles("react")
    def react(self, t: Table, seat: str, command: React) -> None:
        state = t.state
        if seat == state.active_seat:
            raise Refused("no reaction on your own turn: reactions are made in the opponent's turn",
                          rule="HH.REACT.1")
        window = common.reaction_window(state)
        if window is None and command.against is not None and editions.fixed(state, "HH.REACT.1"):
            self._claim(t, seat, command)
            return
        if window is None or window.seat != seat:
            raise Refused("no reaction is offered to you now", rule="HH.REACT.1")
        if command.against not in (None, window.against) and window.kind == "move":
            raise Refused(f"answer the reaction offered to the move of {unit_named(state, window.against, seat)} first",
                          rule="HH.REACT.1")
        rule = common.KIND_RULE[window.kind]
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

    def _claim(self, t: Table, seat: str, command: React) -> None:
        """HH.REACT.1: the reacting seat names its unit and the enemy unit whose move ended within 12" of it
        (attested), and moves it: the window it opens is answered at once."""
        state, uid, against = t.state, command.unit, command.against
        if command.move == "rush":
            raise Refused("a unit never rushes in a reaction", rule="HH.MOV.5")
        if not command.act or uid is None or against is None:
            raise Malformed("a reaction claimed names the unit that reacts (unit) and acts", field="unit")
        for name, field in ((uid, "unit"), (against, "against")):
            if name not in state.units:
                raise NotFound(f"no unit {name!r} in this game", field=field)
        if state.units[uid].owner != seat:
            raise Refused(f"{unit_named(state, uid, seat)} is not your unit", rule="HH.REACT.1")
        block = self.claim_block(state, uid, against)
        if block:
            raise Refused(block[1], rule=block[0])
        t.emit("ReactionOffered", own.ReactionOffered(kind="move", unit=uid, against=against, seat=seat,
                                                      up_to=common.initiative(state.units[uid]), claimed=True,
                                                      attested_by=seat), "HH.REACT.1")
        self._reaction_move(t, seat, command, _open(t.state))

    def _reaction_move(self, t: Table, seat: str, command: React, window: Window) -> None:
        uid = _window_unit(window)
        if command.unit != uid:
            raise Refused(f"the reaction offered is {unit_named(t.state, uid, seat)}'s, to "
                          f"{owns(unit_named(t.state, window.against, seat))} move", rule="HH.REACT.1")
        if command.direction not in DIRECTIONS:
            raise Malformed("direction is toward or away", field="direction")
        if command.distance is None:
            raise Malformed("a reaction move gives the inches moved (distance)", field="distance")
        distance = inches(command.distance, "distance", 1000)
        if editions.fixed(t.state, "HH.REACT.1"):
            self._terrain_reaction(t, seat, command, window, distance)
            return
        most = common.initiative(t.state.units[uid])
        if Decimal(distance) > most:
            raise Refused(f"a reaction moves at most the unit's Initiative, {most}\"", rule="HH.REACT.1")
        t.emit("ReactionMade", {**_ids(window), "direction": command.direction, "distance": distance,
                                "up_to": most, "attested_by": seat}, "HH.REACT.1")

    def _terrain_reaction(self, t: Table, seat: str, command: React, window: Window, distance: str) -> None:
        """HH.REACT.1 with HH.MOV.4: up to its Initiative, less 2" through difficult terrain; each model through
        dangerous terrain tests."""
        uid = _window_unit(window)
        unit = t.state.units[uid]
        most = reaction_allowance(unit, bool(command.difficult))
        if Decimal(distance) > most:
            rule = "HH.MOV.4" if command.difficult and Decimal(distance) <= most + common.DIFFICULT_PENALTY \
                else "HH.REACT.1"
            less = " less 2\" through difficult terrain" if command.difficult else ""
            raise Refused(f"a reaction moves at most the unit's Initiative{less}, {most}\"", rule=rule)
        dangerous = common.checked_dangerous(unit, command.dangerous)
        made: dict[str, Any] = {**_ids(window), "direction": command.direction, "distance": distance, "up_to": most,
                                "difficult": bool(command.difficult), "dangerous": dangerous}
        coherency = editions.fixed(t.state, "HH.MOV.3")  # HH.MOV.3 on a reaction move too
        if coherency:
            made["coherency_lost"] = bool(command.coherency_lost)
        if common.checked_clear(t.state, command.clear):
            made["clear"] = True
        t.emit("ReactionMade", {**made, "attested_by": seat}, "HH.REACT.1")
        if coherency and command.coherency_lost:
            self.rules.change_status(t, uid, "suppressed", True, "HH.MOV.3", reason="it could not keep unit coherency")
        if dangerous:
            self.rules.request_roll(t, seat, "dangerous_terrain", f"{dangerous}D6", "HH.MOV.4", uid)

    def _snap_shots(self, t: Table, seat: str, uid: str, command: React, window: Window) -> None:
        state = t.state
        block = self.reaction_block(state, uid, "snap_shots", window.against)
        if block:
            raise Refused(block[1], rule=block[0])
        weapons = list(dict.fromkeys(command.weapons))
        allowed = snap_weapons(state.units[uid])
        if not weapons or any(name not in allowed for name in weapons):
            raise Refused(f"{unit_named(state, uid, seat)} fires snap shots with some of: {', '.join(allowed)}", rule="HH.RES.4")
        against = window.against
        facing = self.rules.checked_facing(state.units[against], command.facing)
        t.emit("ReactionMade", {**_ids(window), "unit": uid, "weapons": weapons, "facing": facing,
                                "attested_by": seat}, "HH.RES.4")
        rolled = [n for n in weapons if self.snap_resolvable(state, uid, n, against)]
        self.next_snap_shot(t, {"kind": "snap_shots", "unit": uid, "against": against, "facing": facing,
                                "weapons": rolled})

    @staticmethod
    def snap_resolvable(state: GameState, uid: str, name: str, against: str) -> bool:
        return tables_gap(state, uid, ranged_weapon(state.units[uid], name), against) is None

    def next_snap_shot(self, t: Table, then: SnapShotsGoOn) -> None:
        """HH.RES.4: the snap shots' weapons one after another through the attack module (6s to hit), while
        the shooter and the unit that entered play stand. `then`: what follows the attack, carried with its dice."""
        units = t.state.units
        uid, against = then["unit"], then["against"]
        if not then["weapons"] or not alive(units[uid]) or not common.on_battlefield(units[against]):
            return
        name, rest = then["weapons"][0], then["weapons"][1:]
        self.rules.start_attack(t, uid, ranged_weapon(units[uid], name), against, units[uid].models_alive, "snap_shots",
                          then["facing"], snap_shots=True, then={**then, "weapons": rest})

    @evolves("ReactionOffered")
    def _offered(self, state: GameState, data: own.ReactionOffered, entry: ev.Entry) -> GameState:
        step = common.heresy_step(state)
        window = Window(kind=data["kind"], unit=data["unit"], against=data["against"], seat=data["seat"])
        return replace(state, step=replace(step, windows=(*(step.windows or ()), window)))

    @evolves("ReactionMade")
    def _made(self, state: GameState, data: own.ReactionMade, entry: ev.Entry) -> GameState:
        state = _answered(_window_closed(state), data["kind"], data["unit"], data["against"])
        unit = state.units[data["unit"]]
        return state.with_unit(data["unit"], replace(unit, turn=replace(HeresyTurn.of(unit.turn), reacted=True)))

    @evolves("ReactionDeclined")
    def _declined(self, state: GameState, data: own.ReactionDeclined, entry: ev.Entry) -> GameState:
        return _answered(_window_closed(state), data["kind"], data["unit"], data["against"])


def _answered(state: GameState, kind: str, uid: str | None, against: str) -> GameState:
    """HH.REACT.1 (its fix): a unit offered a reaction move to an enemy unit's move claims none to it again."""
    if kind != "move" or uid is None or not editions.fixed(state, "HH.REACT.1"):
        return state
    unit = state.units[uid]
    turn = HeresyTurn.of(unit.turn)
    return state.with_unit(uid, replace(unit, turn=replace(turn, reacted_to=(*(turn.reacted_to or ()), against))))


def reaction_move_offers(state: GameState, uid: str, against: list[str], claim: bool = False) -> list[Action]:
    """A reaction move of `uid` (HH.REACT.1), in the open or through difficult terrain (HH.MOV.4): to the enemy
    unit of its window, or, claimed, to one of those that ended a move this sub-phase (`against`, attested)."""
    unit, offered = state.units[uid], []
    for difficult in (False, True):
        fields = terrain_fields(unit, difficult)
        if editions.fixed(state, "HH.MOV.3"):
            fields["coherency_lost"] = act.boolean("attested: the unit genuinely cannot end in coherency (it gains "
                                                   "Suppressed)")
            fields["clear"] = common.clear_field()
        most = fields["distance"]["maximum"]
        if claim:
            fields["against"] = act.one_of(against, f"attested: the enemy unit whose move ended within "
                                                    f"{common.REACTION_RANGE}\" of it")
        how = "claim a reaction: " if claim else "react: "
        terrain = " through difficult terrain" if difficult else ""
        foes = " or ".join(unit_named(state, x, unit.owner) for x in against)
        summary = f"{how}{unit_named(state, uid)} moves up to {most}\"{terrain} toward or away from {foes}"
        required = ["unit", *(["against"] if claim else []), "direction", "distance"]
        offered.append(act.action(
            "react", "HH.REACT.1", summary, required + (["difficult"] if difficult else []),
            unit=act.const(uid), act=act.const(True), move=act.one_of(["normal"], "a reaction is never a rush"),
            direction=act.one_of(DIRECTIONS), **fields))
    return offered


def _open(state: GameState) -> Window:
    """The window open now (one was just offered)."""
    window = common.reaction_window(state)
    if window is None:
        raise ValueError("no reaction window is open")
    return window


def _window_closed(state: GameState) -> GameState:
    """The window open now answered: the next one waiting opens."""
    step = common.heresy_step(state)
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
