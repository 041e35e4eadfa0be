"""Hostile input (issue 8), each case found by fuzzing: a clear 4xx as problem+json that appends
nothing, never a 500, and the connection it came on stays usable."""
import json

import httpx
import pytest

from tests.conftest import settings_for
from tests.support.client import GameClient, unit
from tests.support.live import serving
from tests.support.problems import assert_sentence
from warlog.api.app import create_app

PROBLEM = "application/problem+json"
JSON = "application/json"
TABLE_ROLL = {"type": "free_roll", "spec": "D6", "purpose": "scatter", "dice": [4]}


def started(new_game, dice="table"):
    game = new_game(dice=dice)
    game.start([unit("scouts", 5)], [unit("boyz", 10)])
    return game


def last_seq(game):
    response = game.http.get(f"/games/{game.id}/events", params={"limit": 1}, headers=game.headers("A"))
    assert response.status_code == 200, response.text
    return response.json()["last_seq"]


def refused_with(game, status, send):
    """The request is refused with `status` as problem+json, and the log holds nothing new."""
    before = last_seq(game)
    response = send()
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith(PROBLEM)
    problem = response.json()
    assert problem["status"] == status and problem["detail"]
    assert_sentence(problem)
    assert last_seq(game) == before
    return problem


def refusal(response, status):
    """A refusal sent where no game's log is looked at (creating a game, converting a roster): problem+json in
    the players' words."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith(PROBLEM)
    problem = response.json()
    assert_sentence(problem)
    return problem


def post_raw(game, raw, path="commands", content_type=JSON, seat="A", **headers):
    extra = {"Content-Type": content_type} if content_type else {}
    return game.http.post(f"/games/{game.id}/{path}", content=raw, headers=game.headers(seat, **extra, **headers))


# --- JSON nested too deep -----------------------------------------------------------------------------------

@pytest.mark.parametrize("path", ["commands", "armies"])
def test_json_nested_a_thousand_deep_is_422(new_game, path):
    game = new_game(dice="table")
    problem = refused_with(game, 422, lambda: post_raw(game, b"[" * 1000 + b"]" * 1000, path))
    assert "deep" in problem["detail"]


def test_a_command_with_a_field_nested_a_thousand_deep_is_422_and_so_is_a_game(new_game, http):
    game = started(new_game)
    deep = b'{"type": "free_roll", "spec": "D6", "purpose": ' + b"[" * 1000 + b"]" * 1000 + b"}"
    problem = refused_with(game, 422, lambda: post_raw(game, deep, **{"Idempotency-Key": "deep"}))
    assert problem["detail"] == "The body is nested too deep (more than 64 levels)."
    response = http.post("/games", content=b"[" * 1000 + b"]" * 1000, headers={"Content-Type": JSON})
    refusal(response, 422)


# --- lone surrogates ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("keyed", [False, True])
def test_an_escaped_lone_surrogate_in_a_string_is_422_naming_the_field(new_game, keyed):
    game = started(new_game)
    raw = b'{"type": "free_roll", "spec": "D6", "purpose": "\\ud800", "dice": [4]}'
    headers = {"Idempotency-Key": "surrogate"} if keyed else {}
    problem = refused_with(game, 422, lambda: post_raw(game, raw, **headers))
    assert problem["field"] == "/purpose" and problem["detail"].startswith("`purpose`: a lone surrogate escape")


def test_a_lone_surrogate_in_a_key_or_deep_in_an_army_is_422(new_game):
    game = new_game()
    army = json.dumps({"units": [unit("scouts")]}).replace('"Scouts"', '"Scouts \\udfff"').encode()
    problem = refused_with(game, 422, lambda army=army: post_raw(game, army, "armies"))
    assert problem["field"] == "/units/0/name"
    assert problem["detail"].startswith("`name` of unit 1: a lone surrogate escape")
    started_game = started(new_game)
    refused_with(started_game, 422, lambda: post_raw(started_game, b'{"type": "concede", "\\udc00": 1}'))


# --- dice specs -----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("spec", ["9" * 5000 + "D6", "D" + "9" * 5000, "D6+" + "9" * 5000, "9" * 5000])
def test_a_dice_spec_with_thousands_of_digits_is_422_naming_the_spec(new_game, spec):
    game = started(new_game, dice="server")
    problem = refused_with(game, 422, lambda: game.send("A", {"type": "free_roll", "spec": spec, "purpose": "x"}))
    assert problem["field"] == "/spec"


@pytest.mark.parametrize("spec", ["２D６", "D٦", "２"])
def test_a_dice_spec_in_other_scripts_digits_is_422(new_game, spec):
    game = started(new_game, dice="server")
    problem = refused_with(game, 422, lambda: game.send("A", {"type": "free_roll", "spec": spec, "purpose": "x"}))
    assert problem["field"] == "/spec"


# --- faces are integers ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("face", [True, 1.0, "1"])
def test_a_table_die_face_that_is_not_a_json_integer_is_422(new_game, face):
    game = started(new_game)
    problem = refused_with(game, 422, lambda: game.send("A", {**TABLE_ROLL, "dice": [face]}))
    assert problem["field"] == "/dice/0"
    assert problem["detail"] == f"Die 1 of `dice` must be a whole number, not {json.dumps(face)}."


def test_a_roll_off_face_that_is_a_boolean_is_422(new_game):
    game = new_game(dice="table")
    game.start([unit("scouts", 5)], [unit("boyz", 10)])
    problem = refused_with(game, 422, lambda: game.send("A", {"type": "roll_off", "dice": {"A": True, "B": 2}}))
    assert problem["field"] == "/dice/A"


@pytest.mark.parametrize("number", [b"NaN", b"Infinity", b"-Infinity", b"1e400"])
def test_nan_infinity_and_numbers_past_a_float_are_422(new_game, number):
    game = started(new_game, dice="server")  # any dice here would be 409 (SVC.DICE.SERVER): the body is judged first
    problem = refused_with(game, 422, lambda: post_raw(game, b'{"type": "concede", "dice": ' + number + b"}",
                                                       **{"Idempotency-Key": "n"}))
    assert problem["detail"] in (f"The value {number.decode()} is not a number JSON knows; send a number.",
                                 f"The number {number.decode()} is too large.")


# --- duplicate keys, and bodies that are not JSON -------------------------------------------------------------

def test_a_body_with_a_duplicate_key_is_422_naming_it(new_game, http):
    game = started(new_game)
    raw = b'{"type": "free_roll", "spec": "D6", "spec": "2D6", "purpose": "x", "dice": [4]}'
    problem = refused_with(game, 422, lambda: post_raw(game, raw))
    assert problem["field"] == "/spec"
    assert problem["detail"] == 'The key "spec" appears twice in one object; send it once.'
    response = http.post("/games", content=b'{"ruleset": "alternating", "ruleset": "heresy", "players": '
                                           b'[{"seat": "A", "name": "a"}, {"seat": "B", "name": "b"}]}',
                         headers={"Content-Type": JSON})
    assert refusal(response, 422)["field"] == "/ruleset"
    army = b'{"units": [{"id": "a", "name": "A", "models": [{"name": "m", "count": 1, "count": 2}]}]}'
    nested = refused_with(game, 422, lambda: post_raw(game, army, "armies"))
    assert nested["field"] == "/units/0/models/0/count"  # where the key is twice, not where a key of its name is


@pytest.mark.parametrize("raw, where", [(b"{not json", "line 1, column 2"), (b'{"type": "concede",\n  "x": }', "line 2, column 8"),
                                        (b'{"type": "concede"} {}', "line 1, column 21")])
def test_a_body_that_is_not_json_is_422_saying_where_it_breaks(new_game, raw, where):
    game = started(new_game)
    problem = refused_with(game, 422, lambda: post_raw(game, raw))
    assert problem["detail"].startswith(f"The body is not JSON: it breaks at {where} (") and "field" not in problem


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", None])
@pytest.mark.parametrize("path", ["commands", "armies", "undo", "redo", "undo/approve", "undo/reject"])
def test_a_body_that_is_not_sent_as_json_is_415(new_game, content_type, path):
    game = started(new_game)
    body = json.dumps({"units": [unit("scouts")]} if path == "armies" else TABLE_ROLL).encode()
    problem = refused_with(game, 415, lambda: post_raw(game, body, path, content_type))
    came = f"as {content_type}" if content_type else "with no Content-Type"
    assert problem["detail"] == f"Send the body as Content-Type: application/json, in UTF-8; this one came {came}."


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded"])
def test_a_game_not_sent_as_json_is_415_and_creates_nothing(http, content_type):
    body = {"ruleset": "alternating", "players": [{"seat": "A", "name": "a"}, {"seat": "B", "name": "b"}]}
    response = http.post("/games", content=json.dumps(body), headers={"Content-Type": content_type})
    refusal(response, 415)
    assert http.post("/games", json=body).status_code == 201


def test_json_with_a_charset_or_a_json_suffix_is_json(new_game):
    game = started(new_game)
    assert post_raw(game, json.dumps(TABLE_ROLL), content_type="application/json; charset=utf-8").status_code == 200
    assert post_raw(game, json.dumps(TABLE_ROLL), content_type="application/vnd.warlog+json").status_code == 200


def test_undo_without_a_body_or_with_an_empty_object_still_works(new_game):
    game = started(new_game)
    game.cmd("A", "set_status", unit="scouts", status="pinned", reason="x")
    assert game.post("A", "undo").status_code == 200
    assert game.post("A", "redo").status_code == 200
    assert post_raw(game, b"{}", "undo").status_code == 200
    problem = refused_with(game, 422, lambda: post_raw(game, b'{"seqs": [3]}', "redo"))
    assert problem["detail"] == "`redo` takes no body: send none, or {}."


def test_a_415_comes_after_a_stored_answer_for_its_key(new_game):
    game = started(new_game)
    first = game.send("A", TABLE_ROLL, **{"Idempotency-Key": "k1"})
    assert first.status_code == 200
    again = post_raw(game, json.dumps(TABLE_ROLL), content_type="text/plain", **{"Idempotency-Key": "k1"})
    assert again.status_code == 422 and again.json()["field"] == "Idempotency-Key"  # another body: another type
    assert again.json()["detail"] == "This Idempotency-Key was used with another body."


# --- after and Last-Event-ID ----------------------------------------------------------------------------------

@pytest.mark.parametrize("after", [str(2 ** 63), "-1", "1e3", "x", str(10 ** 30)])
def test_events_after_outside_zero_to_two_to_the_63_is_422(new_game, after):
    game = started(new_game)
    response = game.http.get(f"/games/{game.id}/events", params={"after": after}, headers=game.headers("A"))
    assert refusal(response, 422)["field"] == "after"


def test_events_after_the_largest_seq_is_an_empty_page(new_game):
    game = started(new_game)
    response = game.http.get(f"/games/{game.id}/events", params={"after": 2 ** 63 - 1}, headers=game.headers("A"))
    assert response.status_code == 200 and response.json()["events"] == []


@pytest.mark.parametrize("where, value", [(where, value) for where in ("after", "Last-Event-ID")
                                          for value in (str(2 ** 63), "-1", "9" * 40, "x")]
                         + [("Last-Event-ID", value) for value in (" -3", "+2", "١".encode(), "")])
def test_a_stream_resumed_outside_zero_to_two_to_the_63_is_422(new_game, where, value):
    game = started(new_game)
    params, headers = ({"after": value}, {}) if where == "after" else ({}, {"Last-Event-ID": value})
    response = game.http.get(f"/games/{game.id}/events/stream", params=params,
                             headers=game.headers("A", **headers))
    assert refusal(response, 422)["field"] == where


# --- Idempotency-Key belongs to one endpoint ------------------------------------------------------------------

def test_an_undo_key_reused_on_redo_is_422_and_the_redo_then_runs_with_its_own_key(new_game):
    game = started(new_game)
    game.cmd("A", "set_status", unit="scouts", status="pinned", reason="x")
    undone = game.post("A", "undo", **{"Idempotency-Key": "K"})
    assert undone.status_code == 200 and undone.json()["events"][0]["type"] == "ActionUndone"
    problem = refused_with(game, 422, lambda: game.post("A", "redo", **{"Idempotency-Key": "K"}))
    assert problem["field"] == "Idempotency-Key"
    redone = game.post("A", "redo", **{"Idempotency-Key": "K2"})
    assert redone.status_code == 200 and redone.json()["events"][0]["type"] == "ActionRedone"
    assert game.post("A", "undo", **{"Idempotency-Key": "K"}).json() == undone.json()  # its own endpoint replays


def test_a_refused_undo_key_reused_on_redo_or_on_commands_is_422(new_game):
    game = started(new_game)
    nothing = game.post("A", "redo", **{"Idempotency-Key": "R"})
    assert nothing.status_code == 409 and nothing.json()["rule"] == "SVC.UNDO.NONE"
    assert nothing.json()["detail"] == "There is no undone action to redo."
    for send in (lambda: game.post("A", "undo", **{"Idempotency-Key": "R"}),
                 lambda: game.send("A", TABLE_ROLL, **{"Idempotency-Key": "R"})):
        assert refused_with(game, 422, send)["field"] == "Idempotency-Key"
    assert game.post("A", "redo", **{"Idempotency-Key": "R"}).json() == nothing.json()


def test_a_command_key_reused_on_undo_is_422(new_game):
    game = started(new_game)
    assert game.send("A", TABLE_ROLL, **{"Idempotency-Key": "C"}).status_code == 200
    assert refused_with(game, 422, lambda: game.post("A", "undo", **{"Idempotency-Key": "C"}))["field"] \
        == "Idempotency-Key"


# --- the connection stays usable ------------------------------------------------------------------------------

def local_port(response: httpx.Response) -> int:
    return response.extensions["network_stream"].get_extra_info("client_addr")[1]


def test_hostile_requests_and_a_failure_inside_the_service_leave_the_connection_usable(tmp_path):
    app = create_app(settings_for(tmp_path))
    with serving(app) as url, httpx.Client(base_url=url, timeout=10,
                                            limits=httpx.Limits(max_connections=1)) as http:
        game = GameClient(http, dice="table")
        game.start([unit("scouts", 5)], [unit("boyz", 10)])
        good = lambda: http.get(f"/games/{game.id}/state", headers=game.headers("A"))
        port = local_port(good())
        hostile = [
            lambda: post_raw(game, b"[" * 1000 + b"]" * 1000),
            lambda: post_raw(game, b'{"type": "free_roll", "spec": "D6", "purpose": "\\ud800", "dice": [1]}'),
            lambda: game.send("A", {"type": "free_roll", "spec": "9" * 5000 + "D6", "purpose": "x"}),
            lambda: post_raw(game, json.dumps(TABLE_ROLL), content_type="text/plain"),
            lambda: http.get(f"/games/{game.id}/events/stream", params={"after": 2 ** 63},
                             headers=game.headers("A")),
            lambda: post_raw(game, b"x" * 70_000),
        ]
        for send in hostile:
            refused = send()
            assert 400 <= refused.status_code < 500, refused.text
            assert refused.headers.get("connection") != "close"
            answer = good()
            assert answer.status_code == 200 and local_port(answer) == port

        def broken(*args, **kwargs):
            raise RuntimeError("the disk is on fire")

        app.state.shards.apps[0].verify = broken
        failed = http.get(f"/games/{game.id}/verify", headers=game.headers("A"))
        assert failed.status_code == 500 and failed.headers["content-type"].startswith(PROBLEM)
        assert "fire" not in failed.json()["detail"]
        answer = good()
        assert answer.status_code == 200 and local_port(answer) == port



# --- JSON is UTF-8 (RFC 8259 §8.1) ----------------------------------------------------------------------------

NOT_UTF8 = [("utf-16 with its BOM", "utf-16"), ("utf-16-le, no BOM", "utf-16-le"), ("utf-16-be, no BOM", "utf-16-be"),
            ("utf-32 with its BOM", "utf-32")]


@pytest.mark.parametrize("what, codec", NOT_UTF8)
@pytest.mark.parametrize("path", ["commands", "armies", "undo"])
def test_a_json_body_in_utf16_or_utf32_is_415_and_appends_nothing(new_game, what, codec, path):
    game = started(new_game)
    body = {"units": [unit("scouts")]} if path == "armies" else TABLE_ROLL if path == "commands" else {}
    problem = refused_with(game, 415, lambda: post_raw(game, json.dumps(body).encode(codec), path))
    assert "UTF-8" in problem["detail"]


@pytest.mark.parametrize("what, codec", NOT_UTF8)
def test_a_game_a_qr_code_or_a_roster_to_convert_in_utf16_is_415(http, what, codec):
    game = {"ruleset": "alternating", "players": [{"seat": "A", "name": "a"}, {"seat": "B", "name": "b"}]}
    for path, body in (("/games", game), ("/qr", {"data": "x"}), ("/rosters/convert", {"roster": {}})):
        response = http.post(path, content=json.dumps(body).encode(codec), headers={"Content-Type": JSON})
        assert "UTF-8" in refusal(response, 415)["detail"], path
    assert http.post("/games", json=game).status_code == 201  # the same game in UTF-8 is made


def test_bytes_that_are_no_utf8_or_a_charset_other_than_utf8_are_415(new_game):
    game = started(new_game)
    refused_with(game, 415, lambda: post_raw(game, b'{"type": "free_roll", "spec": "D6", "purpose": "caf\xe9"}'))
    raw = json.dumps(TABLE_ROLL).encode("utf-16")
    refused_with(game, 415, lambda: post_raw(game, raw, content_type="application/json; charset=utf-16"))
    latin = "application/json; charset=latin-1"
    refused_with(game, 415, lambda: post_raw(game, json.dumps(TABLE_ROLL), content_type=latin))


def test_a_utf8_byte_order_mark_is_let_pass_as_rfc_8259_allows(new_game):
    game = started(new_game)
    assert post_raw(game, b"\xef\xbb\xbf" + json.dumps(TABLE_ROLL).encode()).status_code == 200


# --- U+0000 is no text ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("keyed", [False, True])
def test_a_nul_in_a_string_is_422_naming_the_field(new_game, keyed):
    game = started(new_game)
    raw = b'{"type": "free_roll", "spec": "D6", "purpose": "scatter\\u0000", "dice": [4]}'
    headers = {"Idempotency-Key": "nul"} if keyed else {}
    problem = refused_with(game, 422, lambda: post_raw(game, raw, **headers))
    assert problem["field"] == "/purpose"
    assert problem["detail"] == "`purpose`: a NUL character (\\u0000) is not text."


def test_a_nul_in_a_name_an_id_a_key_or_a_player_is_422_naming_the_field(new_game, http):
    game = new_game()
    for replace, field in (('"Scouts"', "/units/0/name"), ('"scouts"', "/units/0/id"),
                           ('"INFANTRY"', "/units/0/keywords/0"), ('"Boltgun"', "/units/0/weapons/0/name")):
        army = json.dumps({"units": [unit("scouts")]}).replace(replace, replace[:-1] + '\\u0000"', 1).encode()
        assert refused_with(game, 422, lambda army=army: post_raw(game, army, "armies"))["field"] == field, replace
    started_game = started(new_game)
    problem = refused_with(started_game, 422, lambda: post_raw(started_game, b'{"type": "concede", "x\\u0000": 1}'))
    assert "\\u0000" in problem["detail"]
    response = http.post("/games", content=b'{"ruleset": "alternating", "players": [{"seat": "A", "name": "a\\u0000"}, '
                                            b'{"seat": "B", "name": "b"}]}', headers={"Content-Type": JSON})
    assert refusal(response, 422)["field"] == "/players/0/name"


# --- a field a Unit does not define is refused -----------------------------------------------------------------

def evil(where):
    army = {"units": [unit("scouts"), unit("carrier", transport={"capacity": 10, "fire_points": 0})]}
    army["units"][1]["models"][0]["armour"] = {"front": 12, "side": 12, "rear": 10}
    {"army": army, "unit": army["units"][0], "model": army["units"][0]["models"][0],
     "weapon": army["units"][0]["weapons"][0], "transport": army["units"][1]["transport"],
     "armour": army["units"][1]["models"][0]["armour"]}[where]["evil"] = True
    return army


@pytest.mark.parametrize("where, field", [
    ("army", "/evil"), ("unit", "/units/0/evil"), ("model", "/units/0/models/0/evil"),
    ("weapon", "/units/0/weapons/0/evil"), ("transport", "/units/1/transport/evil"),
    ("armour", "/units/1/models/0/armour/evil")])
def test_a_field_the_army_does_not_define_is_422_naming_it(new_game, where, field):
    game = new_game()
    problem = refused_with(game, 422, lambda: post_raw(game, json.dumps(evil(where)), "armies"))
    assert problem["field"] == field
    assert problem["detail"].startswith("`evil` is not part of " + {
        "army": "an army; it takes `units`", "unit": "unit 1; it takes `id`, `name`",
        "model": "model 1 of unit 1; it takes `name`, `count`", "weapon": "weapon 1 of unit 1; it takes `name`",
        "transport": "`transport` of unit 2; it takes `capacity` and `fire_points`",
        "armour": "`armour` of model 1 of unit 2; it takes `front`, `side` and `rear`"}[where])


def test_a_unit_states_its_points_and_keeps_them(new_game):
    game = new_game()
    assert game.muster("A", [unit("scouts", points=70), unit("marines")]).status_code == 200
    mustered = next(e for e in game.events() if e["type"] == "ArmyMustered")["data"]["units"]
    assert mustered[0]["points"] == 70 and "points" not in mustered[1]  # stored only where the army states them


@pytest.mark.parametrize("body, field", [
    ({"evil": True}, "/evil"),
    ({"players": [{"seat": "A", "name": "a", "evil": 1}, {"seat": "B", "name": "b"}]}, "/players/0/evil"),
    ({"options": {"evil": 1}}, "/options/evil"),
])
def test_a_field_a_game_does_not_define_is_422_naming_it(http, body, field):
    game = {"ruleset": "alternating", "players": [{"seat": "A", "name": "a"}, {"seat": "B", "name": "b"}], **body}
    response = http.post("/games", json=game)
    assert refusal(response, 422)["field"] == field


@pytest.mark.parametrize("value", [True, "5", 5.5])
def test_a_number_of_the_army_or_the_game_is_a_json_number_as_the_document_says(new_game, http, value):
    body = unit("scouts")
    body["models"][0]["count"] = value
    game = new_game()
    mustered = refused_with(game, 422, lambda: game.muster("A", [body]))
    assert mustered["field"] == "/units/0/models/0/count"
    assert mustered["detail"] == f"`count` of model 1 of unit 1 must be a whole number, not {json.dumps(value)}."
    created = http.post("/games", json={"ruleset": "alternating", "options": {"battle_rounds": value},
                                        "players": [{"seat": "A", "name": "a"}, {"seat": "B", "name": "b"}]})
    assert refusal(created, 422)["field"] == "/options/battle_rounds"
    body["models"][0]["count"] = 5.0  # JSON has one number type: 5.0 is the integer 5
    assert game.muster("A", [body]).status_code == 200


# --- what schemathesis found where the document and the service disagreed --------------------------------------

@pytest.mark.parametrize("dice", ["server", "table"])
def test_a_free_roll_of_a_constant_rolls_no_die_and_spends_no_counter(new_game, dice):
    game = started(new_game, dice=dice)  # with server dice it was a 500: no die has 0 sides
    sent = {"type": "free_roll", "spec": "7", "purpose": "a fixed 7", **({"dice": []} if dice == "table" else {})}
    rolled = game.send("A", sent)
    assert rolled.status_code == 200, rolled.text
    data = rolled.json()["events"][0]["data"]
    assert (data["faces"], data["total"], "counter" in data) == ([], 7, False)
    assert game.verify()["chain_ok"] is True
    audit = game.http.get(f"/games/{game.id}/audit/{rolled.json()['version']}", headers=game.headers("A"))
    assert audit.status_code == 200


def test_a_command_of_another_ruleset_is_refused_by_this_games_rules_409(new_game):
    game = started(new_game, dice="server")  # alternating: no Command Re-roll; the document lists every ruleset's
    problem = refused_with(game, 409, lambda: game.send("A", {"type": "command_reroll", "die": 0}))
    assert "no command 'command_reroll'" in problem["detail"] and problem["rule"]


@pytest.mark.parametrize("seq", ["6\x85", "+6", " 6", "6.0", "6_0", "abc"])
def test_an_audit_seq_that_is_no_integer_in_digits_is_422(new_game, seq):
    game = started(new_game)
    response = game.http.get(f"/games/{game.id}/audit/{seq}", headers=game.headers("A"))
    assert refusal(response, 422)["field"] == "seq"  # pydantic's lax int read all as 6 or 60


@pytest.mark.parametrize("raw", [b"\x89PNG\r\n\x1a\n", b"", b"{", b'{"units": []}'])
def test_a_file_sent_as_a_roster_that_is_none_is_422_naming_it_not_415(new_game, http, raw):
    game = new_game()
    problem = refused_with(game, 422, lambda: post_raw(game, raw, "armies", "application/octet-stream"))
    assert problem.get("field") in (None, "/roster")  # the whole file (no one field), or its roster
    converted = http.post("/rosters/convert", content=raw, headers={"Content-Type": "application/octet-stream"})
    assert refusal(converted, 422).get("field") in (None, "/roster")


@pytest.mark.parametrize("sent, field", [({"type": "set_status", "unit": "scouts", "status": "sleepy"}, "/status"),
                                         ({"type": "vehicle_hit", "unit": "scouts", "hit": "grazing"}, "/hit"),
                                         ({"type": "vehicle_hit", "unit": "scouts", "hull_points": 0},
                                          "/hull_points")])
def test_a_value_the_rules_do_not_name_is_judged_with_the_body_before_if_match(new_game, sent, field):
    """The document lists these values; a value outside them is a malformed body (422), judged before a stale
    If-Match (412), as the contract orders them."""
    game = started(new_game)
    assert refused_with(game, 422, lambda: game.send("A", sent, **{"If-Match": '"1"'}))["field"] == field
