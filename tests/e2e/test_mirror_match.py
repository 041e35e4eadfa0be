"""CONTRACT.md "Unit ids are unique in a game": when a seat's army holds an id the other army already uses (a mirror
match, two rosters from one list builder), the later army's colliding ids are renamed the same way every time, its
own links follow, the muster answer says so (`renamed`), and no army is refused for it."""
from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.conftest import settings_for
from tests.support.client import GameClient, table_of, unit, vehicle
from tests.support.shared import corpus
from warlog.api.app import create_app


def the_list() -> list[dict]:
    """One army list, as a list builder writes it for both players: a leader attached to a squad, a squad embarked
    in a transport, and an id that the renaming's first choice would collide with."""
    return [unit("captain-1", 1, keywords=("INFANTRY", "CHARACTER"), leader_of="assault-squad-1"),
            unit("assault-squad-1", 10), vehicle("rhino-1", capacity=10),
            unit("tactical-1", 5, embarked_in="rhino-1"), unit("tactical-1-b", 5)]


RENAMED = {"captain-1": "captain-1-b", "assault-squad-1": "assault-squad-1-b", "rhino-1": "rhino-1-b",
           "tactical-1": "tactical-1-b2", "tactical-1-b": "tactical-1-b-b"}


@pytest.mark.parametrize("ruleset", ["alternating", "reference", "heresy"])
def test_both_seats_muster_the_same_list_and_the_game_starts_with_every_unit_its_own(new_game, ruleset):
    game = new_game(ruleset)
    first, second = game.muster("A", the_list()), game.muster("B", the_list())
    assert first.status_code == 200 and first.json()["renamed"] == {}
    assert second.status_code == 200, second.text
    assert second.json()["renamed"] == RENAMED
    [mustered] = second.json()["events"]
    assert mustered["data"]["renamed"] == RENAMED
    by_id = {u["id"]: u for u in mustered["data"]["units"]}
    assert by_id["captain-1-b"]["leader_of"] == "assault-squad-1-b"  # its links follow the renaming
    assert by_id["tactical-1-b2"]["embarked_in"] == "rhino-1-b"
    assert "renamed" not in game.events()[1]["data"]  # a muster that renamed nothing is logged as before

    game.cmd("A", "start_game")
    units = game.state()["units"]
    assert sorted(uid for uid, u in units.items() if u["owner"] == "A") == sorted(RENAMED)
    assert sorted(uid for uid, u in units.items() if u["owner"] == "B") == sorted(RENAMED.values())
    assert units["assault-squad-1-b"]["starting_strength"] == units["assault-squad-1"]["starting_strength"]
    assert units["tactical-1-b2"]["embarked_in"] == "rhino-1-b" and units["tactical-1"]["embarked_in"] == "rhino-1"


def test_the_same_lists_are_renamed_the_same_way_in_every_game(new_game):
    answers = []
    for _ in range(2):
        game = new_game()
        game.muster("A", the_list())
        answers.append(game.muster("B", the_list()).json())
    assert answers[0]["renamed"] == answers[1]["renamed"] == RENAMED
    assert answers[0]["events"][0]["data"] == answers[1]["events"][0]["data"]


def test_a_renamed_army_is_rebuilt_the_same_from_its_log_and_plays_its_requests_again(tmp_path, new_game):
    game = new_game("reference")
    game.muster("A", the_list())
    game.muster("B", the_list())
    game.cmd("A", "start_game")
    seen = {role: game.state(role) for role in ("A", "B", "spectator")}
    verified = game.verify()
    assert verified["chain_ok"] and verified["commands_ok"] is True  # the musters played again make the same events
    with TestClient(create_app(settings_for(tmp_path))) as fresh:  # a new process: the game read from its log
        again = GameClient.__new__(GameClient)
        again.http, again.id, again.tokens = fresh, game.id, game.tokens
        for role, state in seen.items():
            assert again.state(role) == state
        assert table_of(again.state("A")) == table_of(seen["A"])


def test_a_replayed_muster_says_what_it_renamed(new_game):
    game = new_game()
    game.muster("A", the_list())
    key = {"Idempotency-Key": "mirror-1"}
    first = game.http.post(f"/games/{game.id}/armies", json={"units": the_list()}, headers=game.headers("B", **key))
    again = game.http.post(f"/games/{game.id}/armies", json={"units": the_list()}, headers=game.headers("B", **key))
    assert again.status_code == 200 and again.json() == first.json() and again.json()["renamed"] == RENAMED


def test_a_seat_mustering_again_beside_a_renamed_army_keeps_its_own_ids(new_game):
    game = new_game()
    game.muster("A", the_list())
    game.muster("B", the_list())
    again = game.muster("A", the_list())  # A replaces its army: B's renamed ids collide with none of A's
    assert again.json()["renamed"] == {}
    assert sorted(u for u, v in game.state()["units"].items() if v["owner"] == "A") == sorted(RENAMED)


def test_an_army_with_an_id_twice_in_itself_is_still_refused(new_game):
    game = new_game()
    refused = game.muster("A", [unit("scouts-1"), unit("scouts-1")])
    assert refused.status_code == 422 and refused.json()["field"] == "/units/1/id"  # a JSON pointer (CONTRACT.md)


def test_two_players_importing_one_roster_file_both_muster_and_the_leader_follows_its_squad(new_game):
    game = new_game("reference")
    raw = (corpus() / "40k11e_newrecruit_aeldari-hank-2k.json").read_bytes()
    answers = [game.http.post(f"/games/{game.id}/armies", content=raw,
                              headers=game.headers(seat, **{"Content-Type": "application/json"})) for seat in "AB"]
    assert [a.status_code for a in answers] == [200, 200], answers[1].text
    a, b = (answer.json() for answer in answers)
    assert a["renamed"] == {} and b["import"]["units"] == a["import"]["units"]  # what was read, as read
    assert b["renamed"] == {uid: f"{uid}-b" for uid in a["import"]["units"]}
    mustered = {u["id"]: u for u in b["events"][0]["data"]["units"]}
    assert mustered["asurmen-1-b"]["leader_of"] == "dire-avengers-1-b"
    game.cmd("A", "start_game")
    owners = {uid: u["owner"] for uid, u in game.state()["units"].items()}
    assert len(owners) == 2 * len(a["import"]["units"]) and owners["asurmen-1-b"] == "B"
