"""`duel`: the smallest real ruleset, kept in the tests to prove the seam (issue 23, "each ruleset a plugin").

Two seats take turns; in its turn a seat throws one D6 (its own command, `throw`), which scores its face. After
`battle_rounds` rounds (each seat throwing once a round) the higher score wins. It lives outside domain/: its
command class, its event (`ThrowScored`), its applier and its actions are all here, and it is registered at
run time (`registry.register`), as an installed package's would be.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, ClassVar, Literal

from pydantic import StrictInt as Face
from typing_extensions import TypedDict

from warlog.domain import commands as cmd
from warlog.domain import dice
from warlog.domain.rules import actions as act
from warlog.domain.rules.basics import Data, evolves
from warlog.domain.rules.ruleset import SEATS, Ruleset, Step, handles
from warlog.domain.rulings import Malformed, Refused
from warlog.domain.state import GameState, OtherStep, PerSeat
from warlog.domain.words import Text, Texts, Words

TURN, THROW = "DUEL.TURN.1", "DUEL.THROW.1"  # the duel's own rule IDs
D6 = dice.parse("D6")
LAYOUT = [Step("throw", None, "phase", TURN, THROW, active=seat) for seat in SEATS]  # a turn each, A first
NO_SCORE = PerSeat(0, 0)


class ThrowScored(TypedDict):
    """Its one event's payload: the seat that threw, the face, and that seat's score since (DUEL.THROW.1)."""

    seat: str
    face: int
    score: int


TEXTS = Texts()


@TEXTS.says("ThrowScored")
def _scored_text(w: Words, d: ThrowScored) -> str:
    return f"{w.player(d['seat'])} threw a {d['face']}: {d['score']} in all"


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
    event_payloads: ClassVar[Mapping[str, type]] = {**Ruleset.event_payloads, "ThrowScored": ThrowScored}
    event_texts: ClassVar[Mapping[str, Text]] = {**Ruleset.event_texts, **TEXTS}

    def round_layout(self, state: GameState) -> list[Step]:
        return LAYOUT

    def why_not(self, state: GameState, seat: str) -> str | None:
        """The one judgement of a throw: what offers it (`play_actions`) and what refuses it (`throw`)."""
        step = self.step(state)
        if step is None:
            return "no turn is being played"
        if step.active != seat:
            return f"it is seat {step.active}'s turn to throw"
        if thrown(state):
            return f"seat {seat} has thrown this turn"
        return None

    def step_over(self, state: GameState, step: Step) -> bool:
        return thrown(state)

    def step_awaiting(self, state: GameState, step: Step | None) -> dict[str, Any]:
        return {"seat": step.active if step else None, "action": "throw" if step else "none"}

    def play_actions(self, state: GameState, seat: str, awaiting: dict[str, Any]) -> list[act.Action]:
        if self.why_not(state, seat) is not None:
            return []
        if state.dice == "table":
            return [act.action("throw", THROW, "throw your die and enter its face", ["dice"],
                               dice=act.table_dice(D6))]
        return [act.action("throw", THROW, "throw your die: the service rolls a D6")]

    def validate(self, state: GameState, seat: str, command: cmd.Command) -> None:
        if isinstance(command, Throw) and state.dice == "table":
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
        score = (t.state.vp or NO_SCORE)[seat] + face
        t.emit("ThrowScored", ThrowScored(seat=seat, face=face, score=score), THROW, by=seat)

    @evolves("ThrowScored")
    def _scored(self, state: GameState, data: ThrowScored, entry: Data) -> GameState:
        step = OtherStep.of(state.step)
        return replace(state, vp=(state.vp or NO_SCORE).replace(data["seat"], data["score"]),
                       step=replace(step, parts=step.parts.set("thrown", True)))

    def scored_by(self, state: GameState) -> Literal["vp", "destroyed"]:
        return "vp"  # the higher running score wins (MSN.END.1, as the core judges it)


def thrown(state: GameState) -> bool:
    """The seat whose turn it is has thrown (the duel's own part of the step, kept as JSON)."""
    return bool(OtherStep.of(state.step).parts.get("thrown"))
