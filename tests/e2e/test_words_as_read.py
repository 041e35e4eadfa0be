"""Every answer as a new player reads it (CONTRACT.md "In the players' words"), found by walking many random games
and reading what they said: each test holds one answer that said something a player would not understand, or
failed to say anything at all."""
from __future__ import annotations

import pytest

from tests.support.client import GameClient, keep_dice, play_awaited, unit

PLASMA = {"name": "Plasma", "type": "ranged", "range": 24, "A": "1", "skill": 3, "S": 8, "AP": -3, "D": "2",
          "keywords": ["DEVASTATING WOUNDS"]}


def shooting_at(new_game, target: dict) -> GameClient:
    game = new_game("reference", dice="table")
    game.start([unit("shooters", 2, weapons=[PLASMA])], [target])
    while game.state()["phase"] != "shooting" or game.state()["awaiting"]["action"] != "end_phase":
        play_awaited(game)
    game.cmd("A", "select", unit="shooters", shooting="normal")
    return game


def test_devastating_wounds_on_a_unit_without_feel_no_pain_are_said_not_a_server_error(new_game):
    # the mortal wounds' event names one rule (no "rules" list) when no Feel No Pain joins it: its sentence read
    # that list, and every such attack answered 500 (found by a random reference game)
    game = shooting_at(new_game, unit("guard", 3))
    game.cmd("A", "attack", unit="shooters", weapon="Plasma", target="guard")
    events = keep_dice(game, game.cmd("A", "roll", dice=[6, 3]))["events"]
    response = game.send("A", {"type": "roll", "dice": [6, 4]})  # a critical wound: DEVASTATING
    assert response.status_code == 200, response.text
    events = keep_dice(game, response.json())["events"]
    while game.state()["awaiting"]["action"] == "roll":
        awaiting = game.state()["awaiting"]
        events += keep_dice(game, game.cmd(awaiting["seat"], "roll", dice=[1] * int(
            awaiting["roll"]["spec"].split("D")[0] or 1)))["events"]
    (mortal,) = [e for e in events if e["type"] == "MortalWoundsInflicted"]
    assert mortal["rule"] == "EXT.WPN.DEVASTATING" and "rules" not in mortal["data"]
    assert mortal["text"] == ("Devastating Wounds from the Plasma of Alice's Shooters against Bob's Guard: "
                              "2 mortal wounds, 2 wounds lost, 2 models slain.")


@pytest.mark.parametrize("ruleset", ["alternating", "reference", "heresy"])
def test_a_concession_is_said_as_such_in_every_ruleset(new_game, ruleset):
    # reference and heresy log Conceded too (rules/core.py), but only alternating named its sentence: theirs read
    # "Bob: conceded." (the fallback for a kind with no text), and no test asked, its payload type alternating's
    game = new_game(ruleset)
    game.start([unit("a-1")], [unit("b-1")])
    events = game.cmd("B", "concede")["events"]
    assert [e["text"] for e in events if e["type"] == "Conceded"] == ["Bob conceded the game."]


def test_the_audit_says_why_with_the_players_and_units_names_not_seat_letters_and_ids(new_game):
    # `causes[].why` read "scouts-1's profile" and "seat A's confirmed count", and the undos "seat A asked to undo
    # it", "undone, approved by seat B": an id and seat letters where the game names the unit and the players
    game = new_game()
    game.start([unit("scouts-1", statuses=("falling_back",), name="Scouts")], [unit("boyz-1", name="Boyz")])
    events = game.cmd("A", "select", unit="scouts-1", act=True)["events"]
    outcome = next(e for e in events if e["type"] in ("RegroupPassed", "RegroupFailed"))
    assert game.post("A", "undo").status_code == 202
    assert game.post("B", "undo/approve").status_code == 200
    assert game.post("A", "redo").status_code == 200
    said = game.http.get(f"/games/{game.id}/audit/{outcome['seq']}", headers=game.headers("B")).json()
    whys = [c["why"] for c in said["causes"]] + [h["why"] for h in said["undo_history"]]
    assert "Alice's Scouts' profile" in whys
    assert [h["why"] for h in said["undo_history"]] == ["Alice asked to undo it (it rolled dice)",
                                                        "undone, approved by Bob", "brought back by Alice"]
    story = game.http.get(f"/games/{game.id}/audit", params={"unit": "scouts-1"}, headers=game.headers("A")).json()
    assert [u["why"] for u in story["undos"]] == ["Alice asked to undo it (it rolled dice)",
                                                  "undone, approved by Bob", "brought back by Alice"]
    while game.state()["sub_phase"] != "movement_pass_points":
        play_awaited(game)
    game.cmd("A", "confirm_count")
    counted = next(e for e in game.cmd("B", "confirm_count")["events"] if e["type"] == "PassPointsCalculated")
    said = game.http.get(f"/games/{game.id}/audit/{counted['seq']}", headers=game.headers("B")).json()
    assert {"Alice's confirmed count", "Bob's confirmed count"} <= {c["why"] for c in said["causes"]}
    for why in whys + [c["why"] for c in said["causes"]]:
        assert "seat " not in why and "scouts-1" not in why and "boyz-1" not in why, why


