"""The Fight phase (RS.FGT.*): pile in, fight (Fights First, then the rest, alternating), consolidate.

The phase runs in stages kept in the step (`ReferenceStep.fight`): `pile_in` (the active player's units, then the
opponent's), `fight` (each eligible unit selected once, then its attacks), `consolidate` (the active
player's, then the opponent's). An Engaging consolidation can make unfought enemy units eligible: they
fight, then consolidate, before the phase can end.

`Fight` is a part of `Reference` (rules/parts.py): `pile_in`, `end_fight` and `consolidate` are dispatched to it and
its `FightEligible`, `PiledIn`, `UnitFought`, `Consolidated` and `FightStageEnded` are applied by it (none of them
marked by `Reference` or the core); `Reference` asks it by name as the phase begins (`begin_fight`) and goes on
(`fight_progress`), who may fight (`fighters`, `next_fighter`), what is awaited and offered (`fight_stage`,
`fight_awaiting`, `fight_actions`) and to judge a unit selected to fight (`select_fight`). It asks its ruleset
(`FightRules`) for the step and what it awaits, whose turn a step is, the attacks open (`Shooting`'s) and to engage
and disengage (the part `Engagement`).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from warlog.domain import events as ev
from warlog.domain.rules import actions as act
from warlog.domain.rules import editions
from warlog.domain.rules.actions import Action
from warlog.domain.rules.basics import Awaiting, awaited_unit, evolves, held_by
from warlog.domain.rules.reference import events as own
from warlog.domain.rules.reference.commands import Consolidate, EndFight, PileIn, ReferenceSelect
from warlog.domain.rules.reference.common import (
    attached_to,
    engaged,
    foes,
    not_a_unit_alone,
    on_battlefield,
    turn_of,
)
from warlog.domain.rules.ruleset import SEATS, Part, Step, alive, handles, inches, other
from warlog.domain.rules.shared_appliers import adds_unit, sets_field
from warlog.domain.rulings import Refused
from warlog.domain.state import GameState, ReferenceFight, ReferenceStep, Unit
from warlog.domain.state.values import replace
from warlog.domain.words import awaited, doing, unit_named, unit_title, whose

if TYPE_CHECKING:
    from warlog.domain.game import Table

PILE_IN = CONSOLIDATE = 3  # inches
MODES = ("ongoing", "engaging", "objective", "none")


def _under_way(state: GameState) -> ReferenceFight:
    """The fight phase's stages, once its eligible units are known (`FightEligible`)."""
    fight = ReferenceStep.of(state.step).fight
    if fight is None:
        raise ValueError("no fight is under way")
    return fight


def _consolidation(state: GameState, uid: str) -> tuple[str, str]:
    """Why an Engaging consolidation engages (the engagement's reason) and makes its fresh targets eligible to
    fight (FightEligible's), as stored: the unit by name with its owner's ("consolidation by Alice's Assault
    Squad", RS.FGT.4 of edition 4), by its id in a game created before."""
    if editions.fixed(state, "RS.FGT.4"):
        named = unit_title(state, uid, counts=False)
        return f"consolidation by {named}", f"engaged by the consolidation of {named}"
    return f"consolidation by {uid}", f"engaged by {uid}'s consolidation"


def _through(fight: ReferenceFight, done: str) -> tuple[str, ...]:
    """The units through a stage: `piled` in, or `consolidated`."""
    return fight.piled if done == "piled" else fight.consolidated


class FightRules(Protocol):
    """What the fight phase asks of its ruleset: the step played and what it awaits, whose turn a step is, the
    attacks open (`Shooting`'s, RS.ATK.*), and units engaged or disengaged by a consolidation."""

    def step(self, state: GameState) -> Step | None:
        """The step being played; None outside play."""

    def awaiting(self, state: GameState) -> Awaiting:
        """Who is awaited now, and for what."""

    def turn_seat(self, step: Step) -> str:
        """The seat whose turn the step is part of."""

    def attack_actions(self, state: GameState, seat: str, phase: str) -> list[Action]:
        """The attacks open to the seat's unit selected in `phase`."""

    def engage(self, t: Table, units: list[str], targets: list[str], rule: str, reason: str) -> None:
        """The units are engaged with the targets, and the targets with them."""

    def disengage(self, t: Table, uid: str, rule: str, reason: str) -> None:
        """The unit is no longer engaged (nor a foe left with nobody engaged with it)."""


