"""CONTRACT.md "In the players' words": what a player reads names units by their names and players by theirs,
never by a unit's id or a seat's letter: the heresy reaction refusals, the reason an engagement's end stores (edition
4; a game created before keeps the ids it stored), the duration offered to the player giving a status, and the
refusals of an army's links and engagements. The players are Alice (seat A) and Bob (seat B)."""
from __future__ import annotations

import pytest

from tests.e2e.test_heresy import a_goes_first, to_sub_phase
from tests.support.client import GameClient, unit


def heresy_at_move(new_game, dice: str = "server") -> GameClient:
    game = new_game("heresy", dice=dice)
    game.start([unit("a-legion-1", name="Legion Tactical Squad"), unit("a-legion-2", name="Legion Veterans")],
               [unit("b-militia-1", name="Militia"), unit("b-scouts-1", name="Scouts")])
    a_goes_first(game)
    to_sub_phase(game, "A", "move")
    return game


def no_ids(detail: str, *ids: str) -> str:
    assert not any(uid in detail for uid in ids), detail
    assert "seat" not in detail.lower(), detail
    return detail


@pytest.mark.parametrize("dice", ["server", "table"])
def test_HH_REACT_1_a_reaction_claimed_to_no_move_names_the_enemy_unit(new_game, dice):
    game = heresy_at_move(new_game, dice)
    problem = game.refused("B", "react", unit="b-militia-1", against="a-legion-1", direction="away", distance=2)
    assert problem["rule"] == "HH.REACT.1"
    assert no_ids(problem["detail"], "a-legion-1", "b-militia-1") == (
        "Alice's Legion Tactical Squad has ended no move this sub-phase that a reaction may answer.")


def test_HH_REACT_1_a_reaction_refused_once_offered_or_while_another_waits_names_the_moving_unit(new_game):
    game = heresy_at_move(new_game)
    game.cmd("A", "move", unit="a-legion-1", move="normal", distance=6, near=["b-militia-1"])
    assert game.state()["awaiting"]["action"] == "react"
    waiting = game.refused("B", "react", unit="b-militia-1", against="a-legion-2", direction="away", distance=2)
    assert waiting["rule"] == "HH.REACT.1"
    assert no_ids(waiting["detail"], "a-legion", "b-militia-1") == (
        "Answer the reaction offered to the move of Alice's Legion Tactical Squad first.")
    game.cmd("B", "react", act=False)
    again = game.refused("B", "react", unit="b-militia-1", against="a-legion-1", direction="away", distance=2)
    assert again["rule"] == "HH.REACT.1"
    assert no_ids(again["detail"], "a-legion-1") == (
        "It has already been offered a reaction to the move of Alice's Legion Tactical Squad.")
