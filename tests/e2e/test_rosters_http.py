"""Roster files over HTTP: muster a game from the file a player already has, or just convert it."""

import pytest

from tests.support.client import unit
from tests.support.problems import assert_sentence
from tests.support.rosters import as_ros, heresy_squad, tenth_list
from tests.support.shared import corpus


def post_roster(game, seat, raw, content_type="application/octet-stream", **headers):
    return game.http.post(f"/games/{game.id}/armies", content=raw,
                          headers=game.headers(seat, **{"Content-Type": content_type, **headers}))


def test_a_rosz_musters_and_the_game_starts_at_the_rosters_model_counts(http, new_game):
    game = new_game("reference")
    raw = (corpus() / "40k10e_leagues-of-votann.rosz").read_bytes()
    answer = post_roster(game, "A", raw, "text/plain")  # a zip is known by its bytes, whatever the type
    assert answer.status_code == 200, answer.text
    imported = answer.json()["import"]
    assert imported["format"] == "rosz" and answer.json()["events"][0]["type"] == "ArmyMustered"
    converted = http.post("/rosters/convert?ruleset=reference", content=raw).json()
    assert imported["units"] == [u["id"] for u in converted["units"]]
    assert game.muster("B", [unit("b1", 10)]).status_code == 200
    game.cmd("A", "start_game")
    state = game.state()
    for roster_unit in converted["units"]:
        assert state["units"][roster_unit["id"]]["starting_strength"] == sum(
            m["count"] for m in roster_unit["models"])


def test_new_recruit_json_musters_with_its_leaders_attached(new_game):
    game = new_game("reference")
    answer = post_roster(game, "A", (corpus() / "40k11e_newrecruit_aeldari-hank-2k.json").read_bytes(),
                         "application/json")
    assert answer.status_code == 200, answer.text
    assert answer.json()["import"]["format"] == "json"
    mustered = {u["id"]: u for u in answer.json()["events"][0]["data"]["units"]}
    assert mustered["asurmen-1"]["leader_of"] == "dire-avengers-1"


def test_a_heresy_roster_musters_its_squad_embarked_and_the_game_starts(new_game):
    game = new_game("heresy")
    answer = post_roster(game, "A", (corpus() / "hh1-30k_traitor-legion-transports.ros").read_bytes(),
                         "application/xml")
    assert answer.status_code == 200, answer.text
    assert game.muster("B", [unit("b1", 10)]).status_code == 200
    game.cmd("A", "start_game")
    units = game.state()["units"]
    squad = units["tactical-squad-legion-compulsory-1"]
    assert squad["embarked_in"] == "rhino-armoured-carrier-legion-1" and squad["starting_strength"] == 10


def test_a_synthetic_ros_musters_in_an_alternating_game(new_game):
    game = new_game("alternating")
    answer = post_roster(game, "A", as_ros(heresy_squad()), "application/xml")
    assert answer.status_code == 200, answer.text
    assert answer.json()["import"]["units"] == ["tactical-squad-1", "rhino-1"]


def test_a_broken_roster_is_422_naming_the_path_and_appends_nothing(new_game):
    game = new_game("reference")
    before = game.state()["version"]
    answer = post_roster(game, "A", b"PK\x03\x04broken")
    assert answer.status_code == 422 and answer.json()["field"] == "/rosz"
    assert answer.headers["content-type"].startswith("application/problem+json")
    assert answer.json()["detail"].startswith("The .rosz is not a readable zip: ")
    assert_sentence(answer.json())
    answer = post_roster(game, "A", b'<?xml version="1.0"?><svg/>', "application/xml")
    assert answer.status_code == 422 and answer.json()["field"] == "/roster"
    assert answer.json()["detail"] == "Not a roster: the XML's root is <svg>, a roster's is <roster>."
    assert game.state()["version"] == before


def test_a_roster_missing_what_the_ruleset_needs_is_422_at_the_unit(new_game):
    from tests.support.rosters import profile, roster, selection
    tree = roster("Warhammer 40,000 9th Edition", selection("Boyz", "unit", selections=[
        selection("Boy", "model", 10, profiles=[profile("Boy", "Unit", M='5"', WS="3+", BS="5+", S="4", T="4",
                                                        W="1", A="2", Ld="-", Save="6+")])]))
    game = new_game("alternating")
    answer = post_roster(game, "A", as_ros(tree), "application/xml")
    assert answer.status_code == 422 and answer.json()["field"] == "/roster/forces/0/selections/0"
    assert answer.json()["detail"].startswith("At roster/forces/0/selections/0 in the roster (models.0.Ld): ")
    assert_sentence(answer.json())


def test_other_bodies_keep_the_415_rule(new_game):
    game = new_game("reference")
    answer = post_roster(game, "A", b"units: none", "text/plain")
    assert answer.status_code == 415
    assert_sentence(answer.json())


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", None])
def test_a_text_file_to_convert_is_no_roster_and_says_what_warlog_reads(http, content_type):
    """Issue 28: `curl --data-binary @notes.txt /rosters/convert` is told the file is no roster (422, as the
    contract says), not that its media type is wrong."""
    headers = {"Content-Type": content_type} if content_type else {}
    refused = http.post("/rosters/convert", content=b"my army: 3 squads\n", headers=headers)
    assert refused.status_code == 422
    assert refused.json()["detail"] == "Not a roster: send a .rosz, a .ros (XML) or a New Recruit JSON file."
    assert_sentence(refused.json())


def test_the_same_roster_with_the_same_idempotency_key_answers_the_same(new_game):
    from tests.support.rosters import as_rosz
    game = new_game("reference")
    raw = as_rosz(tenth_list())
    first = post_roster(game, "A", raw, **{"Idempotency-Key": "r1"})
    again = post_roster(game, "A", raw, **{"Idempotency-Key": "r1"})
    assert first.status_code == again.status_code == 200
    assert again.json()["import"] == first.json()["import"] and again.json()["version"] == first.json()["version"]


def test_convert_touches_no_game_and_refuses_what_is_not_a_roster(http):
    converted = http.post("/rosters/convert", content=as_ros(heresy_squad()))
    assert converted.status_code == 200
    assert converted.json()["ruleset"] == "heresy" and converted.json()["units"][1]["models"][0]["armour"]
    refused = http.post("/rosters/convert", json={"units": []})
    assert refused.status_code == 422 and refused.json()["field"] == "/roster"
    assert_sentence(refused.json())


def test_warlog_import_prints_the_converted_roster(capsys):
    import json

    from warlog.api.cli import main
    main(["import", str(corpus() / "hh2_dark-angels.rosz"), "--ruleset", "heresy"])
    printed = json.loads(capsys.readouterr().out)
    assert printed["format"] == "rosz" and printed["ruleset"] == "heresy" and printed["units"]


def test_a_roster_json_whose_roster_key_is_not_first_still_musters(new_game):
    import json

    from tests.support.rosters import tenth_list
    game = new_game("reference")
    body = json.dumps({"note": "exported by hand", **tenth_list()}).encode()
    answer = post_roster(game, "A", body, "application/json")
    assert answer.status_code == 200, answer.text
    assert answer.json()["import"]["format"] == "json" and len(answer.json()["import"]["units"]) == 3
