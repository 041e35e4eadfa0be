"""Bad input (issue 2): every malformed or illegal request gets the contract's status, in the
contract's order of judgement, as problem+json saying what to fix, and appends nothing."""
import json

import pytest
from fastapi.testclient import TestClient

from tests.conftest import settings_for
from tests.support.client import GameClient, unit
from tests.support.problems import assert_sentence
from warlog.api.app import create_app

PROBLEM = "application/problem+json"


def last_seq(game):
    response = game.http.get(f"/games/{game.id}/events", params={"limit": 1}, headers=game.headers("A"))
    assert response.status_code == 200, response.text
    return response.json()["last_seq"]


def started(new_game, dice="server"):
    game = new_game(dice=dice)
    game.start([unit("scouts", 5)], [unit("boyz", 10)])
    return game


def refused_with(game, status, send, rule=None):
    """Send a request that must fail with `status`; check the problem body and that nothing was appended."""
    before = last_seq(game)
    response = send()
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith(PROBLEM)
    problem = response.json()
    assert problem["status"] == status
    assert problem["type"].startswith("https://") and problem["title"] and problem["detail"]
    if rule is not None:
        assert problem["rule"] == rule
    assert_sentence(problem)
    assert last_seq(game) == before
    return problem


def post_command(game, body, token=None, game_id=None, **headers):
    auth = {"Authorization": f"Bearer {token}"} if token is not None else {}
    return game.http.post(f"/games/{game_id or game.id}/commands", json=body, headers={**auth, **headers})


# --- who may ask -------------------------------------------------------------------------------------------

def test_a_wrong_token_is_401(new_game):
    game = started(new_game)
    problem = refused_with(game, 401, lambda: post_command(game, {"type": "concede"}, token="not-a-token"))
    assert "token" in problem["detail"]


def test_no_token_at_all_is_401_with_a_bearer_challenge(new_game):
    game = started(new_game)
    response = game.http.get(f"/games/{game.id}/state")
    assert response.status_code == 401
    assert response.headers["www-authenticate"] == "Bearer"
    assert response.headers["content-type"].startswith(PROBLEM)


def test_a_token_forged_from_the_right_game_id_is_401(new_game):
    game = started(new_game)
    forged = game.tokens["A"].split(".")[0] + ".guessed"
    refused_with(game, 401, lambda: post_command(game, {"type": "concede"}, token=forged))


def test_another_games_token_is_403_for_writing_and_reading(new_game):
    game, elsewhere = started(new_game), started(new_game)
    refused_with(game, 403, lambda: post_command(game, {"type": "concede"}, token=elsewhere.tokens["A"]))
    response = game.http.get(f"/games/{game.id}/events", headers=elsewhere.headers("spectator"))
    assert response.status_code == 403
    assert response.json()["detail"] == "This token belongs to another game."


def test_the_spectator_token_writing_is_403(new_game):
    game = started(new_game)
    problem = refused_with(game, 403, lambda: post_command(game, {"type": "concede"}, token=game.tokens["spectator"]))
    assert "spectator" in problem["detail"]
    refused_with(game, 403, lambda: game.post("spectator", "undo"))
    refused_with(game, 403, lambda: game.muster("spectator", [unit("x")]))


def test_an_unknown_game_is_404(new_game):
    game = started(new_game)
    missing = "00000000-0000-4000-8000-000000000000"
    refused_with(game, 404, lambda: post_command(game, {"type": "concede"}, token=game.tokens["A"], game_id=missing))
    assert game.http.get(f"/games/{missing}/state", headers=game.headers("A")).status_code == 404
    bad_id = game.http.get("/games/not-a-uuid/state", headers=game.headers("A"))
    assert bad_id.status_code == 404
    assert bad_id.json()["detail"] == 'There is no game "not-a-uuid": check the game\'s link.'
    nowhere = game.http.get("/nowhere", headers=game.headers("A"))
    assert nowhere.status_code == 404 and nowhere.json()["detail"] == "Nothing is served at /nowhere."
    wrong_method = game.http.delete(f"/games/{game.id}/state", headers=game.headers("A"))
    assert wrong_method.status_code == 405
    assert wrong_method.json()["detail"] == f"The path /games/{game.id}/state takes no DELETE; it takes GET, HEAD."
    for refused in (bad_id, nowhere, wrong_method):
        assert_sentence(refused.json())


