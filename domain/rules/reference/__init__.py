"""`reference`: the reference sheet (seed 001, RULES.md RS.*, CORE.*, EXT.*): Command, Movement, Shooting,
Charge and Fight phases in each player's turn.

Distances and visibility are the table's (CORE.DIST.1): commands carry what the players measured; the
service rolls, counts and applies the results. Each phase lives in its own module, on the parts it calls
(`engagement` keeps who is engaged with whom); this one wires them and answers which unit may be selected
now (`ineligible`), which is what `actions` offers and what `select` is judged by.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from typing_extensions import TypedDict, Unpack

from warlog.domain import commands as cmd
from warlog.domain import events as ev
from warlog.domain import rolls
from warlog.domain.attacks import Need, Outcome
from warlog.domain.attacks.lines import line_standing
from warlog.domain.attacks.steps import FNP_STEPS
from warlog.domain.rules import actions as act
from warlog.domain.rules import editions
from warlog.domain.rules.actions import Action
from warlog.domain.rules.basics import Awaiting, evolves, seat_units
from warlog.domain.rules.flow import CasualtyNote, strength_changed
from warlog.domain.rules.igougo import Igougo
from warlog.domain.rules.reference import events as own
from warlog.domain.rules.reference.charge import Charge
from warlog.domain.rules.reference.choices import AttackChoices
from warlog.domain.rules.reference.command import CommandPhase
from warlog.domain.rules.reference.commands import COMMANDS as OWN_COMMANDS
from warlog.domain.rules.reference.commands import ReferenceSelect, Revive
from warlog.domain.rules.reference.common import STATUS_ENDS, attached_to, engaged, members_of, on_battlefield, turn_of
from warlog.domain.rules.reference.effects import Persisting
from warlog.domain.rules.reference.engagement import Engagement
from warlog.domain.rules.reference.events import EVENTS as OWN_EVENTS
from warlog.domain.rules.reference.fight import Fight
from warlog.domain.rules.reference.mortal import FEEL_NO_PAIN, MortalWounds, fnp_reading
from warlog.domain.rules.reference.movement import HAZARDS, Movement
from warlog.domain.rules.reference.shooting import Shooting, shooting_types
from warlog.domain.rules.reference.split import Splitting
from warlog.domain.rules.reference.texts import TEXTS
from warlog.domain.rules.reference.unit_actions import UnitActions
from warlog.domain.rules.registry import register
from warlog.domain.rules.rosters import NOT_THE_OLDER_ERAS, RosterReading
from warlog.domain.rules.ruleset import SEATS, Part, Ruleset, Step, alive, handles, other
from warlog.domain.rulings import Refused
from warlog.domain.state import GameState, Lines, ReferenceStep, ReferenceTurn, Unit
from warlog.domain.state.values import replace
from warlog.domain.words import Text, awaited, not_yours, phase_called, plural, unit_named, whose

if TYPE_CHECKING:
    from warlog.domain.game import Table

FIRST_TURN = Step("command", None, "order", "CORE.DICE.3", "CORE.DICE.3", "CORE.DICE.3")
ROLLS = {"battle_shock": "_battle_shock", "advance": "_advance_roll", "hazard": "_hazards", "charge": "_charge_roll",
         FEEL_NO_PAIN: "_mortal_fnp"}  # a roll's purpose -> the method resolving it; an attack's: `attacks`' (Attacking)


@register
class Reference(Shooting):
    name = "reference"
    title = "Reference sheet (10th-edition style turns, seed 001)"
    summary = ("each player's turn in five phases (Command, Movement, Shooting, Charge, Fight), with command points, "
               "stratagems, battle-shock and objectives")
    anytime_commands = (*Igougo.anytime_commands, "revive")
    commands = OWN_COMMANDS  # its select, stratagems, attack choices, charge, fight, split, actions (commands.py)
    event_payloads: ClassVar[Mapping[str, type]] = {**Ruleset.event_payloads, **OWN_EVENTS}
    event_texts: ClassVar[Mapping[str, Text]] = {**Ruleset.event_texts, **TEXTS}
    status_ends = STATUS_ENDS
    roster = RosterReading(older_ap=False, systems=(NOT_THE_OLDER_ERAS + r".*\b(?:10th|11th)\b",))
    phases = (("command", None, "RS.CMD.1"), ("movement", None, "RS.MOV.1"), ("shooting", None, "RS.SHO.1"),
              ("charge", None, "RS.CHG.1"), ("fight", None, "RS.FGT.2"))
    # rules/parts.py: each built with it, its commands and events dispatched to it; mypy checks that Reference is
    # what each part reads its ruleset as (a part's Protocol)
    parts: ClassVar[tuple[type[Part[Reference]], ...]] = (
        Splitting, UnitActions, Persisting, MortalWounds, Engagement, Charge, CommandPhase, Movement, Fight, AttackChoices)
    keeps_vp = True  # EXT.VP.1: victory points are scored (command.py)
    durations = True  # set_status gives a status for a stated time: an effect (CORE.PER.1, effects.py)
    setup_commands = Splitting.setup_commands

    def round_layout(self, state: GameState) -> list[Step]:
        """Battle round 1 opens with the roll-off for the first turn; the order chosen holds every round."""
        order = state.turn_order or SEATS
        turns = [Step(phase, sub, "phase", rule, rule, active=seat) for seat in order for phase, sub, rule in self.phases]
        return ([FIRST_TURN] if state.battle_round == 1 else []) + turns

    def settle(self, t: Table, step: Step) -> None:
        needed: ev.RollOffNeeded = {"sub_phase": None, "choice": True, "for": "the first turn"}
        t.emit("RollOffNeeded", needed, "CORE.DICE.3")

    def step_over(self, state: GameState, step: Step) -> bool:
        if step.kind == "order":
            return ReferenceStep.of(state.step).first is not None
        return super().step_over(state, step)

    def begin(self, t: Table, step: Step) -> None:
        self.part(Persisting).expire_effects(t, step)  # CORE.PER.1/2: what lasted until this boundary ends
        if step.kind == "order":
            return
        if step.phase == "command":
            self.part(CommandPhase).begin_turn(t, step)  # RS.CMD.1, RS.CMD.2 (command.py)
        elif step.phase == "fight":
            self.part(Fight).begin_fight(t, step)

    def progress(self, t: Table, step: Step) -> bool:
        if step.phase == "charge":
            return self.part(Charge).charge_lost(t)  # RS.CHG.2 (charge.py)
        return step.phase == "fight" and self.part(Fight).fight_progress(t, step)

    # -- who may be selected now ---------------------------------------------------------

    def eligible(self, state: GameState, uid: str) -> bool:
        return self.ineligible(state, uid) is None

    def ineligible(self, state: GameState, uid: str) -> tuple[str, str] | None:
        step = self.step(state)
        units = state.units
        unit = units[uid]
        if step is None or step.phase == "command":  # RS.CMD.1: the Command phase selects no unit
            return (step.rule if step else "RS.CMD.1", "no unit is selected in this phase")
        rule = step.rule
        if not alive(unit):
            return (rule, "the unit is destroyed")
        if step.phase == "fight":
            fighting = uid in self.part(Fight).fighters(state)  # RS.FGT.2 (fight.py)
            return None if fighting else ("RS.FGT.2", "it is not a unit that may fight now")
        if unit.owner != step.active:
            return (rule, f"it is {whose(state, step.active)} turn")
        if bodyguard := attached_to(units, uid):
            return ("CORE.STR.1", f"it is attached to {unit_named(state, bodyguard, unit.owner)}: select that unit, "
                                  "they act as one")
        turn = turn_of(unit)
        if unit.selected and step.phase == "movement" and turn.move == "ingress":
            return ("RS.RES.1", "it arrived from strategic reserves this phase: until its next Charge phase it "
                                "makes no other move")
        if unit.selected:
            return (rule, f"the unit was already selected {phase_called(step.phase, 'this ')}")
        if step.phase == "movement":
            return self.part(Movement).movement_ineligible(state, unit)  # movement.py
        if not on_battlefield(unit):
            return ("CORE.OFF.1", "the unit is not on the battlefield")
        if step.phase == "shooting":
            if turn.fell_back:
                return ("RS.SHO.1", "units that Fell Back cannot shoot")
            if not shooting_types(unit):
                return ("RS.SHO.1", "no type of shooting is open to it (its weapons, Advance or engagement)")
            return None
        if engaged(unit):  # the charge phase
            return ("RS.CHG.1", "an engaged unit cannot declare a charge")
        if turn.advanced or turn.fell_back:
            return ("RS.CHG.1", "a unit that Advanced or Fell Back cannot charge")
        if turn.action:  # unit_actions.py convention
            return ("RS.CHG.1", f"a unit that started an action ({turn.action}) this turn cannot charge")
        if not self.part(Charge).charge_targets(state, unit.owner):
            return ("RS.CHG.1", "no enemy unit is on the battlefield to charge")
        return None

    @handles("select")
    def select(self, t: Table, seat: str, command: ReferenceSelect) -> None:
        seen, state = t.state, t.state
        step = self.step(state)
        if step is None or step.phase == "command" or self.awaiting(seen)["action"] not in ("end_phase", "select"):
            raise Refused(f"no unit is selected now: {awaited(seen, self.awaiting(seen), seat)}",
                          rule=step.rule if step else "RS.CMD.1")
        unit = state.units[command.unit]
        if unit.owner != seat:
            raise Refused(not_yours(state, command.unit, seat), rule=step.rule)
        fighter = self.part(Fight).next_fighter(state, step) if step.phase == "fight" else None
        if fighter not in (None, seat):
            raise Refused(f"it is {whose(state, fighter)} go to select a unit to fight",
                          rule="RS.FGT.2")
        why = self.ineligible(state, command.unit)
        if why:
            raise Refused(why[1], rule=why[0])
        if step.phase == "movement":
            self.part(Movement).select_movement(t, seat, command, unit)
        elif step.phase == "shooting":
            self.select_shooting(t, seat, command, unit)
        elif step.phase == "charge":
            self.part(Charge).select_charge(t, seat, command, unit)
        else:
            self.part(Fight).select_fight(t, seat, command, unit)

    # -- what the game awaits, and what each seat may send -------------------------------

    def step_awaiting(self, state: GameState, step: Step | None) -> Awaiting:
        if step is not None and step.kind == "order":  # CORE.DICE.3: the winner chooses who takes the first turn
            flow = ReferenceStep.of(state.step)
            if flow.winner is None:
                return {"seat": None, "action": "roll_off"}
            return {"seat": flow.winner, "action": "choose_order"}
        paused = self.part(AttackChoices).pause_awaiting(state)
        if paused is not None:  # an attack waits for a Command Re-roll or the defender's group (choices.py)
            return paused
        if step is not None and step.phase == "fight":
            awaiting = self.part(Fight).fight_awaiting(state, step)
            if awaiting is not None:
                return awaiting
        charge = self.part(Charge).pending_charge(state) if step is not None and step.phase == "charge" else None
        if charge:
            return {"seat": charge.seat, "action": "charge_move", "unit": charge.unit}
        return super().step_awaiting(state, step)

    def play_actions(self, state: GameState, seat: str, awaiting: Awaiting) -> list[Action]:
        step = self.step(state)
        if step is None:
            return []
        choices = self.part(AttackChoices)
        if choices.attack_pause(state) is not None:
            return choices.pause_actions(state, seat)
        offered: list[Action] = []
        if step.phase == "fight":
            offered += self.part(Fight).fight_actions(state, seat, awaiting)
        elif awaiting["action"] == "charge_move":
            charging = self.part(Charge)
            charge = charging.pending_charge(state)
            offered += charging.charge_move_actions(state, charge) if awaiting["seat"] == seat and charge else []
        elif awaiting["seat"] == seat and step.phase != "command":
            offered += self._phase_actions(state, seat, step)
        commanding = self.part(CommandPhase)  # EXT.CP.1, EXT.VP.1 (command.py)
        offered += commanding.stratagem_actions(state, seat)
        if awaiting["action"] == "end_phase" and awaiting["seat"] == seat:
            fields = {"control": commanding.control_schema(state)} if commanding.scoring_now(state, step) else {}
            offered.append(act.action("end_phase", step.rule, self.end_phase_action(step).summary + (
                ", scoring the objectives you control (EXT.VP.1)" if fields else ""), **fields))
        return offered

    def _phase_actions(self, state: GameState, seat: str, step: Step) -> list[Action]:
        """The selections (and in the Shooting phase the attacks and actions) open to the active seat."""
        own = [uid for uid, _ in seat_units(state, seat)]
        ready = [uid for uid in own if self.ineligible(state, uid) is None]
        if step.phase == "movement":
            return self.part(Movement).movement_actions(state, seat, ready)
        if step.phase == "charge":
            return self.part(Charge).charge_actions(state, seat, ready)
        return [*self.shooting_actions(state, seat, ready), *self.attack_actions(state, seat, "shooting"),
                *self.part(UnitActions).start_action_actions(state, seat, own)]

    def awaited_rule(self, state: GameState) -> str:
        pause = self.part(AttackChoices).attack_pause(state) if state.status == "in_progress" else None
        if pause is not None:
            return "RS.ATK.3" if pause["kind"] == "allocate" else "EXT.CP.1"
        return super().awaited_rule(state)

    @handles("end_phase")
    def end_phase(self, t: Table, seat: str, command: cmd.EndPhase) -> None:
        state = t.state
        step = self.step(state)
        fight = self.part(Fight).fight_stage(state)
        if step is not None and step.phase == "fight" and (fight.stage if fight else None) != "done":
            raise Refused("every eligible unit piles in, fights and consolidates before the phase ends",
                          rule="RS.FGT.3")
        scoring = self.part(CommandPhase)  # EXT.VP.1 (command.py)
        if command.control is not None and (step is None or not scoring.scoring_now(state, step)):
            raise Refused("objectives are scored at the end of the Command phase, from battle round 2",
                          rule="EXT.VP.1")
        super().end_phase(t, seat, command)
        if step is not None and step.phase == "fight":  # the turn ends: its actions complete (unit_actions.py)
            self.part(UnitActions).complete_actions(t, seat)
        if step is not None and scoring.scoring_now(t.state, step):
            scoring.score(t, seat, dict(command.control or {}))

    # -- rolls ---------------------------------------------------------------------------

    def roll_reading(self, state: GameState, request: ev.RollRequested) -> rolls.Reading | None:
        purpose, context = request["purpose"], request["context"]
        if purpose == "battle_shock":  # RS.CMD.2: 2D6 at or above the unit's best Ld
            return rolls.leadership("Battle-shock", context["ld"])
        if purpose == FEEL_NO_PAIN and editions.fixed(state, "EXT.FNP/read"):  # each die its model's X+ (mortal.py)
            return self.part(MortalWounds).fnp_apart(state, request)
        if purpose in FNP_STEPS and editions.fixed(state, "EXT.FNP/read"):  # an attack's, too (attacks/driver.py)
            return self.attacks.attack_reading(request, apart=state)
        if purpose == "hazard":
            return HAZARDS
        if purpose == FEEL_NO_PAIN:  # EXT.FNP against mortal wounds outside an attack (mortal.py)
            return fnp_reading(context["fnp"]) if context["fnp"] is not None else None  # each model its own
        if purpose == "charge":  # RS.CHG.2: the targets and inches are named after the roll
            return rolls.Reading("Charge")
        if purpose == "advance":
            return rolls.Reading("Advance")
        return super().roll_reading(state, request)  # an attack's rolls are its attack driver's (Attacking)

    def on_roll(self, t: Table, request: ev.RollRequested, roll: ev.DiceRolled) -> None:
        handler = ROLLS.get(request["purpose"])
        if handler is None:  # an attack's rolls are its attack driver's (Attacking)
            super().on_roll(t, request, roll)
            return
        getattr(self, handler)(t, request, roll)

    def _advance_roll(self, t: Table, request: ev.RollRequested, roll: ev.DiceRolled) -> None:
        self.part(Movement).advanced(t, request, roll)  # RS.MOV.3 (movement.py)

    def _hazards(self, t: Table, request: ev.RollRequested, roll: ev.DiceRolled) -> None:
        self.part(Movement).hazards(t, request, roll["faces"])  # RS.MOV.4: a Desperate Escape (movement.py)

    def _battle_shock(self, t: Table, request: ev.RollRequested, roll: ev.DiceRolled) -> None:
        self.part(CommandPhase).battle_shock_tested(t, request, roll)  # RS.CMD.2 (command.py)

    def _charge_roll(self, t: Table, request: ev.RollRequested, roll: ev.DiceRolled) -> None:
        self.part(Charge).charge_rolled(t, request, roll)  # RS.CHG.2: the roll its targets wait for (charge.py)

    def _mortal_fnp(self, t: Table, request: ev.RollRequested, roll: ev.DiceRolled) -> None:
        self.part(MortalWounds).fnp_mortal_rolled(t, request, roll)  # EXT.FNP outside an attack (mortal.py)

    def batch_rolled(self, t: Table, context: ev.AttackRoll, need: Need, faces: list[int]) -> None:
        self.part(AttackChoices).batch_rolled(t, context, need, faces)  # EXT.CP.1 may pause it (choices.py)

    def stratagem_targets(self, state: GameState, seat: str) -> list[str]:
        return self.part(CommandPhase).stratagem_targets(state, seat)  # Command Re-roll's units (command.py)

    def attack_finished(self, t: Table, context: ev.AttackRoll, outcome: Outcome) -> None:
        if not self.part(MortalWounds).attack_finished(t, context, outcome):  # a hazard meeting EXT.FNP ends it
            super().attack_finished(t, context, outcome)

    def hazard_suffered(self, t: Table, uid: str, facts: Mapping[str, Any]) -> None:
        if not self.part(MortalWounds).hazard_suffered(t, uid, facts):  # EXT.WPN.HAZARDOUS meeting EXT.FNP
            super().hazard_suffered(t, uid, facts)

    def start_effect(self, t: Table, uid: str, name: str, seat: str, until: str | None) -> None:
        """A stratagem's effect (`CommandRules`, command.py) persists through the part `Persisting`."""
        self.part(Persisting).start_effect(t, uid, name, seat, until)

    def winner(self, state: GameState) -> str | None:
        return self.part(CommandPhase).winner(state)  # EXT.VP.1 (command.py)

    def engage(self, t: Table, units: list[str], targets: list[str], rule: str, reason: str) -> None:
        """A charge that reaches engages its targets (`ChargeRules`, charge.py) through the part `Engagement`."""
        self.part(Engagement).engage(t, units, targets, rule, reason)

    def disengage(self, t: Table, uid: str, rule: str, reason: str) -> None:
        """A unit that falls back (`MoveRules`, movement.py) disengages through the part `Engagement`."""
        self.part(Engagement).disengage(t, uid, rule, reason)

    def mortal_wounds(self, t: Table, uid: str, amount: int, rule: str, party: list[str] | None = None,
                      **then: object) -> None:
        """A Desperate Escape's hazards (`MoveRules`) are dealt by the part `MortalWounds` (mortal.py)."""
        self.part(MortalWounds).mortal_wounds(t, uid, amount, rule, party, **then)

    def after_mortal_wounds(self, t: Table, uid: str, then: dict[str, object]) -> None:
        """What waited for the part `MortalWounds`'s wounds (`MortalRules`): the part `Movement`'s."""
        self.part(Movement).after_mortal_wounds(t, uid, then)

    def battle_shock_roll(self, t: Table, seat: str, uid: str, band: str, rule: str) -> None:
        """A Desperate Escape's battle-shock test (`MoveRules`) is the part `CommandPhase`'s (command.py)."""
        self.part(CommandPhase).battle_shock_roll(t, seat, uid, band, rule)

    def casualties(self, t: Table, uid: str, models: int, wounds: int, rule: str, **extra: Unpack[CasualtyNote]) -> None:
        super().casualties(t, uid, models, wounds, rule, **extra)
        self.part(Engagement).casualties(t, uid, rule)  # a unit destroyed is engaged no more (engagement.py)

    @handles("start_game")
    def start_game(self, t: Table, seat: str, command: cmd.StartGame) -> None:
        self.part(Engagement).start_game(t.state)  # SVC.SETUP: whom the armies start engaged with (engagement.py)
        super().start_game(t, seat, command)

    def setup_actions(self, state: GameState, seat: str) -> list[Action]:
        return self.part(Splitting).setup_actions(state, seat)  # CORE.SPL.1 (split.py)

    def records(self, state: GameState, seat: str) -> list[Action]:
        offered = super().records(state, seat) + self.part(Persisting).effect_records(state, seat)
        short = [uid for uid, unit in seat_units(state, seat) if unit.models_alive < unit.model_count]
        if short and state.status == "in_progress":
            offered.append(act.action("revive", "CORE.REV.1", "return destroyed models to their unit (a rule says so)",
                                      ["unit", "models"], unit=act.one_of(short), models=act.integer(1, 500),
                                      reason=act.text(200, "the rule that returns them")))
        return offered

    @handles("set_status")
    def set_status(self, t: Table, seat: str, command: cmd.SetStatus) -> None:
        """CORE.PER.1: a status gained for a stated time is an effect (effects.py), its duration judged first."""
        effects = self.part(Persisting)
        until = effects.stated(command)
        super().set_status(t, seat, command)
        effects.status_given(t, seat, command, until)

    @handles("revive")
    def revive(self, t: Table, seat: str, command: Revive) -> None:
        """CORE.REV.1: only destroyed models of that unit, never above its own models at the start, with full W;
        a revived leader is part of its attached unit again."""
        unit = t.state.units[command.unit]
        if unit.owner != seat:
            raise Refused(not_yours(t.state, command.unit, seat), rule="CORE.REV.1")
        room = unit.model_count - unit.models_alive
        if not 1 <= command.models <= room:
            named = unit_named(t.state, command.unit, seat)
            raise Refused(f"{named} has {plural(room, 'destroyed model')} to return; it never grows past its starting "
                          "strength", rule="CORE.REV.1")
        seen = t.state
        t.emit("ModelsRevived", own.ModelsRevived(
            unit=command.unit, models=command.models, reason=command.reason,
            attested="set up in coherency with models that began the phase on the battlefield", attested_by=seat),
            "CORE.REV.1")
        changed = strength_changed(seen, t.state, command.unit)
        if changed is not None:
            t.emit("StrengthChanged", changed, "CORE.STR.2")

    @evolves("ModelsRevived")
    def _revived(self, state: GameState, data: own.ModelsRevived, entry: ev.Entry) -> GameState:
        uid = data["unit"]
        unit = state.units[uid]
        if editions.fixed(state, "CORE.REV.1"):  # with full W: the wounds a model died with are gone with it
            unit = replace(unit, models_alive=unit.models_alive + data["models"], **_returned(unit, data["models"]))
        else:
            unit = replace(unit, models_alive=unit.models_alive + data["models"], lines=None)
        if unit.starting_strength == 1:
            unit = replace(unit, wounds_lost=0)  # with its full W
        state = state.with_unit(uid, unit)
        if uid in state.destroyed:
            at = state.destroyed.index(uid)
            state = replace(state, destroyed=state.destroyed[:at] + state.destroyed[at + 1:])
        return state

    # -- appliers ------------------------------------------------------------------------

    @evolves("GameStarted")
    def _started(self, state: GameState, data: ev.GameStarted, entry: ev.Entry) -> GameState:
        return self.part(Engagement).started(Ruleset._started(self, state, data, entry))  # SVC.SETUP (engagement.py)

    @evolves("OrderChosen")
    def _order(self, state: GameState, data: ev.OrderChosen, entry: ev.Entry) -> GameState:
        state = Ruleset._order(self, state, data, entry)
        return replace(state, turn_order=(data["first"], other(data["first"])))

    @evolves("StatusLost")
    def _status_lost(self, state: GameState, data: ev.StatusLost, entry: ev.Entry) -> GameState:
        """A status lost before its effect's end takes the effect with it (effects.py)."""
        return self.part(Persisting).status_lost(Ruleset._lost(self, state, data, entry), data)

    @evolves("UnitSelected")
    def _selected(self, state: GameState, data: ev.UnitSelected, entry: ev.Entry) -> GameState:
        together = members_of(state.units, data["unit"])  # an attached unit is selected as one (CORE.STR.1)
        for uid in together:
            unit = state.units[uid]
            state = state.with_unit(uid, replace(unit, selected=True, turn=_selected_turn(turn_of(unit), data)))
        step = replace(ReferenceStep.of(state.step), last=data["seat"])
        if data.get("phase") == "fight":
            fight = step.fight
            if fight is None:
                raise ValueError("a unit is selected to fight once the fight's eligible units are known")
            step = replace(step, fight=replace(fight, current=data["unit"], last=data["seat"],
                                               fought=(*fight.fought, *together)))
        return replace(state, step=step)


