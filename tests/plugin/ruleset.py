"""`duel`: the smallest real ruleset, kept in the tests to prove the seam (issue 23, "each ruleset a plugin").

Two seats take turns; in its turn a seat throws one D6 (its own command, `throw`), which scores its face. After
`battle_rounds` rounds (each seat throwing once a round) the higher score wins. It lives outside domain/: its
command class, its event (`ThrowScored`), its applier and its actions are all here, and it is registered at
run time (`registry.register`), as an installed package's would be.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import StrictInt as Face

from warlog.domain import commands as cmd
from warlog.domain import dice
from warlog.domain.rules import actions as act
from warlog.domain.rules.ruleset import SEATS, Ruleset, Step, applies, handles
from warlog.domain.rulings import Malformed, Refused

TURN, THROW = "DUEL.TURN.1", "DUEL.THROW.1"  # the duel's own rule IDs
D6 = dice.parse("D6")
LAYOUT = [Step("throw", None, "phase", TURN, THROW, active=seat) for seat in SEATS]  # a turn each, A first


@dataclass(frozen=True)
class Throw(cmd.Command):
    """Duel: the seat whose turn it is throws its die (DUEL.THROW.1); at the table it sends the face."""

    dice: tuple[Face, ...] | None = None
    type = "throw"


class Duel(Ruleset):
    name = "duel"
    title = "Duel (a plugin ruleset from the tests)"
    summary = "two seats take turns throwing one D6 each; the higher total after the last round wins"
    commands = (Throw,)
    keeps_vp = True  # the running score shows as `vp` in GET /state
    round_rule = TURN

    def round_layout(self, state: dict[str, Any]) -> list[Step]:
        return LAYOUT

    def why_not(self, state: dict[str, Any], seat: str) -> str | None:
        """The one judgement of a throw: what offers it (`play_actions`) and what refuses it (`throw`)."""
        step = self.step(state)
        if step is None:
            return "no turn is being played"
        if step.active != seat:
            return f"it is seat {step.active}'s turn to throw"
        if state["step"].get("thrown"):
            return f"seat {seat} has thrown this turn"
        return None

    def step_over(self, state: dict[str, Any], step: Step) -> bool:
        return bool(state["step"].get("thrown"))

    def step_awaiting(self, state: dict[str, Any], step: Step | None) -> dict[str, Any]:
        return {"seat": step.active if step else None, "action": "throw" if step else "none"}

    def play_actions(self, state: dict[str, Any], seat: str, awaiting: dict[str, Any]) -> list[act.Action]:
        if self.why_not(state, seat) is not None:
            return []
        if state["dice"] == "table":
            return [act.action("throw", THROW, "throw your die and enter its face", ["dice"],
                               dice=act.table_dice(D6))]
        return [act.action("throw", THROW, "throw your die: the service rolls a D6")]

    def validate(self, state: dict[str, Any], seat: str, command: cmd.Command) -> None:
        if isinstance(command, Throw) and state["dice"] == "table":
            if command.dice is None:
                raise Malformed('table dice: throw needs "dice": [one D6]', field="dice")
            self._check_dice(D6, command.dice)
            return
        super().validate(state, seat, command)

    @handles("throw")
    def throw(self, t: Any, seat: str, command: Throw) -> None:
        why = self.why_not(t.state, seat)
        if why is not None:
            raise Refused(why, rule=THROW)
        faces = list(command.dice) if command.dice is not None else None
        face = self.roll(t, "D6", "throw", THROW, seat, faces)["data"]["total"]
        score = t.state.get("vp", {}).get(seat, 0) + face
        t.emit("ThrowScored", {"seat": seat, "face": face, "score": score}, THROW, by=seat)

    @applies("ThrowScored")
    def _scored(self, state: dict[str, Any], data: dict[str, Any], entry: dict[str, Any]) -> None:
        state.setdefault("vp", {"A": 0, "B": 0})[data["seat"]] = data["score"]
        state["step"]["thrown"] = True

    def winner(self, state: dict[str, Any]) -> str | None:
        score = state.get("vp") or {"A": 0, "B": 0}
        return None if score["A"] == score["B"] else max(SEATS, key=score.__getitem__)