def test_an_unknown_unit_is_404_naming_it(new_game):
    game = started(new_game)
    problem = refused_with(game, 404, lambda: game.send("A", {"type": "record_casualties", "unit": "ghost",
                                                              "models": 1}))
    assert problem["detail"] == "No unit 'ghost' in this game."
    assert problem["field"] == "/unit"


# --- what is asked -----------------------------------------------------------------------------------------

def test_an_unknown_command_type_is_422_listing_the_known_ones(new_game):
    game = started(new_game)
    problem = refused_with(game, 422, lambda: game.send("A", {"type": "teleport"}))
    assert problem["field"] == "/type"
    assert problem["detail"].startswith('There is no command "teleport": `type` must be one of: add_entropy, ')
    assert "free_roll" in problem["detail"]


@pytest.mark.parametrize("raw", [b"{not json", b"[1, 2]", b'{"spec": "D6"}', b'"free_roll"', b""])
def test_a_body_that_is_not_a_command_object_is_422(new_game, raw):
    game = started(new_game)
    refused_with(game, 422, lambda: game.http.post(f"/games/{game.id}/commands", content=raw,
                                                   headers=game.headers("A", **{"Content-Type": "application/json"})))


def test_a_field_of_the_wrong_type_is_422_naming_it(new_game):
    game = started(new_game)
    problem = refused_with(game, 422, lambda: game.send("A", {"type": "free_roll", "spec": 6, "purpose": "x"}))
    assert problem["field"] == "/spec"
    assert problem["detail"] == "`spec` (a dice expression: 2, D6, D3+1, 2D6) must be text, not 6."


@pytest.mark.parametrize("dice_mode", ["server", "table"])
@pytest.mark.parametrize("spec", ["x", "0D6", "51D6", "D1", "D6+", "2000"])
def test_a_free_roll_whose_spec_is_no_dice_expression_is_422_naming_it_in_either_dice_mode(new_game, dice_mode,
                                                                                              spec):
    game = started(new_game, dice=dice_mode)
    problem = refused_with(game, 422, lambda: game.send("A", {"type": "free_roll", "spec": spec, "purpose": "x"}))
    assert problem["field"] == "/spec" and problem["detail"].startswith("`spec`: ")


def test_missing_dice_in_table_mode_is_422_saying_how_many_of_what(new_game):
    game = started(new_game, dice="table")
    problem = refused_with(game, 422, lambda: game.send("A", {"type": "free_roll", "spec": "3D6", "purpose": "x"}))
    assert problem["field"] == "/dice"
    assert "3 dice of 6 sides" in problem["detail"]
    problem = refused_with(game, 422, lambda: game.send("B", {"type": "roll_off"}))
    assert '"A"' in problem["detail"] and '"B"' in problem["detail"] and "D6" in problem["detail"]


@pytest.mark.parametrize("body", [
    {"type": "free_roll", "spec": "D6", "purpose": "x", "dice": [7]},
    {"type": "free_roll", "spec": "2D6", "purpose": "x", "dice": [0, 3]},
    {"type": "free_roll", "spec": "D3", "purpose": "x", "dice": [4]},
    {"type": "free_roll", "spec": "2D6", "purpose": "x", "dice": [3]},
    {"type": "roll_off", "dice": {"A": 7, "B": 2}},
    {"type": "roll_off", "dice": {"A": 3}},
])
def test_dice_faces_out_of_range_or_of_the_wrong_count_are_422(new_game, body):
    game = started(new_game, dice="table")
    problem = refused_with(game, 422, lambda: game.send("A", body))
    assert problem["field"] == "/dice"


