"""Issue 25, "Heresy: the partly-kept rules": each held over HTTP in both dice modes and named by the rule it
keeps."""
from __future__ import annotations

import re
from typing import Any

import pytest

from tests.e2e.test_heresy import a_goes_first, offered, to_sub_phase
from tests.support.client import GameClient, awaits, unit, vehicle
from tests.support.instances import consts

LOCKED = "locked_in_combat"


def fighter(uid: str, count: int, engaged_with: list[str], **profile: Any) -> dict[str, Any]:
    """A unit that cannot die in a few fights (W 20) nor break (Ld 12: 2D6 never exceeds it), locked with
    `engaged_with` as mustered."""
    body = unit(uid, count, statuses=(LOCKED,), engaged_with=engaged_with)
    body["models"][0].update(W=20, Ld=12, WS=4, T=4, Sv=3, **profile)
    body["weapons"][-1].update(name="Chainsword", A="1", S=4, AP=0)
    return body


def events_since(game: GameClient, seq: int, kind: str) -> list[dict[str, Any]]:
    return [e for e in game.events() if e["seq"] > seq and e["type"] == kind]


def last_seq(game: GameClient) -> int:
    return game.events()[-1]["seq"]


def unit_choices(schema: dict[str, Any]) -> list[Any]:
    """The units an offer names: its one const, or its choices."""
    return [schema["const"]] if "const" in schema else consts(schema)


def fight_out(game: GameClient) -> None:
    """Strike with every unit awaited and roll every die asked at the table (all ones: every blow misses)."""
    for _ in range(40):
        awaiting = game.state()["awaiting"]
        if awaiting["action"] == "strike":
            [strike] = offered(game, awaiting["seat"], "strike")
            weapon = strike["schema"]["properties"]["weapon"]["oneOf"][0]["const"]
            game.cmd(awaiting["seat"], "strike", unit=awaiting["unit"], weapon=weapon)
        elif "roll" in awaiting:
            count = int(re.match(r"(\d*)D6", awaiting["roll"]["spec"]).group(1) or 1)
            game.cmd(awaiting["seat"], "roll", dice=[1] * count)
        else:
            return
    raise AssertionError("the fight never ended")


@pytest.mark.parametrize("dice", ["server", "table"])
def test_RS_FGT_2_units_still_locked_at_the_start_of_an_assault_phase_fight_again(new_game, dice):
    game = new_game("heresy", dice=dice)
    game.start([fighter("legion", 2, ["militia"], I=4)], [fighter("militia", 2, ["legion"], I=3)])
    a_goes_first(game)
    for seat in ("A", "B"):  # in each player's Assault phase, the combat goes on
        seq = last_seq(game)
        to_sub_phase(game, seat, None, "assault")
        [began] = events_since(game, seq, "FightBegan")
        assert began["rule"] == "RS.FGT.2" and sorted(began["data"]["units"]) == ["legion", "militia"]
        assert awaits(game.state()) == {"seat": "A", "action": "strike", "unit": "legion", "rule": "RS.FGT.3"}
        assert game.refused(seat, "end_phase")["rule"] == "RS.FGT.3"
        fight_out(game)
        [resolved] = events_since(game, seq, "FightResolved")
        assert resolved["data"]["destroyed"] == []
        units = game.state()["units"]
        assert LOCKED in units["legion"]["statuses"] and LOCKED in units["militia"]["statuses"]
        # once a phase: the pair has fought, and the phase waits only for its end
        assert awaits(game.state()) == {"seat": seat, "action": "end_phase"}
        game.cmd(seat, "end_phase")
    assert game.verify()["commands_ok"] is True


@pytest.mark.parametrize("dice", ["server", "table"])
def test_RS_FGT_2_a_charge_that_locked_two_units_is_fought_again_in_the_next_assault_phase(new_game, dice):
    game = new_game("heresy", dice=dice)
    legion, militia = fighter("legion", 2, [], I=4), fighter("militia", 2, [], I=3)
    legion["statuses"] = militia["statuses"] = []
    game.start([legion], [militia])
    a_goes_first(game)
    to_sub_phase(game, "A", None, "assault")
    game.cmd("A", "select", unit="legion", targets=["militia"], distance=2)  # 2D6 always reaches 2"
    if game.state()["awaiting"].get("roll"):
        game.cmd("A", "roll", dice=[1, 1])
    fight_out(game)
    seq = last_seq(game)
    game.cmd("A", "end_phase")
    to_sub_phase(game, "B", None, "assault")
    [began] = events_since(game, seq, "FightBegan")
    assert began["rule"] == "RS.FGT.2" and began["data"]["units"] == ["militia", "legion"]  # B's unit first
    assert game.state()["awaiting"]["action"] == "strike"


