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


def events_of(answer: dict, kind: str) -> list[dict]:
    return [e for e in answer["events"] if e["type"] == kind]


def claims(game: GameClient, seat: str = "B") -> list[dict]:
    return [a for a in game.state(seat)["actions"] if "against" in a["schema"]["properties"]]


@pytest.mark.parametrize("dice", DICE)
def test_HH_REACT_1_the_reacting_seat_claims_a_reaction_the_moving_player_did_not_name(new_game, dice):
    game = new_game("heresy", dice=dice)
    at_move(game, [unit("legion-1"), unit("legion-2")], [unit("militia"), unit("scouts", statuses=("pinned",))])
    assert claims(game) == []  # nothing has moved yet
    game.cmd("A", "move", unit="legion-1", move="normal", distance=6)  # A names no unit near
    assert game.state()["awaiting"] == {"seat": "A", "action": "end_phase"}
    offers = claims(game)
    assert {a["schema"]["properties"]["unit"]["const"] for a in offers} == {"militia"}  # the Pinned scouts cannot
    against = offers[0]["schema"]["properties"]["against"]
    assert against["title"] == "Enemy unit that moved" and [c["const"] for c in against["oneOf"]] == ["legion-1"]
    answer = game.cmd("B", "react", unit="militia", against="legion-1", direction="away", distance=3)
    assert [(e["type"], e["rule"]) for e in answer["events"]] == [("ReactionOffered", "HH.REACT.1"),
                                                                  ("ReactionMade", "HH.REACT.1")]
    assert answer["events"][0]["data"]["claimed"] is True and answer["events"][0]["by"] == "B"
    assert answer["events"][1]["data"]["distance"] == "3"
    problem = game.refused("B", "react", unit="militia", against="legion-1", direction="away", distance=1)
    assert problem["rule"] == "HH.REACT.1"  # one reaction to one move
    assert game.refused("B", "react", unit="scouts", against="legion-1", direction="away", distance=1)[
        "rule"] == "HH.MOV.2"
    game.cmd("A", "move", unit="legion-2", move="normal", distance=2)
    assert [a["schema"]["properties"]["against"]["oneOf"][-1]["const"] for a in claims(game)] == ["legion-2"] * 2
    game.cmd("A", "end_phase")  # the sub-phase over, its moves can no longer be answered
    assert claims(game) == []


@pytest.mark.parametrize("dice", DICE)
def test_HH_REACT_1_difficult_and_dangerous_terrain_apply_to_the_reaction_move(new_game, dice):
    game = new_game("heresy", dice=dice)
    at_move(game, [unit("legion-1")], [unit("militia", 5)])
    game.cmd("A", "move", unit="legion-1", move="normal", distance=6, near=["militia"])
    maxima = {a["schema"]["properties"]["difficult"]["const"]: a["schema"]["properties"]["distance"]["maximum"]
              for a in game.state("B")["actions"] if "difficult" in a["schema"]["properties"]}
    assert maxima == {False: 4, True: 2}  # its Initiative, less 2" through difficult terrain
    problem = game.refused("B", "react", unit="militia", direction="toward", distance=3, difficult=True)
    assert problem["rule"] == "HH.MOV.4"
    answer = game.cmd("B", "react", unit="militia", direction="toward", distance=2, difficult=True, dangerous=2)
    made = events_of(answer, "ReactionMade")[0]
    assert made["data"]["difficult"] is True and made["data"]["dangerous"] == 2 and made["data"]["up_to"] == 2
    if dice == "table":
        assert game.state("B")["awaiting"]["roll"] == {"purpose": "dangerous_terrain", "unit": "militia",
                                                       "spec": "2D6", "rule": "HH.MOV.4"}
        answer = game.cmd("B", "roll", dice=[1, 5])
    tested = events_of(answer, "DangerousTerrainTested")[0]
    assert tested["rule"] == "HH.MOV.4" and tested["data"]["tests"] == 2
    assert game.state()["units"]["militia"]["models_alive"] == 5 - tested["data"]["failed"]
    if dice == "table":
        assert tested["data"]["failed"] == 1


@pytest.mark.parametrize("dice", DICE)
@pytest.mark.parametrize("capped", [False, True])
def test_HH_REACT_1_the_once_a_round_cap_is_an_option_off_by_default(new_game, dice, capped):
    game = new_game("heresy", dice=dice, **({"one_reaction_per_round": True} if capped else {}))
    at_move(game, [unit("legion-1"), unit("legion-2")], [unit("militia")])
    game.cmd("A", "move", unit="legion-1", move="normal", distance=6, near=["militia"])
    game.cmd("B", "react", unit="militia", direction="away", distance=1)
    second = game.cmd("A", "move", unit="legion-2", move="normal", distance=6, near=["militia"])
    offered = [e["data"]["unit"] for e in events_of(second, "ReactionOffered")]
    assert offered == ([] if capped else ["militia"])
    assert game.state()["awaiting"]["action"] == ("end_phase" if capped else "react")
    assert game.state()["options"].get("one_reaction_per_round", False) is capped

