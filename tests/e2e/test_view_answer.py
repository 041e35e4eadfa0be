"""CONTRACT.md "One request a tap": a seat's write answers, beside `version` and `events`, `view`, the state that
seat's GET /state answers right after (its `actions`, `anytime` and the pending undo request included)."""
from __future__ import annotations

import json
from typing import Any
from uuid import UUID

import httpx
import pytest

from tests.golden.test_scenarios import SCENARIOS, played
from tests.support.client import GameClient, play_awaited, unit
from warlog.projections.state import state_view

WRITES = ("/commands", "/armies", "/undo", "/undo/approve", "/undo/reject", "/undo/withdraw", "/redo")


class ViewChecked(GameClient):
    """A table client that, after every accepted write, reads GET /state as the seat that wrote and holds the
    answer's `view` to it, key for key."""

    checked = 0

    def _check(self, seat: str, path: str, response: httpx.Response) -> httpx.Response:
        if response.status_code in (200, 202) and path.endswith(WRITES):
            answer = response.json()
            assert answer["view"] == self.state(seat), f"{path} by {seat}: its view is not GET /state"
            assert answer["view"]["version"] == answer["version"]
            self.checked += 1
        return response

    def send(self, seat: str, body: dict[str, Any], **headers: str) -> httpx.Response:
        return self._check(seat, "/commands", super().send(seat, body, **headers))

    def post(self, seat: str, path: str, **headers: str) -> httpx.Response:
        return self._check(seat, f"/{path}", super().post(seat, path, **headers))

    def muster(self, seat: str, units: list[dict[str, Any]]) -> httpx.Response:
        return self._check(seat, "/armies", super().muster(seat, units))


BY_RULESET = {ruleset: [p for p in SCENARIOS if json.loads(p.read_text()).get("ruleset", "alternating") == ruleset]
              for ruleset in ("alternating", "reference", "heresy")}
PLAYED = [p for paths in BY_RULESET.values() for p in paths]


@pytest.mark.parametrize("path", PLAYED, ids=[p.stem for p in PLAYED])
def test_every_write_of_a_golden_game_answers_the_state_its_seat_reads_next(http, path):
    scenario = json.loads(path.read_text())
    game = played(http, scenario, ViewChecked)
    assert game.checked >= 2 + sum(1 for s in scenario["steps"] if s.get("expect", {}).get("status", 200) < 400)


@pytest.mark.parametrize("ruleset", sorted(BY_RULESET))
def test_undo_its_answers_and_redo_each_answer_the_state_read_after_them(new_game, ruleset):
    game = ViewChecked(new_game(ruleset).http, ruleset, "server")
    game.start([unit("scouts-1"), unit("scouts-2")], [unit("boyz-1")])
    for _ in range(3):
        play_awaited(game)
    game.cmd("A", "free_roll", spec="2D6", purpose="scatter")
    requested = game.post("A", "undo")
    assert requested.status_code == 202
    view = requested.json()["view"]
    assert view["undo_request"] == {"requested_by": "A", "seqs": [requested.json()["events"][0]["data"]["seqs"][0]],
                                    "you_answer": False}
    assert view["actions"] == [] and "approve" not in view["anytime"]
    assert game.state("B")["anytime"] == ["approve", "reject"]
    rejected = game.post("B", "undo/reject").json()["view"]
    assert rejected["undo_request"] is None and "undo" in rejected["anytime"]
    assert game.post("A", "undo").status_code == 202
    approved = game.post("B", "undo/approve")
    assert approved.status_code == 200 and approved.json()["view"]["undo_request"] is None
    redone = game.post("A", "redo")
    assert redone.status_code == 200 and "redo" not in redone.json()["view"]["anytime"]
    assert game.checked >= 10


def test_a_replayed_command_answers_the_view_it_first_answered_not_todays(new_game):
    game = new_game()
    game.start([unit("scouts-1")], [unit("boyz-1")])
    first = game.send("A", {"type": "free_roll", "spec": "D6", "purpose": "scatter"}, **{"Idempotency-Key": "k1"})
    game.cmd("B", "free_roll", spec="D6", purpose="terrain")
    replayed = game.send("A", {"type": "free_roll", "spec": "D6", "purpose": "scatter"}, **{"Idempotency-Key": "k1"})
    assert replayed.status_code == 200 and replayed.json() == first.json()
    assert replayed.json()["view"]["version"] == first.json()["version"] < game.state("A")["version"]
    assert replayed.json()["view"] != game.state("A")  # the game as that write left it, not as it stands now


def test_a_refused_command_answers_a_problem_without_a_view(new_game):
    game = new_game()
    game.start([unit("scouts-1")], [unit("boyz-1")])
    refused = game.refused("A", "end_phase")
    assert "view" not in refused and refused["rule"]


@pytest.mark.parametrize("ruleset", sorted(BY_RULESET))
def test_free_rolls_answer_each_seat_its_view_as_drawn_anew_the_clock_and_version_moving_on(new_game, ruleset):
    """A free roll leaves what either seat may do as it was, so its view is the one kept for the seat
    (projections/state.py `SeatViews`), with the version and the running chess clock (MSN.CLK.1) put in: each
    answer is what the seat's state drawn anew, with nothing kept, reads, for the seat that rolled and the other."""
    http = new_game(ruleset).http
    game = GameClient(http, ruleset, "server", {"clock_minutes": 60})
    game.start([unit("scouts")], [unit("boyz")])
    warlog = http.app.state.shards.apps[0]
    for seat in ("A", "A", "B", "A", "B"):
        answer = game.send(seat, {"type": "free_roll", "spec": "D6", "purpose": "scatter"}).json()
        live = warlog.read(UUID(game.id))
        drawn = json.loads(json.dumps(state_view(live.state, live.version, seat, live)))  # no kept view read
        assert answer["view"] == drawn
        assert answer["view"]["version"] == answer["version"] and "clock" in drawn
