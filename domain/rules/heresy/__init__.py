"""`heresy`: the heresy rules (seed 002, RULES.md HH.*), its Shooting and Assault on the older era's tables.

Each battle round opens with a roll-off for the first turn (CORE.DICE.3: the winner chooses who goes
first), then each player's turn: Movement (Reserves, Move, Rout sub-phases, HH.MOV.0), Shooting and
Assault, each ended by the active seat with `end_phase`. The sub-phases live in their own modules
(reserves, movement, embark, rout, reactions, combat; shooting and assault roll attacks, charges and fights
through `domain/attacks` on its heresy tables); this one holds the turn and the tactical statuses.

Tactical statuses are status events with their causes. Where the seed gives no duration (conventions):
Stationary lasts until the end of its owner's turn; Pinned and Suppressed last until the end of their
owner's next turn (a status gained during the owner's own turn stays through the turn after); Routed ends
only at the table edge (HH.ROUT.3) or as the table records; Locked in Combat comes from a charge that
reached (`assault`) or as the table records, and ends when a side is destroyed or breaks (`assault`).
"""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import TYPE_CHECKING, ClassVar, cast

from warlog.domain import commands as cmd
from warlog.domain import events as ev
from warlog.domain import rolls
from warlog.domain.attacks import Outcome
from warlog.domain.rules import actions as act
from warlog.domain.rules import editions, objectives
from warlog.domain.rules.actions import Action
from warlog.domain.rules.basics import Awaiting, evolves, seat_units
from warlog.domain.rules.heresy import common
from warlog.domain.rules.heresy.assault import Assault, fight_counted
from warlog.domain.rules.heresy.combat import Combat
from warlog.domain.rules.heresy.commands import COMMANDS as OWN_COMMANDS
from warlog.domain.rules.heresy.embark import Embarking
from warlog.domain.rules.heresy.events import EVENTS as OWN_EVENTS
from warlog.domain.rules.heresy.movement import Movement
from warlog.domain.rules.heresy.reactions import Reactions
from warlog.domain.rules.heresy.reserves import Reserves, arriving
from warlog.domain.rules.heresy.rout import Rout, falling_back
from warlog.domain.rules.heresy.shooting import FightGoesOn, Shooting, SnapShotsGoOn
from warlog.domain.rules.heresy.texts import TEXTS
from warlog.domain.rules.igougo import Igougo
from warlog.domain.rules.objectives import Objectives
from warlog.domain.rules.registry import register
from warlog.domain.rules.rosters import RosterReading
from warlog.domain.rules.ruleset import SEATS, Part, Ruleset, Step, alive, handles, other
from warlog.domain.rulings import Refused
from warlog.domain.state import Frozen, GameState, Status
from warlog.domain.state.values import replace
from warlog.domain.words import Text, unit_named

if TYPE_CHECKING:
    from warlog.domain.game import Table

FIRST_TURN = Step("movement", "reserves", "order", "CORE.DICE.3", "CORE.DICE.3", "CORE.DICE.3")
PHASES = (("movement", "reserves", "HH.MOV.0", "HH.RES.1"), ("movement", "move", "HH.MOV.0", "HH.MOV.1"),
          ("movement", "rout", "HH.MOV.0", "HH.ROUT.1"), ("shooting", None, "CORE.SEQ.1", "HH.MOV.5"),
          ("assault", None, "CORE.SEQ.1", "HH.MOV.5"))
# the rule that names it, cited when it lapses
EXPIRES: dict[Status, str] = {"pinned": "HH.MOV.2", "suppressed": "HH.MOV.3"}
STATUS_RULE = {"pinned": "HH.MOV.2", "routed": "HH.ROUT.1", "suppressed": "HH.MOV.3", "locked_in_combat": "HH.MOV.2",
               "stationary": "HH.MOV.1"}  # a tactical status the table records cites the HH rule it bears on