def test_table_dice_on_a_command_that_rolls_nothing_are_422(new_game):
    game = started(new_game, dice="table")
    refused_with(game, 422, lambda: game.send("A", {"type": "concede", "dice": [3]}))


@pytest.mark.parametrize("body", [
    {"type": "free_roll", "spec": "2D6", "purpose": "x", "dice": [3, 4]},
    {"type": "roll_off", "dice": {"A": 3, "B": 4}},
    {"type": "concede", "dice": [6]},
])
def test_a_dice_field_in_server_mode_is_409_svc_dice_server(new_game, body):
    game = started(new_game)
    refused_with(game, 409, lambda: game.send("A", body), rule="SVC.DICE.SERVER")


def test_a_stale_if_match_is_412_and_the_current_one_is_accepted(new_game):
    game = started(new_game)
    version = last_seq(game)
    body = {"type": "free_roll", "spec": "D6", "purpose": "x"}
    problem = refused_with(game, 412, lambda: game.send("A", body, **{"If-Match": f'"{version - 1}"'}))
    assert str(version) in problem["detail"]
    assert game.send("A", body, **{"If-Match": f'"{version}"'}).status_code == 200


def test_an_if_match_that_names_no_version_is_412(new_game):
    game = started(new_game)
    for named_none in ("yesterday", "", '""', "*"):  # as the OpenAPI document says: no version matches none
        refused_with(game, 412, lambda named_none=named_none: game.send("A", {"type": "concede"}, **{"If-Match": named_none}))


def test_a_reused_idempotency_key_with_another_body_is_422(new_game):
    game = started(new_game)
    assert game.send("A", {"type": "free_roll", "spec": "D6", "purpose": "x"}, **{"Idempotency-Key": "k1"}).status_code == 200
    problem = refused_with(game, 422, lambda: game.send("A", {"type": "free_roll", "spec": "D6", "purpose": "y"},
                                                        **{"Idempotency-Key": "k1"}))
    assert problem["field"] == "Idempotency-Key"


def test_a_reused_key_of_a_refusal_with_another_body_is_422(new_game):
    game = started(new_game)
    assert game.send("A", {"type": "start_game"}, **{"Idempotency-Key": "k2"}).status_code == 409
    refused_with(game, 422, lambda: game.send("A", {"type": "concede"}, **{"Idempotency-Key": "k2"}))


def test_a_command_past_64_kib_is_413(new_game):
    game = started(new_game)
    body = {"type": "free_roll", "spec": "D6", "purpose": "x", "note": "x" * (64 * 1024)}
    refused_with(game, 413, lambda: game.send("A", body))


def test_a_streamed_command_body_without_a_length_past_64_kib_is_413(new_game):
    game = started(new_game)
    chunks = [b'{"type": "concede", "note": "'] + [b"x" * 8192] * 9 + [b'"}']
    refused_with(game, 413, lambda: game.http.post(f"/games/{game.id}/commands", content=iter(chunks),
                                                   headers=game.headers("A")))


def test_a_game_creation_past_64_kib_is_413_and_creates_nothing(http):
    recorder = http.app.state.shards.apps[0].recorder
    before = recorder.max_notification_id()
    client = http
    body = {"ruleset": "alternating", "players": [{"seat": "A", "name": "x" * (64 * 1024)}, {"seat": "B", "name": "B"}]}
    for send in (lambda: client.post("/games", json=body),
                 lambda: client.post("/games", content=iter([json.dumps(body).encode()[i:i + 8192]
                                                             for i in range(0, 70 * 1024, 8192)]),
                                     headers={"Content-Type": "application/json"})):
        response = send()
        assert response.status_code == 413, response.text
        assert response.headers["content-type"].startswith(PROBLEM)
        assert_sentence(response.json())
        assert response.json()["detail"] == "The body may be at most 65536 bytes; this one is larger."
    assert recorder.max_notification_id() == before
    assert client.post("/games", json={**body, "players": [{"seat": "A", "name": "A"},
                                                           {"seat": "B", "name": "B"}]}).status_code == 201
    assert recorder.max_notification_id() != before


