"""The Movement phase (RS.MOV.*): one move per unit, Desperate Escape, Ingress from strategic reserves
(RS.RES.1), embarking and disembarking (CORE.OFF.1).

`Movement` is a part of `Reference` (rules/parts.py): its `AdvanceRolled`, `ReserveArrived` and `UnitEmbarked` are
applied by it (none of them marked by `Reference` or the core); `Reference` asks it by name which unit may not move
(`movement_ineligible`), for the moves open (`movement_actions`) and to judge a unit selected in the Movement phase
(`select_movement`), and hands it the Advance and hazard rolls it asked for (`advanced`, `hazards`) and what waited
for a Desperate Escape's mortal wounds (`after_mortal_wounds`, which the part `MortalWounds` calls back through the
ruleset). It asks its ruleset (`MoveRules`) for rolls, for the mortal wounds dealt (the part `MortalWounds`), for a
battle-shock test (the part `CommandPhase`) and to disengage a unit that falls back (the part `Engagement`).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from warlog.domain import army, rolls
from warlog.domain import events as ev
from warlog.domain.rules import actions as act
from warlog.domain.rules import editions
from warlog.domain.rules.actions import Action
from warlog.domain.rules.basics import evolves, seat_units
from warlog.domain.rules.reference import events as own
from warlog.domain.rules.reference.commands import ReferenceSelect
from warlog.domain.rules.reference.common import (
    all_monster_or_vehicle,
    battle_shocked,
    engaged,
    members_of,
    on_battlefield,
    remember_roll,
    turn_of,
)
from warlog.domain.rules.ruleset import Part, alive
from warlog.domain.rulings import Malformed, Refused
from warlog.domain.state import GameState, Unit
from warlog.domain.state.values import replace
from warlog.domain.words import unit_named

if TYPE_CHECKING:
    from warlog.domain.game import Table

HAZARDS = rolls.Reading("Hazards", 3, each=True, noun="pass")  # RS.MOV.4: a D6 a model, each 1-2 fails
FREE_MOVES = ("normal", "advance", "remain_stationary")
ENGAGED_MOVES = ("fall_back", "remain_stationary")
MOVE_RULE = {"normal": "RS.MOV.2", "advance": "RS.MOV.3", "remain_stationary": "RS.MOV.1", "fall_back": "RS.MOV.4",
             "ingress": "RS.RES.1", "disembark": "CORE.OFF.1"}


def _capacity(unit: Unit) -> int | None:
    return unit.transport.capacity if unit.transport else None


class MoveRules(Protocol):
    """What the movement phase asks of its ruleset: the rolls (Advance, hazards), a Desperate Escape's mortal
    wounds and battle-shock test, and a unit that falls back disengaged."""

    def request_roll(self, t: Table, seat: str, purpose: str, spec: str, rule: str, unit: str,
                     **context: object) -> None:
        """A roll the rules call for, for `unit`: rolled now with server dice, else awaited from `seat`."""

    def mortal_wounds(self, t: Table, uid: str, amount: int, rule: str, party: list[str] | None = None,
                      **then: object) -> None:
        """`amount` mortal wounds on `uid` (or its `party`), Feel No Pain first; `then` is what follows
        (`after_mortal_wounds`)."""

    def battle_shock_roll(self, t: Table, seat: str, uid: str, band: str, rule: str) -> None:
        """The unit's battle-shock test (RS.CMD.2), asked of `seat`."""

    def disengage(self, t: Table, uid: str, rule: str, reason: str) -> None:
        """The unit is no longer engaged (nor a foe left with nobody engaged with it)."""


