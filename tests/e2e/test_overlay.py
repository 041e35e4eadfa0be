"""The overlay, its live feed, and the spectator's broadcast delay (seats always live).

Time is moved on by hand (`clock`): events are stamped and the delay is judged on the
same fake clock, so nothing here depends on how fast the machine is.
"""
import httpx
import pytest

from tests.conftest import settings_for
from tests.e2e.test_roll_words import BOLTER, roll_off
from tests.support.client import GameClient, play_awaited, table_of, unit
from tests.support.live import WAIT_S, messages, serving
from warlog.api import horizon as api_horizon
from warlog.api import writing as api_writing
from warlog.api.app import create_app
from warlog.api.horizon import iso


class Clock:
    def __init__(self) -> None:
        self.t = api_horizon.clock()

    def advance(self, seconds: float) -> None:
        self.t += seconds


@pytest.fixture
def clock(monkeypatch) -> Clock:
    fake = Clock()
    monkeypatch.setattr(api_writing, "now", lambda: iso(fake.t))
    monkeypatch.setattr(api_horizon, "clock", lambda: fake.t)
    return fake


def overlay(game, role="A"):
    response = game.http.get(f"/games/{game.id}/overlay", headers=game.headers(role))
    assert response.status_code == 200, response.text
    return response.json()


def started(new_game, **options) -> GameClient:
    game = new_game(**options)
    game.start([unit("scouts-1"), unit("scouts-2")], [unit("boyz-1", 3)])
    return game


def into_move_units(game):
    """Both counts confirmed (B gets a pass point), then Move Units' roll-off (server dice)."""
    game.cmd("A", "confirm_count")
    game.cmd("B", "confirm_count")
    return game.cmd("A", "roll_off")["events"]


def test_the_overlay_shows_where_the_game_is_whose_go_it_is_and_the_last_roll(new_game):
    game = started(new_game)
    roll_off = into_move_units(game)[-1]
    state, seen = game.state(), overlay(game, "spectator")
    assert seen["version"] == state["version"] and seen["battle_round"] == 1
    assert (seen["phase"], seen["sub_phase"]) == ("movement", "move_units")
    assert seen["pass_points"] == {"A": 0, "B": 1} and seen["cp"] == {"A": 0, "B": 0}
    assert seen["whose_go"] == state["awaiting"]["seat"] and seen["awaiting"] == state["awaiting"]["action"]
    assert seen["last_roll"]["seq"] == roll_off["seq"] and seen["last_roll"]["faces"] == roll_off["data"]["faces"]
    assert seen["units_destroyed"] == {"A": [], "B": []}


def test_the_overlay_lists_the_units_each_seat_has_lost(new_game):
    game = started(new_game)
    game.cmd("B", "record_casualties", unit="boyz-1", models=3)
    assert overlay(game)["units_destroyed"] == {"A": [], "B": ["boyz-1"]}


def test_the_overlay_stream_sends_the_overlay_now_then_a_new_one_after_each_action(tmp_path):
    with serving(create_app(settings_for(tmp_path, keepalive_s=1))) as url, \
            httpx.Client(base_url=url, timeout=WAIT_S) as http:
        game = GameClient(http)
        game.start([unit("scouts-1")], [unit("boyz-1")])
        with http.stream("GET", f"/games/{game.id}/overlay/stream",
                         params={"token": game.tokens["spectator"]}) as response:
            assert response.status_code == 200
            feed = messages(response)
            first = next(feed)
            assert first["event"] == "overlay" and first["data"] == overlay(game)
            answer = game.cmd("A", "confirm_count")
            second = next(feed)
            assert int(second["id"]) == second["data"]["version"] == answer["version"]
            assert second["data"]["awaiting"] == "confirm_count" and second["data"]["whose_go"] == "B"


def test_a_spectator_sees_the_game_late_when_a_delay_is_set_and_the_seats_see_it_live(new_game, clock):
    game = started(new_game, spectator_delay_s=60)
    into_move_units(game)
    live = game.state("A")
    late = game.state("spectator")
    assert late["version"] == 1 and late["status"] == "setup" and live["status"] == "in_progress"
    page = game.http.get(f"/games/{game.id}/events", headers=game.headers("spectator")).json()
    assert [e["seq"] for e in page["events"]] == [1] and page["last_seq"] == 1
    assert overlay(game, "spectator")["version"] == 1
    assert game.http.get(f"/games/{game.id}/audit/2", headers=game.headers("spectator")).status_code == 404
    assert overlay(game, "B")["version"] == live["version"]

    clock.advance(61)
    assert table_of(game.state("spectator")) == table_of(live)
    assert game.http.get(f"/games/{game.id}/audit/2", headers=game.headers("spectator")).status_code == 200


