"""Issue 25, "Heresy: the partly-kept rules": the Move sub-phase and reactions made whole, each held over HTTP in
both dice modes and named by the rule it keeps."""
from __future__ import annotations

import pytest

from tests.e2e.test_heresy import a_goes_first, offered, to_sub_phase
from tests.support.client import GameClient, awaits, unit

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
    assert awaits(game.state()) == {"seat": "A", "action": "end_phase"}
    offers = claims(game)
    assert {a["schema"]["properties"]["unit"]["const"] for a in offers} == {"militia"}  # the Pinned scouts cannot
    units = game.state("B")["units"]
    assert (units["militia"]["eligible"], units["scouts"]["eligible"]) == (True, False)
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
    assert game.verify()["commands_ok"] is True  # the claim played again makes the same events


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


def to_arrival(game: GameClient, dice: str) -> None:
    """A's unit in reserves passes its roll (at the table a 5; the service's 3+ may take a few turns)."""
    if dice == "table":
        game.cmd("A", "roll", dice=[5])
    while game.state()["awaiting"]["action"] != "enter":
        to_sub_phase(game, "B", "reserves")
        to_sub_phase(game, "A", "reserves")


def roll_if_table(game: GameClient, seat: str, faces: list[int]) -> list[dict]:
    if game.state()["awaiting"].get("roll"):
        return game.cmd(seat, "roll", dice=faces)["events"]
    return []


@pytest.mark.parametrize("dice", DICE)
def test_HH_MOV_3_where_no_model_may_end_is_attested_on_every_move(new_game, dice):
    game = new_game("heresy", dice=dice, battle_rounds=12)
    game.start([unit("legion-1"), unit("legion-2", in_reserves=True)], [unit("militia")])
    a_goes_first(game)
    to_arrival(game, dice)
    [placed, *rushes] = [a for a in game.state()["actions"] if a["type"] == "enter"]
    clear = placed["schema"]["properties"]["clear"]
    assert clear["const"] is True and clear["title"].startswith("Every model ends clear") and "1\"" in clear[
        "description"] and all("clear" in a["schema"]["properties"] for a in rushes)
    assert game.refused("A", "enter", unit="legion-2", from_edge=True, clear=False)["rule"] == "HH.MOV.3"
    arrived = game.cmd("A", "enter", unit="legion-2", from_edge=True)["events"][0]
    assert arrived["data"]["clear"] is True and arrived["by"] == "A"
    game.cmd("B", "react", act=False)  # no snap shots
    game.cmd("A", "end_phase")
    assert all(a["schema"]["properties"]["clear"]["const"] is True
               for a in game.state()["actions"] if a["type"] == "move" and "distance" in a["schema"]["properties"])
    problem = game.refused("A", "move", unit="legion-1", move="normal", distance=5, clear=False)
    assert problem["rule"] == "HH.MOV.3" and "within 1\"" in problem["detail"]
    moved = game.cmd("A", "move", unit="legion-1", move="normal", distance=5, near=["militia"])["events"][0]
    assert moved["data"]["clear"] is True and moved["rule"] == "HH.MOV.1"
    assert game.refused("B", "react", unit="militia", direction="away", distance=2, clear=False)["rule"] == "HH.MOV.3"
    made = game.cmd("B", "react", unit="militia", direction="away", distance=2)["events"][0]
    assert made["data"]["clear"] is True and made["data"]["attested_by"] == "B"
    assert game.verify()["commands_ok"] is True


@pytest.mark.parametrize("dice", DICE)
def test_HH_MOV_3_a_reaction_move_or_a_rush_into_play_out_of_coherency_gains_suppressed(new_game, dice):
    game = new_game("heresy", dice=dice, battle_rounds=12)
    game.start([unit("legion-1", in_reserves=True)], [unit("militia"), unit("scouts")])
    a_goes_first(game)
    to_arrival(game, dice)
    answer = game.cmd("A", "enter", unit="legion-1", from_edge=True, rush=True, distance=6, near=["scouts"],
                      coherency_lost=True)
    gained = events_of(answer, "StatusGained")[0]
    assert (gained["rule"], gained["data"]["unit"], gained["data"]["status"]) == ("HH.MOV.3", "legion-1", "suppressed")
    game.cmd("B", "react", act=False)  # no snap shots; then the scouts' reaction move
    assert game.state()["awaiting"]["unit"] == "scouts"
    answer = game.cmd("B", "react", unit="scouts", direction="toward", distance=3, coherency_lost=True)
    assert [(e["type"], e["rule"]) for e in answer["events"]] == [("ReactionMade", "HH.REACT.1"),
                                                                  ("StatusGained", "HH.MOV.3")]
    assert "suppressed" in game.state()["units"]["scouts"]["statuses"]
    assert "suppressed" in game.state()["units"]["legion-1"]["statuses"]


