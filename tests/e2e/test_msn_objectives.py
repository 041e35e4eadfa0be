"""Issue 25, MSN.OBJ.1: objectives in `alternating` and `heresy` over HTTP, in both dice modes: the command that
ends a battle round from round 2 names the units near each marker, each seat scores 5 VP a marker it holds, and
after the last round VP decide the game (MSN.END.1)."""
from __future__ import annotations

import random
from typing import Any

import pytest

from tests.golden.driver import Driver, HttpTable, armies
from tests.support.client import GameClient, play_awaited, unit, vehicle
from tests.support.results import assert_result_adds_up, assert_summary_adds_up
from warlog.domain.rules import editions

MARKERS = ["alpha", "bravo", "charlie"]
LISTED = [{"id": "alpha", "name": "Objective 1 (alpha)"}, {"id": "bravo", "name": "Objective 2 (bravo)"},
          {"id": "charlie", "name": "Objective 3 (charlie)"}]


def events_of(answer: dict[str, Any], type_: str) -> list[dict[str, Any]]:
    return [e for e in answer["events"] if e["type"] == type_]


def round_end(game: GameClient) -> dict[str, Any]:
    """Play the plainest offered actions until an `end_phase` naming the units near each objective is offered;
    its action. Never offered before battle round 2."""
    for _ in range(600):
        state = game.state()
        seat = state["awaiting"]["seat"] or "A"
        for action in game.state(seat)["actions"]:
            if action["type"] == "end_phase" and "control" in action["schema"]["properties"]:
                assert state["battle_round"] == 2, "objectives are scored from battle round 2"
                return {"seat": seat, **action}
        play_awaited(game)
    raise AssertionError("no end of round scoring the objectives was offered")


