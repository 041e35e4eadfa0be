"""A state's offers are worked out once: the view that shows them and the ruling on the next command read the same
list (domain/game.py `offers`), and a new state, or another seat, is never answered from another's."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from warlog.domain.game import offers


@dataclass(frozen=True)
class FakeState:
    game_id: str
    phase: str


class CountingRules:
    def __init__(self) -> None:
        self.asked: list[tuple[str, str]] = []

    def actions(self, state: Any, seat: str) -> list[str]:
        self.asked.append((state.phase, seat))
        return [f"{state.phase} for {seat}"]


def test_the_same_state_is_offered_once_and_a_new_state_afresh() -> None:
    rules = CountingRules()
    shown = FakeState("game-offers-1", "movement")
    first = offers(rules, shown, "A")  # type: ignore[arg-type]  # a duck-typed ruleset and state
    assert offers(rules, shown, "A") is first  # type: ignore[arg-type]
    assert rules.asked == [("movement", "A")]
    moved_on = FakeState("game-offers-1", "movement")  # equal, but another state: an event made it
    assert offers(rules, moved_on, "A") == ["movement for A"]  # type: ignore[arg-type]
    assert offers(rules, moved_on, "B") == ["movement for B"]  # type: ignore[arg-type]
    assert rules.asked == [("movement", "A"), ("movement", "A"), ("movement", "B")]