@pytest.mark.parametrize("dice", DICE)
def test_HH_MOV_4_difficult_and_dangerous_terrain_on_a_rush_into_play(new_game, dice):
    game = new_game("heresy", dice=dice, battle_rounds=12)
    game.start([unit("legion-1", 5, in_reserves=True)], [unit("militia")])
    a_goes_first(game)
    to_arrival(game, dice)
    maxima = {a["schema"]["properties"]["difficult"]["const"]: a["schema"]["properties"]["distance"]["maximum"]
              for a in game.state()["actions"] if "difficult" in a["schema"]["properties"]}
    assert maxima == {False: 10, True: 8}  # M 6 + I 4, less 2" through difficult terrain
    problem = game.refused("A", "enter", unit="legion-1", from_edge=True, rush=True, distance=9, difficult=True)
    assert problem["rule"] == "HH.MOV.4"
    answer = game.cmd("A", "enter", unit="legion-1", from_edge=True, rush=True, distance=8, difficult=True,
                      dangerous=2)
    arrived = answer["events"][0]
    assert arrived["type"] == "ReserveArrived" and arrived["rule"] == "HH.MOV.4"
    assert arrived["data"]["allowance"] == 8 and arrived["data"]["dangerous"] == 2
    events = answer["events"] + roll_if_table(game, "A", [1, 6])
    tested = events_of({"events": events}, "DangerousTerrainTested")[0]
    assert tested["rule"] == "HH.MOV.4" and tested["data"]["tests"] == 2
    assert game.state()["units"]["legion-1"]["models_alive"] == 5 - tested["data"]["failed"]
    if dice == "table":
        assert tested["data"]["failed"] == 1


@pytest.mark.parametrize("dice", DICE)
def test_HH_MOV_4_a_move_through_terrain_cites_the_terrain_rule(new_game, dice):
    game = new_game("heresy", dice=dice)
    at_move(game, [unit("legion-1"), unit("legion-2"), unit("legion-3")], [unit("militia")])
    rules = {}
    for uid, fields in (("legion-1", {"move": "normal", "distance": 3, "difficult": True}),
                        ("legion-2", {"move": "rush", "distance": 7, "dangerous": 1}),
                        ("legion-3", {"move": "rush", "distance": 7})):
        answer = game.cmd("A", "move", unit=uid, **fields)
        rules[uid] = answer["events"][0]["rule"]
        roll_if_table(game, "A", [4])
    assert rules == {"legion-1": "HH.MOV.4", "legion-2": "HH.MOV.4", "legion-3": "HH.MOV.5"}


@pytest.mark.parametrize("dice", DICE)
def test_HH_MOV_4_a_rush_into_play_through_terrain_reads_so(new_game, dice):
    game = new_game("heresy", dice=dice, battle_rounds=12)
    game.start([unit("legion-1", 5, in_reserves=True)], [unit("militia")])
    a_goes_first(game)
    to_arrival(game, dice)
    answer = game.cmd("A", "enter", unit="legion-1", from_edge=True, rush=True, distance=5, difficult=True,
                      dangerous=1, coherency_lost=True)
    assert answer["events"][0]["text"].endswith(
        "moving 5\" (through difficult terrain, 1 model through dangerous terrain and out of coherency).")


def at_fall_back(new_game, dice: str) -> tuple[GameClient, str]:
    """A's Routed unit in A's Rout sub-phase, its fall back rolled: the game, and the distance rolled."""
    game = new_game("heresy", dice=dice)
    game.start([unit("legion-1"), unit("routers", statuses=("routed",))], [unit("militia")])
    a_goes_first(game)
    to_sub_phase(game, "A", "rout")
    roll_if_table(game, "A", [3])  # D6 + I 4: 7" (server dice: rolled at the rout's start)
    return game, next(e for e in game.events() if e["type"] == "FallBackRolled")["data"]["distance"]


@pytest.mark.parametrize("dice", DICE)
def test_HH_MOV_4_a_fall_back_crosses_terrain_keeps_coherency_and_ends_clear_as_every_move_does(new_game, dice):
    game, rolled = at_fall_back(new_game, dice)
    [action] = offered(game, "A", "fall_back")
    fields = action["schema"]["properties"]
    assert fields["clear"]["const"] is True and {"difficult", "dangerous", "coherency_lost"} <= set(fields)
    problem = game.refused("A", "fall_back", unit="routers", reached_edge=False, clear=False)
    assert problem["rule"] == "HH.MOV.3" and "within 1\"" in problem["detail"]
    answer = game.cmd("A", "fall_back", unit="routers", reached_edge=False, difficult=True, dangerous=2,
                      coherency_lost=True)
    fell = answer["events"][0]
    assert (fell["type"], fell["rule"]) == ("FellBack", "HH.MOV.4")  # terrain bore on it: HH.MOV.4, not HH.ROUT.2
    assert fell["data"]["distance"] == str(max(0, int(rolled) - 2)) and fell["data"]["clear"] is True
    assert "through difficult terrain" in fell["text"] and "2 models through dangerous terrain" in fell["text"]
    assert "suppressed" in game.state()["units"]["routers"]["statuses"]  # HH.MOV.3: coherency it could not keep
    tested = answer["events"] + roll_if_table(game, "A", [1, 5])  # a D6 a model through dangerous terrain
    assert any(e["type"] == "DangerousTerrainTested" for e in tested)
    assert game.verify()["commands_ok"] is True


@pytest.mark.parametrize("dice", DICE)
def test_HH_ROUT_2_a_plain_fall_back_cites_its_own_rule_and_moves_its_roll(new_game, dice):
    game, rolled = at_fall_back(new_game, dice)
    fell = game.cmd("A", "fall_back", unit="routers", reached_edge=False)["events"][0]
    assert fell["rule"] == "HH.ROUT.2" and fell["data"]["distance"] == rolled and fell["data"]["difficult"] is False