def armies_with_a_vehicle(ruleset: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    rhino = vehicle("rhino")
    if ruleset == "heresy":
        rhino["models"][0]["Ld"] = None
    return [unit("squad", 5), rhino], [unit("boyz", 3), unit("mob", 6)]


@pytest.mark.parametrize("ruleset, uncounted", [("alternating", "falling_back"), ("heresy", "routed")])
@pytest.mark.parametrize("dice", ["server", "table"])
def test_MSN_OBJ_1_markers_held_by_more_models_score_5_vp_each_and_vp_decide_the_game(new_game, ruleset, uncounted,
                                                                                       dice):
    game = new_game(ruleset, dice=dice, battle_rounds=2, objectives=MARKERS)
    game.start(*armies_with_a_vehicle(ruleset))
    state = game.state()
    assert state["objectives"] == LISTED and state["vp"] == {"A": 0, "B": 0}

    end = round_end(game)
    assert end["rule"] == "MSN.OBJ.1" and sorted(end["schema"]["properties"]["control"]["properties"]) == MARKERS
    assert end["title"] == "End the battle round" and "battle round" in end["summary"]
    # the table: B's mob is falling back (alternating) or Routed (heresy), and B's boyz took one of A's squad
    game.cmd("B", "set_status", unit="mob", status=uncounted, value=True, reason="broke at the table")
    game.cmd("B", "record_casualties", unit="squad", models=1)
    answer = game.cmd(end["seat"], "end_phase", control={"alpha": ["squad", "boyz"], "bravo": ["rhino", "mob"],
                                                         "charlie": ["squad"]})

    (held,) = events_of(answer, "ObjectivesHeld")
    assert held["rule"] == "MSN.OBJ.1" and held["data"]["battle_round"] == 2
    counted = held["data"]["objectives"]
    assert counted["alpha"]["models"] == {"A": 4, "B": 3} and counted["alpha"]["controlled_by"] == "A"
    # a vehicle counts none, nor does a unit falling back or Routed: bravo is nobody's, not the mob's six
    assert counted["bravo"]["models"] == {"A": 0, "B": 0} and counted["bravo"]["controlled_by"] is None
    assert set(counted["bravo"]["uncounted"]) == {"rhino", "mob"}
    assert counted["charlie"]["controlled_by"] == "A"
    assert "Objective 1 (alpha)" in held["text"] and "Rhino counts none, a vehicle" in held["text"]
    scored = {e["data"]["seat"]: e["data"] for e in events_of(answer, "VictoryPointsScored")}
    assert scored["A"]["vp"] == 10 and scored["A"]["objectives"] == ["alpha", "charlie"] and scored["B"]["vp"] == 0

    state = game.state()
    assert state["status"] == "ended" and state["vp"] == {"A": 10, "B": 0}
    result = state["result"]
    # by VP: A wins though B destroyed more (one of A's models, none of B's)
    assert result == {"reason": "battle_rounds", "winner": "A", "draw": False, "by": "vp",
                      "score": {"A": 10, "B": 0}, "rule": "MSN.END.1", "how": "Decided on victory points"}
    assert result["score"] == state["vp"]
    (ended,) = events_of(answer, "GameEnded")
    assert ended["rule"] == "MSN.END.1" and "Alice" in ended["text"]
    verified = game.verify()
    assert verified["chain_ok"] is True and verified["commands_ok"] is True


@pytest.mark.parametrize("ruleset", ["alternating", "heresy"])
def test_MSN_OBJ_1_control_is_refused_before_the_end_of_a_scored_round(new_game, ruleset):
    game = new_game(ruleset, dice="table", battle_rounds=2, objectives=MARKERS)
    game.start(*armies_with_a_vehicle(ruleset))
    seat = "A"
    if ruleset == "heresy":  # round 1: the ends of its phases offer no objectives
        while game.state()["awaiting"]["action"] != "end_phase":
            play_awaited(game)
        seat = game.state()["awaiting"]["seat"]
        offered = [a for a in game.state(seat)["actions"] if a["type"] == "end_phase"]
        assert offered and all("control" not in a["schema"]["properties"] for a in offered)
    refused = game.refused(seat, "end_phase", control={"alpha": ["squad"]})
    assert refused["status"] == 409


@pytest.mark.parametrize("ruleset", ["reference", "alternating", "heresy"])
def test_MSN_OBJ_1_the_state_lists_the_objectives_by_id_and_name_in_every_ruleset(new_game, ruleset):
    game = new_game(ruleset, dice="server", objectives=["alpha", "bravo", "charlie"])
    assert game.state()["objectives"] == LISTED
    assert "objectives" not in new_game(ruleset, dice="server").state()


@pytest.mark.parametrize("ruleset, dice_mode, seed", [("alternating", "table", 31), ("heresy", "server", 32)])
def test_MSN_OBJ_1_random_games_with_objectives_score_them_every_round_from_the_second(new_game, ruleset, dice_mode,
                                                                                         seed):
    rng = random.Random(seed)
    game = new_game(ruleset, dice=dice_mode, battle_rounds=3, objectives=["alpha", "bravo"])
    game.start(*armies(rng))

    final = Driver(HttpTable(game, dice_mode), rng).play(limit=3000)

    assert final["status"] == "ended"
    assert_result_adds_up(final)
    told = assert_summary_adds_up(game.http, game.id, game.tokens["spectator"], final)  # VP by round sums to VP
    log = game.events()
    held = [e["data"]["battle_round"] for e in log if e["type"] == "ObjectivesHeld"]
    if final["result"]["by"] != "wipeout":
        assert final["result"]["by"] == "vp" and held == [2, 3]
        scored = [e["data"] for e in log if e["type"] == "VictoryPointsScored"]
        assert all(told["seats"][seat]["vp_by_round"][0] == 0 for seat in "AB")  # nothing scored in round 1
        assert len(scored) == 4 and {seat: max(s["total"] for s in scored if s["seat"] == seat)
                                     for seat in "AB"} == final["vp"]
    assert game.verify()["commands_ok"] is True


@pytest.mark.parametrize("ruleset", ["alternating", "heresy"])
def test_MSN_OBJ_1_a_game_created_before_the_rule_keeps_its_rounds_as_they_were(new_game, ruleset, monkeypatch):
    monkeypatch.setattr(editions, "created_under", lambda: {})  # created under edition 1, before MSN.OBJ.1
    game = new_game(ruleset, dice="server", battle_rounds=2, objectives=MARKERS)
    game.start(*armies_with_a_vehicle(ruleset))
    for _ in range(600):
        state = game.state()
        if state["status"] == "ended":
            break
        seat = state["awaiting"]["seat"] or "A"
        assert not [a for a in game.state(seat)["actions"] if "control" in a["schema"].get("properties", {})]
        play_awaited(game)
    log = game.events()
    assert state["status"] == "ended" and not [e for e in log if e["type"] in ("ObjectivesHeld", "VictoryPointsScored")]
    assert "score_objectives" not in {e["data"].get("sub_phase") for e in log if e["type"] == "StepStarted"}


def test_MSN_OBJ_1_alternating_scores_its_round_in_the_assault_phase_as_the_contract_names_its_phases(new_game):
    """CONTRACT.md: alternating's phases are `movement`, `shooting` and `assault`. The round's objectives are counted
    at its end, in a sub-phase of its last phase, not in a phase of its own."""
    game = new_game("alternating", dice="server", battle_rounds=2, objectives=MARKERS)
    game.start(*armies_with_a_vehicle("alternating"))
    round_end(game)
    state = game.state()
    assert (state["phase"], state["sub_phase"]) == ("assault", "score_objectives")
    assert state["phase_title"] == "Objective Scoring (Assault phase)"
    phases = {e["data"].get("phase") for e in game.events() if e["type"] in ("PhaseStarted", "StepStarted")}
    assert phases <= {"movement", "shooting", "assault"}


def test_MSN_OBJ_1_an_alternating_game_created_before_edition_6_scores_in_its_end_of_round_as_it_did(new_game,
                                                                                                      monkeypatch):
    monkeypatch.setattr(editions, "created_under", lambda: {"edition": 5})
    game = new_game("alternating", dice="server", battle_rounds=2, objectives=MARKERS)
    game.start(*armies_with_a_vehicle("alternating"))
    round_end(game)
    state = game.state()
    assert (state["phase"], state["sub_phase"]) == ("end_of_round", "score_objectives")
    assert game.verify()["commands_ok"] is True
