"""Issue 25, RULES.md MSN: every game ends with a result that says who won (or a draw), how, the score and the
rule; GET /summary adds it up per seat. Held over HTTP in every ruleset and both dice modes."""
from __future__ import annotations

from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Any
from unittest import mock

import pytest

from tests.support.client import GameClient, play_awaited, unit
from tests.support.results import assert_result_adds_up

RULESETS = ["alternating", "reference", "heresy"]
BOTH = pytest.mark.parametrize("dice", ["server", "table"])
EVERY = pytest.mark.parametrize("ruleset", RULESETS)


def played_out(game: GameClient, limit: int = 200) -> dict[str, Any]:
    """The plainest offered action for whatever the game awaits, until it ends."""
    for _ in range(limit):
        state = game.state()
        if state["status"] == "ended":
            return state
        play_awaited(game)
    raise AssertionError(f"not ended after {limit} actions: {game.state()['awaiting']}")


def one_seat_awaited(game: GameClient, answer: dict[str, Any]) -> dict[str, Any]:
    """Play on (a tied roll-off is rolled again) until the game waits for one seat; the last answer."""
    while answer["view"]["awaiting"]["seat"] is None:
        answer = play_awaited(game)
    return answer


def summary(game: GameClient, role: str = "A") -> dict[str, Any]:
    response = game.http.get(f"/games/{game.id}/summary", headers=game.headers(role))
    assert response.status_code == 200, response.text
    return response.json()


def ended_event(game: GameClient) -> dict[str, Any]:
    return next(e for e in game.events() if e["type"] == "GameEnded")


@EVERY
@BOTH
def test_MSN_END_1_without_objectives_the_points_destroyed_decide(new_game, ruleset, dice):
    game = new_game(ruleset, dice=dice, battle_rounds=1)
    game.start([unit("vets", 5, points=120), unit("scouts", 5)], [unit("boyz", 10, points=90), unit("grots", 5)])
    game.cmd("A", "record_casualties", unit="boyz", models=10)  # Bob's Boyz destroyed: 90 points to Alice
    game.cmd("B", "record_casualties", unit="scouts", models=3)  # three scouts (no points stated): 3 to Bob
    final = played_out(game)

    assert final["result"] == {"reason": "battle_rounds", "winner": "A", "draw": False, "by": "destroyed",
                               "score": {"A": 90, "B": 3}, "rule": "MSN.END.1",
                               "how": "Decided on points of enemy units destroyed"}
    assert_result_adds_up(final)
    ended = ended_event(game)
    assert (ended["rule"], ended["text"]) == ("MSN.END.1", "Alice won 90–3 on points destroyed (MSN.END.1).")
    audit = game.http.get(f"/games/{game.id}/audit/{ended['seq']}", headers=game.headers("B")).json()
    assert audit["event"]["text"] == ended["text"] and audit["rule"]["id"] == "MSN.END.1"

    told = summary(game, "spectator")
    assert told["status"] == "ended" and told["result"] == final["result"] and told["text"] == ended["text"]
    assert told["scored_by"] == "destroyed"
    alice, bob = told["seats"]["A"], told["seats"]["B"]
    assert (alice["player"], alice["score"], alice["points_destroyed"]) == ("Alice", 90, 90)
    assert (bob["score"], bob["points_destroyed"]) == (3, 3)
    assert (alice["units_destroyed"], alice["models_destroyed"], bob["units_lost"], bob["models_lost"]) == (1, 10, 1, 10)
    assert (alice["models_lost_by_round"], bob["units_lost_by_round"], alice["vp_by_round"]) == ([3], [1], [0])


@EVERY
@BOTH
def test_MSN_END_1_equal_scores_are_a_draw(new_game, ruleset, dice):
    game = new_game(ruleset, dice=dice, battle_rounds=1)
    game.start([unit("vets", 5)], [unit("boyz", 5)])
    game.cmd("A", "record_casualties", unit="boyz", models=2)
    game.cmd("B", "record_casualties", unit="vets", models=2)
    final = played_out(game)
    assert final["result"] == {"reason": "battle_rounds", "winner": None, "draw": True, "by": "destroyed",
                               "score": {"A": 2, "B": 2}, "rule": "MSN.END.1",
                               "how": "Decided on points of enemy units destroyed"}
    assert ended_event(game)["text"] == "Alice and Bob drew 2–2 on points destroyed (MSN.END.1)."


