"""The Rout sub-phase (HH.ROUT.1-3): Routed units fall back 1D6 + I; at the table edge, a Leadership test.

The service rolls the distance; the players move the unit along the path the rules describe and attest
whether a model reached its deployment zone's table edge. A unit with no Leadership (a vehicle, Ld null) takes
no test there (edition 2): it has none to fail, so it stays, as a unit that passed (never tested as Ld 0).
Units in reserves (or embarked) do not rout.

A fall back is a move the active player's unit ends in its Movement phase, so, like any other move, it
opens a reaction move (HH.REACT.1) for each enemy unit the players say it ended within 12" of (`near`), and
(edition 2) the players attest where no model ended (`clear`, HH.MOV.3), the difficult terrain its path crossed
(2" less), the models that went through dangerous terrain (a test each) and coherency it could not keep
(Suppressed), as on every other move (HH.MOV.3/4).
"""
from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING, Protocol

from warlog.domain import army
from warlog.domain import events as ev
from warlog.domain.rules import actions as act
from warlog.domain.rules import editions
from warlog.domain.rules.actions import Action
from warlog.domain.rules.basics import evolves, seat_units
from warlog.domain.rules.heresy import common
from warlog.domain.rules.heresy import events as own
from warlog.domain.rules.heresy.commands import FallBack
from warlog.domain.rules.heresy.reactions import checked_near, near_field
from warlog.domain.rules.ruleset import Part, alive, handles
from warlog.domain.rulings import Refused
from warlog.domain.state import ABSENT, GameState, HeresyTurn, Unit
from warlog.domain.state.values import replace
from warlog.domain.words import unit_named

if TYPE_CHECKING:
    from warlog.domain.game import Table


def fall_back_terrain(unit: Unit) -> dict[str, dict[str, object]]:
    """What a player attests of a fall back (HH.MOV.3/4): where no model ended, the terrain its path crossed (a
    choice, not a const: the distance is rolled, the path the table's), models through dangerous terrain,
    coherency."""
    return {"clear": common.clear_field(), **common.rush_terrain(unit, False),
            "difficult": act.boolean("attested: its path crossed difficult terrain (it falls back 2\" less)")}


def less_difficult(distance: str | None, difficult: bool) -> str | None:
    """HH.MOV.4: difficult terrain reduces the move by 2" (never below 0)."""
    if distance is None or not difficult:
        return distance
    return str(max(Decimal(0), Decimal(distance) - common.DIFFICULT_PENALTY))


def must_fall_back(unit: Unit) -> bool:
    """HH.ROUT.1: a unit with Routed models falls back unless it is Locked in Combat."""
    return common.on_battlefield(unit) and "routed" in unit.statuses and common.LOCKED not in unit.statuses


def fall_back_distance(unit: Unit) -> str | None:
    """The distance its fall back was rolled at, until it has fallen back (None: none to make)."""
    distance = HeresyTurn.of(unit.turn).fall_back
    return None if distance is ABSENT else distance


def falling_back(state: GameState, seat: str) -> list[str]:
    """Units whose fall back distance is rolled and whose move the players have not yet recorded."""
    return [uid for uid, unit in seat_units(state, seat)
            if fall_back_distance(unit) is not None and must_fall_back(unit)]


class RoutRules(common.MoveRules, Protocol):
    """What the Rout sub-phase calls back in its ruleset: the table's, and what a fall back, a move like any
    other, sets going after it (`MoveRules`)."""