TWIN = {"name": "Twin bolter", "type": "ranged", "range": 24, "A": "2", "skill": 3, "S": 4, "AP": 0, "D": "1",
        "keywords": ["TWIN-LINKED"]}


def test_a_twin_linked_re_roll_is_asked_for_in_words_and_a_roll_sent_without_dice_names_what_it_is_for(new_game):
    # the wound re-roll's purpose had no words (PURPOSES): "Alice is to roll D6 for wound reroll"; a `roll` sent
    # without its dice at the table was refused with the purpose's code: "the awaited wound_reroll roll"
    game = new_game("reference", dice="table")
    game.start([unit("shooters", 1, weapons=[TWIN])], [unit("guard", 3, name="Guard")])
    while game.state()["phase"] != "shooting" or game.state()["awaiting"]["action"] != "end_phase":
        play_awaited(game)
    game.cmd("A", "select", unit="shooters", shooting="normal")
    game.cmd("A", "attack", unit="shooters", weapon="Twin bolter", target="guard")
    keep_dice(game, game.cmd("A", "roll", dice=[5, 5]))
    events = keep_dice(game, game.cmd("A", "roll", dice=[1, 2]))["events"]  # both wound rolls fail: re-rolled
    (asked,) = [e for e in events if e["type"] == "RollRequested"]
    assert asked["text"] == "Alice is to roll 2D6 for wound re-rolls (Alice's Shooters)."
    assert game.state()["awaiting"]["text"] == "The game waits for you to roll 2D6 for wound re-rolls."
    refused = game.send("A", {"type": "roll"})
    assert refused.status_code == 422
    assert refused.json()["detail"] == ('Table dice: the roll the game awaits (2D6 for wound re-rolls) needs 2 dice '
                                        'of 6 sides (2D6) in "dice".')


def test_a_one_model_units_strength_is_said_in_wounds_as_it_is_judged(new_game):
    # CORE.STR.2: a unit of starting strength 1 reads its wounds left against W; its change of strength read
    # "is now at half strength: 1 of 1 model left", a band its models cannot explain
    game = new_game("reference")
    beast = unit("beast", 1, name="Carnifex", keywords=("MONSTER",))
    beast["models"][0]["W"] = 4
    game.start([beast], [unit("b-1")])
    events = game.cmd("A", "record_casualties", unit="beast", wounds=2)["events"]
    (changed,) = [e for e in events if e["type"] == "StrengthChanged"]
    assert changed["data"]["to"] == "half"
    assert changed["text"] == "Alice's Carnifex is now at half strength: 2 of 4 wounds left."
    events = game.cmd("A", "record_casualties", unit="beast", wounds=2)["events"]
    (changed,) = [e for e in events if e["type"] == "StrengthChanged"]
    assert changed["text"] == "Alice's Carnifex is now destroyed: 0 of 1 model left."


def test_a_value_not_in_its_fields_form_is_refused_in_words_not_with_a_regular_expression(new_game):
    # each refusal quoted the field's pattern: "`seat` must match the pattern ^[AB]$ (not "C")", and a weapon's
    # attacks "must match the pattern ^(?:[0-9]|[1-9][0-9]{1,2}|1000|(?:[1-9]|[1-4][0-9]|50)?[dD](?:…"
    game = new_game()
    response = game.http.get(f"/games/{game.id}/audit", params={"seat": "C"}, headers=game.headers("A"))
    assert response.status_code == 422
    assert response.json()["detail"] == '`seat` must be A or B (not "C").'
    shooters = unit("shooters")
    shooters["weapons"][0]["A"] = "two"
    response = game.muster("A", [shooters])
    assert response.status_code == 422 and response.json()["field"] == "/units/0/weapons/0/A"
    assert response.json()["detail"] == ('`A` of weapon 1 of unit 1 must be a dice expression such as 3, D6, D3+1 '
                                         'or 2D6 (not "two").')
    response = game.muster("A", [unit("my scouts")])
    assert response.json()["detail"] == ('`id` of unit 1 must be written with letters, digits and _ . : - only, '
                                         'no spaces (not "my scouts").')
    response = game.http.get(f"/games/{game.id}/verify", params={"head": "xyz"}, headers=game.headers("A"))
    assert response.json()["detail"] == '`head` must be 64 lower-case hex digits (not "xyz").'
    response = game.send("A", {"type": "add_entropy", "entropy": "xyz"})
    assert response.status_code == 422
    assert response.json()["detail"] == ('`entropy` must be hex digits in pairs (whole bytes), at most 256 digits '
                                         '(not "xyz").')
    for detail in [game.send("A", {"type": "free_roll", "spec": "D6", "purpose": "a\u0000b"}).json()["detail"]]:
        assert "pattern" not in detail and "^" not in detail, detail