def big_army(count, name_length):
    return [unit(f"u{n}", 1, name="N" * name_length) for n in range(count)]


def test_an_army_past_64_kib_but_under_1_mib_is_accepted(new_game):
    game = new_game()
    units = big_army(200, 190)
    assert len(json.dumps({"units": units})) > 64 * 1024
    assert game.muster("A", units).status_code == 200


def test_an_army_past_1_mib_is_413(new_game):
    game = new_game()
    units = [unit(f"u{n}", 1, abilities=("A" * 2500,)) for n in range(450)]
    assert len(json.dumps({"units": units})) > 1024 * 1024
    refused_with(game, 413, lambda: game.muster("A", units))


# --- the order of judgement --------------------------------------------------------------------------------

def test_a_bad_token_for_an_unknown_game_is_401_not_404(new_game):
    game = started(new_game)
    response = post_command(game, {"type": "concede"}, token="nope", game_id="00000000-0000-4000-8000-000000000000")
    assert response.status_code == 401


def test_another_games_token_for_an_unknown_game_is_404_not_403(new_game):
    game, elsewhere = started(new_game), started(new_game)
    response = post_command(game, {"type": "concede"}, token=elsewhere.tokens["A"],
                            game_id="00000000-0000-4000-8000-000000000000")
    assert response.status_code == 404


def test_a_spectator_sending_a_malformed_body_is_403_not_422(new_game):
    game = started(new_game)
    refused_with(game, 403, lambda: post_command(game, {"type": "teleport"}, token=game.tokens["spectator"]))


def test_another_games_token_with_a_malformed_body_is_403_not_422(new_game):
    game, elsewhere = started(new_game), started(new_game)
    refused_with(game, 403, lambda: post_command(game, {"type": "teleport"}, token=elsewhere.tokens["B"]))


def test_a_malformed_body_with_a_stale_if_match_is_422_not_412(new_game):
    game = started(new_game)
    refused_with(game, 422, lambda: game.send("A", {"type": "teleport"}, **{"If-Match": '"1"'}))
    refused_with(game, 422, lambda: game.send("A", {"type": "teleport"}, **{"If-Match": "yesterday"}))


def test_missing_table_dice_with_a_stale_if_match_is_422_not_412(new_game):
    game = started(new_game, dice="table")
    refused_with(game, 422, lambda: game.send("A", {"type": "free_roll", "spec": "D6", "purpose": "x"},
                                              **{"If-Match": '"1"'}))


def test_a_stale_if_match_on_a_command_the_rules_forbid_is_412_not_409(new_game):
    game = started(new_game)
    refused_with(game, 412, lambda: game.send("A", {"type": "start_game"}, **{"If-Match": '"1"'}))


def test_a_stored_answer_is_replayed_before_if_match_is_judged(new_game):
    game = started(new_game)
    version = last_seq(game)
    body = {"type": "free_roll", "spec": "D6", "purpose": "x"}
    first = game.send("A", body, **{"Idempotency-Key": "once", "If-Match": f'"{version}"'})
    assert first.status_code == 200
    again = game.send("A", body, **{"Idempotency-Key": "once", "If-Match": f'"{version}"'})
    assert (again.status_code, again.json()) == (200, first.json())


def test_a_refusal_names_its_rule_and_a_refused_command_appends_nothing(new_game):
    game = started(new_game)
    refused_with(game, 409, lambda: game.send("A", {"type": "start_game"}), rule="SVC.SETUP")
    refused_with(game, 409, lambda: game.send("B", {"type": "add_entropy", "entropy": "ab"}), rule="SVC.SETUP")


# --- rate limits -------------------------------------------------------------------------------------------

def test_a_token_past_its_rate_gets_429_with_retry_after_and_other_tokens_are_untouched(tmp_path):
    with TestClient(create_app(settings_for(tmp_path, requests_per_second=0.01, burst=4))) as http:
        game = GameClient(http)
        for _ in range(4):
            assert http.get(f"/games/{game.id}/state", headers=game.headers("A")).status_code == 200
        response = http.post(f"/games/{game.id}/armies", json={"units": [unit("scouts")]}, headers=game.headers("A"))
        assert response.status_code == 429
        assert response.headers["content-type"].startswith(PROBLEM)
        assert_sentence(response.json())
        assert int(response.headers["retry-after"]) >= 1
        assert http.get(f"/games/{game.id}/state", headers=game.headers("B")).json()["mustered"]["A"] is False