def _returned(unit: Unit, models: int) -> _Standing:
    """CORE.REV.1: the unit's model lines with `models` returned to the first lines short of their count, each
    with its full W; a wounded model still standing keeps its wounds, none returns with the wounds it died with."""
    alive, taken = line_standing(unit)
    for i, line in enumerate(unit.models):
        back = min(line.count - alive[i], models)
        alive[i], models = alive[i] + back, models - back
    return {"lines": Lines(alive=tuple(alive), taken=tuple(taken)), "model_damage": next((n for n in taken if n), 0)}


class _Standing(TypedDict):
    lines: Lines
    model_damage: int


def _selected_turn(turn: ReferenceTurn, data: ev.UnitSelected) -> ReferenceTurn:
    """`UnitSelected`: the move it makes, the shooting it was selected for, its charge or its fight."""
    move, phase = data.get("move"), data.get("phase")
    if move:
        turn = replace(turn, move=move)
    if move == "advance":
        turn = replace(turn, advanced=True)
    elif move == "fall_back":
        turn = replace(turn, fell_back=True)
    if "shooting" in data:
        turn = replace(turn, shooting=data["shooting"])
    if phase == "charge":
        turn = replace(turn, declared_charge=True)
    if phase == "fight":
        turn = replace(turn, fighting=True)
    return turn