class Fight(Part[FightRules]):
    """A part of `Reference`: pile in, fight and consolidate; its attacks are the ruleset's (`Shooting`, RS.ATK.*),
    its consolidations engage and disengage through the ruleset (its part `Engagement`)."""

    def begin_fight(self, t: Table, step: Step) -> None:
        units = t.state.units
        eligible = sorted(uid for uid, unit in units.items()
                          if on_battlefield(unit) and (engaged(unit) or turn_of(unit).charged))
        t.emit("FightEligible", own.FightEligible(units=eligible, reason="engaged, or made a charge move this turn"),
               "RS.FGT.1")

    @staticmethod
    def fight_stage(state: GameState) -> ReferenceFight | None:
        step = state.step
        return step.fight if isinstance(step, ReferenceStep) else None

    def stage_seat(self, state: GameState, step: Step, done: str) -> str | None:
        """Pile-in and consolidation: the active player's units first, then the opponent's (RS.FGT.1, RS.FGT.4)."""
        active = self.rules.turn_seat(step)
        for seat in (active, other(active)):
            if self.still_to(state, seat, done):
                return seat
        return None

    def still_to(self, state: GameState, seat: str, done: str) -> list[str]:
        """This seat's units still to pile in, or to consolidate (a unit drawn in by a consolidation fights first)."""
        fight, units = _under_way(state), state.units
        waiting = self.unfought(state) if done == "consolidated" else []
        return [uid for uid in fight.eligible if units[uid].owner == seat and alive(units[uid])
                and uid not in _through(fight, done) and uid not in waiting]

    def fighters(self, state: GameState) -> list[str]:
        """RS.FGT.2 convention: eligible units not yet fought, Fights First before the rest."""
        fight = self.fight_stage(state)
        if fight is None or fight.stage != "fight" or fight.current:
            return []
        ready = self.unfought(state)
        return [uid for uid in ready if turn_of(state.units[uid]).fights_first] or ready

    def unfought(self, state: GameState) -> list[str]:
        fight = _under_way(state)
        units = state.units
        return [uid for uid in fight.eligible if on_battlefield(units[uid]) and uid not in fight.fought
                and not attached_to(units, uid)]  # a leader fights with its bodyguard, as one unit

    def next_fighter(self, state: GameState, step: Step) -> str | None:
        """RS.FGT.2 convention: the players alternate selecting, the non-active player first."""
        able = [s for s in SEATS if any(state.units[uid].owner == s for uid in self.fighters(state))]
        if not able:
            return None
        fight = self.fight_stage(state)
        last = fight.last if fight is not None else None
        preferred = other(last) if last else other(self.rules.turn_seat(step))
        return preferred if preferred in able else able[0]

    def fight_awaiting(self, state: GameState, step: Step) -> Awaiting | None:
        fight = self.fight_stage(state)
        stage = fight.stage if fight is not None else None
        if stage == "pile_in":
            seat = self.stage_seat(state, step, "piled")
            return {"seat": seat, "action": "pile_in"} if seat else None
        if stage == "fight" and fight is not None and fight.current:
            uid = fight.current
            seat = state.units[uid].owner
            return {"seat": seat, "action": "attack" if self.rules.attack_actions(state, seat, "fight") else "end_fight",
                    "unit": uid}
        if stage == "fight":
            seat = self.next_fighter(state, step)
            return {"seat": seat, "action": "select"} if seat else None
        if stage == "consolidate":
            seat = self.stage_seat(state, step, "consolidated")
            return {"seat": seat, "action": "consolidate"} if seat else None
        return None

    def fight_progress(self, t: Table, step: Step) -> bool:
        """Move to the next stage once nobody is left to act in this one."""
        fight = self.fight_stage(t.state)
        if not fight or fight.stage == "done" or self.fight_awaiting(t.state, step) is not None:
            return False
        unfought = self.unfought(t.state)
        following = {"pile_in": "fight", "fight": "consolidate",
                     "consolidate": "fight" if unfought else "done"}[fight.stage]
        t.emit("FightStageEnded", own.FightStageEnded(stage=fight.stage, next=following),
               {"pile_in": "RS.FGT.1", "fight": "RS.FGT.3", "consolidate": "RS.FGT.4"}[fight.stage])
        return True

    # -- actions -------------------------------------------------------------------------

    def fight_actions(self, state: GameState, seat: str, awaiting: Awaiting) -> list[Action]:
        units = state.units
        if awaiting["seat"] != seat:
            return []
        if awaiting["action"] == "pile_in":
            left = self.still_to(state, seat, "piled")
            return [act.action("pile_in", "RS.FGT.1", "pile in: up to 3\" toward the closest enemy, ending engaged "
                               "if it can", ["unit", "distance"], unit=act.one_of(left),
                               distance=act.number(0, PILE_IN, "inches moved"))]
        if awaiting["action"] in ("attack", "end_fight"):
            uid = awaited_unit(awaiting)
            return [*self.rules.attack_actions(state, seat, "fight"),
                    act.action("end_fight", "RS.FGT.3", f"{unit_named(state, uid)} has fought (models that have not "
                               "attacked do not)", ["unit"], unit=act.const(uid))]
        if awaiting["action"] == "select":
            chosen = [uid for uid in self.fighters(state) if units[uid].owner == seat]
            offered = []
            at_start = _under_way(state).engaged_at_start
            normal = [uid for uid in chosen if engaged(units[uid]) and uid in at_start]
            overrun = [uid for uid in chosen if uid not in normal]
            if normal:
                offered.append(act.action("select", "RS.FGT.2", "select a unit to fight (Normal fight)", ["unit"],
                                          unit=act.one_of(normal), fight=act.const("normal")))
            if overrun:
                offered.append(act.action("select", "RS.FGT.2", "select a unit to fight (Overrun fight: one extra "
                                          "pile-in of up to 3\" first)", ["unit", "fight", "pile_in"],
                                          unit=act.one_of(overrun), fight=act.const("overrun"),
                                          pile_in=act.number(0, PILE_IN, "inches of its extra pile-in")))
            return offered
        if awaiting["action"] == "consolidate":
            return self.consolidate_actions(state, self.still_to(state, seat, "consolidated"))
        return []

    def consolidate_actions(self, state: GameState, left: list[str]) -> list[Action]:
        units, offered = state.units, []
        distance = act.number(0, CONSOLIDATE, "inches moved")
        ongoing = [uid for uid in left if engaged(units[uid])]
        if ongoing:
            offered.append(act.action("consolidate", "RS.FGT.4", "consolidate (Ongoing): up to 3\", staying engaged",
                                      ["unit", "mode", "distance"], unit=act.one_of(ongoing),
                                      mode=act.const("ongoing"), distance=distance))
        for uid in left:
            near = [f for f, _ in foes(state, units[uid].owner)]
            if near:
                offered.append(act.action("consolidate", "RS.FGT.4", f"consolidate {unit_named(state, uid)} (Engaging): end engaged "
                                          "with the enemy units named, within 3\"", ["unit", "mode", "targets"],
                                          unit=act.const(uid), mode=act.const("engaging"), distance=distance,
                                          targets=act.subset(near)))
        markers = state.options.objectives or ()
        if markers:
            offered.append(act.action("consolidate", "RS.FGT.4", "consolidate (Objective): end unengaged, within "
                                      "range of an objective within 3\"", ["unit", "mode", "objective"],
                                      unit=act.one_of(left), mode=act.const("objective"), distance=distance,
                                      objective=act.one_of(markers)))
        offered.append(act.action("consolidate", "RS.FGT.4", "do not consolidate", ["unit", "mode"],
                                  unit=act.one_of(left), mode=act.const("none")))
        return offered

    # -- commands ------------------------------------------------------------------------

    def _on_stage(self, state: GameState, seat: str, action: str, rule: str) -> Step:
        step = self.rules.step(state)
        awaiting = self.rules.awaiting(state)
        if step is None or step.phase != "fight" or awaiting["action"] != action:
            raise Refused(f"it is not the time to {doing(action)}: {awaited(state, awaiting, seat)}",
                          rule=rule)
        held_by(awaiting["seat"], seat, rule, f"it is {whose(state, awaiting['seat'])} go")
        return step

    @handles("pile_in")
    def pile_in(self, t: Table, seat: str, command: PileIn) -> None:
        self._on_stage(t.state, seat, "pile_in", "RS.FGT.1")
        if command.unit not in self.still_to(t.state, seat, "piled"):
            raise Refused(f"{unit_named(t.state, command.unit, seat)} is not one of your units still to pile in",
                          rule="RS.FGT.1")
        t.emit("PiledIn", own.PiledIn(unit=command.unit, distance=inches(command.distance, "distance", PILE_IN)),
               "RS.FGT.1")

    def select_fight(self, t: Table, seat: str, command: ReferenceSelect, unit: Unit) -> None:
        state = t.state
        if command.unit not in self.fighters(state):
            raise Refused("units with Fights First fight first; each eligible unit fights once", rule="RS.FGT.2")
        normal = engaged(unit) and command.unit in _under_way(state).engaged_at_start
        fight = command.fight or ("normal" if normal else "overrun")
        if fight != ("normal" if normal else "overrun"):
            raise Refused("a Normal fight is for a unit engaged since the phase began; otherwise it is an Overrun",
                          rule="RS.FGT.2")
        data = ev.UnitSelected(unit=command.unit, seat=seat, phase="fight", fight=fight)
        if fight == "overrun":
            data["pile_in"] = inches(command.pile_in if command.pile_in is not None else 0, "pile_in", PILE_IN)
        t.emit("UnitSelected", data, "RS.FGT.2")

    @handles("end_fight")
    def end_fight(self, t: Table, seat: str, command: EndFight) -> None:
        state = t.state
        fight = self.fight_stage(state)
        if fight is None or fight.stage != "fight" or not fight.current or state.units[fight.current].owner != seat:
            raise Refused("no unit of yours is fighting now", rule="RS.FGT.3")
        if fight.current != command.unit:
            raise Refused(f"{unit_named(state, command.unit, seat)} is not the unit fighting now", rule="RS.FGT.3")
        t.emit("UnitFought", own.UnitFought(unit=command.unit, seat=seat), "RS.FGT.3")

    @handles("consolidate")
    def consolidate(self, t: Table, seat: str, command: Consolidate) -> None:
        self._on_stage(t.state, seat, "consolidate", "RS.FGT.4")
        state = t.state
        fight, uid = _under_way(state), command.unit
        if uid not in self.still_to(state, seat, "consolidated"):
            raise Refused(f"{unit_named(state, uid, seat)} is not one of your units still to consolidate",
                          rule="RS.FGT.4")
        if command.mode not in MODES:
            raise Refused(f"mode is one of {', '.join(MODES)}", rule="RS.FGT.4")
        data = own.Consolidated(unit=uid, mode=command.mode)
        if command.mode != "none":
            data["distance"] = inches(command.distance if command.distance is not None else 0, "distance", CONSOLIDATE)
        if command.mode == "ongoing" and not engaged(state.units[uid]):
            raise Refused("an Ongoing consolidation is for an engaged unit", rule="RS.FGT.4")
        if command.mode == "engaging":
            data["targets"] = self._engaging(state, seat, command.targets)
        if command.mode == "objective":
            if command.objective not in (state.options.objectives or ()):
                raise Refused("an Objective consolidation names an objective marker of this game", rule="RS.FGT.4")
            data["objective"] = command.objective
        t.emit("Consolidated", data, "RS.FGT.4")
        if command.mode == "engaging":
            fresh = [target for target in data["targets"] if target not in fight.eligible]
            engaging, eligible = _consolidation(state, uid)
            self.rules.engage(t, [uid], data["targets"], "RS.FGT.4", engaging)
            if fresh:  # RS.FGT.4: unfought enemy units it engages become eligible to fight
                t.emit("FightEligible", own.FightEligible(units=fresh, reason=eligible), "RS.FGT.4")
        elif command.mode == "objective":
            self.rules.disengage(t, uid, "RS.FGT.4", "consolidated onto an objective")

    @staticmethod
    def _engaging(state: GameState, seat: str, targets: tuple[str, ...]) -> list[str]:
        """An Engaging consolidation's targets: enemy units on the battlefield, each named as its unit."""
        alone = not_a_unit_alone(state, seat, targets or [])
        if alone:
            raise Refused(alone[1], rule=alone[0])
        near = [f for f, _ in foes(state, seat)]
        if not targets or any(target not in near for target in targets):
            raise Refused("an Engaging consolidation names enemy units on the battlefield within 3\"",
                          rule="RS.FGT.4")
        return list(dict.fromkeys(targets))

    # -- appliers ------------------------------------------------------------------------

    @evolves("FightEligible")
    def _fight_eligible(self, state: GameState, data: own.FightEligible, entry: ev.Entry) -> GameState:
        step = ReferenceStep.of(state.step)
        units: list[str] = data["units"]
        if step.fight is None:
            fight = ReferenceFight(stage="pile_in", eligible=tuple(units), piled=(), fought=(), consolidated=(),
                                   current=None, last=None,
                                   engaged_at_start=tuple(u for u in units if engaged(state.units[u])))
        else:
            fight = replace(step.fight, eligible=(*step.fight.eligible,
                                                  *[u for u in units if u not in step.fight.eligible]))
        return replace(state, step=replace(step, fight=fight))

    _piled = adds_unit("PiledIn", "fight", "piled")
    _fought = sets_field("UnitFought", "fight", "current", None)
    _consolidated = adds_unit("Consolidated", "fight", "consolidated")

    @evolves("FightStageEnded")
    def _stage_ended(self, state: GameState, data: own.FightStageEnded, entry: ev.Entry) -> GameState:
        step = ReferenceStep.of(state.step)
        fight = replace(_under_way(state), stage=data["next"])
        if data["next"] == "fight":
            fight = replace(fight, last=None)
        return replace(state, step=replace(step, fight=fight))