@EVERY
@BOTH
def test_MSN_END_2_a_side_wiped_off_the_table_loses_at_the_end_of_the_phase(new_game, ruleset, dice):
    game = new_game(ruleset, dice=dice, battle_rounds=5)
    game.start([unit("vets", 5), unit("scouts", 5)], [unit("boyz", 10)])
    play_awaited(game)  # the game under way (a roll-off where the ruleset has one)
    game.cmd("A", "record_casualties", unit="boyz", models=10)
    assert game.state()["status"] == "in_progress"  # the phase goes on: the wipe-out is judged at its end
    final = played_out(game)
    assert final["battle_round"] == 1
    assert final["result"]["by"] == "wipeout" and final["result"]["winner"] == "A"
    assert final["result"]["rule"] == "MSN.END.2" and final["result"]["draw"] is False
    assert_result_adds_up(final)
    log = game.events()
    assert not [e for e in log if e["type"] == "BattleRoundEnded"]  # ended with the phase, not the round
    assert ended_event(game)["text"] == "Alice won: Bob has no unit left on the battlefield (MSN.END.2)."
    assert summary(game)["text"] == ended_event(game)["text"]


@BOTH
def test_MSN_END_2_a_unit_in_reserves_is_still_to_come(new_game, dice):
    game = new_game("alternating", dice=dice, battle_rounds=1)
    game.start([unit("vets", 5)], [unit("boyz", 10), unit("deep", 5, in_reserves=True)])
    game.cmd("A", "record_casualties", unit="boyz", models=10)
    final = played_out(game)
    assert final["result"]["by"] == "destroyed"  # Bob still had a unit to come: the game ran its round


@EVERY
@BOTH
def test_MSN_END_3_the_conceding_seat_loses_and_the_result_says_so(new_game, ruleset, dice):
    game = new_game(ruleset, dice=dice, objectives=["north"])
    game.start([unit("vets", 5)], [unit("boyz", 5)])
    game.cmd("A", "concede")
    result = game.state("B")["result"]
    assert result == {"reason": "concede", "winner": "B", "draw": False, "by": "concession",
                      "score": {"A": 0, "B": 0}, "rule": "MSN.END.3", "how": "Decided by concession"}
    overlaid = game.http.get(f"/games/{game.id}/overlay", headers=game.headers("spectator")).json()["result"]
    assert overlaid["how"] == "Decided by concession"  # the app and the overlay show the service's words
    ended = ended_event(game)
    assert (ended["rule"], ended["text"]) == ("MSN.END.3", "Alice conceded: Bob won (MSN.END.3).")
    assert summary(game)["scored_by"] == "vp"  # with objectives the score shown is VP


def test_the_summary_while_under_way_says_the_score_so_far_and_each_seats_dice(new_game):
    game = new_game("alternating", dice="server", battle_rounds=3)
    game.start([unit("vets", 5)], [unit("boyz", 10)])
    before = summary(game)
    assert before["result"] is None and before["status"] == "in_progress"
    game.cmd("A", "record_casualties", unit="boyz", models=4)
    game.cmd("A", "free_roll", spec="2D6", purpose="test")
    told = summary(game)
    assert told["text"] == "Battle round 1 of 3: Alice 4, Bob 0 on points destroyed so far"
    assert told["seats"]["A"]["dice_rolled"] == 2 and 0 <= told["seats"]["A"]["luck_percentile"] <= 100
    assert told["seats"]["B"]["dice_rolled"] == 0 and told["seats"]["B"]["luck_percentile"] is None
    assert told["seats"]["B"]["models_lost_by_round"] == [4]


def test_an_undone_loss_counts_nowhere_in_the_summary(new_game):
    game = new_game("alternating", dice="server", battle_rounds=3)
    game.start([unit("vets", 5)], [unit("boyz", 10)])
    game.cmd("A", "record_casualties", unit="boyz", models=4)
    assert game.post("A", "undo").status_code == 200
    told = summary(game)
    assert told["seats"]["B"]["models_lost"] == 0 and told["seats"]["A"]["score"] == 0


