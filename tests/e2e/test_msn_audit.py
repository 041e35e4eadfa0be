"""RULES.md MSN (and EXT.OBJ.1/EXT.VP.1 in reference) held over HTTP where an audit found an edge the other tests
did not reach: what a player checks of the result, the score, the summary and the clock."""
from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.test_results import clocked, one_seat_awaited, played_out, summary
from tests.support.client import GameClient, play_awaited, unit
from tests.support.results import assert_result_adds_up, assert_summary_adds_up
from warlog.domain.rules import editions


def split_game(new_game: Any, points: int | None, moved: int) -> GameClient:
    """Reference: Bob's squad of 10 split before the battle, `moved` models forming `squad-2`."""
    game = new_game("reference", dice="server", battle_rounds=1)
    assert game.muster("A", [unit("vets", 5)]).status_code == 200
    assert game.muster("B", [unit("squad", 10, points=points), unit("guard", 5)]).status_code == 200
    game.cmd("B", "split", unit="squad", models=moved)
    game.cmd("A", "start_game")
    return game


@pytest.mark.parametrize("points, kept_worth, total", [(None, 7, 10), (100, 70, 100)])
def test_MSN_END_1_each_part_of_a_split_unit_counts_what_it_holds(new_game, points, kept_worth, total):
    """CORE.SPL.1 makes two units of one: destroying the part that kept the unit's id is worth its models (1 each,
    where the army states no points) or its share of the unit's points, by models; both parts destroyed are worth
    the whole unit, never more."""
    game = split_game(new_game, points, moved=3)  # squad keeps 7 models, squad-2 takes 3
    game.cmd("A", "record_casualties", unit="squad", models=7)
    told = summary(game)
    alice, bob = told["seats"]["A"], told["seats"]["B"]
    assert (alice["score"], alice["points_destroyed"]) == (kept_worth, kept_worth)
    assert (alice["units_destroyed"], alice["models_destroyed"]) == (1, 7)
    assert (bob["units_lost"], bob["models_lost"], bob["models_lost_by_round"]) == (1, 7, [7])

    game.cmd("A", "record_casualties", unit="squad-2", models=3)
    final = played_out(game)
    assert final["result"]["by"] == "destroyed" and final["result"]["score"] == {"A": total, "B": 0}
    assert final["result"]["winner"] == "A"
    told = summary(game)
    assert (told["seats"]["A"]["units_destroyed"], told["seats"]["A"]["models_destroyed"]) == (2, 10)
    assert told["seats"]["A"]["points_destroyed"] == total


def test_MSN_END_1_a_split_units_datasheets_say_what_each_part_is_worth(new_game):
    game = split_game(new_game, 100, moved=3)
    units = game.state("B")["units"]
    assert (units["squad"]["points"], units["squad-2"]["points"]) == (70, 30)


def test_MSN_END_1_a_game_created_before_the_split_fix_keeps_its_score(new_game, monkeypatch):
    monkeypatch.setattr(editions, "created_under", lambda: {"edition": 5})
    game = split_game(new_game, 100, moved=3)
    assert game.state("B")["units"]["squad"]["points"] == 100  # as its army states it
    game.cmd("A", "record_casualties", unit="squad", models=7)
    game.cmd("A", "record_casualties", unit="squad-2", models=3)
    assert played_out(game)["result"]["score"] == {"A": 100, "B": 0}  # the new part's points, as it was judged
    assert game.verify()["commands_ok"] is True


# -- VP: a tie, and the last round ------------------------------------------------------------------------------

def scoring_ends(game: GameClient) -> list[dict[str, Any]]:
    """Play the plainest offered actions until the game ends, ending each phase that scores the objectives with
    `control` (alpha held by Alice's squad, bravo by Bob's boyz): the states it was offered in."""
    offered = []
    for _ in range(600):
        state = game.state()
        if state["status"] == "ended":
            return offered
        seat = state["awaiting"]["seat"] or "A"
        if any(a["type"] == "end_phase" and "control" in a["schema"]["properties"] for a in game.state(seat)["actions"]):
            offered.append(state)
            answer = game.cmd(seat, "end_phase", control={"alpha": ["squad"], "bravo": ["boyz"]})
            scored = [e["data"] for e in answer["events"] if e["type"] == "VictoryPointsScored"]
            assert scored and all(s["vp"] == 5 for s in scored)
        else:
            play_awaited(game)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("ruleset", ["alternating", "reference", "heresy"])