def offered(state: dict, type_: str) -> list[dict]:
    return [a for a in state["actions"] if a["type"] == type_]


def test_ending_a_phase_and_recording_a_status_are_offered_in_the_rules_words(new_game):
    # "end the command phase", "end the rout sub-phase" (the phase's code in lower case), and a status to record
    # titled "Locked in combat", "Gone to ground" where the unit's card says "Locked in Combat", "Gone to Ground"
    game = new_game("reference")
    game.start([unit("a-1")], [unit("b-1")])
    while not offered(game.state(game.state()["awaiting"]["seat"] or "A"), "end_phase"):
        play_awaited(game)
    seat = game.state()["awaiting"]["seat"]
    (end,) = offered(game.state(seat), "end_phase")
    assert end["summary"] == "end the Command phase"
    status = game.state("A")["records"]
    records = [a for a in status if a["type"] == "set_status"]
    titles = {c["const"]: c["title"] for a in records for c in a["schema"]["properties"]["status"]["oneOf"]}
    assert titles["locked_in_combat"] == "Locked in Combat" and titles["gone_to_ground"] == "Gone to Ground"
    assert titles["battle_shocked"] == "Battle-shocked" and titles["falling_back"] == "Falling back"
    heresy = new_game("heresy")
    heresy.start([unit("a-1")], [unit("b-1")])
    summaries = set()
    for _ in range(40):
        seat = heresy.state()["awaiting"]["seat"] or "A"
        summaries |= {a["summary"] for a in offered(heresy.state(seat), "end_phase")}
        play_awaited(heresy)
    assert {"end the Reserves sub-phase", "end the Rout sub-phase"} <= summaries, summaries


def test_heresy_a_move_refused_names_the_unit_and_asks_for_an_attestation_in_words(new_game):
    # a second move was refused with "It has already moved this sub-phase." (which unit?), and a disembarking not
    # attested with the field to send: "attest that each model is placed within 2\" of the transport (placed: true)"
    from tests.e2e.test_heresy import a_goes_first, to_sub_phase
    from tests.support.client import vehicle

    game = new_game("heresy")
    rhino = vehicle("rhino", capacity=10, name="Rhino")
    game.start([rhino, unit("squad", 5, name="Tactical Squad", embarked_in="rhino"), unit("scouts", name="Scouts")],
               [unit("militia", 3)])
    a_goes_first(game)
    to_sub_phase(game, "A", "move")
    response = game.send("A", {"type": "disembark", "unit": "squad", "placed": False, "distance": 2})
    assert response.status_code == 422 and response.json()["field"] == "/placed"
    assert response.json()["detail"] == ('Each model of a disembarking unit is placed within 2" of its transport: attest '
                                 'that it is.')
    game.cmd("A", "move", unit="scouts", move="normal", distance=3, clear=True)
    problem = game.refused("A", "move", unit="scouts", move="normal", distance=3, clear=True)
    assert problem["detail"] == "Scouts cannot move: it has already moved this sub-phase."


def test_table_dice_out_of_range_and_a_game_not_started_are_refused_in_words(new_game):
    # "die 1 shows 7, outside 1..6", "needs 1..50 dice", "a die has 2..100 sides" (a programmer's ranges), and a
    # command before the start "waits until the game has started (start_game)" (the command's code, not what to do)
    game = new_game("reference", dice="table")
    problem = game.refused("A", "end_phase")
    assert problem["detail"] == "`end_phase` waits until the game has started: start the game first."
    game.start([unit("a-1")], [unit("b-1")])
    assert game.send("A", {"type": "free_roll", "spec": "D6", "purpose": "scatter", "dice": [7]}).json()["detail"] \
        == "`dice`: die 1 shows 7, but a D6 shows 1 to 6."
    assert game.send("A", {"type": "free_roll", "spec": "0D6", "purpose": "scatter", "dice": [1]}).json()["detail"] \
        == "`spec`: '0D6': needs 1 to 50 dice and a modifier up to 1000."
    assert game.send("A", {"type": "free_roll", "spec": "D1", "purpose": "scatter", "dice": [1]}).json()["detail"] \
        == "`spec`: 'D1': a die has 2 to 100 sides, got 1."