# -- MSN.CLK.1, the chess clock --------------------------------------------------------------------------------


class Clock:
    """The service's clock, moved on by the test."""

    def __init__(self) -> None:
        self.time = datetime(2026, 1, 1, tzinfo=UTC)

    def now(self) -> str:
        return self.time.strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"

    def wait(self, seconds: float) -> None:
        self.time += timedelta(seconds=seconds)


@contextmanager
def clocked() -> Any:
    clock = Clock()
    with mock.patch("warlog.api.writing.now", clock.now), mock.patch("warlog.api.routes.games.now", clock.now):
        yield clock


@BOTH
def test_MSN_CLK_1_each_seat_is_charged_the_time_the_game_waited_for_it(new_game, dice):
    with clocked() as clock:
        game = new_game("reference", dice=dice, clock_minutes=10)
        game.start([unit("vets", 5)], [unit("boyz", 5)])
        clock.wait(30)
        rolled = game.state("A")["awaiting"]  # the roll-off: each seat still to roll is waited for
        answer = play_awaited(game)
        first = answer["view"]["clock"]
        assert [s for s in "AB" if first[s]["used_s"] == 30] == ([rolled["seat"]] if rolled["seat"] else ["A", "B"])
        answer = one_seat_awaited(game, answer)
        first, waited = answer["view"]["clock"], answer["view"]["awaiting"]["seat"]
        assert first[waited]["running"] is True and first[waited]["since"] == clock.now()
        clock.wait(45)
        play_awaited(game)
        shown = game.state("A")["clock"]
        idle = "B" if waited == "A" else "A"
        assert shown[waited]["used_s"] == first[waited]["used_s"] + 45
        assert shown[waited]["left_s"] == 600 - shown[waited]["used_s"]
        assert shown[idle]["used_s"] == first[idle]["used_s"]  # its clock stood while the game waited for the other
        assert [shown[s]["out"] for s in "AB"] == [False, False]
        assert [summary(game)["seats"][s]["time_used_s"] for s in "AB"] == [shown[s]["used_s"] for s in "AB"]


@BOTH
def test_MSN_CLK_1_an_undo_request_pauses_the_clock(new_game, dice):
    with clocked() as clock:
        game = new_game("alternating", dice=dice, clock_minutes=10)
        game.start([unit("vets", 5)], [unit("boyz", 5)])
        game.cmd("A", "record_casualties", unit="boyz", models=1)
        before = game.state("A")["clock"]
        assert game.post("B", "undo").status_code == 202  # Bob asks to undo Alice's record: it waits for her
        clock.wait(300)
        assert game.post("A", "undo/approve").status_code == 200
        after = game.state("A")["clock"]
        assert [after[s]["used_s"] for s in "AB"] == [before[s]["used_s"] for s in "AB"]


@BOTH
def test_MSN_CLK_1_with_clock_loses_a_seat_out_of_time_loses_at_the_end_of_its_action(new_game, dice):
    with clocked() as clock:
        game = new_game("reference", dice=dice, clock_minutes=1, clock_loses=True)
        game.start([unit("vets", 5)], [unit("boyz", 5)])
        loser = one_seat_awaited(game, play_awaited(game))["view"]["awaiting"]["seat"]
        clock.wait(61)
        play_awaited(game)  # its action stands, then its time is found run out
        state = game.state("A")
        winner = "B" if loser == "A" else "A"
        assert state["status"] == "ended"
        assert state["result"]["by"] == "time" and state["result"]["winner"] == winner
        assert state["result"]["rule"] == "MSN.CLK.1" and state["clock"][loser]["out"] is True
        assert state["clock"][winner]["out"] is False
        names = {"A": "Alice", "B": "Bob"}
        assert ended_event(game)["text"] == f"{names[loser]}'s time ran out: {names[winner]} won (MSN.CLK.1)."


def test_a_game_without_a_clock_shows_none_and_its_state_is_as_it_was(new_game):
    game = new_game("reference", dice="server")
    game.start([unit("vets", 5)], [unit("boyz", 5)])
    assert "clock" not in game.state("A")
    assert summary(game)["seats"]["A"]["time_used_s"] >= 0
