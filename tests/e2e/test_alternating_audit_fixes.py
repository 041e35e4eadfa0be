"""Issue 25: the alternating ruleset's two residues the audits found, each held over HTTP in both dice modes and
named by the rule it keeps."""
from __future__ import annotations

from typing import Any

import pytest

from tests.support.client import GameClient, awaits, play_awaited, unit, vehicle


def events_of(answer: dict[str, Any], type_: str) -> list[dict[str, Any]]:
    return [e for e in answer["events"] if e["type"] == type_]


def to_charges(game: GameClient) -> None:
    """Play the plainest offered actions up to a go in Select Charging Units, running with nobody (a unit that
    ran cannot charge, AA.RUN.1)."""
    for _ in range(200):
        state = game.state()
        awaiting = state["awaiting"]
        if state["sub_phase"] == "select_charges" and awaiting["action"] == "select":
            return
        if state["sub_phase"] == "run" and awaiting["action"] == "select":
            game.cmd(awaiting["seat"], "declare_done")
        else:
            play_awaited(game)
    raise AssertionError("never reached Select Charging Units")


@pytest.mark.parametrize("dice", ["server", "table"])
def test_AA_CHG_1_a_charger_destroyed_while_its_charge_waits_leaves_no_roll_awaited(new_game, dice):
    # B's boyz are pinned (they charge nobody) and carry no gun (no overwatch): A's charge goes straight to its roll
    game = new_game("alternating", dice=dice)
    game.start([unit("chargers", 5), unit("others", 5)], [unit("boyz", 5, ranged=False, statuses=("pinned",))])
    to_charges(game)
    assert awaits(game.state()) == {"seat": "A", "action": "select"}
    declared = game.cmd("A", "select", unit="chargers", targets=["boyz"], distance=7)
    if dice == "table":  # the roll is asked of A's table
        assert game.state()["awaiting"]["roll"]["purpose"] == "charge"
        killed = game.cmd("B", "record_casualties", unit="chargers", models=5)
        withdrawn = events_of(killed, "ChargeRollWithdrawn")
        assert withdrawn and withdrawn[0]["rule"] == "AA.CHG.1"
        assert withdrawn[0]["data"] == {"unit": "chargers", "seat": "A", "reason": "the charging unit was destroyed"}
        assert "withdrawn" in withdrawn[0]["text"] and "Chargers" in withdrawn[0]["text"]
        resolved = events_of(killed, "ChargeResolved")[0]["data"]
        assert resolved["success"] is False and resolved["reason"] == "the charging unit was destroyed"
    else:  # server dice roll the charge as it is asked: nothing is left waiting for a unit destroyed after
        assert events_of(declared, "ChargeResolved")
        game.cmd("B", "record_casualties", unit="chargers", models=5)
    state = game.state()
    assert state["queue"] == [] and state["awaiting"]["action"] != "roll"
    assert awaits(state) == {"seat": "A", "action": "select"}  # play goes on: A's other unit may charge
    game.cmd("A", "select", unit="others", targets=["boyz"], distance=3)
    assert game.verify()["commands_ok"] is True


@pytest.mark.parametrize("dice", ["server", "table"])
def test_AA_MOV_2_a_vehicle_with_no_leadership_takes_no_regroup_test(new_game, dice):
    rhino = vehicle("rhino", statuses=("falling_back",))
    rhino["models"][0]["Ld"] = None  # a vehicle: no Leadership
    game = new_game("alternating", dice=dice)
    game.start([rhino, unit("squad", 5)], [unit("boyz", 5)])
    assert game.state()["sub_phase"] == "move_fleeing"
    assert awaits(game.state()) == {"seat": "A", "action": "select"}
    answer = game.cmd("A", "select", unit="rhino")
    assert not [e for e in answer["events"] if e["type"] in ("DiceRolled", "RollRequested", "RegroupFailed")]
    (untested,) = events_of(answer, "RegroupPassed")
    assert untested["rule"] == "AA.MOV.2" and untested["data"] == {"unit": "rhino",
                                                                   "untested": "it has no Leadership to test"}
    assert "no regroup test" in untested["text"] and "Ld 0" not in untested["text"]
    state = game.state()
    assert state["units"]["rhino"]["statuses"] == []  # no longer falling back, and not held back as regrouped
    assert state["sub_phase"] == "movement_pass_points" and state["queue"] == []
    assert game.verify()["commands_ok"] is True


@pytest.mark.parametrize("dice", ["server", "table"])
def test_an_alternating_refusal_names_the_other_players_unit_with_its_owners_name_never_by_id(new_game, dice):
    """CONTRACT.md "In the players' words": a charge at a unit no longer on the battlefield (AA.CHG.1), and the
    shared casualty record of a unit already destroyed (CORE.STR.2), name it as Alice reads it: Bob's Grots."""
    game = new_game("alternating", dice=dice)
    game.start([unit("a-squad-1", 5, name="Assault Squad")],
               [unit("b-mob-1", 5, name="Ork Boyz", ranged=False, statuses=("pinned",)),
                unit("b-mob-2", 3, name="Grots", ranged=False, statuses=("pinned",))])
    to_charges(game)
    game.cmd("B", "record_casualties", unit="b-mob-2", models=3)  # the grots are wiped out
    charged = game.refused("A", "select", unit="a-squad-1", targets=["b-mob-2"], distance=5)
    assert charged["rule"] == "AA.CHG.1" and "Bob's Grots is not on the battlefield" in charged["detail"]
    again = game.refused("A", "record_casualties", unit="b-mob-2", models=1)
    assert again["rule"] == "CORE.STR.2" and "Bob's Grots is already destroyed" in again["detail"]
    assert not any("b-mob-2" in refusal["detail"] for refusal in (charged, again))
