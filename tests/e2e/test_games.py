"""Creating a game, mustering, starting, and the contract's answers."""
from tests.support.client import awaits, unit


def test_a_new_game_answers_its_id_tokens_and_dice_commitment(http):
    response = http.post("/games", json={"ruleset": "alternating", "dice": "server",
                                         "players": [{"seat": "A", "name": "Alice"}, {"seat": "B", "name": "Bob"}]})
    assert response.status_code == 201
    body = response.json()
    assert body["version"] == 1
    assert set(body["tokens"]) == {"A", "B", "spectator"}
    assert len(body["dice_commitment"]) == 64


def test_starting_a_game_fixes_starting_strength_and_awaits_the_movement_count(new_game):
    game = new_game()
    game.start([unit("a1", 5), unit("a2", 3)], [unit("b1", 10)])
    state = game.state()
    assert state["status"] == "in_progress"
    assert state["battle_round"] == 1
    assert (state["phase"], state["sub_phase"]) == ("movement", "movement_pass_points")
    assert awaits(state) == {"seat": None, "action": "confirm_count"}
    assert state["units"]["a2"]["starting_strength"] == 3
    assert game.verify()["chain_ok"] is True


def test_a_free_roll_appends_exactly_one_event_and_changes_nothing_else(new_game):
    game = new_game()
    game.start([unit("a1")], [unit("b1")])
    before = game.state("B")
    answer = game.cmd("B", "free_roll", spec="D3+1", purpose="difficult terrain")
    assert len(answer["events"]) == 1
    rolled = answer["events"][0]
    assert rolled["by"] == "B" and rolled["data"]["purpose"] == "difficult terrain"
    assert 2 <= rolled["data"]["total"] <= 4
    after = game.state("B")
    assert {k: v for k, v in after.items() if k != "version"} == \
        {k: v for k, v in before.items() if k != "version"}


def test_a_browser_on_another_origin_may_call_the_api_with_its_bearer_token(http, new_game):
    game = new_game()
    preflight = http.options(f"/games/{game.id}/commands", headers={
        "Origin": "https://table.example", "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization, idempotency-key, content-type"})
    assert preflight.status_code == 200
    assert preflight.headers["access-control-allow-origin"] in ("*", "https://table.example")
    answer = http.get(f"/games/{game.id}/state", headers={**game.headers("A"), "Origin": "https://table.example"})
    assert answer.status_code == 200 and answer.headers["access-control-allow-origin"] == "*"