def test_an_undo_request_of_ones_own_roll_says_the_other_player_must_agree(new_game):
    # "Alice asked to undo Alice's action (event 9): it rolled dice, so Alice must agree": the player who must
    # agree is the other one (SVC.UNDO.CONSENT), whoever took the action
    game = new_game()
    game.start([unit("a-1")], [unit("b-1")])
    game.cmd("A", "free_roll", spec="D6", purpose="scatter")
    response = game.post("A", "undo")
    assert response.status_code == 202
    (asked,) = [e for e in response.json()["events"] if e["type"] == "UndoRequested"]
    assert asked["text"].startswith("Alice asked to undo their own action (event ")
    assert asked["text"].endswith("): it rolled dice, so Bob must agree.")
    assert game.post("B", "undo/reject").status_code == 200
    game.cmd("B", "free_roll", spec="D6", purpose="scatter")
    (asked,) = [e for e in game.post("A", "undo").json()["events"] if e["type"] == "UndoRequested"]
    assert asked["text"].startswith("Alice asked to undo Bob's action (event ")
    assert asked["text"].endswith(": it rolled dice, so Bob must agree.")


def test_a_roster_read_says_what_it_left_out_in_words(http):
    # "1 army rules are named in the roster, not applied", and an empty characteristic "not read (null)"
    from tests.support.rosters import as_json, profile, selection

    tree = {"roster": {"name": "List", "gameSystemName": "Warhammer 40,000 10th Edition", "forces": [
        {"name": "Army Roster", "rules": [{"name": "Oath of Moment"}], "selections": [
            selection("Marine", "model", profiles=[
                profile("Marine", "Unit", M='6"', T="", SV="3+", W="2", LD="6+", OC="1"),
                profile("Bolt rifle", "Ranged Weapons", Range='24"', A="2", BS="3+", S="", AP="0", D="1")])]}]}}
    response = http.post("/rosters/convert", params={"ruleset": "reference"}, content=as_json(tree))
    assert response.status_code == 200, response.text
    said = {u["path"]: u["what"] for u in response.json()["unmapped"]}
    assert said["roster/forces/0/rules"] == "1 army rule is named in the roster, not applied"
    assert said["roster/forces/0/selections/0/profiles/0/characteristics/T"] == \
        "Marine: T is empty in this file: no convention: left unstated"
    assert said["roster/forces/0/selections/0/profiles/1/characteristics/S"] == \
        "Bolt rifle: S is empty in this file: left unstated"


def test_a_weapon_whose_name_begins_with_the_is_not_said_the_the(new_game):
    # a roster's "The Wolf Blade" read "The The Wolf Blade of Bob's Lion El'Jonson against …"
    # ten attacks: some hit and wound (all miss once in ~60,000 games), so the saves' sentence is said too
    blade = {"name": "The Wolf Blade", "type": "ranged", "range": 24, "A": "10", "skill": 3, "S": 9, "AP": -2, "D": "2"}
    game = new_game("reference")
    game.start([unit("lion", 1, name="Lion", weapons=[blade])], [unit("guard", 3, name="Guard")])
    while game.state()["phase"] != "shooting" or game.state()["awaiting"]["action"] != "end_phase":
        play_awaited(game)
    game.cmd("A", "select", unit="lion", shooting="normal")
    events = keep_dice(game, game.cmd("A", "attack", unit="lion", weapon="The Wolf Blade", target="guard"))["events"]
    (rolled,) = [e for e in events if e["type"] == "AttacksRolled"]
    assert rolled["text"] == "The Wolf Blade of Alice's Lion against Bob's Guard: 10 attacks from 1 model."
    (saves,) = [e for e in events if e["type"] == "SavesRolled"]
    assert "against The Wolf Blade of Alice's Lion" in saves["text"]
    assert not [e["text"] for e in events if "the The" in e["text"] or "The The" in e["text"]]


def test_a_count_out_of_range_is_refused_as_from_and_to_not_a_programmers_range(new_game):
    # "`dangerous`: 0..5 models", "models must lie in 1..2"
    from tests.e2e.test_heresy import a_goes_first, to_sub_phase

    game = new_game("heresy")
    game.start([unit("scouts", 5, name="Scouts")], [unit("militia", 3)])
    a_goes_first(game)
    to_sub_phase(game, "A", "move")
    response = game.send("A", {"type": "move", "unit": "scouts", "move": "normal", "distance": 3, "clear": True,
                               "dangerous": 9})
    assert response.status_code == 422, response.text
    assert response.json()["detail"] == "`dangerous`: from 0 to 5 models."
    game = new_game("reference")
    game.start([unit("shooters", 2)], [unit("guard", 3)])
    while game.state()["phase"] != "shooting" or game.state()["awaiting"]["action"] != "end_phase":
        play_awaited(game)
    game.cmd("A", "select", unit="shooters", shooting="normal")
    response = game.send("A", {"type": "attack", "unit": "shooters", "weapon": "Boltgun", "target": "guard",
                               "models": 7})
    assert response.status_code == 422, response.text
    assert response.json()["detail"] == "Models must be from 1 to 2."
