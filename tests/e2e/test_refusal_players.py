"""CONTRACT.md "In the players' words": a refusal that says whose turn, go, roll or choice it is names that player
as the game names them ("it is Alice's turn"), never by the seat's letter, and says "you" to the player it is
about. The players are Alice (seat A) and Bob (seat B)."""
from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.test_heresy import a_goes_first, to_sub_phase
from tests.e2e.test_reference_rules import until
from tests.support.client import GameClient, play_awaited, unit


def in_words(problem: dict[str, Any], rule: str, *said: str) -> str:
    """The refusal cites `rule` and its detail says each of `said`, with no seat letter and no null in it."""
    detail = problem["detail"]
    assert problem["rule"] == rule, problem
    assert all(words in detail or words[:1].upper() + words[1:] in detail for words in said), detail
    assert "seat" not in detail.lower() and "None" not in detail and "null" not in detail, detail
    return detail


@pytest.mark.parametrize("dice", ["server", "table"])
def test_reference_out_of_turn_the_refusal_names_the_player_whose_turn_it_is(new_game, dice):
    game = new_game("reference", dice=dice)
    game.start([unit("a-squad-1", name="Tactical Squad")], [unit("b-mob-1", name="Ork Boyz")])
    until(game, 1, "A", "movement")
    in_words(game.refused("B", "select", unit="b-mob-1"), "RS.MOV.1", "it is Alice's turn")
    in_words(game.refused("B", "end_phase"), "RS.MOV.1", "it is Alice's turn")


def to_go(game: GameClient, sub_phase: str) -> str:
    """Play the plainest offered actions up to a go in `sub_phase`; the seat whose go it is."""
    for _ in range(200):
        state = game.state()
        if state["sub_phase"] == sub_phase and state["awaiting"]["action"] == "select":
            return str(state["awaiting"]["seat"])
        if state["awaiting"]["action"] == "select":
            game.cmd(state["awaiting"]["seat"], "declare_done")
        else:
            play_awaited(game)
    raise AssertionError(f"never reached a go in {sub_phase}")


@pytest.mark.parametrize("dice", ["server", "table"])
def test_alternating_out_of_go_the_refusal_names_the_player_whose_go_it_is(new_game, dice):
    game = new_game("alternating", dice=dice)
    game.start([unit("a-squad-1", name="Tactical Squad")], [unit("b-mob-1", name="Ork Boyz")])
    going = to_go(game, "move_units")
    waiting, name = ("B", "Alice") if going == "A" else ("A", "Bob")
    mine = "b-mob-1" if waiting == "B" else "a-squad-1"
    in_words(game.refused(waiting, "select", unit=mine, distance=3), "AA.ACT.3", f"it is {name}'s go")


def test_alternating_a_charge_waits_for_the_overwatch_its_player_chooses_and_the_roll_its_player_makes(new_game):
    """AA.CHG.1/AA.OW.1: Bob, whose Ork Boyz are charged, is told he chooses the overwatch; Alice is told Bob
    does; once he holds it, Bob is told the roll the game awaits is Alice's to make."""
    game = new_game("alternating", dice="table")
    game.start([unit("a-squad-1", name="Tactical Squad")],
               [unit("b-mob-1", name="Ork Boyz")])
    while to_go(game, "select_charges") != "A":
        game.cmd("B", "declare_done")
    game.cmd("A", "select", unit="a-squad-1", targets=["b-mob-1"], distance=7)
    assert game.state()["awaiting"].get("reaction") == "overwatch", game.state()["awaiting"]
    in_words(game.refused("A", "declare_done"), "AA.CHG.1",
             "Bob chooses whether Bob's Ork Boyz fires overwatch or holds it")
    in_words(game.refused("B", "declare_done"), "AA.CHG.1", "you choose whether Ork Boyz fires overwatch")
    game.cmd("B", "select", unit="b-mob-1", act=False)
    assert game.state()["awaiting"]["roll"]["purpose"] == "charge"  # CORE.DICE.1: asked of Alice's table
    in_words(game.refused("B", "roll", dice=[3, 3]), "AA.CHG.1",
             "the roll the game awaits (2D6 for a charge) is Alice's to make")