class Movement(Part[MoveRules]):
    """A part of `Reference`: one move per unit in its Movement phase; a Desperate Escape's mortal wounds and
    battle-shock test, and the disengaging of a unit that falls back, go through the ruleset."""

    @staticmethod
    def movement_ineligible(state: GameState, unit: Unit) -> tuple[str, str] | None:
        if unit.in_reserves and state.battle_round < 2:
            return ("RS.RES.1", "strategic reserves arrive from the 2nd battle round")
        transport = state.units.get(unit.embarked_in or "")
        if transport is not None and (not on_battlefield(transport) or transport.selected):
            return ("CORE.OFF.1", "its transport is not on the battlefield or has moved: it stays embarked")
        return None

    @staticmethod
    def room_in(state: GameState, seat: str, uid: str) -> list[str]:
        """Friendly transports on the battlefield with room for this unit's models."""
        units, need = state.units, state.units[uid].models_alive
        room = []
        for tid, transport in seat_units(state, seat):
            capacity = _capacity(transport)
            if tid == uid or capacity is None or not on_battlefield(transport):
                continue
            aboard = sum(u.models_alive for u in units.values() if u.embarked_in == tid and alive(u))
            if aboard + need <= capacity and not _capacity(units[uid]):
                room.append(tid)
        return room

    def movement_actions(self, state: GameState, seat: str, ready: list[str]) -> list[Action]:
        units = state.units
        offered = []
        free = [uid for uid in ready if on_battlefield(units[uid]) and not engaged(units[uid])]
        if free:
            offered.append(act.action("select", "RS.MOV.1", "move a unit: Normal, Advance or Remain Stationary",
                                      ["unit"], unit=act.one_of(free), move=act.one_of(FREE_MOVES)))
            for uid in free:
                room = self.room_in(state, seat, uid)
                if room:
                    offered.append(act.action("select", "CORE.OFF.1", f"move {unit_named(state, uid)} and embark it in a transport "
                                              "within 3\" of it", ["unit", "embark"], unit=act.const(uid),
                                              move=act.one_of(("normal", "advance")), embark=act.one_of(room)))
        for shocked in (False, True):  # RS.MOV.4: a battle-shocked unit escapes desperately
            locked = [uid for uid in ready if on_battlefield(units[uid]) and engaged(units[uid])
                      and battle_shocked(state, uid) == shocked]
            if locked:
                offered.append(act.action(
                    "select", "RS.MOV.4", "move an engaged unit: Fall Back or Remain Stationary", ["unit", "move"],
                    unit=act.one_of(locked), move=act.one_of(ENGAGED_MOVES),
                    escape=act.one_of(("desperate",) if shocked else ("ordered", "desperate"))))
        arriving = [uid for uid in ready if units[uid].in_reserves]
        if arriving:
            outside = "; not in the opponent's deployment zone" if state.battle_round < 3 else ""
            offered.append(act.action("select", "RS.RES.1", "bring a unit in from strategic reserves (Ingress): "
                                      "wholly within 6\" of a battlefield edge, more than 8\" from every enemy "
                                      f"unit{outside}", ["unit", "move"], unit=act.one_of(arriving),
                                      move=act.const("ingress")))
        aboard = [uid for uid in ready if units[uid].embarked_in]
        if aboard:
            offered.append(act.action("select", "CORE.OFF.1", "disembark a unit: set it up within 3\" of its "
                                      "transport (it makes no other move)", ["unit", "move"],
                                      unit=act.one_of(aboard), move=act.const("disembark")))
        return offered

    def select_movement(self, t: Table, seat: str, command: ReferenceSelect, unit: Unit) -> None:
        state, uid = t.state, command.unit
        if unit.in_reserves:
            if command.move != "ingress":
                raise Refused(f"{unit_named(state, uid, seat)} is in strategic reserves: it arrives with an Ingress "
                              "move", rule="RS.RES.1")
            facts = ["wholly within 6\" of a battlefield edge", "more than 8\" from every enemy unit"]
            if state.battle_round < 3:
                facts.append("not in the opponent's deployment zone")
            self._moved(t, seat, uid, "ingress", attested=facts)
            t.emit("ReserveArrived", ev.ReserveArrived(unit=uid, move="ingress", attested_by=seat), "RS.RES.1")
            return
        if unit.embarked_in:
            if command.move != "disembark":
                raise Refused(f"{unit_named(state, uid, seat)} is embarked: it disembarks before it moves",
                              rule="CORE.OFF.1")
            self._moved(t, seat, uid, "disembark")
            t.emit("UnitDisembarked", ev.UnitDisembarked(unit=uid, transport=unit.embarked_in), "CORE.OFF.1")
            return
        move = command.move or ("normal" if command.act else "remain_stationary")
        if move not in FREE_MOVES + ENGAGED_MOVES:
            raise Malformed(f"move is one of {', '.join(FREE_MOVES + ENGAGED_MOVES)}", field="move")
        if move == "fall_back":
            self._fall_back(t, seat, command, unit)
            return
        if engaged(unit) and move in ("normal", "advance"):
            raise Refused("an engaged unit can only Fall Back or Remain Stationary", rule="RS.MOV.2")
        if command.embark is not None and (move == "remain_stationary" or
                                           command.embark not in self.room_in(state, seat, uid)):
            into = unit_named(state, command.embark, seat) if command.embark in state.units else repr(command.embark)
            raise Refused(f"{unit_named(state, uid, seat)} cannot embark in {into}: a unit embarks, after a move, in a "
                          "friendly transport on the battlefield with room for it", rule="CORE.OFF.1")
        self._moved(t, seat, uid, move)
        if move == "advance":
            self.rules.request_roll(t, seat, "advance", "D6", "RS.MOV.3", uid, M=unit.models[0].M or 0)
        if command.embark is not None:
            t.emit("UnitEmbarked", own.UnitEmbarked(unit=uid, transport=command.embark, attested="within 3\" of it"),
                   "CORE.OFF.1")

    def _fall_back(self, t: Table, seat: str, command: ReferenceSelect, unit: Unit) -> None:
        uid = command.unit
        if not engaged(unit):
            raise Refused("only an engaged unit falls back", rule="RS.MOV.4")
        shocked = battle_shocked(t.state, uid)  # CORE.DESC.1: the leader's status is its bodyguard's too
        escape = command.escape or ("desperate" if shocked else "ordered")
        if escape not in ("ordered", "desperate"):
            raise Malformed("escape is ordered or desperate", field="escape")
        if escape == "ordered" and shocked:
            raise Refused("a battle-shocked unit must make a Desperate Escape", rule="RS.MOV.4")
        self._moved(t, seat, uid, "fall_back", escape=escape)
        for member in members_of(t.state.units, uid):
            self.rules.disengage(t, member, "RS.MOV.4", "fell back")
        if escape == "desperate":
            units = t.state.units
            models = sum(units[m].models_alive for m in members_of(units, uid))
            self.rules.request_roll(t, seat, "hazard", f"{models}D6", "RS.MOV.4", uid, shocked=shocked)

    def _moved(self, t: Table, seat: str, uid: str, move: str, attested: list[str] | None = None,
               escape: str | None = None) -> None:
        together = members_of(t.state.units, uid)[1:]
        data = ev.UnitSelected(unit=uid, seat=seat, phase="movement", move=move)
        if attested is not None:
            data["attested"] = attested
        if escape is not None:
            data["escape"] = escape
        if together:
            data["with"] = together
        t.emit("UnitSelected", data, MOVE_RULE[move])

    def hazards(self, t: Table, request: ev.RollRequested, faces: list[int]) -> None:
        """RS.MOV.4: 1 mortal wound per 1-2 (3 when every model is MONSTER or VEHICLE), then a battle-shock roll."""
        uid = request["unit"]
        per_failure = 3 if all_monster_or_vehicle(t.state.units, uid) else 1
        failures = sum(1 for f in faces if f <= 2)
        t.emit("HazardsRolled", own.HazardsRolled(unit=uid, failures=failures, mortal_wounds=failures * per_failure,
                                                  **rolls.read(faces, request["spec"], HAZARDS)), "RS.MOV.4")
        # EXT.FNP: its Feel No Pain stands against each mortal wound (`mortal_wounds`); then its battle-shock roll.
        # An attached unit's wounds go to its bodyguard first, then its leader (RS.ATK.3)
        party = members_of(t.state.units, uid) if editions.fixed(t.state, "RS.MOV.4") else None
        self.rules.mortal_wounds(t, uid, failures * per_failure, "RS.MOV.4", party, escaped=request["seat"],
                                 shocked=request["context"]["shocked"])

    def after_mortal_wounds(self, t: Table, uid: str, then: dict[str, object]) -> None:
        """What waited for a Desperate Escape's mortal wounds (the part `MortalWounds`'s, through the ruleset).
        RS.MOV.4: after its hazards, a unit that made a Desperate Escape and is not battle-shocked tests."""
        units = t.state.units
        unit = units[uid]
        seat = then.get("escaped")
        if isinstance(seat, str) and alive(unit) and not then["shocked"] and not battle_shocked(t.state, uid):
            self.rules.battle_shock_roll(t, seat, uid, army.strength_of(units, uid), "RS.MOV.4")

    def advanced(self, t: Table, request: ev.RollRequested, roll: ev.DiceRolled) -> None:
        context = request["context"]
        t.emit("AdvanceRolled", own.AdvanceRolled(unit=request["unit"], total=roll["total"],
                                                  max_move=context["M"] + roll["total"],
                                                  rerolled=bool(context.get("rerolled")),
                                                  rerollable=not context.get("rerolled")), "RS.MOV.3")

    # -- appliers ------------------------------------------------------------------------

    @evolves("AdvanceRolled")
    def _advance_rolled(self, state: GameState, data: own.AdvanceRolled, entry: ev.Entry) -> GameState:
        uid = data["unit"]
        unit = remember_roll(state.units[uid], data, "advance", {"M": data["max_move"] - data["total"]})
        return state.with_unit(uid, replace(unit, turn=replace(turn_of(unit), max_move=data["max_move"])))

    @evolves("ReserveArrived")
    def _arrived(self, state: GameState, data: ev.ReserveArrived, entry: ev.Entry) -> GameState:
        uid = data["unit"]
        return state.with_unit(uid, replace(state.units[uid], in_reserves=False))

    @evolves("UnitEmbarked")
    def _embarked(self, state: GameState, data: own.UnitEmbarked, entry: ev.Entry) -> GameState:
        uid = data["unit"]
        return state.with_unit(uid, replace(state.units[uid], embarked_in=data["transport"]))
