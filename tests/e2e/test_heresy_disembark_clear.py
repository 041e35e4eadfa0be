"""HH.EMB.1/clear (rules edition 5, domain/rules/editions.py): a disembarking is a move, so it attests what HH.MOV.3
asks of every move (no model ends within 1" of an enemy model, on impassable terrain, on another model or off the
table), offered, judged and logged as a move's `clear` is; a game created under edition 4 disembarks as it did."""
from __future__ import annotations

import pytest

from tests.e2e.test_heresy import a_goes_first, offered, to_sub_phase
from tests.support.client import GameClient, unit, vehicle
from warlog.domain.rules import editions

DICE = ["server", "table"]
# what a disembarking's move logged before the fix, and still logs in a game created before it
BEFORE = {"unit", "seat", "move", "distance", "allowance", "difficult", "dangerous", "coherency_lost", "near",
          "attested_by"}


def two_squads_in_a_rhino(new_game, dice: str) -> GameClient:
    """Seat A: a Rhino (M 12) carrying two squads (M 6); seat B: militia. At seat A's Move sub-phase."""
    game = new_game("heresy", dice=dice)
    rhino = vehicle("rhino", capacity=10)
    rhino["name"] = "Rhino"
    game.start([rhino, unit("squad-1", 5, embarked_in="rhino"), unit("squad-2", 5, embarked_in="rhino")],
               [unit("militia", 3)])
    a_goes_first(game)
    to_sub_phase(game, "A", "move")
    return game


def moved_of(answer: dict) -> dict:
    [moved] = [e for e in answer["events"] if e["type"] == "UnitMoved"]
    return moved


@pytest.mark.parametrize("dice", DICE)
def test_HH_MOV_3_a_disembarking_attests_where_no_model_may_end_as_every_move_does(new_game, dice):
    game = two_squads_in_a_rhino(new_game, dice)
    [move_clear] = {str(a["schema"]["properties"]["clear"]) for a in offered(game, "A", "move")
                    if "clear" in a["schema"]["properties"]}  # the Rhino's moves
    out = offered(game, "A", "disembark")
    assert len(out) == 4 and all(str(a["schema"]["properties"].get("clear")) == move_clear for a in out)
    clear = out[0]["schema"]["properties"]["clear"]
    assert clear["const"] is True and clear["title"].startswith("Every model ends clear") and "1\"" in clear[
        "description"]
    seen = len(game.events())
    problem = game.refused("A", "disembark", unit="squad-1", placed=True, distance=3, clear=False)
    assert problem["rule"] == "HH.MOV.3" and "within 1\"" in problem["detail"] and "squad-1" not in problem["detail"]
    assert len(game.events()) == seen and game.state()["units"]["squad-1"]["embarked_in"] == "rhino"
    answer = game.cmd("A", "disembark", unit="squad-1", placed=True, distance=3, near=["militia"], clear=True)
    moved = moved_of(answer)
    assert (moved["rule"], moved["data"]["clear"], moved["data"]["attested_by"]) == ("HH.EMB.1", True, "A")
    assert set(moved["data"]) == BEFORE | {"clear"} and moved["text"].startswith("Alice's Squad 1")
    game.cmd("B", "react", act=False)  # the militia near it do not react
    # as a move sent without it (the offer's const), a disembarking without `clear` attests it
    unsaid = moved_of(game.cmd("A", "disembark", unit="squad-2", placed=True, distance=0))
    assert unsaid["data"]["clear"] is True and unsaid["data"]["distance"] == "0"
    assert game.state()["units"]["squad-2"]["embarked_in"] is None
    assert game.verify()["commands_ok"] is True


@pytest.mark.parametrize("dice", DICE)
def test_a_game_created_under_edition_4_disembarks_as_it_did(new_game, dice, monkeypatch):
    monkeypatch.setattr(editions, "created_under", lambda: {"edition": 4})
    game = two_squads_in_a_rhino(new_game, dice)
    out = offered(game, "A", "disembark")
    assert len(out) == 4 and not any("clear" in a["schema"]["properties"] for a in out)
    answer = game.cmd("A", "disembark", unit="squad-1", placed=True, distance=3, near=["militia"])
    assert [e["type"] for e in answer["events"][:2]] == ["UnitDisembarked", "UnitMoved"]
    moved = moved_of(answer)
    assert moved["rule"] == "HH.EMB.1" and set(moved["data"]) == BEFORE
    assert game.verify()["commands_ok"] is True
