"""Random commands of every type, with values good and bad, sent to every ruleset in both dice modes:
whatever a client sends, the answer is a 2xx or a 4xx problem, never a server error, and the log that
results still verifies. (It found a free_roll spec reaching the dice unjudged with server dice.)"""
from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from tests.support.client import GameClient, unit, vehicle
from tests.support.instances import instance
from warlog.api.schemas import wire_commands

UNITS_A = [unit("a-1", 5), unit("a-2", 3, statuses=("falling_back",)), vehicle("a-truck", capacity=6),
           unit("a-in", 3, embarked_in="a-truck"), unit("a-res", 2, in_reserves=True)]
UNITS_B = [unit("b-1", 5), unit("b-2", 1), vehicle("b-wagon", M=0), unit("b-res", 4, in_reserves=True)]
UNIT_IDS = [u["id"] for u in UNITS_A + UNITS_B] + ["nobody"]
CHOICES: dict[str, list[Any]] = {  # values for fields by name; anything else is drawn by its type
    "first": ["A", "B", "C"], "spec": ["D6", "2D6", "D3+1", "x", "0D6", "51D6"],
    "distance": ["3", "6.5", "12", "-1", "six", None], "move": ["normal", "advance", "fall_back", "x", None],
    "escape": ["ordered", "desperate", "x", None], "shooting": ["normal", "assault", "indirect", "x", None],
    "weapons": [None, {"Boltgun": 2}, {"Boltgun": -1}, {"Boltgun": 99}, {"Lascannon": 1}],
}


def value(rng: random.Random, field: dataclasses.Field) -> Any:
    if field.name == "unit":
        return rng.choice(UNIT_IDS)
    if field.name == "targets":
        return rng.sample(UNIT_IDS, k=rng.randint(0, 2))
    if field.name in ("exclude", "include"):
        return rng.choice([{}, {rng.choice(UNIT_IDS): "a reason"}])
    if field.name == "distances":
        return {rng.choice(UNIT_IDS): rng.choice(["3", "9", "x"])}
    if field.name == "dice":
        return rng.choice([None, None, [rng.randint(0, 7) for _ in range(rng.randint(1, 3))],
                           {"A": rng.randint(1, 6), "B": rng.randint(1, 6)}, "x"])
    if field.name in CHOICES:
        return rng.choice(CHOICES[field.name])
    kind = str(field.type)
    if "bool" in kind:
        return rng.random() < 0.7
    if "int" in kind:
        return rng.choice([0, 1, 2, 5, -1, 100])
    return rng.choice(["normal", "x", "pinned", "battle_shocked", "hull", ""])


def answer_awaited(rng: random.Random, game: GameClient, dice_mode: str) -> tuple[str, dict[str, Any]] | None:
    """Half the time, what the game waits for: so that play gets past the first sub-phase."""
    view = game.state("A")
    awaiting = view["awaiting"]
    seat, action = awaiting.get("seat") or rng.choice("AB"), awaiting["action"]
    if action == "select":
        eligible = [uid for uid, u in view["units"].items() if u.get("eligible")]
        return (seat, {"type": "select", "unit": rng.choice(eligible), "act": rng.random() < 0.7}) if eligible else None
    if action in ("enter", "react", "fall_back"):  # a ruleset's own prompt: one of the shapes it offers
        offered = [a for a in game.state(seat)["actions"] if a["type"] == action]
        return (seat, instance(rng.choice(offered)["schema"], rng)) if offered else None
    if action not in ("roll_off", "roll", "confirm_count", "end_phase", "choose_order"):
        return None
    body: dict[str, Any] = {"type": action}
    if action == "choose_order":
        body["first"] = rng.choice("AB")
    if dice_mode == "table" and action == "roll_off":
        body["dice"] = {"A": rng.randint(1, 6), "B": rng.randint(1, 6)}
    if dice_mode == "table" and action == "roll":
        count, _, rest = awaiting["roll"]["spec"].partition("D")
        sides = int(rest.split("+")[0].split("-")[0])
        body["dice"] = [rng.randint(1, sides) for _ in range(int(count or 1))]
    return seat, body


@pytest.mark.parametrize("ruleset", ["alternating", "reference", "heresy"])
@pytest.mark.parametrize("dice_mode", ["server", "table"])
def test_random_commands_get_an_answer_never_a_server_error_and_the_log_verifies(new_game, ruleset, dice_mode):
    rng = random.Random(f"{ruleset}-{dice_mode}")
    game: GameClient = new_game(ruleset, dice_mode)
    game.start(UNITS_A, UNITS_B)
    kinds = sorted((name, cls) for name, cls in wire_commands().items() if name != "concede")  # every ruleset's
    statuses: set[int] = set()
    for _ in range(400):
        awaited = answer_awaited(rng, game, dice_mode) if rng.random() < 0.5 else None
        if awaited is None:
            name, cls = rng.choice(kinds)
            body = {"type": name, **{f.name: value(rng, f) for f in dataclasses.fields(cls) if rng.random() < 0.85}}
            awaited = rng.choice("AB"), body
        seat, body = awaited
        response = game.send(seat, body)
        assert response.status_code < 500, (body, response.text)
        statuses.add(response.status_code)
        if rng.random() < 0.03:
            path = rng.choice(["undo", "redo", "undo/approve", "undo/reject"])
            assert game.post(rng.choice("AB"), path).status_code < 500
    assert {200, 409, 422} <= statuses  # it played, and it was refused both ways
    assert game.state("A")["version"] > 20
    verified = game.verify()
    assert verified["chain_ok"] is True and verified["events"] == len(game.events())
