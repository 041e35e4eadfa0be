"""A random-but-legal player for the `alternating` ruleset.

It asks what the game awaits (`awaiting`, `legal_commands`, each unit's
`eligible`), picks one legal move with a seeded `random.Random`, sends it and
insists that it is accepted. In table-dice mode it supplies the dice the game
asks for. Now and then it also records what the table resolves outside the
alternation (casualties, statuses, vehicle hits), so that fleeing units,
destroyed units and wrecked vehicles come up as they would in a real game.

Two transports play the same way: over HTTP (`HttpTable`, the contract) and
straight into the application (`AppTable`, for hypothesis's many examples).
"""
from __future__ import annotations

import random
from typing import Any, Protocol
from uuid import UUID

from domain import dice
from tests.support.client import GameClient, unit, vehicle


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
        from projections.state import state_view

        game = self.warlog.read(self.game_id)
        return state_view(game.state, game.version, seat)

    def send(self, seat: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        from api.errors import ruling_problem
        from api.schemas import parse_command
        from domain.rulings import Ruling

        self.clock += 1
        at = f"2026-01-01T00:{self.clock // 60 % 60:02d}:{self.clock % 60:02d}.000Z"
        try:
            answer = self.warlog.command(self.game_id, seat, lambda: parse_command(body), at)
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
            unit(f"{p}-mob", rng.randint(5, 12), statuses=("falling_back",) if rng.random() < 0.3 else ()),
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
    """Plays legal moves until the game ends (or `limit` goes); every move must be accepted."""

    def __init__(self, table: GameTable, rng: random.Random) -> None:
        self.table, self.rng = table, rng
        self.moves: list[tuple[str, dict[str, Any]]] = []

    def play(self, limit: int = 5000) -> dict[str, Any]:
        seat = "A"
        for _ in range(limit):
            view = self.table.view(seat)  # read as the seat likely to act next: its legal_commands
            if view["status"] == "ended":
                return view
            seat, _ = self.move(view)
            seat = "B" if seat == "A" else "A"
        return self.table.view("A")

    def move(self, view: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        seat, body = self.choose(view)
        status, answer = self.table.send(seat, body)
        assert status == 200, f"a legal move was refused: {seat} {body} -> {status} {answer}"
        self.moves.append((seat, body))
        return seat, body

    # -- choosing --------------------------------------------------------------------------

    def choose(self, view: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        """One legal move; `view` is the state as some seat sees it (re-read as the awaited seat if need be)."""
        awaiting = view["awaiting"]
        action, seat = awaiting["action"], awaiting["seat"]
        if action == "start_game":  # set-up (an undo may take the game back there)
            return self.rng.choice("AB"), {"type": "start_game"}
        if self.rng.random() < 0.04:
            side = self.table_fact(view)
            if side is not None:
                return side
        if action == "roll_off":
            return self.rng.choice("AB"), self.with_dice({"type": "roll_off"}, {"A": self.d6(), "B": self.d6()})
        if action == "roll":
            expr = dice.parse(awaiting["roll"]["spec"])
            faces = [self.rng.randint(1, expr.sides) for _ in range(expr.count)]
            return seat, self.with_dice({"type": "roll"}, faces)
        if action == "choose_order":
            return seat, {"type": "choose_order", "first": self.rng.choice("AB")}
        if action == "confirm_count":
            seat = seat or self.rng.choice("AB")
            return seat, self.confirm(view, seat)
        if action == "select":
            mine = view if view["legal_commands"] and "select" in view["legal_commands"] else self.table.view(seat)
            return seat, self.go(mine, seat)
        raise AssertionError(f"nobody can act: awaiting {awaiting}")

    def d6(self) -> int:
        return self.rng.randint(1, 6)

    def with_dice(self, body: dict[str, Any], faces: Any) -> dict[str, Any]:
        return {**body, "dice": faces} if self.table.dice_mode == "table" else body

    def confirm(self, view: dict[str, Any], seat: str) -> dict[str, Any]:
        own = [uid for uid, u in view["units"].items() if u["owner"] == seat and u["models_alive"] > 0]
        exclude = {}
        if own and view["sub_phase"] == "shooting_pass_points" and self.rng.random() < 0.3:
            exclude[self.rng.choice(own)] = "out of range of every enemy unit"
        return {"type": "confirm_count", "exclude": exclude}

    def go(self, view: dict[str, Any], seat: str) -> dict[str, Any]:
        awaiting = view["awaiting"]
        if awaiting.get("reaction") == "overwatch":
            return {"type": "select", "unit": awaiting["unit"], "act": self.rng.random() < 0.7}
        legal = view["legal_commands"]
        eligible = [uid for uid, u in view["units"].items() if u["eligible"]]
        assert eligible, f"seat {seat} is awaited to select but has no eligible unit: {view}"
        roll = self.rng.random()
        if "pass" in legal and roll < 0.15:
            return {"type": "pass"}
        if "declare_done" in legal and roll > 0.93:
            return {"type": "declare_done"}
        uid = self.rng.choice(sorted(eligible))
        sub_phase = view["sub_phase"]
        act = sub_phase in ("run", "resolve_combats") or view["units"][uid]["arriving"] or self.rng.random() < 0.8
        body: dict[str, Any] = {"type": "select", "unit": uid, "act": act}
        if sub_phase == "select_charges" and act:
            owner = view["units"][uid]["owner"]
            enemies = sorted(t for t, u in view["units"].items() if u["owner"] != owner and u["models_alive"] > 0
                             and not u["in_reserves"] and not u["embarked_in"])
            if not enemies:
                return {**body, "act": False}
            body.update(targets=[self.rng.choice(enemies)], distance=str(self.rng.randint(2, 12)))
        return body

    def table_fact(self, view: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
        """Something resolved at the table and recorded: casualties, a status, ongoing reserves, a vehicle hit."""
        standing = sorted(uid for uid, u in view["units"].items() if u["models_alive"] > 0)
        if not standing:
            return None
        uid = self.rng.choice(standing)
        owner = view["units"][uid]["owner"]
        kind = self.rng.random()
        if kind < 0.4:
            return owner, {"type": "record_casualties", "unit": uid, "models": self.rng.randint(1, 3)}
        if kind < 0.75:
            status = self.rng.choice(["falling_back", "pinned", "gone_to_ground", "no_weapons_left"])
            value = status not in view["units"][uid]["statuses"]
            return owner, {"type": "set_status", "unit": uid, "status": status, "value": value,
                           "reason": "resolved at the table"}
        if kind < 0.82:
            unit_view = view["units"][uid]
            if unit_view["in_reserves"] or unit_view["embarked_in"]:
                return None
            return owner, {"type": "ongoing_reserves", "unit": uid, "reason": "left the battlefield"}
        vehicles = [v for v in standing if v.endswith(("transport", "bunker"))]
        if not vehicles:
            return None
        target = self.rng.choice(vehicles)
        return ("B" if view["units"][target]["owner"] == "A" else "A",
                {"type": "vehicle_hit", "unit": target, "hit": self.rng.choice(["glancing", "penetrating"])})