def test_an_address_past_its_game_creation_cap_gets_429_with_retry_after_and_other_addresses_do_not(tmp_path):
    body = {"ruleset": "alternating", "players": [{"seat": "A", "name": "Al"}, {"seat": "B", "name": "Bo"}]}
    app = create_app(settings_for(tmp_path, games_per_minute=1, games_burst=3))
    with TestClient(app, client=("10.0.0.1", 5000)) as http, TestClient(app, client=("10.0.0.2", 5000)) as other:
        assert [http.post("/games", json=body).status_code for _ in range(3)] == [201, 201, 201]
        refused = http.post("/games", json=body)
        assert refused.status_code == 429
        assert refused.headers["content-type"].startswith(PROBLEM)
        assert refused.json()["status"] == 429 and "games a minute" in refused.json()["detail"]
        assert_sentence(refused.json())
        assert 1 <= int(refused.headers["retry-after"]) <= 60
        assert other.post("/games", json=body).status_code == 201


def test_a_failure_inside_the_service_is_500_problem_json_and_not_plain_text(tmp_path):
    app = create_app(settings_for(tmp_path))
    with TestClient(app, raise_server_exceptions=False) as http:
        game = GameClient(http)

        def broken(game_id):
            raise RuntimeError("the disk is on fire")

        app.state.shards.apps[0].verify = broken
        response = http.get(f"/games/{game.id}/verify", headers=game.headers("A"))
    assert response.status_code == 500
    assert response.headers["content-type"].startswith(PROBLEM)
    problem = response.json()
    assert problem["status"] == 500 and "fire" not in problem["detail"]  # as it always read (the golden games pin it)


@pytest.mark.parametrize("query", [{"after": "+5"}, {"after": " 5"}, {"after": "5_0"}, {"limit": "1e2"},
                                   {"limit": "10.0"}])
def test_a_seq_or_a_limit_not_written_in_digits_is_422_naming_it(new_game, query):
    game = new_game()
    response = game.http.get(f"/games/{game.id}/events", params=query, headers=game.headers("A"))
    name = next(iter(query))
    assert response.status_code == 422 and response.json()["field"] == name, response.text
    assert response.json()["detail"] == f"`{name}` must be a whole number written with the digits 0-9 only."
    at = game.http.get(f"/games/{game.id}/state", params={"at": "+1"}, headers=game.headers("A"))
    assert at.status_code == 422 and at.json()["field"] == "at"
    assert_sentence(at.json())


def test_a_query_parameter_the_route_does_not_take_is_422_naming_it(new_game):
    game = new_game()
    typo = game.http.get(f"/games/{game.id}/events", params={"afetr": 5}, headers=game.headers("A"))
    assert typo.status_code == 422 and typo.json()["field"] == "afetr"
    assert typo.json()["detail"] == 'This request takes no query parameter "afetr"; it takes `after`, `limit`.'
    assert_sentence(typo.json())
    stream = game.http.get(f"/games/{game.id}/state", params={"token": game.tokens["A"]},
                           headers=game.headers("A"))
    assert stream.status_code == 422  # ?token= belongs to the streams and the overlay page only
    assert_sentence(stream.json())
    created = game.http.post("/games", params={"x": 1}, json={"ruleset": "alternating", "players": [
        {"seat": "A", "name": "Al"}, {"seat": "B", "name": "Bo"}]})
    assert created.status_code == 422 and created.json()["field"] == "x"
    assert_sentence(created.json())


# --- in the players' words (issue 24) ------------------------------------------------------------------------

