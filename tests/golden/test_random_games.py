"""Whole games played over HTTP by a driver that plays only from the offered actions, in both dice modes."""
from __future__ import annotations

import random

import pytest
from fastapi.testclient import TestClient

from tests.conftest import settings_for
from tests.golden.driver import Driver, HttpTable, armies
from tests.support.client import GameClient, awaits
from tests.support.results import assert_result_adds_up, assert_summary_adds_up
from warlog.api.app import create_app
from warlog.projections.rules import catalogue


@pytest.fixture
def memory_http(tmp_path):
    """The API over the in-memory store: a 5-round game is a few hundred writes."""
    with TestClient(create_app(settings_for(tmp_path, persistence="popo"))) as client:
        yield client


@pytest.mark.parametrize("dice_mode, seed", [("server", 11), ("table", 12)])
def test_a_random_legal_five_round_game_ends_and_its_log_verifies(memory_http, dice_mode, seed):
    rng = random.Random(seed)
    game = GameClient(memory_http, "alternating", dice_mode)
    army_a, army_b = armies(rng)
    game.start(army_a, army_b)
    driver = Driver(HttpTable(game, dice_mode), rng)

    final = driver.play(limit=2000)

    assert final["status"] == "ended"
    assert final["battle_round"] == 5
    assert awaits(final) == {"seat": None, "action": "none"}
    assert final["result"]["reason"] == "battle_rounds" and final["result"]["by"] == "destroyed"
    assert_result_adds_up(final)  # MSN.END.1: no objectives, so what each seat destroyed decides
    assert_summary_adds_up(memory_http, game.id, game.tokens["spectator"], final)
    log = game.events()
    rounds = [e["data"]["battle_round"] for e in log if e["type"] == "BattleRoundEnded"]
    assert rounds == [1, 2, 3, 4, 5]
    assert sum(e["type"] == "PassPointsCalculated" for e in log) == 10  # movement and shooting, every round
    cited = {e["rule"] for e in log if e["rule"] is not None}
    assert cited <= set(catalogue()), f"rules not in RULES.md: {cited - set(catalogue())}"
    assert {"AA.PP.2", "AA.SPP.1", "AA.ACT.2", "AA.TURN.1"} <= cited
    verified = game.verify()
    assert verified["chain_ok"] is True and verified["first_bad_seq"] is None
    assert verified["commands_ok"] is True, verified  # every stored request plays again to its events
    assert verified["events"] == len(log)
    if dice_mode == "server":
        assert verified["dice_ok"] is True
        assert len(verified["server_seed"]) == 64
        assert any("counter" in e["data"] for e in log)
    else:
        assert verified["dice_ok"] is None and verified["server_seed"] is None
        assert not any("counter" in e["data"] for e in log)
        assert any(e["type"] == "DiceRolled" and e["data"].get("awaited") for e in log)


@pytest.mark.parametrize("ruleset", ["reference", "heresy"])
@pytest.mark.parametrize("dice_mode, seed", [("server", 21), ("table", 22)])
def test_a_random_game_played_only_from_the_offered_actions_ends_and_its_log_verifies(memory_http, ruleset,
                                                                                     dice_mode, seed):
    rng = random.Random(seed)
    game = GameClient(memory_http, ruleset, dice_mode)
    army_a, army_b = armies(rng)
    game.start(army_a, army_b)

    final = Driver(HttpTable(game, dice_mode), rng).play(limit=4000)

    assert final["status"] == "ended"
    assert final["actions"] == [] and final["anytime"] == []
    assert_result_adds_up(final)
    assert_summary_adds_up(memory_http, game.id, game.tokens["B"], final)
    log = game.events()
    rounds = [e["data"]["battle_round"] for e in log if e["type"] == "BattleRoundEnded"]
    if final["result"]["by"] == "wipeout":  # MSN.END.2: a side wiped off the table ends it at that phase's end
        assert rounds == list(range(1, final["battle_round"]))
    else:
        assert final["battle_round"] == 5 and rounds == [1, 2, 3, 4, 5]
    cited = {e["rule"] for e in log if e["rule"] is not None}
    assert cited <= set(catalogue()), f"rules not in RULES.md: {cited - set(catalogue())}"
    if ruleset == "heresy":  # every sub-phase was played, not only ended: moves, rushes, reactions, the roll-off,
        # attacks rolled on the heresy tables and charge rolls
        assert {"CORE.DICE.3", "HH.RES.1", "HH.MOV.1", "HH.MOV.5", "HH.REACT.1", "RS.ATK.1", "RS.CHG.2"} <= cited, cited
    verified = game.verify()
    assert verified["chain_ok"] is True and verified["events"] == len(log)
    assert verified["dice_ok"] is (True if dice_mode == "server" else None)


def test_a_conceded_game_ends_at_once_reveals_the_seed_and_refuses_every_later_command(new_game):
    game = new_game("alternating", "server")
    army_a, army_b = armies(random.Random(3))
    game.start(army_a, army_b)
    game.cmd("B", "concede")
    state = game.state("A")
    assert state["status"] == "ended" and state["result"] == {"reason": "concede", "winner": "A", "draw": False,
                                                      "by": "concession", "score": {"A": 0, "B": 0},
                                                      "rule": "MSN.END.3", "how": "Decided by concession"}
    assert game.refused("A", "confirm_count")["rule"] == "SVC.ENDED"
    verified = game.verify()
    assert verified["chain_ok"] is True and verified["dice_ok"] is True and verified["server_seed"]