@pytest.mark.parametrize("dice", ["server", "table"])
def test_heresy_out_of_turn_the_refusal_names_the_player_whose_move_it_is(new_game, dice):
    game = new_game("heresy", dice=dice)
    game.start([unit("a-legion-1", name="Legion Tactical Squad")], [unit("b-militia-1", name="Militia")])
    a_goes_first(game)
    to_sub_phase(game, "A", "move")
    in_words(game.refused("B", "move", unit="b-militia-1", distance=3), "HH.MOV.1", "it is Alice's Move sub-phase")
    in_words(game.refused("B", "end_phase"), "HH.MOV.0", "it is Alice's turn")


def test_heresy_a_reaction_waits_for_the_player_who_answers_it_and_says_so_to_both(new_game):
    """HH.REACT.1: while Bob may react to the Legion's move, Alice is told Bob answers it first, Bob that he does."""
    game = new_game("heresy")
    game.start([unit("a-legion-1", name="Legion Tactical Squad")], [unit("b-militia-1", name="Militia")])
    a_goes_first(game)
    to_sub_phase(game, "A", "move")
    game.cmd("A", "move", unit="a-legion-1", move="normal", distance=6, near=["b-militia-1"])
    assert game.state()["awaiting"]["action"] == "react"
    in_words(game.refused("A", "end_phase"), "HH.REACT.1",
             "Bob answers the reaction to Legion Tactical Squad first")
    in_words(game.refused("B", "end_phase"), "HH.REACT.1",
             "you answer the reaction to Alice's Legion Tactical Squad first")


def test_the_service_names_the_player_who_has_not_mustered_an_army(new_game):
    """SVC.SETUP: Bob is told Alice has not mustered an army, Alice that she has not."""
    game = new_game("reference")
    assert game.muster("B", [unit("b-mob-1", name="Ork Boyz")]).status_code == 200
    in_words(game.refused("B", "start_game"), "SVC.SETUP", "Alice has not mustered an army")
    in_words(game.refused("A", "start_game"), "SVC.SETUP", "you have not mustered an army")


@pytest.mark.parametrize("ruleset", ["reference", "alternating", "heresy"])
def test_start_game_names_the_unit_mustered_engaged_with_no_enemy_unit_by_its_name(new_game, ruleset):
    """SVC.SETUP at start_game: Alice's unit mustered engaged with a unit Bob's army, mustered after, does not have
    is named as the players know it (its name and whose it is), not by its id; the id it named, which no unit's
    name stands for, is quoted as mustered."""
    game = new_game(ruleset)
    game.muster("A", [unit("a-squad-1", name="Tactical Squad", engaged_with=["b-ghosts"])]).raise_for_status()
    game.muster("B", [unit("b-mob-1", name="Ork Boyz")]).raise_for_status()
    for seat in "AB":
        detail = in_words(game.refused(seat, "start_game"), "SVC.SETUP",
                          "Alice's Tactical Squad cannot start engaged with 'b-ghosts': Bob's army has no unit of "
                          "that id")
        assert "a-squad-1" not in detail, detail
    assert game.state()["status"] == "setup"


@pytest.mark.parametrize("dice", ["server", "table"])
def test_what_the_game_waits_for_is_said_in_words_with_the_players_name(new_game, dice):
    """A refusal that says what the game waits for says it as players do ("the game waits for either player to
    roll off", "... for Bob to choose who goes first", "... for you to ..."), never by the action's name."""
    game = new_game("reference", dice=dice)
    game.start([unit("a-squad-1", name="Tactical Squad")], [unit("b-mob-1", name="Ork Boyz")])
    assert game.state()["awaiting"]["action"] == "roll_off"
    detail = in_words(game.refused("A", "end_phase"), "CORE.DICE.3", "the game waits for either player to roll off")
    assert "roll_off" not in detail
    while game.state()["awaiting"]["action"] == "roll_off":  # a tied roll-off is rolled again (CORE.DICE.3)
        play_awaited(game)  # its winner chooses who goes first
    awaiting = game.state()["awaiting"]
    assert awaiting["action"] == "choose_order"
    chooser, other = awaiting["seat"], "B" if awaiting["seat"] == "A" else "A"
    name = {"A": "Alice", "B": "Bob"}[chooser]
    told = in_words(game.refused(other, "end_phase"), "CORE.DICE.3",
                    f"the game waits for {name} to choose who goes first")
    mine = in_words(game.refused(chooser, "end_phase"), "CORE.DICE.3", "the game waits for you to choose who goes first")
    assert "choose_order" not in told + mine
