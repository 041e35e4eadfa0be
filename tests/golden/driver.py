"""A random player that plays only from the legal actions (CONTRACT.md "Legal actions").

It reads each seat's `actions`, picks one with a seeded `random.Random`, sends a
random instance of its schema and insists that it is accepted (the actions are
sound). Now and then it also records what the table resolves outside the
actions (casualties, statuses, vehicle hits), so that fleeing units, destroyed
units and wrecked vehicles come up as they would in a real game.

Two transports play the same way: over HTTP (`HttpTable`, the contract) and
straight into the application (`AppTable`, for hypothesis's many examples).
"""
from __future__ import annotations

import random
from typing import Any, Protocol
from uuid import UUID

from tests.support.client import GameClient, awaits, unit, vehicle
from tests.support.instances import SUBSET, instance, keywords


class GameTable(Protocol):
    dice_mode: str

    def view(self, seat: str) -> dict[str, Any]: ...

    def send(self, seat: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]: ...


class HttpTable:
    """The game over the HTTP contract."""

    def __init__(self, game: GameClient, dice_mode: str) -> None:
        self.game, self.dice_mode = game, dice_mode

    def view(self, seat: str) -> dict[str, Any]:
        return self.game.state(seat)

    def send(self, seat: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        response = self.game.send(seat, body)
        return response.status_code, response.json()


class AppTable:
    """The game straight through `Warlog` (same parsing, rulings and state view as the API)."""

    def __init__(self, warlog: Any, game_id: UUID, dice_mode: str) -> None:
        self.warlog, self.game_id, self.dice_mode = warlog, game_id, dice_mode
        self.clock = 0

    def view(self, seat: str) -> dict[str, Any]:
        from warlog.projections.state import state_view

        game = self.warlog.read(self.game_id)
        return state_view(game.state, game.version, seat, game)

    def send(self, seat: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        from warlog.api.errors import ruling_problem
        from warlog.api.schemas import parse_command
        from warlog.domain.rulings import Ruling

        self.clock += 1
        at = f"2026-01-01T00:{self.clock // 60 % 60:02d}:{self.clock % 60:02d}.000Z"
        try:
            ruleset = self.warlog.read(self.game_id).state.ruleset
            answer = self.warlog.command(self.game_id, seat, parse_command(body, ruleset), at)
        except Ruling as error:
            return ruling_problem(error)
        return 200, dict(answer)


def armies(rng: random.Random) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Two small armies with a bit of everything the AA rules look at."""
    def weapons(kind: str, shots: str) -> list[dict[str, Any]]:
        return [{"name": f"{kind}-gun", "type": "ranged", "range": 24, "A": shots, "skill": 4, "S": 4, "AP": 0,
                 "D": "1", "kind": kind, "keywords": []},
                {"name": "Choppa", "type": "melee", "A": "1", "S": 4, "AP": 0, "D": "1"}]

    def side(seat: str) -> list[dict[str, Any]]:
        p = seat.lower()
        kind, shots = rng.choice([("rapid_fire", "2"), ("heavy", "3"), ("pistol", "1"), ("assault", "D6")])
        units = [
            unit(f"{p}-squad", rng.randint(3, 10), abilities=("ATSKNF",) if rng.random() < 0.5 else (),
                 weapons=weapons(kind, shots)),
            unit(f"{p}-mob", rng.randint(5, 12), statuses=("falling_back", "routed") if rng.random() < 0.3 else ()),
            unit(f"{p}-brawlers", rng.randint(2, 6), ranged=False),
            vehicle(f"{p}-transport", capacity=10, fire_points=rng.choice([0, 2]), hull_points=rng.randint(2, 3)),
            unit(f"{p}-passengers", rng.randint(2, 5), embarked_in=f"{p}-transport"),
        ]
        if rng.random() < 0.6:
            units.append(unit(f"{p}-reserve", 5, in_reserves=True))
        if rng.random() < 0.4:
            units.append(vehicle(f"{p}-bunker", M=0, hull_points=2))
        return units

    return side("A"), side("B")


class Driver:
    """Plays only what `actions` offers, until the game ends (or `limit` goes); every action must be accepted.

    Each move reads both seats' states, picks one offered action of either seat at random and sends a
    random instance of its schema: the driver knows no rule. Now and then it records a fact of the table
    instead (an `anytime` command), so that losses, statuses and wrecks come up as in a real game."""

    def __init__(self, table: GameTable, rng: random.Random) -> None:
        self.table, self.rng = table, rng
        self.moves: list[tuple[str, dict[str, Any]]] = []

    def play(self, limit: int = 5000) -> dict[str, Any]:
        for _ in range(limit):
            view = self.table.view("A")
            if view["status"] == "ended":
                return view
            self.move()
        return self.table.view("A")

    def views(self) -> dict[str, dict[str, Any]]:
        return {seat: self.table.view(seat) for seat in "AB"}

    def move(self, view: dict[str, Any] | None = None) -> tuple[str, dict[str, Any]]:
        views = self.views()
        if self.rng.random() < 0.04:
            fact = self.table_fact(views["A"])
            if fact is not None:
                status, answer = self.table.send(*fact)
                assert status < 500, f"a table fact answered {status}: {fact} -> {answer}"
                if status == 200:
                    self.moves.append(fact)
                    return fact
        seat, body = self.choose(views)
        status, answer = self.table.send(seat, body)
        assert status in (200, 202), f"an offered action was refused: {seat} {body} -> {status} {answer}"
        self.moves.append((seat, body))
        return seat, body

    def choose(self, views: dict[str, dict[str, Any]]) -> tuple[str, dict[str, Any]]:
        """One offered action of either seat, as a random instance of its schema."""
        assert_awaiting_is_offered(views)
        offered = [(seat, action) for seat in "AB" for action in views[seat]["actions"]]
        seat, action = self.rng.choice(offered)
        return seat, instance(action["schema"], self.rng)

    def table_fact(self, view: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
        """Something resolved at the table and recorded: casualties, a status, ongoing reserves, a vehicle hit."""
        if view["status"] != "in_progress":
            return None
        standing = sorted(uid for uid, u in view["units"].items() if u["models_alive"] > 0)
        if not standing:
            return None
        uid = self.rng.choice(standing)
        owner = view["units"][uid]["owner"]
        kind = self.rng.random()
        if kind < 0.4:
            return owner, {"type": "record_casualties", "unit": uid, "models": self.rng.randint(1, 3)}
        if kind < 0.75:
            status = self.rng.choice(["falling_back", "pinned", "gone_to_ground", "no_weapons_left", "engaged",
                                      "battle_shocked", "routed"])
            value = status not in view["units"][uid]["statuses"]
            return owner, {"type": "set_status", "unit": uid, "status": status, "value": value,
                           "reason": "resolved at the table"}
        if kind < 0.82 and "ongoing_reserves" in view["anytime"]:
            return owner, {"type": "ongoing_reserves", "unit": uid, "reason": "left the battlefield"}
        vehicles = [v for v in standing if v.endswith(("transport", "bunker"))]
        if not vehicles or "vehicle_hit" not in view["anytime"]:
            return None
        target = self.rng.choice(vehicles)
        return ("B" if view["units"][target]["owner"] == "A" else "A",
                {"type": "vehicle_hit", "unit": target, "hit": self.rng.choice(["glancing", "penetrating"])})


def assert_awaiting_is_offered(views: dict[str, dict[str, Any]]) -> None:
    """CONTRACT.md: somebody can always act, and `awaiting` names an offered type whenever it names a seat."""
    awaiting = awaits(views["A"])
    assert awaiting == awaits(views["B"])
    for seat in "AB":  # the sentence is said to the reader: "you" to the awaited seat, the other by name
        said = views[seat]["awaiting"]["text"]
        assert ("waits for you " in said) == (awaiting["seat"] == seat), (seat, said)
    if views["A"]["status"] == "ended":
        assert not views["A"]["actions"] and not views["B"]["actions"]
        return
    offered = {seat: {a["type"] for a in views[seat]["actions"]} for seat in "AB"}
    assert offered["A"] or offered["B"], f"nobody can act: awaiting {awaiting}"
    if awaiting["seat"] is not None:
        assert awaiting["action"] in offered[awaiting["seat"]], (awaiting, offered)
    for seat in "AB":
        for action in views[seat]["actions"]:
            assert keywords(action["schema"]) <= SUBSET, action
