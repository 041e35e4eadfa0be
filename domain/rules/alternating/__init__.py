"""`alternating`: one joint game turn per battle round, both players acting in
every phase, unit by unit (seed 000, RULES.md AA.*).

What the seed leaves unchanged (distances, to-hit tables, combat minutiae) is
recorded, not invented: attested outcomes plus dice rolled with a purpose.

Two questions about a unit are kept apart: `ineligible` is the rules' answer
(could this unit be selected in this sub-phase at all: it drives who stays in
the alternation, AA.ACT.3), `eligible` is the contract's (may it be selected
*now*: the game awaits a `select` from its owner).

The parts, one module a rule area: `goes` (the alternation: `Goes`, which asks the counts, charges and combats
through this ruleset), `counting` (pass points), `charges` (charges and overwatch), `combats`, `records` (what the
table resolves), and rules/objectives.py's `Objectives` (MSN.OBJ.1, shared with heresy); `common` holds the
constants and the unit tests they share. This module holds the round: its layout, what starts and settles each
sub-phase, and the rolls.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from typing_extensions import Unpack

from warlog.domain import army, rolls
from warlog.domain import commands as cmd
from warlog.domain import events as ev
from warlog.domain.rules import editions, objectives
from warlog.domain.rules.actions import Action
from warlog.domain.rules.alternating import events as own
from warlog.domain.rules.alternating.charges import ROLLS as CHARGE_ROLLS
from warlog.domain.rules.alternating.charges import Charges
from warlog.domain.rules.alternating.combats import Combats
from warlog.domain.rules.alternating.commands import COMMANDS as OWN_COMMANDS
from warlog.domain.rules.alternating.commands import AlternatingSelect
from warlog.domain.rules.alternating.common import (
    LAYOUT,
    RESERVE_ARRIVES_ON,
    SCORED_LAYOUT,
    SCORED_LAYOUT_BEFORE_6,
    STATUS_ENDS,
)
from warlog.domain.rules.alternating.counting import Counting
from warlog.domain.rules.alternating.events import EVENTS as OWN_EVENTS
from warlog.domain.rules.alternating.goes import Goes
from warlog.domain.rules.alternating.records import TableRecords
from warlog.domain.rules.alternating.texts import TEXTS
from warlog.domain.rules.basics import Awaiting, evolves, seat_units
from warlog.domain.rules.flow import CasualtyNote
from warlog.domain.rules.objectives import Objectives
from warlog.domain.rules.registry import register
from warlog.domain.rules.rosters import NOT_THE_OLDER_ERAS, RosterReading
from warlog.domain.rules.ruleset import SEATS, Part, Ruleset, Step, alive, handles
from warlog.domain.rulings import Malformed, Refused
from warlog.domain.state import AlternatingStep, GameState
from warlog.domain.state.values import replace
from warlog.domain.words import Text, unit_named

if TYPE_CHECKING:
    from warlog.domain.game import Table


class Withdrawal(NamedTuple):
    """How a roll awaited for a unit destroyed meanwhile is withdrawn: the event, the rule it cites, the FIXES
    entry that brought it (domain/rules/editions.py) and why."""

    event: str
    rule: str
    fix: str
    reason: str


WITHDRAWN = {  # by the roll's purpose
    "charge": Withdrawal("ChargeRollWithdrawn", "AA.CHG.1", "AA.CHG.1", "the charging unit was destroyed"),
    "regroup": Withdrawal("RegroupRollWithdrawn", "AA.MOV.2", "AA.MOV.2/destroyed", "the unit was destroyed"),
}


@register
class Alternating(Ruleset):
    name = "alternating"
    title = "Alternating activation (8th/9th-edition armies, seed 000)"
    summary = ("one joint turn a battle round: both players act in every phase, unit by unit, with pass points "
               "for the side with fewer units")
    round_rule = "AA.TURN.1"
    anytime_commands = (*Ruleset.anytime_commands, "vehicle_hit", "blast_hit", "ongoing_reserves")
    commands = OWN_COMMANDS  # its select, the goes, the count, the vehicle records (commands.py)
    roster = RosterReading(older_ap=True, systems=(NOT_THE_OLDER_ERAS + r".*\b(?:8th|9th)\b",))
    event_payloads: ClassVar[Mapping[str, type]] = {**Ruleset.event_payloads, **OWN_EVENTS, **objectives.EVENTS}
    event_texts: ClassVar[Mapping[str, Text]] = {**Ruleset.event_texts, **TEXTS, **objectives.TEXTS}
    status_ends = STATUS_ENDS
    # rules/parts.py: each built with it, its commands and events dispatched to it; mypy checks that Alternating is
    # what each part reads its ruleset as (a part's Protocol)
    parts: ClassVar[tuple[type[Part[Alternating]], ...]] = (
        TableRecords, Counting, Combats, Charges, Objectives, Goes)

    def round_layout(self, state: GameState) -> list[Step]:
        if not self.part(Objectives).scores_round(state):
            return LAYOUT
        return SCORED_LAYOUT if editions.fixed(state, "MSN.OBJ.1/phase") else SCORED_LAYOUT_BEFORE_6

    def records(self, state: GameState, seat: str) -> list[Action]:
        return super().records(state, seat) + self.part(TableRecords).records(state, seat)  # records.py

    def check_army(self, units: list[dict[str, Any]]) -> None:
        """AA.MOV.2: a regroup roll is a Leadership test, so a unit that may fall back states its Ld. `units`: the
        army's JSON as sent (the JSON boundary)."""
        for index, unit in enumerate(units):
            if army.is_vehicle(unit) or army.has_ability(unit, "ATSKNF"):
                continue  # vehicles take no morale; ATSKNF regroups without a roll
            if all(line.get("Ld") is None for line in unit["models"]):
                named = unit.get("name") or unit["id"]  # as the roster names it: the army is not in the game yet
                raise Malformed(f"{named} needs Ld: a fleeing unit regroups on a Leadership test (AA.MOV.2)",
                                field=f"units.{index}.models.0.Ld")

    @handles("set_status")
    def set_status(self, t: Table, seat: str, command: cmd.SetStatus) -> None:
        unit = t.state.units[command.unit]
        if command.status == "falling_back" and command.value and not army.unit_has_ability(unit, "ATSKNF") \
                and all(line.Ld is None for line in unit.models):
            raise Refused(f"{unit_named(t.state, command.unit, seat)} has no Leadership to regroup with, so it cannot "
                          "fall back",
                          rule="AA.MOV.2")
        super().set_status(t, seat, command)

    def start_round(self, t: Table, battle_round: int) -> None:
        for uid, unit in t.state.units.items():
            if "regrouped" in unit.statuses:  # AA.MOV.2: regrouped lasts the rest of the turn
                self.change_status(t, uid, "regrouped", False, "AA.MOV.2", reason="the turn ended")
        super().start_round(t, battle_round)

    def begin(self, t: Table, step: Step) -> None:
        """AA.RES.1: at the start of Move Units ongoing reserves arrive, then reserve rolls, then the roll-off."""
        state = t.state
        if step.name != "move_units":
            return
        for uid, unit in state.units.items():
            if unit.ongoing and unit.in_reserves and alive(unit):
                t.emit("ReserveArriving", ev.ReserveArriving(unit=uid, ongoing=True), "AA.RES.1")
        if state.battle_round < state.options.reserves_from_round:
            return
        for seat in SEATS:
            for uid, _ in seat_units(state, seat):
                unit = t.state.units[uid]  # as the rolls before it left it (an ongoing reserve arriving already)
                if unit.in_reserves and alive(unit) and not unit.arriving:
                    self.request_roll(t, seat, "reserve", "D6", "AA.RES.1", uid)

    def settle(self, t: Table, step: Step) -> None:
        state = t.state
        able = [s for s in SEATS if self.part(Goes).can_go(state, s)]
        if not able:
            reason = "no unit is falling back" if step.kind == "fleeing" else "neither player has an eligible unit"
            t.emit("StepSkipped", ev.StepSkipped(sub_phase=step.name, reason=reason),
                   "AA.MOV.2" if step.kind == "fleeing" else "AA.ACT.0")
        elif len(able) == 1:
            t.emit("FirstGoes", ev.FirstGoes(sub_phase=step.name, seat=able[0],
                                 reason="only this player has units to select"),
                   "AA.MOV.2" if step.kind == "fleeing" else "AA.ACT.0")
        else:
            t.emit("RollOffNeeded", ev.RollOffNeeded(sub_phase=step.name, choice=step.kind != "fleeing"), step.order_rule)

    def progress(self, t: Table, step: Step) -> bool:
        """Automatic moves: a combat with one side gone ends; a declared charge runs on once nobody answers it."""
        return self.part(Combats).end_combats(t) or self.part(Charges).run_on(t)

    def step_over(self, state: GameState, step: Step) -> bool:
        flow = AlternatingStep.of(state.step)
        if step.kind == "count":
            return flow.calculated
        if flow.skipped:
            return True
        if flow.declared is not None:
            return False
        return flow.first is not None and self.part(Goes).next_go(state) is None

    def step_awaiting(self, state: GameState, step: Step | None) -> Awaiting:
        if step is None:
            return {"seat": None, "action": "none"}
        if self.part(Objectives).ends_round(state, step):  # MSN.OBJ.1: either seat ends it, scoring objectives
            return {"seat": None, "action": "end_phase", "rule": "MSN.OBJ.1"}
        flow = AlternatingStep.of(state.step)
        if step.kind == "count":
            waiting = [s for s in SEATS if flow.confirmed[s] is None]
            return {"seat": waiting[0] if len(waiting) == 1 else None, "action": "confirm_count"}
        charging = self.part(Charges).charge_awaiting(state)  # AA.OW.1, AA.CHG.1
        if charging is not None:
            return charging
        if flow.first is None and flow.roll_off is not None:
            if flow.winner is None:
                return {"seat": None, "action": "roll_off"}
            return {"seat": flow.winner, "action": "choose_order"}
        return {"seat": self.part(Goes).next_go(state), "action": "select"}

    def play_actions(self, state: GameState, seat: str, awaiting: Awaiting) -> list[Action]:
        step = self.step(state)
        scoring = self.part(Objectives)
        if scoring.ends_round(state, step) and step is not None:
            return [scoring.round_end_action(state, "the battle round")]
        return self.part(Goes).play_actions(state, seat, awaiting)  # goes.py

    def eligible(self, state: GameState, uid: str) -> bool:
        return self.part(Goes).eligible(state, uid)  # CONTRACT.md: may it be selected now (goes.py)

    # -- what its part Goes judges through its other parts (GoRules) ------------------------

    def count_action(self, state: GameState, seat: str, step: Step) -> Action:
        return self.part(Counting).count_action(state, seat, step)  # counting.py

    def charge_targets(self, state: GameState, seat: str) -> list[str]:
        return self.part(Charges).charge_targets(state, seat)  # charges.py

    def check_charge(self, state: GameState, seat: str, targets: list[str], distance: str | None) -> None:
        self.part(Charges).check_charge(state, seat, targets, distance)

    def declare_charge(self, t: Table, seat: str, uid: str, act: bool, targets: list[str],
                       distance: str | None) -> None:
        self.part(Charges).declare(t, seat, uid, act, targets, distance)

    def overwatch(self, t: Table, seat: str, command: AlternatingSelect, awaiting: Awaiting) -> None:
        self.part(Charges).overwatch(t, seat, command, awaiting)

    def overwatch_actions(self, state: GameState, awaiting: Awaiting) -> list[Action]:
        return self.part(Charges).overwatch_actions(state, awaiting)

    def combat_of(self, state: GameState, uid: str) -> str | None:
        return self.part(Combats).combat_of(state, uid)  # combats.py

    def combat_foes(self, state: GameState, uid: str) -> list[str]:
        return self.part(Combats).combat_foes(state, uid)

    def check_combat(self, state: GameState, seat: str, uid: str, targets: list[str]) -> None:
        self.part(Combats).check_combat(state, seat, uid, targets)

    def fight(self, t: Table, seat: str, uid: str, targets: list[str]) -> None:
        self.part(Combats).fight(t, seat, uid, targets)

    @handles("end_phase")
    def end_phase(self, t: Table, seat: str, command: cmd.EndPhase) -> None:
        """MSN.OBJ.1: the battle round ends with the objectives counted from the units the players name near each,
        and each seat's VP."""
        step = self.step(t.state)
        scoring = self.part(Objectives)
        if step is None or not scoring.ends_round(t.state, step):
            raise Refused("no phase is ended by a player here: each sub-phase ends when its goes are done; a battle "
                          "round from the second, in a game with objectives, ends with them scored",
                          rule=self.awaited_rule(t.state))
        scoring.check_round_end(t.state, step, command.control)
        scoring.score_round(t, seat, command.control)
        self.end_step(t, step)

    def casualties(self, t: Table, uid: str, models: int, wounds: int, rule: str, **extra: Unpack[CasualtyNote]) -> None:
        """AA.CHG.1, AA.MOV.2: a unit destroyed while its charge or regroup roll is awaited (table dice) rolls none:
        the request is withdrawn and play goes on (a charge ends as one whose charger is gone, `progress`)."""
        super().casualties(t, uid, models, wounds, rule, **extra)
        if alive(t.state.units[uid]):
            return
        for request in t.state.rolls:
            withdrawal = WITHDRAWN.get(request.purpose)
            if request.unit == uid and withdrawal is not None and editions.fixed(t.state, withdrawal.fix):
                t.emit(withdrawal.event, own.RollWithdrawn(unit=uid, seat=request.seat, reason=withdrawal.reason),
                       withdrawal.rule)

    @evolves(*(withdrawal.event for withdrawal in WITHDRAWN.values()))
    def _roll_withdrawn(self, state: GameState, data: own.RollWithdrawn, entry: ev.Entry) -> GameState:
        purpose = next(p for p, withdrawal in WITHDRAWN.items() if withdrawal.event == entry["type"])
        at = next(i for i, request in enumerate(state.rolls)
                  if request.purpose == purpose and request.unit == data["unit"])
        return replace(state, rolls=state.rolls[:at] + state.rolls[at + 1:])

    def roll_reading(self, state: GameState, request: ev.RollRequested) -> rolls.Reading | None:
        purpose, context = request["purpose"], request["context"]
        if purpose == "regroup":  # AA.MOV.2 convention: a Leadership test, 2D6 at most Ld
            return rolls.leadership("Regroup", context["ld"], at_most=True)
        if purpose == "reserve":  # AA.RES.1
            return rolls.arrives_on("Reserves", RESERVE_ARRIVES_ON)
        if purpose in CHARGE_ROLLS:  # AA.CHG.1, AA.OW.1
            return self.part(Charges).roll_reading(request)
        return None

    def on_roll(self, t: Table, request: ev.RollRequested, roll: ev.DiceRolled) -> None:
        uid, context, total = request["unit"], request["context"], roll["total"]
        purpose = request["purpose"]
        if purpose == "regroup":  # AA.MOV.2 convention: a Leadership test, passed when 2D6 <= Ld
            self.part(Goes).regroup(t, uid, passed=total <= context["ld"], total=total, ld=context["ld"])
        elif purpose == "reserve":
            arrives = total >= RESERVE_ARRIVES_ON
            t.emit("ReserveArriving" if arrives else "ReserveDelayed",
                   {"unit": uid, "total": total, "needed": RESERVE_ARRIVES_ON}, "AA.RES.1")
        elif purpose in CHARGE_ROLLS:  # AA.OW.1, AA.CHG.1: as the charges asked
            self.part(Charges).on_roll(t, request, roll)
        else:
            super().on_roll(t, request, roll)