class Rout(Part[RoutRules]):
    """A part of `Heresy`: the Rout sub-phase. `fall_back` is dispatched to it, `FallBackRolled` and `FellBack`
    applied by it; `Heresy` asks it `begin_rout` (the step begun), `fall_back_rolled` and `leadership_rolled`
    (rolls read) and `fall_back_actions` (what a Routed unit is offered); who must fall back both read with
    `falling_back`."""

    def begin_rout(self, t: Table, seat: str) -> None:
        for uid, _ in seat_units(t.state, seat):
            unit = t.state.units[uid]  # as the rolls before it left it
            if must_fall_back(unit):
                bonus = common.initiative(unit)
                self.rules.request_roll(t, seat, "fall_back", f"D6+{bonus}" if bonus else "D6", "HH.ROUT.2", uid)

    def fall_back_rolled(self, t: Table, uid: str, roll: ev.DiceRolled) -> None:
        t.emit("FallBackRolled", own.FallBackRolled(unit=uid, distance=str(roll["total"]),
                                  initiative=common.initiative(t.state.units[uid])), "HH.ROUT.2")

    def fall_back_actions(self, state: GameState, seat: str) -> list[Action]:
        enemies = common.enemies_on_battlefield(state, seat)
        near = {"near": near_field(enemies)} if enemies else {}
        terrain = editions.fixed(state, "HH.MOV.4")  # HH.MOV.3/4 bear on a fall back too (edition 2)
        offered = []
        for uid in falling_back(state, seat):
            unit = state.units[uid]
            fields = {**near, **(fall_back_terrain(unit) if terrain else {})}
            offered.append(act.action(
                "fall_back", "HH.ROUT.2",
                f"fall back {unit_named(state, uid)} {fall_back_distance(unit)}\" as directly as possible toward the "
                "nearest point of its deployment zone (or the nearest table edge), never within 1\" of an enemy; say "
                "whether a model reached the table edge", ["unit", "reached_edge"],
                unit=act.const(uid), reached_edge=act.boolean("attested: a model reached the deployment zone's table "
                                                              "edge (a Leadership test follows)"), **fields))
        return offered

    @handles("fall_back")
    def fall_back_unit(self, t: Table, seat: str, command: FallBack) -> None:
        fell = self.judged(t.state, seat, command)
        uid = command.unit
        unit = t.state.units[uid]
        dangerous = fell.get("dangerous", 0)
        t.emit("FellBack", fell, common.move_rule(t.state, "HH.ROUT.2", fell.get("difficult", False), dangerous))
        if fell["reached_edge"] and not army.unit_leadership(unit) and editions.fixed(t.state, "HH.ROUT.3"):
            self.regroup(t, uid, "it has no Leadership to test (never tested as Ld 0): it stays")
        elif fell["reached_edge"]:
            self.rules.request_roll(t, seat, "leadership", "2D6", "HH.ROUT.3", uid, ld=army.unit_leadership(unit))
        # a fall back is a move in the Movement phase: coherency, dangerous terrain, and reactions (HH.REACT.1)
        self.rules.after_move(t, seat, uid, fell.get("coherency_lost", False), dangerous, fell["near"])

    def judged(self, state: GameState, seat: str, command: FallBack) -> own.FellBack:
        """The fall back its player attests, or the refusal: the unit has one to make now (HH.ROUT.1), the units it
        ended near (HH.REACT.1) and, from edition 2, the terrain it crossed, coherency and where no model ended
        (HH.MOV.3/4)."""
        step = self.rules.step(state)
        uid = command.unit
        unit = state.units[uid]
        if step is None or step.name != "rout" or unit.owner != seat or uid not in falling_back(state, seat):
            raise Refused(f"{unit_named(state, uid, seat)} has no fall-back move to make now: Routed units fall back in their owner's Rout "
                          "sub-phase", rule="HH.ROUT.1")
        fell = own.FellBack(unit=uid, seat=seat, distance=fall_back_distance(unit),
                            reached_edge=command.reached_edge is True, near=checked_near(state, seat, command.near),
                            attested_by=seat)
        if editions.fixed(state, "HH.MOV.4"):  # where it went and what it crossed (HH.MOV.3/4), attested
            fell["distance"] = less_difficult(fell["distance"], command.difficult is True)
            fell["difficult"] = command.difficult is True
            fell["dangerous"] = common.checked_dangerous(unit, command.dangerous)
            fell["coherency_lost"] = command.coherency_lost is True
            fell["clear"] = common.checked_clear(state, command.clear)
        return fell

    def leadership_rolled(self, t: Table, uid: str, request: ev.RollRequested, roll: ev.DiceRolled) -> None:
        """HH.ROUT.3 convention: 2D6, passed when the total is at most Ld."""
        ld = request["context"]["ld"]
        passed = roll["total"] <= ld
        t.emit("LeadershipTested", own.LeadershipTested(unit=uid, total=roll["total"], ld=ld, passed=passed), "HH.ROUT.3")
        unit = t.state.units[uid]
        if not alive(unit):
            return
        if passed:
            self.regroup(t, uid, "passed its Leadership test at the edge")
        else:
            self.rules.casualties(t, uid, unit.models_alive, 0, "HH.ROUT.3", reason="failed its Leadership test at "
                                                                              "the edge")

    def regroup(self, t: Table, uid: str, reason: str) -> None:
        """HH.ROUT.3: at the edge, the unit stays: it loses Routed and gains Suppressed."""
        self.rules.change_status(t, uid, "routed", False, "HH.ROUT.3", reason=reason)
        self.rules.change_status(t, uid, "suppressed", True, "HH.ROUT.3", reason=reason)

    @evolves("FallBackRolled")
    def _fall_back_rolled(self, state: GameState, data: own.FallBackRolled, entry: ev.Entry) -> GameState:
        unit = state.units[data["unit"]]
        turn = replace(HeresyTurn.of(unit.turn), fall_back=data["distance"])
        return state.with_unit(data["unit"], replace(unit, turn=turn))

    @evolves("FellBack")
    def _fell_back(self, state: GameState, data: own.FellBack, entry: ev.Entry) -> GameState:
        unit = state.units[data["unit"]]
        turn = replace(HeresyTurn.of(unit.turn), fall_back=None, fell_back=data["distance"])
        return common.moved_last(state.with_unit(data["unit"], replace(unit, turn=turn)), data["unit"])
