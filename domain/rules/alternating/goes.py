"""The goes (AA.ACT.1-5): who may select which unit now, selecting, passing and declaring done, fleeing
units (AA.MOV.2) and arriving reserves (AA.RES.1). A part of `Alternating` (`Goes`, rules/parts.py), which reads
its ruleset through `GoRules`."""
from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from typing_extensions import Unpack

from warlog.domain import army
from warlog.domain import events as ev
from warlog.domain.rules import actions as act
from warlog.domain.rules import editions
from warlog.domain.rules.actions import Action
from warlog.domain.rules.alternating import events as own
from warlog.domain.rules.alternating.commands import AlternatingSelect, DeclareDone, Pass
from warlog.domain.rules.alternating.common import (
    HOLD_REFUSAL,
    MAX_CHARGE,
    SUMMARY,
    TURN_RULE,
    UNABLE_TO_MOVE,
    immobile,
    locked,
    movement_exclusion,
    on_table,
    shooting_exclusion,
    sub_phase,
)
from warlog.domain.rules.basics import Awaiting, awaited_unit, evolves, seat_units
from warlog.domain.rules.flow import StatusNote
from warlog.domain.rules.ruleset import SEATS, Part, Step, alive, handles, inches, other
from warlog.domain.rulings import Malformed, NotFound, Refused
from warlog.domain.state import AlternatingStep, AlternatingTurn, GameState, Unit
from warlog.domain.state.values import replace
from warlog.domain.words import awaited, not_yours, owns, status_called, step_called, unit_named, who_does, whose

if TYPE_CHECKING:
    from warlog.domain.game import Table


class GoRules(Protocol):
    """What the goes call back in their ruleset: what the game waits for and the step being played, the rolls and
    statuses a regroup gives, and what its other parts judge, which the ruleset asks them (the counts: `count_action`;
    the charges: `charge_targets`, `check_charge`, `declare_charge`, `overwatch`, `overwatch_actions`; the combats:
    `combat_of`, `combat_foes`, `check_combat`, `fight`)."""

    def step(self, state: GameState) -> Step | None:
        """The step being played; None outside play."""

    def awaiting(self, state: GameState) -> Awaiting:
        """What the game waits for now."""

    def request_roll(self, t: Table, seat: str, purpose: str, spec: str, rule: str, unit: str,
                     **context: object) -> None:
        """A roll for `unit`: rolled now with server dice, else awaited from `seat`; its outcome comes back to
        `on_roll`."""

    def change_status(self, t: Table, uid: str, status: str, value: bool, rule: str,
                      **extra: Unpack[StatusNote]) -> None:
        """`uid` gains (or loses) `status`, if it has not (has) it."""

    def count_action(self, state: GameState, seat: str, step: Step) -> Action:
        """AA.PP.1 / AA.SPP.1: the form a seat confirms its pass-point count with."""

    def charge_targets(self, state: GameState, seat: str) -> list[str]:
        """Enemy units a charge by `seat` may name (AA.CHG.1)."""

    def check_charge(self, state: GameState, seat: str, targets: list[str], distance: str | None) -> None:
        """AA.CHG.1: a charge's targets and distance judged."""

    def declare_charge(self, t: Table, seat: str, uid: str, act: bool, targets: list[str],
                       distance: str | None) -> None:
        """AA.CHG.1: the charge of the unit selected declared."""

    def overwatch(self, t: Table, seat: str, command: AlternatingSelect, awaiting: Awaiting) -> None:
        """AA.OW.1: the charged unit answers with overwatch or holds it."""

    def overwatch_actions(self, state: GameState, awaiting: Awaiting) -> list[Action]:
        """AA.OW.1: the overwatch offered to the charged unit's owner."""

    def combat_of(self, state: GameState, uid: str) -> str | None:
        """The combat the service knows `uid` is in, or None."""

    def combat_foes(self, state: GameState, uid: str) -> list[str]:
        """Enemy units a locked unit with no known combat may name as its opponents."""

    def check_combat(self, state: GameState, seat: str, uid: str, targets: list[str]) -> None:
        """AA.CC.1: the combat chosen judged."""

    def fight(self, t: Table, seat: str, uid: str, targets: list[str]) -> None:
        """AA.CC.1: the combat `uid` was selected in fought."""


