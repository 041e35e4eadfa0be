"""CONTRACT.md "In the players' words": what an offer says (its `summary`, its fields' labels and descriptions), as
the table app shows it, reads as players speak: a roll by what the rules call it, dice as read out, no field's
name or JSON value ("act false", "free_roll", "(true)"), no index where a name exists, "1 model" not "1 models".
The players are Alice (seat A) and Bob (seat B)."""
from __future__ import annotations

import json
from typing import Any

from tests.e2e.test_fnp_read import escape
from tests.e2e.test_heresy import offered
from tests.e2e.test_heresy_attacks import legion, to_phase
from tests.e2e.test_reference_attacks import CARBINE, GUNNER, RIFLE, TROOPER, shooting
from tests.e2e.test_reference_rules import until
from tests.support.client import GameClient, keep_dice, play_awaited, unit


def summaries(game: GameClient, seat: str, type_: str) -> list[str]:
    return [a["summary"] for a in offered(game, seat, type_)]


def test_a_roll_offered_says_what_the_roll_is_for_as_the_rules_call_it(new_game):
    game = shooting(new_game)
    game.cmd("A", "attack", unit="shooters", weapon="Storm bolter", target="guard")
    assert summaries(game, "A", "roll") == ["roll 6D6 for hit rolls (Shooters)"]  # was "for the hit roll"
    hazard = new_game("reference", dice="table")
    hazard.start([unit("scouts", 2)], [unit("beast", 2, statuses=("engaged",), engaged_with=["scouts"])])
    until(hazard, 1, "B", "movement")
    hazard.cmd("B", "select", unit="beast", move="fall_back", escape="desperate")
    assert summaries(hazard, "B", "roll") == ["roll 2D6 for a Desperate Escape (Beast)"]  # was "the hazard roll"
    fnp, _ = escape(new_game, "FEEL NO PAIN 6+")
    assert summaries(fnp, "B", "roll") == ["roll 6D6 for Feel No Pain against mortal wounds (Beast)"]


def test_dice_to_keep_or_re_roll_are_read_out_not_listed_as_data(new_game):
    game = shooting(new_game)
    game.cmd("A", "attack", unit="shooters", weapon="Storm bolter", target="guard")
    game.cmd("A", "roll", dice=[1, 3, 3, 3, 3, 3])
    assert summaries(game, "A", "keep_dice") == ["keep the hit roll (1, 3, 3, 3, 3 and 3) and go on"]
    assert summaries(game, "A", "command_reroll") == [
        "Command Re-roll (1 CP): re-roll one die of the hit roll (1, 3, 3, 3, 3 and 3)"]  # no "[1, 3, ...]", no index


def test_the_group_to_save_next_is_offered_by_its_models_name_not_its_index(new_game):
    game = new_game("reference", dice="table")
    game.start([unit("shooters", 1, weapons=[RIFLE, CARBINE])], [unit("squad", 3, models=[TROOPER, GUNNER])])
    until(game, 1, "A", "shooting")
    game.cmd("A", "select", unit="shooters", shooting="normal")
    game.cmd("A", "attack", unit="shooters", weapon="Rifle", target="squad")
    keep_dice(game, game.cmd("A", "roll", dice=[5]))
    keep_dice(game, game.cmd("A", "roll", dice=[5]))
    assert game.state()["awaiting"]["action"] == "allocate"  # a W1 trooper and the W2 gunner: Bob picks
    assert summaries(game, "B", "allocate") == ["choose which group of Squad saves next: Trooper or Gunner"]


def test_a_unit_that_may_be_selected_without_acting_is_said_so_in_words(new_game):
    game = new_game("alternating", dice="table")
    game.start([unit("a-squad", 5)], [unit("b-squad", 5)])
    while (game.state()["sub_phase"], game.state()["awaiting"]["action"]) != ("move_units", "select"):
        play_awaited(game)
    seat = game.state()["awaiting"]["seat"]
    [summary] = summaries(game, seat, "select")
    assert summary == "select a unit to move (one that does not act moves zero)"  # was "(act false: ...)"


def test_a_heresy_shooting_says_a_free_roll_in_words_and_one_model_strikes_with_1_model(new_game):
    game = new_game("heresy", dice="table")
    game.start([legion("legion", 1)], [unit("militia", 4)])
    to_phase(game, "shooting")
    [select] = summaries(game, "A", "select")
    assert select == ("select a unit to shoot and name its targets; then fire its weapons one by one (the service rolls "
                      "it on the heresy tables; a weapon they cannot read is rolled as a free roll and its casualties "
                      "recorded)")  # was "fire each weapon with shoot", "rolled with free_roll"
    fight = new_game("heresy", dice="table")
    fight.start([legion("legion", 1)], [unit("militia", 4)])
    to_phase(fight, "assault")
    fight.cmd("A", "select", unit="legion", targets=["militia"], distance=7)
    fight.cmd("A", "roll", dice=[3, 4])
    assert summaries(fight, "A", "strike") == [
        "Legion strikes Bob's Militia at Initiative 4 with 1 model, one melee weapon (WS against WS)"]


def test_a_roll_off_by_the_service_rolls_for_each_player(new_game):
    game = new_game("alternating", dice="server")
    game.start([unit("a-squad", 5)], [unit("b-squad", 5)])
    while game.state()["awaiting"]["action"] != "roll_off":
        play_awaited(game)
    assert summaries(game, "A", "roll_off") == ["roll off: the service rolls a D6 for each player"]


def fields_said(action: dict[str, Any]) -> dict[str, tuple[str, str | None]]:
    """Each field of an offer's body as the form shows it: its label and its description."""
    return {name: (sub["title"], sub.get("description")) for name, sub in action["schema"]["properties"].items()}


def test_a_status_gained_or_lost_is_described_in_words_not_as_true_or_false(new_game):
    game = new_game("alternating", dice="table")
    game.start([unit("a-squad", 5)], [unit("b-squad", 5)])
    [status] = [a for a in game.state("A")["records"] if a["type"] == "set_status"]
    assert fields_said(status)["value"] == ("Gained", "whether the unit gains the status (or loses it)")
    said = json.dumps(fields_said(status))
    assert "true" not in said and "false" not in said, said


def test_a_heresy_arrival_labels_each_attested_field_by_what_it_attests(new_game):
    from tests.e2e.test_heresy import a_goes_first
    from tests.e2e.test_heresy_movement_fixes import to_arrival

    game = new_game("heresy", dice="table")
    game.start([unit("a-res", 3, in_reserves=True), unit("a-squad", 3)], [unit("b-squad", 3)])
    a_goes_first(game)
    to_arrival(game, "table")
    enter = offered(game, "A", "enter")[0]
    said = fields_said(enter)
    assert said["from_edge"][0] == "Enters from your table edge"  # was "From edge"
    assert said["removed"][0] == "Models removed as casualties"  # was "Removed"


def test_a_heresy_disembark_labels_where_its_models_are_placed(new_game):
    from tests.e2e.test_heresy_disembark_clear import two_squads_in_a_rhino

    game = two_squads_in_a_rhino(new_game, "table")
    placed = {fields_said(a)["placed"][0] for a in offered(game, "A", "disembark")}
    assert placed == {"Placed within 2\" of the transport"}  # was "Placed"