@pytest.mark.parametrize("dice", ["server", "table"])
def test_MSN_END_1_equal_vp_after_the_last_round_is_a_draw_whatever_was_destroyed(new_game, ruleset, dice):
    game = new_game(ruleset, dice=dice, battle_rounds=2, objectives=["alpha", "bravo"])
    game.start([unit("squad", 5), unit("scouts", 5)], [unit("boyz", 5), unit("grots", 5)])
    game.cmd("A", "record_casualties", unit="grots", models=5)  # Alice destroyed more: VP decide, not this
    offered = scoring_ends(game)
    assert [state["battle_round"] for state in offered] == [2] * len(offered)  # never before battle round 2
    assert len(offered) == (2 if ruleset == "reference" else 1)  # each Command phase (EXT.VP.1), or the round's end
    final = game.state()
    assert final["vp"] == {"A": 5, "B": 5}
    assert final["result"] == {"reason": "battle_rounds", "winner": None, "draw": True, "by": "vp",
                               "score": {"A": 5, "B": 5}, "rule": "MSN.END.1", "how": "Decided on victory points"}
    assert_result_adds_up(final)
    told = assert_summary_adds_up(game.http, game.id, game.tokens["B"], final)
    assert [told["seats"][s]["vp_by_round"] for s in "AB"] == [[0, 5], [0, 5]]
    assert told["seats"]["A"]["points_destroyed"] == 5  # shown, though VP decided
    ended = next(e for e in game.events() if e["type"] == "GameEnded")
    assert ended["text"] == "Alice and Bob drew 5–5 on victory points (MSN.END.1)."
    overlay = game.http.get(f"/games/{game.id}/overlay", headers=game.headers("spectator")).json()
    assert overlay["vp"] == {"A": 5, "B": 5} and overlay["result"]["draw"] is True
    assert overlay["result"]["text"] == ended["text"]


# -- MSN.CLK.1 and MSN.END.3 around an undo request --------------------------------------------------------------

def seat_clock(game: GameClient, seat: str) -> tuple[float, float, bool, bool]:
    shown = game.state("A")["clock"][seat]
    return shown["used_s"], shown["left_s"], shown["out"], shown["running"]


@pytest.mark.parametrize("ruleset", ["alternating", "reference", "heresy"])
def test_MSN_CLK_1_the_clock_stands_through_the_other_seats_undo_request_then_runs_out(new_game, ruleset):
    with clocked() as clock:
        game = new_game(ruleset, dice="table", clock_minutes=1, clock_loses=True)
        game.start([unit("vets", 5)], [unit("boyz", 5)])
        seat = one_seat_awaited(game, play_awaited(game))["view"]["awaiting"]["seat"]
        other = "B" if seat == "A" else "A"
        before = seat_clock(game, seat)[0]
        clock.wait(20)
        game.cmd(other, "free_roll", spec="D6", purpose="scatter", dice=[4])  # a roll: undoing it needs consent
        assert game.post(other, "undo").status_code == 202
        clock.wait(300)  # far past the minute: the clock stands while the request waits
        conceded = game.refused(seat, "concede")  # nor may either seat concede while it waits
        assert conceded["rule"] == "SVC.UNDO.PENDING"
        assert game.refused(other, "concede")["rule"] == "SVC.UNDO.PENDING"
        assert seat_clock(game, seat) == (before + 20, 60 - before - 20, False, False)
        assert game.post(seat, "undo/reject").status_code == 200
        assert seat_clock(game, seat) == (before + 20, 60 - before - 20, False, True)
        clock.wait(41 - before)
        play_awaited(game)  # its action stands, and its minute is gone: it loses
        state = game.state(other)
        assert state["status"] == "ended"
        assert (state["result"]["by"], state["result"]["winner"], state["result"]["rule"]) == ("time", other,
                                                                                               "MSN.CLK.1")
        assert seat_clock(game, seat) == (61, 0, True, False) and seat_clock(game, other)[2:] == (False, False)
        clock.wait(100)  # an ended game's clock stands
        assert seat_clock(game, seat)[0] == 61
        assert game.refused(other, "concede")["rule"] == "SVC.ENDED"
        assert game.post(other, "undo").json()["rule"] == "SVC.ENDED"
        assert summary(game)["seats"][seat]["time_used_s"] == 61


@pytest.mark.parametrize("ruleset", ["alternating", "reference", "heresy"])
def test_MSN_CLK_1_without_clock_loses_a_seat_out_of_time_is_shown_so_and_plays_on(new_game, ruleset):
    with clocked() as clock:
        game = new_game(ruleset, dice="server", clock_minutes=1)
        game.start([unit("vets", 5)], [unit("boyz", 5)])
        seat = one_seat_awaited(game, play_awaited(game))["view"]["awaiting"]["seat"]
        clock.wait(90)
        answer = play_awaited(game)
        shown = answer["view"]["clock"][seat]
        assert (shown["out"], shown["left_s"]) == (True, 0) and shown["used_s"] >= 90
        assert answer["view"]["status"] == "in_progress" and answer["view"]["result"] is None