class Goes(Part[GoRules]):
    """A part of `Alternating`: `select`, `pass` and `declare_done` are dispatched to it, and the events they make
    applied by it (with `ReserveArrived` and `OngoingReservesEntered`); `Alternating` asks it by name whether a
    unit is `eligible`, its `play_actions`, who `can_go` and has the `next_go`, and to `regroup` a fleeing unit
    after its roll. What the counts, the combats and the charges judge it asks its ruleset, which asks those parts."""

    def eligible(self, state: GameState, uid: str) -> bool:
        """CONTRACT.md: `eligible` means it may be selected now (by the seat whose go it is)."""
        awaiting = self.rules.awaiting(state)
        if awaiting["action"] != "select":
            return False
        if "reaction" in awaiting:
            return bool(uid == awaiting["unit"])
        step = self.rules.step(state)
        if step is None:  # a select is awaited only in a step
            return False
        if step.name != "resolve_combats" and state.units[uid].owner != awaiting["seat"]:
            return False
        return self.ineligible(state, uid) is None

    def ineligible(self, state: GameState, uid: str) -> tuple[str, str] | None:
        """Why the rules forbid selecting a unit in this sub-phase: (rule, reason), or None."""
        step = self.rules.step(state)
        unit = state.units[uid]
        if step is None or step.kind not in ("alternate", "fleeing"):
            return ("AA.ACT.2", "no unit is selected now")
        rule, name = step.play_rule, sub_phase(step)
        if not alive(unit):
            return (rule, "the unit is destroyed")
        if unit.selected:
            return (rule, "the unit was already selected this phase")
        statuses = unit.statuses
        turn = AlternatingTurn.of(unit.turn)
        if name == "move_fleeing":
            fleeing = "falling_back" in statuses and on_table(unit)
            return None if fleeing else ("AA.MOV.2", "the unit is not falling back on the battlefield")
        if name == "move_units":
            return self._move_ineligible(state, unit)
        if not on_table(unit):
            return (rule, "the unit is in reserves")
        if name == "resolve_combats":
            if not locked(unit):
                return ("AA.CC.1", "the unit is in no combat")
            if turn.fought:
                return ("AA.CC.1", "its combat was already fought this turn")
            if self.rules.combat_of(state, uid) is None and not self.rules.combat_foes(state, uid):
                return ("AA.CC.1", "no enemy unit is left to fight it: every locked enemy has fought this turn")
            return None
        if name == "declare_shooting":
            included = uid in (state.shooting_included or {})
            reason = shooting_exclusion(state, unit)
            return ("AA.SPP.1", f"the unit cannot shoot: {reason}") if reason and not included else None
        if name == "run" and turn.shot:
            return ("AA.RUN.1", "the unit shot this phase")
        blocked = [status_called(s) for s in ("falling_back", *UNABLE_TO_MOVE) if s in statuses]
        if unit.embarked_in:
            blocked.append("embarked")
        if immobile(unit):
            blocked.append("immobile")
        if name == "select_charges" and turn.ran:
            blocked.append("ran this turn")
        if name == "select_charges" and not blocked and not self.rules.charge_targets(state, unit.owner):
            blocked.append("no enemy unit is on the battlefield to charge")
        if blocked:
            return (rule, f"the unit cannot be selected in {step_called(name)}: {', '.join(blocked)}")
        return None

    @staticmethod
    def _move_ineligible(state: GameState, unit: Unit) -> tuple[str, str] | None:
        """AA.ACT.2 with AA.RES.1: arrivals first, then units able to move."""
        if unit.arriving:
            return None
        if any(u.arriving and alive(u) for _, u in seat_units(state, unit.owner)):
            return ("AA.RES.1", "arriving reserves are selected before any other unit")
        reason = movement_exclusion(state, unit)
        return ("AA.ACT.2", f"the unit is not eligible to move: {reason}") if reason else None

    def can_go(self, state: GameState, seat: str) -> bool:
        step = self.rules.step(state)
        if step is None or state.declared_done[seat]:
            return False
        if step.name == "resolve_combats":  # AA.CC.1: either player may choose any combat
            return any(self.ineligible(state, uid) is None for uid in state.units)
        return any(self.ineligible(state, uid) is None for uid, _ in seat_units(state, seat))

    def next_go(self, state: GameState) -> str | None:
        """AA.ACT.3: goes alternate; one with nothing left drops out; the other finishes."""
        step = AlternatingStep.of(state.step)
        first, last = step.first, step.last
        if first is None:
            return None
        able = [seat for seat in SEATS if self.can_go(state, seat)]
        if not able:
            return None
        if last is None:
            return first if first in able else able[0]
        return other(last) if other(last) in able else last

    def arrivals_pending(self, state: GameState, seat: str) -> bool:
        return any(u.arriving and alive(u) for _, u in seat_units(state, seat))

    def play_actions(self, state: GameState, seat: str, awaiting: Awaiting) -> list[Action]:
        step = self.rules.step(state)
        if step is None or awaiting["action"] == "none":
            return []
        if awaiting["action"] == "confirm_count":
            return [self.rules.count_action(state, seat, step)] if AlternatingStep.of(state.step).confirmed[seat] is None \
                else []
        if awaiting["seat"] != seat:
            return []
        if awaiting["action"] == "resolve_charge":
            return [act.action("resolve_charge", "AA.CHG.1", f"roll {owns(unit_named(state, awaited_unit(awaiting)))} charge (record "
                               "overwatch casualties first)")]
        if awaiting.get("reaction") == "overwatch":
            return self.rules.overwatch_actions(state, awaiting)
        return self._go_actions(state, seat, step)

    def _go_actions(self, state: GameState, seat: str, step: Step) -> list[Action]:
        name, rule = sub_phase(step), step.play_rule
        owners = SEATS if name == "resolve_combats" else (seat,)
        ready = [uid for uid, unit in state.units.items()
                 if unit.owner in owners and self.ineligible(state, uid) is None]
        offered: list[Action] = []
        if ready and name == "select_charges":
            targets = self.rules.charge_targets(state, seat)
            offered.append(act.action(
                "select", rule, SUMMARY[name], ["unit", "targets", "distance"], unit=act.one_of(ready),
                act=act.const(True), targets=act.subset(targets, description="the enemy units charged"),
                distance=act.number(0, MAX_CHARGE, "inches measured to the farthest target")))
        elif ready and name == "resolve_combats":
            known = [uid for uid in ready if self.rules.combat_of(state, uid) is not None]
            if known:
                offered.append(act.action("select", rule, SUMMARY[name], ["unit"], unit=act.one_of(known),
                                          act=act.const(True)))
            for uid in ready:
                if uid not in known:  # locked by a status the service knows no combat for: name its foes
                    offered.append(act.action(
                        "select", rule, f"fight {owns(unit_named(state, uid, seat))} combat, naming the enemy units in it", ["unit", "targets"],
                        unit=act.const(uid), act=act.const(True),
                        targets=act.subset(self.rules.combat_foes(state, uid), description="the enemy units in it")))
        elif ready:
            arriving = name == "move_units" and self.arrivals_pending(state, seat)
            may_hold = name in ("move_units", "declare_shooting") and not arriving  # AA.ACT.2, AA.SHO.2
            offered.append(act.action("select", "AA.RES.1" if arriving else rule,
                                      "bring on a unit arriving from reserve" if arriving else SUMMARY[name],
                                      ["unit"], unit=act.one_of(ready),
                                      act=act.boolean() if may_hold else act.const(True)))
        if step.pass_points and state.pass_points[seat] > 0 and self.can_go(state, other(seat)):
            offered.append(act.action("pass", "AA.ACT.2", f"spend a pass point ({state.pass_points[seat]} left)"))
        if step.declare_done and not (name == "move_units" and self.arrivals_pending(state, seat)):
            offered.append(act.action("declare_done", "AA.ACT.4", "select no more units this sub-phase (final)"))
        return offered

    def _on_go(self, t: Table, seat: str) -> Step:
        """The checks every go shares: a go is awaited, it is this seat's, and it has not declared done."""
        state = t.state
        step = self.rules.step(state)
        awaiting = self.rules.awaiting(state)
        if awaiting["action"] != "select" or step is None:
            rule = (awaiting["roll"]["rule"] if awaiting["action"] == "roll"
                    else step.order_rule if step and awaiting["action"] in ("roll_off", "choose_order")
                    else (step.play_rule or step.rule) if step else "AA.ACT.2")
            raise Refused(f"no unit is selected now: {awaited(state, awaiting, seat)}", rule=rule)
        if "reaction" in awaiting:
            uid = awaited_unit(awaiting)  # the charged unit: its owner fires its overwatch or holds it
            raise Refused(f"the charge by {unit_named(state, awaiting['against'], seat)} resolves in full first: "
                          f"{who_does(state, state.units[uid].owner, seat, 'choose')} whether "
                          f"{unit_named(state, uid, seat)} fires overwatch or holds it", rule="AA.CHG.1")
        if state.declared_done[seat]:
            raise Refused("you declared you will select no more units this phase", rule="AA.ACT.4")
        if awaiting["seat"] != seat:
            raise Refused(f"it is {whose(state, awaiting['seat'])} go", rule=TURN_RULE[sub_phase(step)])
        return step

    @handles("select")
    def select(self, t: Table, seat: str, command: AlternatingSelect) -> None:
        awaiting = self.rules.awaiting(t.state)
        if awaiting["action"] == "select" and awaiting.get("reaction") == "overwatch" and awaiting["seat"] == seat:
            self.rules.overwatch(t, seat, command, awaiting)
            return
        step = self._on_go(t, seat)
        name = sub_phase(step)
        state = t.state
        unit = state.units[command.unit]
        if unit.owner != seat and name != "resolve_combats":
            raise Refused(not_yours(state, command.unit, seat), rule=TURN_RULE[name])
        why = self.ineligible(state, command.unit)
        if why:
            raise Refused(why[1], rule=why[0])
        if not command.act and name in HOLD_REFUSAL:
            rule, reason = HOLD_REFUSAL[name]
            raise Refused(reason, rule=rule)
        if not command.act and name == "move_units" and unit.arriving:
            raise Refused("a unit arriving from reserve comes on; it cannot move zero", rule="AA.RES.1")
        targets = self._targets(state, seat, command)
        distance = None if command.distance is None else inches(command.distance, "distance", 1000)
        if name == "select_charges":
            self.rules.check_charge(state, seat, targets, distance)
        if name == "resolve_combats":
            self.rules.check_combat(state, seat, command.unit, targets)
        data = {"unit": command.unit, "act": command.act, "sub_phase": name, "seat": seat}
        if distance is not None:
            data["distance"] = distance
        t.emit("UnitSelected", data, step.play_rule)
        getattr(self, f"_selected_{name}")(t, seat, command.unit, command.act, targets, distance)

    @staticmethod
    def _targets(state: GameState, seat: str, command: AlternatingSelect) -> list[str]:
        targets = list(dict.fromkeys(command.targets))
        owner = state.units[command.unit].owner
        for target in targets:
            if target not in state.units:
                raise NotFound(f"no unit {target!r} in this game", field="targets")
            if state.units[target].owner == owner:
                raise Malformed(f"{unit_named(state, target, seat)} is not an enemy unit", field="targets")
        return targets

    def _selected_move_fleeing(self, t: Table, seat: str, uid: str, act: bool, targets: list[str],
                               distance: str | None) -> None:
        unit = t.state.units[uid]
        if army.unit_has_ability(unit, "ATSKNF"):  # CORE.DICE.1: automatic, not rolled
            self.regroup(t, uid, passed=True, automatic=True)
        elif all(line.Ld is None for line in unit.models) and editions.fixed(t.state, "AA.MOV.2"):
            # no Leadership to test (a vehicle): no test at all, never one against Ld 0; it stops falling back
            t.emit("RegroupPassed", own.RegroupPassed(unit=uid, untested="it has no Leadership to test"), "AA.MOV.2")
            self.rules.change_status(t, uid, "falling_back", False, "AA.MOV.2", reason="it takes no regroup test")
        else:
            self.rules.request_roll(t, seat, "regroup", "2D6", "AA.MOV.2", uid, ld=army.unit_leadership(unit))

    def regroup(self, t: Table, uid: str, passed: bool, **facts: object) -> None:
        if passed:
            t.emit("RegroupPassed", {"unit": uid, **facts}, "AA.MOV.2")
            self.rules.change_status(t, uid, "falling_back", False, "AA.MOV.2", reason="regrouped")
            self.rules.change_status(t, uid, "regrouped", True, "AA.MOV.2", reason="regrouped")
        else:
            t.emit("RegroupFailed", {"unit": uid, "fall_back": "the players move it", **facts}, "AA.MOV.2")

    def _selected_select_charges(self, t: Table, seat: str, uid: str, act: bool, targets: list[str],
                                 distance: str | None) -> None:
        self.rules.declare_charge(t, seat, uid, act, targets, distance)  # AA.CHG.1

    def _selected_resolve_combats(self, t: Table, seat: str, uid: str, act: bool, targets: list[str],
                                  distance: str | None) -> None:
        self.rules.fight(t, seat, uid, targets)  # AA.CC.1

    def _selected_move_units(self, t: Table, seat: str, uid: str, act: bool, targets: list[str],
                             distance: str | None) -> None:
        unit = t.state.units[uid]
        if unit.arriving:
            t.emit("ReserveArrived", ev.ReserveArrived(unit=uid), "AA.RES.1")
        elif unit.embarked_in and act:  # AA.ACT.5: disembarking is its own selection
            t.emit("UnitDisembarked", ev.UnitDisembarked(unit=uid, transport=unit.embarked_in), "AA.ACT.5")

    def _selected_declare_shooting(self, t: Table, seat: str, uid: str, act: bool, targets: list[str],
                                   distance: str | None) -> None:
        """AA.SHO.2: the shots themselves are rolled with free_roll and their outcome recorded."""

    def _selected_run(self, t: Table, seat: str, uid: str, act: bool, targets: list[str],
                      distance: str | None) -> None:
        """AA.RUN.1: selected means it counts as having run, whether it moves or not."""

    @handles("pass")
    def pass_go(self, t: Table, seat: str, command: Pass) -> None:
        step = self._on_go(t, seat)
        state = t.state
        if not step.pass_points:
            name = sub_phase(step)
            raise Refused(f"pass points are not used in {step_called(name)}",
                          rule={"run": "AA.RUN.1", "move_fleeing": "AA.MOV.2"}.get(name, "AA.ASL.1"))
        if state.pass_points[seat] <= 0:
            raise Refused("you have no pass points left; select a unit", rule="AA.ACT.2")
        if not self.can_go(state, other(seat)):
            raise Refused("the opponent has no eligible unit left; select one of yours", rule="AA.ACT.3")
        t.emit("PassPointSpent", own.PassPointSpent(seat=seat, sub_phase=step.name,
                                  remaining=state.pass_points[seat] - 1), "AA.ACT.2")

    @handles("declare_done")
    def declare_done(self, t: Table, seat: str, command: DeclareDone) -> None:
        step = self._on_go(t, seat)
        if not step.declare_done:
            rule = "AA.CC.1" if step.name == "resolve_combats" else "AA.MOV.2"
            raise Refused(f"every {'combat' if rule == 'AA.CC.1' else 'fleeing unit'} must be resolved", rule=rule)
        if step.name == "move_units" and self.arrivals_pending(t.state, seat):
            raise Refused("units arriving from reserve must be selected first", rule="AA.RES.1")
        t.emit("DeclaredDone", own.DeclaredDone(seat=seat, sub_phase=step.name), "AA.ACT.4")

    @evolves("UnitSelected")
    def _selected(self, state: GameState, data: ev.UnitSelected, entry: ev.Entry) -> GameState:
        uid = data["unit"]
        unit = replace(state.units[uid], selected=True)
        flag = {"move_units": "moved", "declare_shooting": "shot" if data["act"] else "held_fire",
                "run": "ran", "select_charges": "charged" if data["act"] else "held_charge",
                "move_fleeing": "fled"}.get(data["sub_phase"])
        if flag:
            unit = replace(unit, turn=AlternatingTurn.of(unit.turn).marked(flag))
        return replace(state.with_unit(uid, unit), step=replace(AlternatingStep.of(state.step), last=data["seat"]))

    @evolves("PassPointSpent")
    def _pass(self, state: GameState, data: own.PassPointSpent, entry: ev.Entry) -> GameState:
        seat = data["seat"]
        return replace(state, pass_points=state.pass_points.replace(seat, data["remaining"]),
                       step=replace(AlternatingStep.of(state.step), last=seat))

    @evolves("DeclaredDone")
    def _done(self, state: GameState, data: own.DeclaredDone, entry: ev.Entry) -> GameState:
        seat = data["seat"]
        return replace(state, declared_done=state.declared_done.replace(seat, True),
                       step=replace(AlternatingStep.of(state.step), last=seat))

    @evolves("ReserveArrived")
    def _arrived(self, state: GameState, data: ev.ReserveArrived, entry: ev.Entry) -> GameState:
        uid = data["unit"]
        return state.with_unit(uid, replace(state.units[uid], arriving=False, in_reserves=False, ongoing=False))

    @evolves("OngoingReservesEntered")
    def _ongoing(self, state: GameState, data: own.OngoingReservesEntered, entry: ev.Entry) -> GameState:
        uid = data["unit"]
        return state.with_unit(uid, replace(state.units[uid], in_reserves=True, ongoing=True, arriving=False))