@pytest.mark.parametrize("dice", ["server", "table"])
@pytest.mark.parametrize("status", ["pinned", "routed"])
def test_HH_MOV_2_a_pinned_or_routed_unit_cannot_declare_a_charge(new_game, dice, status):
    game = new_game("heresy", dice=dice)
    held = unit("held", 3, statuses=(status,))
    game.start([held, unit("free", 3)], [unit("militia", 3)])
    a_goes_first(game)
    if status == "routed":  # it falls back in the Rout sub-phase, staying on the table
        to_sub_phase(game, "A", "rout")
        if game.state()["awaiting"]["action"] == "roll":
            game.cmd("A", "roll", dice=[1])
        game.cmd("A", "fall_back", unit="held", reached_edge=False)
    to_sub_phase(game, "A", None, "assault")
    charging = {uid for a in offered(game, "A", "select") for uid in unit_choices(a["schema"]["properties"]["unit"])}
    assert charging == {"free"}
    problem = game.refused("A", "select", unit="held", targets=["militia"])
    assert problem["rule"] == "HH.MOV.2" and status.title() in problem["detail"]
    problem = game.refused("A", "select", unit="held", targets=["militia"], distance=6)
    assert problem["rule"] == "HH.MOV.2"
    game.cmd("A", "select", unit="free", targets=["militia"])  # the one not held charges as before


@pytest.mark.parametrize("dice", ["server", "table"])
def test_HH_ROUT_3_a_vehicle_takes_no_leadership_test(new_game, dice):
    game = new_game("heresy", dice=dice)
    rhino = vehicle("rhino", statuses=("routed",))
    rhino["models"][0]["Ld"] = None
    game.start([rhino], [unit("militia", 3)])
    a_goes_first(game)
    to_sub_phase(game, "A", "rout")
    if game.state()["awaiting"]["action"] == "roll":  # the fall back's distance: D6 + I
        game.cmd("A", "roll", dice=[2])
    assert awaits(game.state()) == {"seat": "A", "action": "fall_back", "unit": "rhino", "rule": "HH.ROUT.2"}
    seq = last_seq(game)
    game.cmd("A", "fall_back", unit="rhino", reached_edge=True)
    after = [e for e in game.events() if e["seq"] > seq]
    assert not [e for e in after if e["type"] in ("RollRequested", "DiceRolled", "LeadershipTested")]
    lost = next(e for e in after if e["type"] == "StatusLost")
    assert lost["rule"] == "HH.ROUT.3" and lost["data"]["status"] == "routed"
    assert "no Leadership" in lost["data"]["reason"]
    state = game.state()
    rhino_now = state["units"]["rhino"]
    assert rhino_now["models_alive"] == 1 and "routed" not in rhino_now["statuses"]
    assert "suppressed" in rhino_now["statuses"]
    assert awaits(state) == {"seat": "A", "action": "end_phase"}


def embarked_game(new_game, dice: str) -> GameClient:
    """Seat A: a Rhino carrying a squad (M 6); seat B: militia. At seat A's Move sub-phase."""
    game = new_game("heresy", dice=dice)
    rhino = vehicle("rhino", capacity=10)
    rhino["name"] = "Rhino"
    game.start([rhino, unit("squad", 5, embarked_in="rhino")], [unit("militia", 3)])
    a_goes_first(game)
    to_sub_phase(game, "A", "move")
    return game


@pytest.mark.parametrize("dice", ["server", "table"])
def test_HH_EMB_1_a_unit_embarked_in_a_transport_disembarks_and_moves_less_2(new_game, dice):
    game = embarked_game(new_game, dice)
    out = offered(game, "A", "disembark")
    assert [a["title"] for a in out] == ["Disembark from Rhino", "Disembark from Rhino through difficult terrain"]
    assert all(a["rule"] == "HH.EMB.1" for a in out)
    assert out[0]["schema"]["properties"]["distance"]["maximum"] == 4  # M 6 less 2"
    assert out[1]["schema"]["properties"]["distance"]["maximum"] == 2  # and less 2" more through difficult terrain
    assert not offered(game, "A", "move") or all(
        "squad" not in unit_choices(a["schema"]["properties"]["unit"]) for a in offered(game, "A", "move"))
    assert game.refused("A", "disembark", unit="squad", placed=True, distance=5)["rule"] == "HH.EMB.1"
    answer = game.cmd("A", "disembark", unit="squad", placed=True, distance=4)
    out_of, moved = answer["events"][:2]
    assert (out_of["type"], out_of["rule"], out_of["data"]["transport"]) == ("UnitDisembarked", "HH.EMB.1", "rhino")
    assert "disembarked from Rhino" in out_of["text"] and "rhino" not in out_of["text"]
    assert (moved["type"], moved["rule"], moved["data"]["distance"]) == ("UnitMoved", "HH.EMB.1", "4")
    state = game.state()
    assert state["units"]["squad"]["embarked_in"] is None
    assert not offered(game, "A", "disembark")  # once: it has moved
    assert game.refused("A", "disembark", unit="squad", placed=True, distance=1)["rule"] == "HH.EMB.1"
    game.cmd("A", "end_phase")  # it counts as having moved: not Stationary
    assert "stationary" not in game.state()["units"]["squad"]["statuses"]


@pytest.mark.parametrize("dice", ["server", "table"])
def test_HH_EMB_1_no_unit_disembarks_from_a_transport_that_rushed(new_game, dice):
    game = embarked_game(new_game, dice)
    game.cmd("A", "move", unit="rhino", move="rush", distance=10)
    assert not offered(game, "A", "disembark")
    problem = game.refused("A", "disembark", unit="squad", placed=True, distance=2)
    assert problem["rule"] == "HH.EMB.1" and "rushed" in problem["detail"]
