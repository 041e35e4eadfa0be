"""A ruleset's parts (domain/rules/parts.py): a part's marked methods join the ruleset's dispatch tables and run on
the part, the ruleset's own marks win over a part's, and two parts marking one command or event kind are refused
when the ruleset's class is created."""
from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from warlog.domain.rules.ruleset import Part, Ruleset, evolves, handles

IN_PLAY = SimpleNamespace(status="in_progress", dice="table")


class Table:
    """What `handle` reads of a table (its state's dice and status) and what a handler does with it (`emit`)."""

    def __init__(self) -> None:
        self.state = IN_PLAY
        self.events: list[tuple[str, dict[str, Any], str]] = []

    def emit(self, kind: str, data: dict[str, Any], rule: str, by: str | None = None) -> None:
        self.events.append((kind, data, rule))


def command(kind: str) -> Any:
    return SimpleNamespace(type=kind, dice=None)


class Poking(Part[Any]):
    @handles("poke")
    def poke(self, t: Table, seat: str, command: Any) -> None:
        t.emit("Poked", {"seat": seat, "part": type(self).__name__, "rules": self.rules.name}, "TEST.POKE")

    @handles("prod")
    def prod(self, t: Table, seat: str, command: Any) -> None:
        t.emit("Prodded", {"by": "the part"}, "TEST.PROD")

    @evolves("Poked")
    def _poked(self, state: Any, data: dict[str, Any], entry: Any) -> Any:
        return ("poked by", data["seat"], type(self).__name__)


class Counting(Part[Any]):
    @evolves("Counted", "Recounted")
    def _counted(self, state: Any, data: dict[str, Any], entry: Any) -> Any:
        return state + data["n"]


class Game(Ruleset):
    name = "parts-test"
    parts = (Poking, Counting)

    @handles("prod")  # its own mark: the part's "prod" is left out
    def prod(self, t: Table, seat: str, command: Any) -> None:
        t.emit("Prodded", {"by": "the ruleset"}, "TEST.PROD")


def test_a_parts_handler_runs_on_the_part_built_with_the_ruleset():
    game, t = Game(), Table()
    game.handle(t, "A", command("poke"))  # type: ignore[arg-type]
    assert t.events == [("Poked", {"seat": "A", "part": "Poking", "rules": "parts-test"}, "TEST.POKE")]
    assert game.part(Poking).rules is game


def test_a_parts_appliers_return_the_next_state_one_applier_for_each_kind_it_marks():
    game = Game()
    assert game.apply(None, {"type": "Poked", "data": {"seat": "B"}}) == ("poked by", "B", "Poking")  # type: ignore[typeddict-item]
    assert game.apply(1, {"type": "Recounted", "data": {"n": 2}}) == 3  # type: ignore[arg-type, typeddict-item]


def test_the_rulesets_own_mark_wins_over_its_parts():
    t = Table()
    Game().handle(t, "A", command("prod"))  # type: ignore[arg-type]
    assert t.events == [("Prodded", {"by": "the ruleset"}, "TEST.PROD")]


def test_two_parts_handling_one_command_are_refused_when_the_ruleset_is_made():
    class Shoving(Part[Any]):
        @handles("poke")
        def poke(self, t: Table, seat: str, command: Any) -> None:
            """Another answer to the same command."""

    with pytest.raises(TypeError, match="its parts Poking and Shoving both handle 'poke'"):
        type("Clashing", (Ruleset,), {"parts": (Poking, Shoving)})


def test_two_parts_applying_one_event_kind_are_refused_when_the_ruleset_is_made():
    class Recounting(Part[Any]):
        @evolves("Recounted")
        def _recounted(self, state: Any, data: dict[str, Any], entry: Any) -> Any:
            return state

    with pytest.raises(TypeError, match="its parts Counting and Recounting both apply 'Recounted'"):
        type("Clashing", (Ruleset,), {"parts": (Counting, Recounting)})
