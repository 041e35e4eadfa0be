"""Issue 25, "Heresy: the partly-kept rules": the Move sub-phase and reactions made whole, each held over HTTP in
both dice modes and named by the rule it keeps."""
from __future__ import annotations

import pytest

from tests.e2e.test_heresy import a_goes_first, to_sub_phase
from tests.support.client import GameClient, unit

DICE = ["server", "table"]


def at_move(game: GameClient, army_a: list, army_b: list) -> None:
    game.start(army_a, army_b)
    a_goes_first(game)
    to_sub_phase(game, "A", "move")


@pytest.mark.parametrize("dice", DICE)
@pytest.mark.parametrize("move", ["normal", "rush"])
def test_HH_MOV_1_a_unit_selected_that_moves_0_inches_is_stationary_not_moved(new_game, dice, move):
    game = new_game("heresy", dice=dice)
    at_move(game, [unit("legion-1")], [unit("militia")])
    moved = game.cmd("A", "move", unit="legion-1", move=move, distance=0)["events"]
    assert [(e["type"], e["rule"]) for e in moved] == [("UnitMoved", "HH.MOV.1"), ("StatusGained", "HH.MOV.1")]
    assert moved[0]["data"]["move"] == "stationary" and moved[1]["data"]["status"] == "stationary"
    assert "stationary" in game.state()["units"]["legion-1"]["statuses"]
    to_sub_phase(game, "A", None, "shooting")  # it did not rush: it may shoot (HH.MOV.5 does not bite)
    declared = game.cmd("A", "select", unit="legion-1", targets=["militia"])["events"][0]
    assert declared["type"] == "ShootingDeclared" and declared["data"]["moved"] == "stationary"
