"""The Rout sub-phase (HH.ROUT.1-3): Routed units fall back 1D6 + I; at the table edge, a Leadership test.

The service rolls the distance; the players move the unit along the path the rules describe and attest
whether a model reached its deployment zone's table edge. A unit with no Leadership (a vehicle, Ld null) takes
no test there (edition 2): it has none to fail, so it stays, as a unit that passed (never tested as Ld 0).
Units in reserves (or embarked) do not rout.

A fall back is a move the active player's unit ends in its Movement phase, so, like any other move, it
opens a reaction move (HH.REACT.1) for each enemy unit the players say it ended within 12" of (`near`).
"""
from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from warlog.domain import army
from warlog.domain import events as ev
from warlog.domain.rules import actions as act
from warlog.domain.rules import editions
from warlog.domain.rules.actions import Action
from warlog.domain.rules.basics import evolves, seat_units
from warlog.domain.rules.heresy import events as own
from warlog.domain.rules.heresy.commands import FallBack
from warlog.domain.rules.heresy.common import LOCKED, enemies_on_battlefield, initiative, on_battlefield
from warlog.domain.rules.heresy.reactions import Reactions, checked_near, near_field
from warlog.domain.rules.ruleset import alive, handles
from warlog.domain.rulings import Refused
from warlog.domain.state import ABSENT, GameState, HeresyTurn, Unit

if TYPE_CHECKING:
    from warlog.domain.game import Table


def must_fall_back(unit: Unit) -> bool:
    """HH.ROUT.1: a unit with Routed models falls back unless it is Locked in Combat."""
    return on_battlefield(unit) and "routed" in unit.statuses and LOCKED not in unit.statuses


def fall_back_distance(unit: Unit) -> str | None:
    """The distance its fall back was rolled at, until it has fallen back (None: none to make)."""
    distance = HeresyTurn.of(unit.turn).fall_back
    return None if distance is ABSENT else distance


class Rout(Reactions):
    """Mixed into `Heresy`: the Rout sub-phase."""

    def begin_rout(self, t: Table, seat: str) -> None:
        for uid, _ in seat_units(t.state, seat):
            unit = t.state.units[uid]  # as the rolls before it left it
            if must_fall_back(unit):
                bonus = initiative(unit)
                self.request_roll(t, seat, "fall_back", f"D6+{bonus}" if bonus else "D6", "HH.ROUT.2", uid)

    def fall_back_rolled(self, t: Table, uid: str, roll: ev.DiceRolled) -> None:
        t.emit("FallBackRolled", own.FallBackRolled(unit=uid, distance=str(roll["total"]),
                                  initiative=initiative(t.state.units[uid])), "HH.ROUT.2")

    @staticmethod
    def falling_back(state: GameState, seat: str) -> list[str]:
        """Units whose fall back distance is rolled and whose move the players have not yet recorded."""
        return [uid for uid, unit in seat_units(state, seat)
                if fall_back_distance(unit) is not None and must_fall_back(unit)]

    def fall_back_actions(self, state: GameState, seat: str) -> list[Action]:
        enemies = enemies_on_battlefield(state, seat)
        near = {"near": near_field(enemies)} if enemies else {}
        return [act.action("fall_back", "HH.ROUT.2",
                           f"fall back {uid} {fall_back_distance(state.units[uid])}\" as directly as possible toward "
                           "the nearest point of its deployment zone (or the nearest table edge), never within 1\" "
                           "of an enemy; say whether a model reached the table edge",
                           ["unit", "reached_edge"], unit=act.const(uid),
                           reached_edge=act.boolean("attested: a model reached the deployment zone's table edge "
                                                    "(a Leadership test follows)"), **near)
                for uid in self.falling_back(state, seat)]

    @handles("fall_back")
    def fall_back_unit(self, t: Table, seat: str, command: FallBack) -> None:
        state = t.state
        step = self.step(state)
        uid = command.unit
        unit = state.units[uid]
        if step is None or step.name != "rout" or unit.owner != seat or uid not in self.falling_back(state, seat):
            raise Refused(f"{uid} has no fall back to make now: Routed units fall back in their owner's Rout "
                          "sub-phase", rule="HH.ROUT.1")
        reached = command.reached_edge is True
        near = checked_near(state, seat, command.near)
        t.emit("FellBack", own.FellBack(unit=uid, seat=seat, distance=fall_back_distance(unit), reached_edge=reached,
                            near=near, attested_by=seat), "HH.ROUT.2")
        if reached and not army.unit_leadership(unit) and editions.fixed(state, "HH.ROUT.3"):
            self.regroup(t, uid, "it has no Leadership to test (never tested as Ld 0): it stays")
        elif reached:
            self.request_roll(t, seat, "leadership", "2D6", "HH.ROUT.3", uid, ld=army.unit_leadership(unit))
        for target in near:  # a fall back is a move in the Movement phase: it may draw reactions (HH.REACT.1)
            self.offer_reaction(t, target, against=uid)

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
            self.casualties(t, uid, unit.models_alive, 0, "HH.ROUT.3", reason="failed its Leadership test at "
                                                                              "the edge")

    def regroup(self, t: Table, uid: str, reason: str) -> None:
        """HH.ROUT.3: at the edge, the unit stays: it loses Routed and gains Suppressed."""
        self.change_status(t, uid, "routed", False, "HH.ROUT.3", reason=reason)
        self.change_status(t, uid, "suppressed", True, "HH.ROUT.3", reason=reason)

    @evolves("FallBackRolled")
    def _fall_back_rolled(self, state: GameState, data: own.FallBackRolled, entry: ev.Entry) -> GameState:
        unit = state.units[data["unit"]]
        turn = replace(HeresyTurn.of(unit.turn), fall_back=data["distance"])
        return state.with_unit(data["unit"], replace(unit, turn=turn))

    @evolves("FellBack")
    def _fell_back(self, state: GameState, data: own.FellBack, entry: ev.Entry) -> GameState:
        unit = state.units[data["unit"]]
        turn = replace(HeresyTurn.of(unit.turn), fall_back=None, fell_back=data["distance"])
        return state.with_unit(data["unit"], replace(unit, turn=turn))
