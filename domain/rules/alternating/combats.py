"""Combats (AA.CC.1): chosen alternately by either player, fought, and ended when one side is gone."""
from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from typing_extensions import Unpack

from warlog.domain import events as ev
from warlog.domain.rules.alternating import events as own
from warlog.domain.rules.alternating.common import LOCKED, locked, on_table
from warlog.domain.rules.basics import evolves
from warlog.domain.rules.flow import StatusNote
from warlog.domain.rules.ruleset import Part, alive
from warlog.domain.rulings import Malformed, Refused
from warlog.domain.state import AlternatingStep, AlternatingTurn, Combat, Frozen, GameState, Unit
from warlog.domain.state.values import replace
from warlog.domain.words import owns, unit_named

if TYPE_CHECKING:
    from warlog.domain.game import Table


def fought(unit: Unit) -> bool:
    """Its combat was fought this turn (AA.CC.1)."""
    return bool(AlternatingTurn.of(unit.turn).fought)


class CombatRules(Protocol):
    """What the combats call back in their ruleset: the statuses a combat's end takes off."""

    def change_status(self, t: Table, uid: str, status: str, value: bool, rule: str,
                      **extra: Unpack[StatusNote]) -> None:
        """`uid` gains (or loses) `status`, if it has not (has) it."""


class Combats(Part[CombatRules]):
    """A part of `Alternating`: its events are applied by it; the goes (its part `Goes`, through `Alternating`)
    ask it which combat a unit is in (`combat_of`), whom it may name as its foes (`combat_foes`), to judge
    (`check_combat`) and fight (`fight`) the combat chosen, and `Alternating.progress` asks it to end a combat with
    one side gone (`end_combats`)."""

    @staticmethod
    def combat_foes(state: GameState, uid: str) -> list[str]:
        """Enemy units a locked unit with no known combat may name as its opponents: locked, not yet fought."""
        owner = state.units[uid].owner
        return [foe for foe, unit in state.units.items()
                if unit.owner != owner and on_table(unit) and not fought(unit) and locked(unit)]

    def end_combats(self, t: Table) -> bool:
        """AA.CC.1: a combat is in progress while both sides have a unit standing in it, locked."""
        state = t.state
        units = state.units
        for cid, combat in state.combats.items():
            standing = [u for u in combat.units if alive(units[u]) and locked(units[u])]
            if len({units[u].owner for u in standing}) == 2:
                continue
            t.emit("CombatEnded", own.CombatEnded(combat=cid, units=standing, reason="no enemy unit left in it"),
                   "AA.CC.1")
            for uid in standing:
                for status in LOCKED:
                    self.rules.change_status(t, uid, status, False, "AA.CC.1", reason="its combat ended")
            return True
        return False

    def fight(self, t: Table, seat: str, uid: str, targets: list[str]) -> None:
        """AA.CC.1: the combat `uid` was selected in is fought, joined first by the foes named for it."""
        state = t.state
        known = self.combat_of(state, uid)
        if targets and (known is None or not set(targets) <= set(state.combats[known].units)):
            t.emit("CombatJoined", own.CombatJoined(units=[uid, *targets], reason="named when the combat was chosen"),
                   "AA.CC.1")
        state = t.state  # the combat joined, if one was
        combat = self.combat_of(state, uid)
        if combat is None:
            raise ValueError(f"{uid} was selected in no combat")  # check_combat: it has one, or names its foes
        t.emit("CombatFought", own.CombatFought(combat=combat, chosen=uid, seat=seat,
                                units=list(state.combats[combat].units)), "AA.CC.1")

    def check_combat(self, state: GameState, seat: str, uid: str, targets: list[str]) -> None:
        """AA.CC.1: a unit selected has a combat the service knows, or names the foes in it, each one locked,
        standing and not yet fought."""
        if self.combat_of(state, uid) is None and not targets:
            raise Malformed(f"the service knows no combat of {unit_named(state, uid, seat)}: name the enemy units in "
                            "it (targets)", field="targets")
        for target in targets:
            unit, named = state.units[target], unit_named(state, target, seat)
            if not alive(unit):
                raise Refused(f"{named} is destroyed and fights no combat", rule="AA.CC.1")
            if fought(unit):
                raise Refused(f"{owns(named)} combat was already fought this turn", rule="AA.CC.1")
            if not locked(unit):
                raise Refused(f"{named} is not locked in combat", rule="AA.CC.1")

    @staticmethod
    def combat_of(state: GameState, uid: str) -> str | None:
        """The combat the service knows `uid` is in, or None."""
        return next((cid for cid, combat in state.combats.items() if uid in combat.units), None)

    @evolves("CombatJoined")
    def _combat(self, state: GameState, data: own.CombatJoined, entry: ev.Entry) -> GameState:
        members = set(data["units"])
        units = state.units
        combats = dict(state.combats)
        for cid in [cid for cid, c in combats.items() if members & set(c.units)]:
            # a unit that left its combat since (no longer locked, or destroyed) does not come along
            members |= {u for u in combats.pop(cid).units if alive(units[u]) and locked(units[u])}
        combats[f"combat-{entry['seq']}"] = Combat(units=tuple(sorted(members)), fought=False)
        return replace(state, combats=Frozen(combats))

    @evolves("CombatEnded")
    def _combat_ended(self, state: GameState, data: own.CombatEnded, entry: ev.Entry) -> GameState:
        if data["combat"] not in state.combats:
            return state
        return replace(state, combats=state.combats.without(data["combat"]))

    @evolves("CombatFought")
    def _fought(self, state: GameState, data: own.CombatFought, entry: ev.Entry) -> GameState:
        cid = data["combat"]
        combats = state.combats.set(cid, replace(state.combats[cid], fought=True))
        units = dict(state.units)
        for uid in data["units"]:
            units[uid] = replace(units[uid], turn=AlternatingTurn.of(units[uid].turn).marked("fought"))
        step = replace(AlternatingStep.of(state.step), last=data["seat"])
        return replace(state, step=step, combats=combats, units=Frozen(units))
