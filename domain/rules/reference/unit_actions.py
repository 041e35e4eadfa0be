"""Actions (RS.CMD.3, RS.MOV.3, RS.MOV.4): a unit spends its Shooting phase on a named task that completes at the
end of the turn.

RULES.md names actions only by what stops them: a battle-shocked unit cannot start one (RS.CMD.3), nor a unit that
Advanced (RS.MOV.3) or Fell Back (RS.MOV.4) this turn. Conventions, in the style of the edition:
- The action's names are the game's `options.actions`, or, when it names none, `DEFAULT_ACTIONS`.
- In its own Shooting phase the active seat may, instead of shooting, start an action with a unit of its own that
  could be selected to shoot: on the battlefield, not yet selected this phase, unengaged, did not Advance or Fall
  Back, not battle-shocked (`start_action`; `ActionStarted`). The unit is then selected for the phase (it does
  not shoot) and cannot declare a charge this turn.
- The action completes when its turn ends (the Fight phase's `end_phase`; `ActionCompleted`) unless by then the
  unit is destroyed, off the battlefield (embarked, in reserves), engaged, or battle-shocked (`ActionFailed`,
  naming why). What completing it scores is the mission's, resolved at the table.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from warlog.domain import events as ev
from warlog.domain.rules import actions as act
from warlog.domain.rules.actions import Action
from warlog.domain.rules.basics import Step, evolves, seat_units
from warlog.domain.rules.reference import events as own
from warlog.domain.rules.reference.commands import StartAction
from warlog.domain.rules.reference.common import attached_to, engaged, members_of, on_battlefield, turn_of
from warlog.domain.rules.ruleset import Part, alive, handles
from warlog.domain.rulings import Refused
from warlog.domain.state import GameState, ReferenceStep
from warlog.domain.state.values import replace
from warlog.domain.words import not_yours, unit_named

if TYPE_CHECKING:
    from warlog.domain.game import Table

DEFAULT_ACTIONS = ("Secure objective", "Sabotage", "Recover intel")
ACTION_RULES = ["RS.SHO.1", "RS.CMD.3", "RS.MOV.3", "RS.MOV.4"]


class ActionRules(Protocol):
    """What the actions part reads of its ruleset: the step being played (whose Shooting phase it is)."""

    def step(self, state: GameState) -> Step | None:
        """The step being played; None outside play."""


class UnitActions(Part[ActionRules]):
    """A part of `Reference`: `start_action` and its events are dispatched to it; `Reference` offers
    `start_action_actions` in its Shooting phase and calls `complete_actions` when a turn ends."""

    @staticmethod
    def action_names(state: GameState) -> list[str]:
        return list(state.options.actions or DEFAULT_ACTIONS)

    @staticmethod
    def cannot_start(state: GameState, uid: str) -> tuple[str, str] | None:
        """Why this unit cannot start an action now (the rule and the reason), or None."""
        units = state.units
        unit = units[uid]
        turn = turn_of(unit)
        if state.phase != "shooting" or unit.owner != state.active_seat:
            return ("RS.SHO.1", "an action is started in its owner's Shooting phase, instead of shooting")
        if not on_battlefield(unit):
            return ("CORE.OFF.1", "the unit is not on the battlefield")
        if bodyguard := attached_to(units, uid):
            return ("CORE.STR.1", f"it is attached to {unit_named(state, bodyguard, unit.owner)}: that unit starts "
                                  "it, as one")
        if any("battle_shocked" in units[m].statuses for m in members_of(units, uid)):
            return ("RS.CMD.3", "a battle-shocked unit cannot start actions")
        if turn.advanced:
            return ("RS.MOV.3", "a unit that Advanced cannot start an action this turn")
        if turn.fell_back:
            return ("RS.MOV.4", "a unit that Fell Back cannot start an action this turn")
        if unit.selected:
            return ("RS.SHO.1", "the unit was already selected this Shooting phase")
        if engaged(unit):
            return ("RS.SHO.1", "an engaged unit cannot start an action")
        return None

    def start_action_actions(self, state: GameState, seat: str, ready: list[str]) -> list[Action]:
        able = [uid for uid in ready if self.cannot_start(state, uid) is None]
        if not able:
            return []
        return [act.action("start_action", "RS.CMD.3", "start an action instead of shooting (it completes at the "
                           "end of the turn; the unit cannot charge)", ["unit", "action"], unit=act.one_of(able),
                           action=act.one_of(self.action_names(state)))]

    @handles("start_action")
    def start_action(self, t: Table, seat: str, command: StartAction) -> None:
        state = t.state
        step = self.rules.step(t.state)
        if step is None or step.phase != "shooting" or seat != step.active or state.rolls:
            raise Refused("an action is started in your own Shooting phase, instead of shooting", rule="RS.SHO.1")
        if state.units[command.unit].owner != seat:
            raise Refused(not_yours(state, command.unit, seat), rule="RS.SHO.1")
        if command.action not in self.action_names(state):
            raise Refused(f"no action {command.action!r} in this game; its actions: "
                          f"{', '.join(self.action_names(state))}", rule="RS.SHO.1")
        why = self.cannot_start(state, command.unit)
        if why:
            raise Refused(why[1], rule=why[0])
        t.emit("ActionStarted", own.ActionStarted(unit=command.unit, seat=seat, action=command.action,
                                                  completes="end_of_turn", rules=ACTION_RULES), "RS.CMD.3")

    def complete_actions(self, t: Table, seat: str) -> None:
        """At the end of the turn: each action of this seat's units completes, or fails naming why."""
        for uid, _ in list(seat_units(t.state, seat)):
            units = t.state.units
            unit = units[uid]
            name = turn_of(unit).action
            if not name:
                continue
            why = None
            if not alive(unit):
                why = "the unit was destroyed"
            elif not on_battlefield(unit):
                why = "the unit left the battlefield"
            elif engaged(unit):
                why = "the unit is engaged"
            elif any("battle_shocked" in units[m].statuses for m in members_of(units, uid)):
                why = "the unit is battle-shocked (RS.CMD.3)"
            if why:
                t.emit("ActionFailed", own.ActionFailed(unit=uid, action=name, reason=why), "RS.CMD.3")
            else:
                t.emit("ActionCompleted", own.ActionCompleted(unit=uid, action=name, at="the end of the turn"),
                       "RS.CMD.3")

    @evolves("ActionStarted")
    def _action_started(self, state: GameState, data: own.ActionStarted, entry: ev.Entry) -> GameState:
        for uid in members_of(state.units, data["unit"]):
            unit = state.units[uid]
            state = state.with_unit(uid, replace(unit, selected=True,
                                                 turn=replace(turn_of(unit), action=data["action"])))
        return replace(state, step=replace(ReferenceStep.of(state.step), last=data["seat"]))

    @evolves("ActionCompleted")
    def _action_completed(self, state: GameState, data: own.ActionCompleted, entry: ev.Entry) -> GameState:
        uid = data["unit"]
        unit = state.units[uid]
        turn = turn_of(unit)
        return state.with_unit(uid, replace(unit, turn=replace(turn, action_done=turn.action, action=None)))

    @evolves("ActionFailed")
    def _action_failed(self, state: GameState, data: own.ActionFailed, entry: ev.Entry) -> GameState:
        uid = data["unit"]
        unit = state.units[uid]
        return state.with_unit(uid, replace(unit, turn=replace(turn_of(unit), action=None)))
