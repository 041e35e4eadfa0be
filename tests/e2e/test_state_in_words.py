"""GET /state, a write's `view` and the overlay say in the players' words what the game waits for, where it is and
what the last roll was for (CONTRACT.md "In the players' words"), so no client turns the service's names into
words of its own ("Hazard", "End Phase", "Movement Pass Points"): `awaiting.text` to the reader ("you" to the
awaited seat, the players by name to the other and to a spectator), `phase_title`, `last_roll.purpose_title`, and
the overlay's `awaiting_text` and `phase_title`. The players are Alice (seat A) and Bob (seat B)."""
from __future__ import annotations

from tests.e2e.test_audit_fixes_c import TOUGH
from tests.e2e.test_offers_in_words import shooting
from tests.e2e.test_overlay import into_move_units, overlay, started
from tests.e2e.test_reference_audit_fixes import until
from tests.support.client import unit


def awaiting_escape(new_game):
    """A reference game (table dice) whose Bob's engaged Beasts make a Desperate Escape: the game awaits its roll."""
    game = new_game("reference", dice="table")
    beasts = unit("beasts", 3, statuses=("engaged",), engaged_with=["scouts"])
    scouts = unit("scouts", 2)
    scouts["models"][0].update(W=30, **TOUGH)
    game.start([scouts], [beasts])
    until(game, 1, "B", "movement")
    game.cmd("B", "select", unit="beasts", move="fall_back", escape="desperate")
    assert game.state()["awaiting"]["roll"]["purpose"] == "hazard"
    return game


def test_what_the_game_waits_for_is_said_to_each_reader_a_desperate_escape_as_the_rules_call_it(new_game):
    game = awaiting_escape(new_game)
    said = {role: game.state(role)["awaiting"]["text"] for role in ("A", "B", "spectator")}
    assert said == {"A": "The game waits for Bob to roll 3D6 for a Desperate Escape.",
                    "B": "The game waits for you to roll 3D6 for a Desperate Escape.",
                    "spectator": "The game waits for Bob to roll 3D6 for a Desperate Escape."}
    assert game.state("B")["phase_title"] == "Movement phase"
    assert overlay(game, "spectator")["awaiting_text"] == said["spectator"]


def test_the_last_roll_says_what_it_was_for_as_the_rules_call_it_in_the_state_the_view_and_the_overlay(new_game):
    game = awaiting_escape(new_game)
    answer = game.cmd("B", "roll", dice=[3, 4, 5])
    roll = answer["view"]["last_roll"]
    assert (roll["purpose"], roll["purpose_title"]) == ("hazard", "a Desperate Escape")
    assert "Desperate Escape" not in (roll["text"] or "")  # its sentence says the outcome, not what it was for
    assert game.state("spectator")["last_roll"]["purpose_title"] == "a Desperate Escape"
    assert overlay(game, "spectator")["last_roll"]["purpose_title"] == "a Desperate Escape"
    assert answer["view"]["awaiting"]["text"] == "The game waits for you to roll 2D6 for a battle-shock test."


def test_a_sub_phase_is_titled_as_the_rules_name_it_and_whose_go_by_name_to_a_spectator(new_game):
    game = started(new_game)
    assert game.state("spectator")["phase_title"] == "Movement Pass Point Calculation (Movement phase)"
    assert game.state("spectator")["awaiting"]["text"] == "The game waits for both players to confirm the count."
    into_move_units(game)
    while game.state()["awaiting"]["action"] == "roll_off":  # a tie is rolled again
        game.cmd("A", "roll_off")
    state, seen = game.state("spectator"), overlay(game, "spectator")
    assert state["phase_title"] == seen["phase_title"] == "Move Units (Movement phase)"
    seat = state["awaiting"]["seat"]
    name = state["players"][seat]
    assert state["awaiting"]["text"] == seen["awaiting_text"] == f"The game waits for {name} to choose who goes first."
    game.cmd(seat, "choose_order", first=seat)
    assert game.state("spectator")["awaiting"]["text"] == f"The game waits for {name} to select a unit."
    assert game.state(seat)["awaiting"]["text"] == "The game waits for you to select a unit."


def test_before_the_first_phase_no_phase_is_titled_and_the_wait_is_for_either_player(new_game):
    game = new_game("reference")
    state = game.state("spectator")
    assert (state["status"], state["phase_title"]) == ("setup", None)
    assert state["awaiting"]["text"] == "The game waits for either player to start the game."


def test_the_openapi_document_describes_the_sentences(http):
    schemas = http.get("/openapi.json").json()["components"]["schemas"]
    assert {"phase_title", "awaiting"} <= set(schemas["State"]["properties"])
    assert "text" in schemas["Awaiting"]["required"] and "purpose_title" in schemas["LastRoll"]["required"]
    assert {"phase_title", "awaiting_text"} <= set(schemas["Overlay"]["required"])
    assert "Desperate Escape" in schemas["LastRoll"]["properties"]["purpose_title"]["description"]


def test_an_attack_paused_for_a_command_re_roll_waits_in_words_not_by_the_commands_name(new_game):
    game = shooting(new_game)
    game.cmd("A", "attack", unit="shooters", weapon="Storm bolter", target="guard")
    game.cmd("A", "roll", dice=[1, 3, 3, 3, 3, 3])
    assert game.state("A")["awaiting"]["action"] == "command_reroll"
    assert game.state("A")["awaiting"]["text"] == "The game waits for you to use a Command Re-roll or keep the dice."
    assert game.state("B")["awaiting"]["text"] == ("The game waits for Alice to use a Command Re-roll or keep the "
                                                   "dice.")  # never "to command reroll"
    assert game.state("A")["last_roll"]["purpose_title"] == "hit rolls"
