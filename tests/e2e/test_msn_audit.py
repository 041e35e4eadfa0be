"""RULES.md MSN (and EXT.OBJ.1/EXT.VP.1 in reference) held over HTTP where an audit found an edge the other tests
did not reach: what a player checks of the result, the score, the summary and the clock."""
from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.test_results import played_out, summary
from tests.support.client import GameClient, unit
from warlog.domain.rules import editions


def split_game(new_game: Any, points: int | None, moved: int) -> GameClient:
    """Reference: Bob's squad of 10 split before the battle, `moved` models forming `squad-2`."""
    game = new_game("reference", dice="server", battle_rounds=1)
    assert game.muster("A", [unit("vets", 5)]).status_code == 200
    assert game.muster("B", [unit("squad", 10, points=points), unit("guard", 5)]).status_code == 200
    game.cmd("B", "split", unit="squad", models=moved)
    game.cmd("A", "start_game")
    return game


@pytest.mark.parametrize("points, kept_worth, total", [(None, 7, 10), (100, 70, 100)])
def test_MSN_END_1_each_part_of_a_split_unit_counts_what_it_holds(new_game, points, kept_worth, total):
    """CORE.SPL.1 makes two units of one: destroying the part that kept the unit's id is worth its models (1 each,
    where the army states no points) or its share of the unit's points, by models; both parts destroyed are worth
    the whole unit, never more."""
    game = split_game(new_game, points, moved=3)  # squad keeps 7 models, squad-2 takes 3
    game.cmd("A", "record_casualties", unit="squad", models=7)
    told = summary(game)
    alice, bob = told["seats"]["A"], told["seats"]["B"]
    assert (alice["score"], alice["points_destroyed"]) == (kept_worth, kept_worth)
    assert (alice["units_destroyed"], alice["models_destroyed"]) == (1, 7)
    assert (bob["units_lost"], bob["models_lost"], bob["models_lost_by_round"]) == (1, 7, [7])

    game.cmd("A", "record_casualties", unit="squad-2", models=3)
    final = played_out(game)
    assert final["result"]["by"] == "destroyed" and final["result"]["score"] == {"A": total, "B": 0}
    assert final["result"]["winner"] == "A"
    told = summary(game)
    assert (told["seats"]["A"]["units_destroyed"], told["seats"]["A"]["models_destroyed"]) == (2, 10)
    assert told["seats"]["A"]["points_destroyed"] == total


def test_MSN_END_1_a_split_units_datasheets_say_what_each_part_is_worth(new_game):
    game = split_game(new_game, 100, moved=3)
    units = game.state("B")["units"]
    assert (units["squad"]["points"], units["squad-2"]["points"]) == (70, 30)


def test_MSN_END_1_a_game_created_before_the_split_fix_keeps_its_score(new_game, monkeypatch):
    monkeypatch.setattr(editions, "created_under", lambda: {"edition": 5})
    game = split_game(new_game, 100, moved=3)
    assert game.state("B")["units"]["squad"]["points"] == 100  # as its army states it
    game.cmd("A", "record_casualties", unit="squad", models=7)
    game.cmd("A", "record_casualties", unit="squad-2", models=3)
    assert played_out(game)["result"]["score"] == {"A": 100, "B": 0}  # the new part's points, as it was judged
    assert game.verify()["commands_ok"] is True