def test_a_delayed_spectator_sees_the_state_as_of_the_last_event_old_enough(new_game, clock):
    game = started(new_game, spectator_delay_s=30)
    then = game.state("A")
    clock.advance(40)
    game.cmd("A", "confirm_count")
    clock.advance(10)
    late = game.state("spectator")
    assert late["version"] == then["version"]
    assert table_of(late) == table_of(then)


def test_a_delayed_spectator_verifies_the_log_it_sees_and_is_told_the_seed_once_it_sees_the_end(new_game, clock):
    def verify(role):
        response = game.http.get(f"/games/{game.id}/verify", headers=game.headers(role))
        assert response.status_code == 200, response.text
        return response.json()

    game = started(new_game, spectator_delay_s=60)
    before = game.events("A")
    clock.advance(100)
    game.cmd("A", "free_roll", spec="2D6", purpose="after the horizon")
    game.cmd("B", "concede")
    live = verify("A")
    assert live["chain_ok"] and live["dice_ok"] is True and live["server_seed"]
    assert live["events"] == len(game.events("A")) > len(before)
    late = verify("spectator")
    assert late["chain_ok"] and late["events"] == len(before) and late["head_hash"] == before[-1]["hash"]
    assert late["server_seed"] is None and late["dice_ok"] is None  # the end is still a minute away for it
    head = game.http.get(f"/games/{game.id}/verify", params={"head": live["head_hash"]},
                         headers=game.headers("spectator")).json()
    assert head["extends_head"] is False  # an event it has not seen yet is not in the log it checks

    clock.advance(61)
    assert verify("spectator") == live


def test_a_delayed_spectator_sees_the_undone_flags_that_stood_at_its_horizon(new_game, clock):
    game = started(new_game, spectator_delay_s=30)
    action = game.cmd("A", "confirm_count")
    clock.advance(40)
    game.post("A", "undo")
    clock.advance(10)
    seats = {e["seq"]: e["undone"] for e in game.events("B")}
    spectator = {e["seq"]: e["undone"] for e in game.events("spectator")}
    seq = action["events"][0]["seq"]
    assert seats[seq] is True and spectator[seq] is False
    assert max(spectator) == seq


def test_the_delayed_feed_holds_events_back_until_the_delay_has_passed(tmp_path, clock):
    with serving(create_app(settings_for(tmp_path, keepalive_s=1, feed_poll_s=0.2))) as url, \
            httpx.Client(base_url=url, timeout=WAIT_S) as http:
        game = GameClient(http, options={"spectator_delay_s": 60})
        game.start([unit("scouts-1")], [unit("boyz-1")])
        head = game.state("A")["version"]
        with http.stream("GET", f"/games/{game.id}/events/stream",
                         params={"token": game.tokens["spectator"], "after": 0}) as spectator, \
                http.stream("GET", f"/games/{game.id}/events/stream",
                            params={"token": game.tokens["A"], "after": 0}) as seat:
            seat_seqs = [int(m["id"]) for _, m in zip(range(head), messages(seat))]
            assert seat_seqs == list(range(1, head + 1))  # live at once
            feed = messages(spectator)
            assert next(feed)["data"]["type"] == "GameCreated"  # only the creation is old enough
            clock.advance(61)
            assert [int(next(feed)["id"]) for _ in range(head - 1)] == list(range(2, head + 1))


def test_the_overlay_shows_a_free_roll_as_the_last_roll_until_it_is_undone(new_game):
    game = started(new_game)
    roll_off = into_move_units(game)[-1]
    free = game.cmd("B", "free_roll", spec="3D6", purpose="morale")["events"][0]
    seen = overlay(game, "spectator")["last_roll"]
    assert (seen["seq"], seen["purpose"], seen["faces"], seen["seat"]) == \
           (free["seq"], "morale", free["data"]["faces"], "B")
    assert game.state()["last_roll"]["seq"] == roll_off["seq"]  # the game's own state ignores free rolls
    assert game.post("B", "undo").status_code == 202
    assert game.post("A", "undo/approve").status_code == 200
    assert overlay(game)["last_roll"]["seq"] == roll_off["seq"]


# -- in the players' words (issue 26, "Overlay"): VP and CP per seat, unit names, the last roll's outcomes, the result