@pytest.mark.parametrize("ruleset", ["alternating", "reference", "heresy"])
def test_MSN_END_3_a_concession_while_an_undo_request_waits_is_refused_then_stands_once_it_is_answered(new_game,
                                                                                                        ruleset):
    game = new_game(ruleset, dice="table")
    game.start([unit("vets", 5)], [unit("boyz", 5)])
    game.cmd("A", "free_roll", spec="2D6", purpose="scatter", dice=[3, 4])
    assert game.post("A", "undo").status_code == 202  # it rolled dice: Bob consents
    assert game.state("B")["anytime"] == ["approve", "reject"]  # concede is not open while it waits
    problem = game.refused("B", "concede")
    assert problem["rule"] == "SVC.UNDO.PENDING" and "undo" in problem["detail"]
    assert game.post("B", "undo/approve").status_code == 200
    game.cmd("B", "concede")
    state = game.state("A")
    assert (state["result"]["winner"], state["result"]["by"], state["result"]["rule"]) == ("A", "concession",
                                                                                           "MSN.END.3")
    assert [e["type"] for e in game.events()][-2:] == ["Conceded", "GameEnded"]


def test_MSN_CLK_1_the_summary_charges_the_time_the_clock_charged_when_an_event_is_stamped_a_little_earlier(new_game):
    """Processes sharing a database stamp events by their own clocks: one a little behind gives no time back and
    charges none twice, in `state.clock` and in the summary alike."""
    with clocked() as clock:
        game = new_game("reference", dice="server", clock_minutes=10)
        game.start([unit("vets", 5)], [unit("boyz", 5)])
        seat = one_seat_awaited(game, play_awaited(game))["view"]["awaiting"]["seat"]
        other = "B" if seat == "A" else "A"
        used = seat_clock(game, seat)[0]
        clock.wait(10)
        game.cmd(other, "free_roll", spec="D6", purpose="scatter")
        clock.wait(-5)  # the next write's process is 5 s behind
        game.cmd(other, "free_roll", spec="D6", purpose="scatter")
        clock.wait(10)
        game.cmd(other, "free_roll", spec="D6", purpose="scatter")
        assert seat_clock(game, seat)[0] == used + 15  # 15 s from the first stamp to the last
        assert summary(game)["seats"][seat]["time_used_s"] == used + 15


# -- MSN.END.2: both sides gone at once --------------------------------------------------------------------------

@pytest.mark.parametrize("ruleset", ["alternating", "reference", "heresy"])
def test_MSN_END_2_both_sides_tabled_in_one_phase_is_a_draw_said_as_one(new_game, ruleset):
    game = new_game(ruleset, dice="table", objectives=["alpha"])
    game.start([unit("vets", 5)], [unit("boyz", 5)])
    play_awaited(game)
    game.cmd("A", "record_casualties", unit="boyz", models=5)
    game.cmd("B", "record_casualties", unit="vets", models=5)
    final = played_out(game)
    assert final["battle_round"] == 1
    assert final["result"] == {"reason": "wipeout", "winner": None, "draw": True, "by": "wipeout",
                               "score": {"A": 0, "B": 0}, "rule": "MSN.END.2",
                               "how": "Decided by a wipe-out: neither side has a unit left"}
    ended = next(e for e in game.events() if e["type"] == "GameEnded")
    assert ended["text"] == "Neither of Alice and Bob has a unit left on the battlefield: a draw (MSN.END.2)."
    overlay = game.http.get(f"/games/{game.id}/overlay", headers=game.headers("spectator")).json()
    assert overlay["result"]["how"] == final["result"]["how"]


def test_MSN_CLK_1_clock_loses_without_a_clock_is_refused_rather_than_ignored(http):
    body = {"ruleset": "reference", "players": [{"seat": "A", "name": "Alice"}, {"seat": "B", "name": "Bob"}],
            "options": {"clock_loses": True}}
    refused = http.post("/games", json=body)
    assert refused.status_code == 422, refused.text
    problem = refused.json()
    assert problem["field"] == "/options/clock_loses" and "clock_minutes" not in problem["detail"]
    assert "minutes" in problem["detail"]
    body["options"]["clock_minutes"] = 30
    assert http.post("/games", json=body).status_code == 201
