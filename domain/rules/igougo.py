"""Turn-by-turn rulesets (reference, heresy): player A's turn, then player B's,
each a fixed list of phases the active seat ends with `end_phase`."""
from __future__ import annotations

from typing import TYPE_CHECKING

from warlog.domain import commands as cmd
from warlog.domain import events as ev
from warlog.domain.rules.basics import evolves
from warlog.domain.rules.ruleset import SEATS, Ruleset, Step, handles
from warlog.domain.rulings import Refused
from warlog.domain.state import GameState, HeresyStep, OtherStep, ReferenceStep
from warlog.domain.state.values import replace
from warlog.domain.words import awaited, whose

if TYPE_CHECKING:
    from warlog.domain.game import Table


class Igougo(Ruleset):
    phases: tuple[tuple[str, str | None, str], ...] = ()   # (phase, sub_phase, rule)

    def round_layout(self, state: GameState) -> list[Step]:
        return [Step(phase, sub, "phase", rule, rule, active=seat)
                for seat in SEATS for phase, sub, rule in self.phases]

    def step_over(self, state: GameState, step: Step) -> bool:
        step_state = state.step  # the phase's end was declared (PhaseEnded)
        if isinstance(step_state, OtherStep):  # a plugin's turn-by-turn ruleset keeps its step's keys as JSON
            return step_state.parts.get("ended") is True
        return isinstance(step_state, (ReferenceStep, HeresyStep)) and bool(step_state.ended)

    @staticmethod
    def turn_seat(step: Step) -> str:
        """The seat whose turn a step is part of: every phase of a player's turn has one (a ruleset's own steps
        between turns, such as a roll-off for the first turn, have none and are never asked)."""
        if step.active is None:
            raise ValueError(f"the {step.phase} step is part of no player's turn")
        return step.active

    @handles("end_phase")
    def end_phase(self, t: Table, seat: str, command: cmd.EndPhase) -> None:
        step = self.step(t.state)
        awaiting = self.awaiting(t.state)
        if awaiting["action"] != "end_phase" or step is None:
            raise Refused(f"the phase cannot end yet: {awaited(t.state, awaiting, seat)}",
                          rule=step.rule if step else "CORE.SEQ.1")
        if seat != step.active:
            raise Refused(f"it is {whose(t.state, step.active)} turn; only the player whose turn it is ends its phase",
                          rule=step.rule)
        t.emit("PhaseEnded", ev.PhaseEnded(phase=step.phase, sub_phase=step.name, active_seat=seat), step.rule)

    @evolves("PhaseEnded")
    def _phase_ended(self, state: GameState, data: ev.PhaseEnded, entry: ev.Entry) -> GameState:
        step = state.step
        if isinstance(step, OtherStep):
            return replace(state, step=replace(step, parts=step.parts.set("ended", True)))
        if isinstance(step, ReferenceStep):
            return replace(state, step=replace(step, ended=True))
        return replace(state, step=replace(HeresyStep.of(step), ended=True))