WORDS = ("faces", "needed", "outcomes", "successes", "text")


def shooting(new_game, dice):
    """A reference game (it keeps VP, EXT.VP.1): A's two shooters attack B's guard; the hit roll is the next roll
    (at the table, awaited; with server dice, rolled in the attack's answer)."""
    game = new_game("reference", dice=dice)
    game.start([unit("shooters", 2, name="Intercessors", weapons=[BOLTER])], [unit("guard", 3, name="Guardsmen")])
    roll_off(game, dice)
    while game.state()["phase"] != "shooting" or game.state()["awaiting"]["action"] != "end_phase":
        play_awaited(game)
    game.cmd("A", "select", unit="shooters", shooting="normal")
    game.cmd("A", "attack", unit="shooters", weapon="Bolter", target="guard")
    return game


@pytest.mark.parametrize("dice", ["server", "table"])
def test_the_overlay_shows_vp_and_cp_per_seat_and_the_last_roll_with_its_outcomes_and_its_unit_by_name(
        new_game, dice):
    game = shooting(new_game, dice)
    if dice == "table":
        game.cmd("A", "roll", dice=[6, 3, 2, 1])
    state, seen = game.state(), overlay(game, "spectator")
    assert seen["vp"] == state["vp"] == {"A": 0, "B": 0} and seen["cp"] == state["cp"]
    assert seen["players"] == {"A": "Alice", "B": "Bob"}
    roll = seen["last_roll"]  # server dice roll the attack on as far as the dice take it: hit, wound, save...
    assert roll["unit_name"] == {"shooters": "Intercessors", "guard": "Guardsmen"}[roll["unit"]]
    assert {k: roll[k] for k in WORDS} == {k: state["last_roll"][k] for k in WORDS}  # the state's own words
    assert len(roll["outcomes"]) == len(roll["faces"])
    assert roll["successes"] == sum(o in ("success", "critical") for o in roll["outcomes"])
    if dice == "table":  # the hit roll, awaited and entered
        assert roll["purpose"] == "hit" and roll["unit"] == "shooters" and roll["needed"] == 3
        assert roll["text"].startswith(f"Hit roll: {roll['successes']} hit")
        assert (roll["faces"], roll["outcomes"], roll["successes"]) == (
            [6, 3, 2, 1], ["critical", "success", "fail", "fail"], 2)
        assert roll["text"] == "Hit roll: 2 hits of 4 at 3+, 1 of them critical"


@pytest.mark.parametrize("dice", ["server", "table"])
def test_the_overlay_names_the_units_each_seat_lost_and_shows_no_vp_where_the_game_scores_none(new_game, dice):
    game = new_game(dice=dice)
    game.start([unit("scouts-1", name="Scouts")], [unit("boyz-1", 3, name="Boyz"), unit("boyz-2", 3, name="Boyz")])
    game.cmd("B", "record_casualties", unit="boyz-2", models=3)
    seen = overlay(game, "spectator")
    assert seen["units_destroyed"] == {"A": [], "B": ["boyz-2"]}
    assert seen["units_destroyed_names"] == {"A": [], "B": ["Boyz 2"]}  # told apart from the other Boyz
    assert "vp" not in seen and "vp" not in game.state()  # alternating without objectives scores no VP


@pytest.mark.parametrize("dice", ["server", "table"])
def test_the_overlay_shows_the_result_with_the_sentence_of_the_event_that_ended_the_game(new_game, dice):
    game = started(new_game, dice=dice)
    assert overlay(game)["result"] is None
    ended = next(e for e in game.cmd("B", "concede")["events"] if e["type"] == "GameEnded")
    seen = overlay(game, "spectator")
    assert seen["status"] == "ended"
    assert seen["result"] == {**game.state()["result"], "text": ended["text"]}
    assert (seen["result"]["winner"], seen["result"]["by"]) == ("A", "concession")
    assert seen["result"]["text"] == "Bob conceded: Alice won (MSN.END.3)."


def test_a_delayed_spectator_sees_the_result_only_once_the_delay_has_passed(new_game, clock):
    game = started(new_game, spectator_delay_s=60)
    clock.advance(100)
    game.cmd("B", "concede")
    assert overlay(game, "spectator")["result"] is None and overlay(game, "spectator")["status"] == "in_progress"
    assert overlay(game, "A")["result"]["text"] == "Bob conceded: Alice won (MSN.END.3)."
    clock.advance(61)
    assert overlay(game, "spectator")["result"] == overlay(game, "A")["result"]