@pytest.mark.parametrize("body, field, detail", [
    ({"type": "free_roll", "spec": "D6"}, "/purpose", "This command needs `purpose`."),
    ({"type": "free_roll", "spec": "D6", "purpose": "x", "foo": 1}, "/foo",
     "`foo` is not part of a `free_roll` command; it takes `spec`, `purpose` and `dice`."),
    ({"type": "set_status", "unit": "scouts", "status": "sleepy"}, "/status",
     "`status` must be one of: battle_shocked, engaged, falling_back, gone_to_ground, immobilised, locked_in_combat, "
     "no_weapons_left, pinned, regrouped, routed, stationary, suppressed (not \"sleepy\")."),
    ({"type": "free_roll", "spec": "D6", "purpose": None}, "/purpose", "`purpose` must be text, and it was sent empty."),
    ({"type": "select", "unit": ["scouts"]}, "/unit", "`unit` must be text, not a list."),
    ({"type": 5}, "/type", None),
])
def test_a_malformed_command_says_what_to_fix_in_a_sentence_naming_the_field(new_game, body, field, detail):
    game = started(new_game)
    problem = refused_with(game, 422, lambda: game.send("A", body))
    assert problem["field"] == field and problem["title"] == "Request to fix"
    assert detail is None or problem["detail"] == detail


@pytest.mark.parametrize("units, field, detail", [
    ([{"id": "x"}], "/units/0/name", "Unit 1 needs `name` and `models`."),
    ([unit("x", transport={"capacity": "lots"})], "/units/0/transport/capacity",
     "`capacity` of `transport` of unit 1 must be a whole number, not \"lots\"."),
    ([unit("x", statuses=("sleepy",))], "/units/0/statuses/0", None),
    ([], "/units", "`units` must hold at least 1 item, not 0."),
])
def test_a_malformed_army_says_what_to_fix_in_a_sentence_naming_the_field(new_game, units, field, detail):
    game = new_game()
    problem = refused_with(game, 422, lambda: game.muster("A", units))
    assert problem["field"] == field
    assert detail is None or problem["detail"] == detail


@pytest.mark.parametrize("body, field, detail", [
    ({"players": [{"seat": "C", "name": "x"}, {"seat": "B", "name": "b"}]}, "/players/0/seat",
     "`seat` of player 1 must be one of: A, B (not \"C\")."),
    ({"options": {"battle_rounds": 99}}, "/options/battle_rounds", "`battle_rounds` of `options` must be from 1 to 20, "
                                                                   "not 99."),
    ({"ruleset": None}, "/ruleset", "`ruleset` (the ruleset the game is played by) must be text, and it was sent empty."),
])
def test_a_malformed_game_says_what_to_fix_in_a_sentence_naming_the_field(http, body, field, detail):
    sent = {"ruleset": "alternating", "players": [{"seat": "A", "name": "a"}, {"seat": "B", "name": "b"}], **body}
    response = http.post("/games", json=sent)
    assert response.status_code == 422 and response.headers["content-type"].startswith(PROBLEM)
    problem = response.json()
    assert_sentence(problem)
    assert (problem["field"], problem["detail"]) == (field, detail)


def test_a_header_at_fault_is_named_and_said_in_a_sentence(new_game):
    game = started(new_game)
    long_key = refused_with(game, 422, lambda: game.send("A", {"type": "concede"}, **{"Idempotency-Key": "k" * 256}))
    assert long_key["field"] == "Idempotency-Key"
    assert long_key["detail"] == "The Idempotency-Key header must be 1 to 255 characters long."
    head = game.http.get(f"/games/{game.id}/state", headers=game.headers("A", **{"Known-Head": "yesterday"}))
    assert head.status_code == 422 and head.json()["field"] == "Known-Head"
    assert_sentence(head.json())
    # a seq past what a database column holds is no seq this game has (it answered 500 once, schemathesis found it)
    huge = game.http.get(f"/games/{game.id}/state",
                         headers=game.headers("A", **{"Known-Head": f"9879885904249405993:{'d' * 64}"}))
    assert huge.status_code == 422 and huge.json()["field"] == "Known-Head"
    assert game.state("A")["status"] != "damaged"
