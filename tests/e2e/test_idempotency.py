"""Idempotency-Key: the same key with the same body replays the first answer, status and body,
and appends nothing again; keys are scoped per game and token; answers survive a restart."""
import json

from fastapi.testclient import TestClient

from tests.conftest import settings_for
from tests.support.client import GameClient, unit
from warlog.api.app import create_app

ROLL = {"type": "free_roll", "spec": "3D6", "purpose": "scatter"}


def started(new_game, dice="server"):
    game = new_game(dice=dice)
    game.start([unit("scouts", 5)], [unit("boyz", 10)])
    return game


def keyed(game, seat, body, key, **headers):
    return game.send(seat, body, **{"Idempotency-Key": key, **headers})


def log(game):
    return game.events()


def test_an_accepted_command_sent_twice_is_answered_twice_and_rolled_once(new_game):
    game = started(new_game)
    first = keyed(game, "A", ROLL, "roll-1")
    before = log(game)
    again = keyed(game, "A", ROLL, "roll-1")
    assert first.status_code == again.status_code == 200
    assert again.json() == first.json()
    assert log(game) == before
    assert [e["type"] for e in before].count("DiceRolled") == 1


def test_the_same_body_in_another_key_order_and_spacing_is_the_same_body(new_game):
    game = started(new_game)
    first = keyed(game, "B", ROLL, "roll-2")
    before = log(game)
    shuffled = json.dumps({"purpose": "scatter", "spec": "3D6", "type": "free_roll"}, indent=2)
    again = game.http.post(f"/games/{game.id}/commands", content=shuffled,
                           headers=game.headers("B", **{"Idempotency-Key": "roll-2",
                                                        "Content-Type": "application/json"}))
    assert (again.status_code, again.json()) == (200, first.json())
    assert log(game) == before


def test_a_refusal_is_replayed_with_its_status_and_problem_even_once_the_rules_would_allow_it(new_game):
    game = new_game()
    assert game.muster("A", [unit("scouts")]).status_code == 200
    first = keyed(game, "A", {"type": "start_game"}, "start")
    assert first.status_code == 409
    assert game.muster("B", [unit("boyz")]).status_code == 200
    before = log(game)
    again = keyed(game, "A", {"type": "start_game"}, "start")
    assert again.status_code == 409
    assert again.headers["content-type"].startswith("application/problem+json")
    assert again.json() == first.json()
    assert log(game) == before
    assert game.state()["status"] == "setup"


def test_a_malformed_request_is_replayed_as_the_same_422(new_game):
    game = started(new_game)
    first = keyed(game, "A", {"type": "teleport"}, "bad")
    again = keyed(game, "A", {"type": "teleport"}, "bad")
    assert (first.status_code, again.status_code) == (422, 422)
    assert again.json() == first.json()


def test_an_undo_sent_twice_undoes_once(new_game):
    game = started(new_game)
    game.cmd("A", "record_casualties", unit="boyz", models=2)
    first = game.post("A", "undo", **{"Idempotency-Key": "undo-1"})
    assert first.status_code == 200
    assert first.json()["events"][0]["type"] == "ActionUndone"
    before = log(game)
    again = game.post("A", "undo", **{"Idempotency-Key": "undo-1"})
    assert (again.status_code, again.json()) == (200, first.json())
    assert log(game) == before
    assert game.state()["units"]["boyz"]["models_alive"] == 10


def test_an_undo_request_awaiting_consent_is_replayed_as_the_same_202(new_game):
    game = started(new_game)
    game.cmd("A", "free_roll", spec="D6", purpose="x")
    first = game.post("A", "undo", **{"Idempotency-Key": "ask"})
    assert first.status_code == 202
    before = log(game)
    again = game.post("A", "undo", **{"Idempotency-Key": "ask"})
    assert (again.status_code, again.json()) == (202, first.json())
    assert [e["type"] for e in log(game)].count("UndoRequested") == 1
    assert log(game) == before


def test_a_muster_sent_twice_is_mustered_once(new_game):
    game = new_game()
    body = {"units": [unit("scouts")]}
    headers = game.headers("A", **{"Idempotency-Key": "army"})
    first = game.http.post(f"/games/{game.id}/armies", json=body, headers=headers)
    again = game.http.post(f"/games/{game.id}/armies", json=body, headers=headers)
    assert (first.status_code, again.status_code) == (200, 200)
    assert again.json() == first.json()
    assert [e["type"] for e in log(game)].count("ArmyMustered") == 1


def test_keys_are_scoped_per_seat_so_the_other_seat_may_use_the_same_key(new_game):
    game = started(new_game)
    mine = keyed(game, "A", ROLL, "shared-key")
    theirs = keyed(game, "B", {"type": "free_roll", "spec": "D6", "purpose": "morale"}, "shared-key")
    assert (mine.status_code, theirs.status_code) == (200, 200)
    assert theirs.json()["version"] > mine.json()["version"]
    assert theirs.json()["events"][0]["by"] == "B"


def test_keys_are_scoped_per_game(new_game):
    one, two = started(new_game), started(new_game)
    assert keyed(one, "A", ROLL, "k").status_code == 200
    assert keyed(two, "A", {"type": "concede"}, "k").status_code == 200
    assert two.state()["status"] == "ended"


def test_a_refused_key_of_one_seat_does_not_answer_the_other_seat(new_game):
    game = started(new_game)
    assert keyed(game, "A", {"type": "start_game"}, "same").status_code == 409
    assert keyed(game, "B", {"type": "concede"}, "same").status_code == 200


def test_stored_answers_and_refusals_survive_a_restart_on_the_same_file(tmp_path):
    with TestClient(create_app(settings_for(tmp_path))) as http:
        game = GameClient(http)
        game.start([unit("scouts", 5)], [unit("boyz", 10)])
        accepted = keyed(game, "A", ROLL, "before-restart")
        refused = keyed(game, "B", {"type": "start_game"}, "refused-before-restart")
        assert (accepted.status_code, refused.status_code) == (200, 409)
        before = log(game)
    with TestClient(create_app(settings_for(tmp_path))) as http:
        game.http = http
        again = keyed(game, "A", ROLL, "before-restart")
        assert (again.status_code, again.json()) == (200, accepted.json())
        refused_again = keyed(game, "B", {"type": "start_game"}, "refused-before-restart")
        assert (refused_again.status_code, refused_again.json()) == (409, refused.json())
        other_body = keyed(game, "A", {"type": "free_roll", "spec": "D6", "purpose": "other"}, "before-restart")
        assert other_body.status_code == 422
        assert log(game) == before


def test_without_a_key_the_same_body_is_a_new_command_each_time(new_game):
    game = started(new_game)
    first, second = game.send("A", ROLL), game.send("A", ROLL)
    assert second.json()["version"] == first.json()["version"] + 1
    assert second.json()["events"][0]["data"]["counter"] == first.json()["events"][0]["data"]["counter"] + 1