@register
class Heresy(Shooting):  # its attacks are Shooting's; the round's end scores the objectives (MSN.OBJ.1, its part
    # Objectives); reactions, the charge and the fight are its parts Reactions and Assault
    name = "heresy"
    title = "Heresy (the older era's tables, seed 002)"
    summary = ("a roll-off for the first turn each battle round, then each player's Movement, Shooting and Assault, "
               "with reactions, armour values and tactical statuses")
    phases = tuple(phase[:3] for phase in PHASES)
    commands = OWN_COMMANDS  # reserves, moves, reactions, rout, shooting, strikes (commands.py)
    event_payloads: ClassVar[Mapping[str, type]] = {**Ruleset.event_payloads, **OWN_EVENTS, **objectives.EVENTS}
    event_texts: ClassVar[Mapping[str, Text]] = {**Ruleset.event_texts, **TEXTS, **objectives.TEXTS}
    status_ends = common.STATUS_ENDS
    roster = RosterReading(older_ap=True, systems=("horus heresy", "30,000", "30k"), systems_older_ap=True)
    # rules/parts.py: each built with it, its commands and events dispatched to it; mypy checks that Heresy is
    # what each part reads its ruleset as (a part's Protocol)
    parts: ClassVar[tuple[type[Part[Heresy]], ...]] = (
        Combat, Embarking, Movement, Reserves, Rout, Objectives, Reactions, Assault)

    # -- the round -----------------------------------------------------------------------

    def round_layout(self, state: GameState) -> list[Step]:
        """The roll-off for the first turn, then the winner's chosen order (the last one chosen, or A first)."""
        order = state.turn_order or SEATS
        return [FIRST_TURN] + [Step(phase, sub, "phase", rule, play, active=seat)
                               for seat in order for phase, sub, rule, play in PHASES]

    def settle(self, t: Table, step: Step) -> None:
        t.emit("RollOffNeeded", {"sub_phase": step.name, "choice": True, "for": "the first turn"}, "CORE.DICE.3")

    def begin(self, t: Table, step: Step) -> None:
        if step.active is None:
            return
        if step.name == "reserves":
            self.part(Reserves).begin_reserves(t, step.active)
        elif step.name == "rout":
            self.part(Rout).begin_rout(t, step.active)

    def progress(self, t: Table, step: Step) -> bool:
        return self.part(Reactions).close_dead_window(t) or self.part(Assault).continue_combat(t)

    def step_over(self, state: GameState, step: Step) -> bool:
        flow = common.heresy_step(state)
        if step.kind == "order":
            return flow.first is not None
        return bool(flow.ended)

    def end_step(self, t: Table, step: Step) -> None:
        if step.name == "move":
            self.part(Movement).stationary_at_end_of_move(t, self.turn_seat(step))
        if step.phase == "assault":
            self.end_of_turn_statuses(t, self.turn_seat(step))
        super().end_step(t, step)

    def roll_reading(self, state: GameState, request: ev.RollRequested) -> rolls.Reading | None:
        purpose, context = request["purpose"], request["context"]
        if purpose == "reserve":  # HH.RES.1
            return rolls.arrives_on("Reserves", common.RESERVES_ON)
        if purpose == "dangerous_terrain":  # HH.MOV.4 convention: a die a model, failed on a 1
            return rolls.Reading("Dangerous terrain", common.DANGEROUS_FAILS_ON + 1, each=True, noun="pass")
        if purpose in ("leadership", "fight_leadership"):  # HH.ROUT.3 convention: 2D6 at most Ld
            return rolls.leadership("Leadership", context["ld"], at_most=True)
        if purpose == "charge":  # RS.CHG.2: 2D6 against the inches measured
            return rolls.charge(context["distance"])
        if purpose == "fall_back":
            return rolls.Reading("Fall back")
        return super().roll_reading(state, request)  # an attack's rolls are its attack driver's (Attacking)

    def on_roll(self, t: Table, request: ev.RollRequested, roll: ev.DiceRolled) -> None:
        uid, purpose = request["unit"], request["purpose"]
        if purpose == "reserve":
            self.part(Reserves).reserve_rolled(t, uid, roll)
        elif purpose == "dangerous_terrain":
            self.part(Movement).dangerous_rolled(t, uid, roll)
        elif purpose == "fall_back":
            self.part(Rout).fall_back_rolled(t, uid, roll)
        elif purpose == "leadership":
            self.part(Rout).leadership_rolled(t, uid, request, roll)
        elif purpose == "charge":
            self.part(Assault).charge_rolled(t, uid, request, roll)
        elif purpose == "fight_leadership":
            self.part(Assault).fight_leadership_rolled(t, uid, request, roll)
        else:  # an attack's rolls are its attack driver's (Attacking)
            super().on_roll(t, request, roll)

    def attack_finished(self, t: Table, context: ev.AttackRoll, outcome: Outcome) -> None:
        then = context.get("then")  # as `start_attack` gave it, logged with the dice (JSON)
        if then and then["kind"] == "snap_shots":
            self.part(Reactions).next_snap_shot(t, cast(SnapShotsGoOn, then))
        elif then and then["kind"] == "fight":
            self.part(Assault).fight_goes_on(t, cast(FightGoesOn, then))

    # -- what its parts' moves and arrivals set going (MoveRules, ReserveRules): its part Reactions' ---------

    def after_move(self, t: Table, seat: str, uid: str, coherency_lost: bool, dangerous: int,
                   near: list[str]) -> None:
        self.part(Reactions).after_move(t, seat, uid, coherency_lost, dangerous, near)

    def offer_reaction(self, t: Table, uid: str, against: str) -> None:
        self.part(Reactions).offer_reaction(t, uid, against=against)

    def offer_snap_shots(self, t: Table, against: str) -> None:
        self.part(Reactions).offer_snap_shots(t, against)

    # -- the charge and the fight, asked by name (the interpreter, shooting.py, CombatRules): its part Assault's -----

    def engaged_with(self, state: GameState, uid: str) -> tuple[str, ...]:
        return self.part(Assault).engaged_with(state, uid)

    @staticmethod
    def fight_counts(state: GameState, kind: str, data: ev.AttackCounted) -> GameState:
        return fight_counted(state, kind, data)

    def strikers(self, state: GameState) -> list[str]:
        return self.part(Assault).strikers(state)

    def charge_actions(self, state: GameState, seat: str, ready: list[str]) -> list[Action]:
        return self.part(Assault).charge_actions(state, seat, ready)

    def check_charge(self, state: GameState, command: cmd.Select, targets: list[str]) -> None:
        self.part(Assault).check_charge(state, command, targets)

    def roll_charge(self, t: Table, seat: str, command: cmd.Select, target: str) -> None:
        self.part(Assault).roll_charge(t, seat, command, target)

    # -- tactical statuses ---------------------------------------------------------------

    @staticmethod
    def turn_stamp(state: GameState) -> tuple[int, int]:
        """(battle round, turn): turn 0 is the roll-off, 1 the first player's turn, 2 the second's."""
        pos = state.pos or 0
        return (state.battle_round, 0 if pos == 0 else 1 if pos <= len(PHASES) else 2)

    def end_of_turn_statuses(self, t: Table, seat: str) -> None:
        state = t.state
        now = self.turn_stamp(state)
        for uid, _ in seat_units(state, seat):
            unit = t.state.units[uid]  # as the statuses lost before it left it
            if not alive(unit):
                continue
            self.change_status(t, uid, "stationary", False, "HH.MOV.1", reason="its turn ended")
            for status, rule in EXPIRES.items():
                unit = t.state.units[uid]
                since = unit.since.get(status) if unit.since is not None else None
                if status in unit.statuses and (since is None or since < now):
                    self.change_status(t, uid, status, False, rule,
                                       reason="lapsed at the end of its owner's next turn (convention)")

    @evolves("StatusGained")
    def _gained_since(self, state: GameState, data: ev.StatusGained, entry: ev.Entry) -> GameState:
        state = Ruleset._gained(self, state, data, entry)
        uid = data["unit"]
        unit = state.units[uid]
        since = (unit.since or Frozen()).set(data["status"], self.turn_stamp(state))
        state = state.with_unit(uid, replace(unit, since=since))
        foe = data.get("foe")
        if foe and data["status"] == common.LOCKED and editions.fixed(state, "RS.FGT.2"):  # both sides know whom
            state = _linked(state, uid, foe)
        return state

    @evolves("StatusLost")
    def _lost_since(self, state: GameState, data: ev.StatusLost, entry: ev.Entry) -> GameState:
        state = Ruleset._lost(self, state, data, entry)
        uid = data["unit"]
        if data["status"] == common.LOCKED and editions.fixed(state, "RS.FGT.2"):  # out of every combat it was in
            state = _unlinked(state, uid)
        unit = state.units[uid]
        if unit.since is None or data["status"] not in unit.since:
            return state
        return state.with_unit(uid, replace(unit, since=unit.since.without(data["status"])))

    @evolves("OrderChosen")
    def _turn_order(self, state: GameState, data: ev.OrderChosen, entry: ev.Entry) -> GameState:
        state = Ruleset._order(self, state, data, entry)
        return replace(state, turn_order=(data["first"], other(data["first"])))

    # -- reading -------------------------------------------------------------------------

    def step_awaiting(self, state: GameState, step: Step | None) -> Awaiting:
        if step is None:
            return {"seat": None, "action": "none"}
        state = state
        flow = common.heresy_step(state)
        if step.kind == "order":
            if flow.winner is None:
                return {"seat": None, "action": "roll_off"}
            return {"seat": flow.winner, "action": "choose_order"}
        active = self.turn_seat(step)  # every step after the roll-off for the first turn is a player's
        reaction = self.part(Reactions).awaiting_reaction(state)
        if reaction is not None:
            return reaction
        strikers = self.part(Assault).strikers(state)
        if strikers:
            return {"seat": state.units[strikers[0]].owner, "action": "strike", "unit": strikers[0],
                    "rule": "RS.FGT.3"}
        arrivals = arriving(state, active) if step.name == "reserves" else []
        if arrivals:
            return {"seat": active, "action": "enter", "unit": arrivals[0], "rule": "HH.RES.2"}
        falling = falling_back(state, active) if step.name == "rout" else []
        if falling:
            return {"seat": active, "action": "fall_back", "unit": falling[0], "rule": "HH.ROUT.2"}
        return super().step_awaiting(state, step)

    def eligible(self, state: GameState, uid: str) -> bool:
        """CONTRACT.md: it may be selected (moved, entered, fallen back, shot, charged, reacted with) now."""
        state = state
        step = self.step(state)
        if step is None or state.rolls:
            return False
        awaiting = self.awaiting(state)
        action = awaiting["action"]
        if action == "react":
            if awaiting["reaction"] == "move":
                return bool(uid == awaiting["unit"])
            return uid in self.part(Reactions).snap_shooters(state, awaiting["against"])
        if action == "strike":
            return bool(uid == awaiting["unit"])
        reactions = self.part(Reactions)
        if action in ("enter", "fall_back", "end_phase") and any(
                reactions.claim_block(state, uid, moved) is None for moved in reactions.moved_this_sub_phase(state)):
            return True  # HH.REACT.1: a reaction its player may claim
        if action in ("enter", "fall_back"):
            active = self.turn_seat(step)
            return uid in (arriving(state, active) if action == "enter" else falling_back(state, active))
        if action != "end_phase":
            return False
        if step.name == "move":
            return (self.part(Movement).move_block(state, uid) is None
                    or self.part(Embarking).disembark_block(state, uid) is None)
        if step.phase in ("shooting", "assault"):
            return self.part(Combat).combat_block(state, uid) is None
        return False

    def play_actions(self, state: GameState, seat: str, awaiting: Awaiting) -> list[Action]:
        step = self.step(state)
        action = awaiting["action"]
        if step is None or action == "none":
            return []
        if action == "react":
            return self.part(Reactions).react_actions(state, seat)
        if awaiting["seat"] != seat:
            return self.part(Reactions).claim_actions(state, seat)  # HH.REACT.1: a reaction the opponent claims itself
        if action == "enter":
            return self.part(Reserves).enter_actions(state, seat)
        if action == "fall_back":
            return self.part(Rout).fall_back_actions(state, seat)
        if action == "strike":
            return self.part(Assault).strike_actions(state, seat)
        offered: list[Action] = []
        if step.name == "move":
            offered += self.part(Movement).move_actions(state, seat)
            offered += self.part(Embarking).disembark_actions(state, seat)
        elif step.phase in ("shooting", "assault"):
            offered += self.part(Combat).combat_actions(state, seat)
            if step.phase == "shooting":
                offered += self.shoot_actions(state, seat)  # shooting.py's, which reads the state as it was handed
        scoring = self.part(Objectives)
        if scoring.ends_round(state, step):  # MSN.OBJ.1: naming the units near each objective
            return [*offered, scoring.round_end_action(state, f"the {step.phase} phase and the battle round")]
        return [*offered, self.end_phase_action(step)]

    @staticmethod
    def end_phase_action(step: Step) -> Action:
        if step.name == "move":
            return act.action("end_phase", "HH.MOV.1", "end the Move sub-phase: every unit that has not moved is "
                                                       "Stationary")
        return Igougo.end_phase_action(step)

    # -- commands ------------------------------------------------------------------------

    @handles("end_phase")
    def end_phase(self, t: Table, seat: str, command: cmd.EndPhase) -> None:
        state = t.state
        step = self.step(state)
        if step is not None and step.kind == "order":
            raise Refused("the battle round begins with the roll-off for the first turn", rule="CORE.DICE.3")
        common.refuse_while_reacting(state, seat)
        if step is not None and seat == step.active and not state.rolls:
            if step.name == "reserves" and arriving(state, seat):
                raise Refused(f"{unit_named(state, arriving(state, seat)[0])} passed its reserve roll: bring it into "
                              "play first",
                              rule="HH.RES.2")
            strikers = self.part(Assault).strikers(state)
            if strikers:
                raise Refused(f"the fight goes on: {unit_named(state, strikers[0], seat)} strikes next",
                              rule="RS.FGT.3")
            if step.name == "rout" and falling_back(state, seat):
                raise Refused(f"{unit_named(state, falling_back(state, seat)[0])} is Routed and must fall back first",
                              rule="HH.ROUT.1")
        scoring = self.part(Objectives)
        scoring.check_round_end(state, step, command.control)
        super().end_phase(t, seat, command)
        if scoring.ends_round(state, step):  # MSN.OBJ.1: the last phase of the round ends with the objectives scored
            scoring.score_round(t, seat, command.control)

    @handles("set_status")
    def set_status(self, t: Table, seat: str, command: cmd.SetStatus) -> None:
        unit = t.state.units[command.unit]
        if command.status == "routed" and command.value and not any(line.Ld for line in unit.models):
            raise Refused(f"{unit_named(t.state, command.unit, seat)} has no Leadership to test at the table edge, so it cannot rout",
                          rule="HH.ROUT.3")
        if command.rule is None and command.status in STATUS_RULE:
            command = dataclasses.replace(command, rule=STATUS_RULE[command.status])
        super().set_status(t, seat, command)


def _linked(state: GameState, uid: str, foe: str) -> GameState:
    """`uid` and `foe` are Locked in Combat with each other (`engaged_with`, kept sorted on both sides)."""
    for one, other_uid in ((uid, foe), (foe, uid)):
        unit = state.units[one]
        if other_uid not in unit.engaged_with:
            state = state.with_unit(one, replace(unit, engaged_with=tuple(sorted((*unit.engaged_with, other_uid)))))
    return state


def _unlinked(state: GameState, uid: str) -> GameState:
    """`uid` is locked with nobody any more, and nobody with it."""
    for one, unit in state.units.items():
        if one == uid and unit.engaged_with:
            state = state.with_unit(one, replace(unit, engaged_with=()))
        elif uid in unit.engaged_with:
            state = state.with_unit(one, replace(unit, engaged_with=tuple(u for u in unit.engaged_with if u != uid)))
    return state


__all__ = ["Heresy"]
