"""Issue 25: defects the audits named but left (a regroup roll awaited for a unit destroyed meanwhile, an attached
unit's Desperate Escape, Feel No Pain against many mortal wounds, the datasheet after recorded wounds, the names in
the offered actions), each held over HTTP in both dice modes and named by the rule it keeps."""
from __future__ import annotations

import pytest

from tests.e2e.test_alternating_audit_fixes import events_of
from tests.support.client import unit


@pytest.mark.parametrize("dice", ["server", "table"])
def test_AA_MOV_2_a_unit_destroyed_while_its_regroup_roll_waits_leaves_no_roll_awaited(new_game, dice):
    game = new_game("alternating", dice=dice)
    game.start([unit("fleeing", 5, statuses=("falling_back",)), unit("others", 5)], [unit("boyz", 5)])
    assert game.state()["sub_phase"] == "move_fleeing"
    selected = game.cmd("A", "select", unit="fleeing")
    if dice == "table":  # the regroup roll is asked of A's table
        assert game.state()["awaiting"]["roll"]["purpose"] == "regroup"
        killed = game.cmd("B", "record_casualties", unit="fleeing", models=5)
        (withdrawn,) = events_of(killed, "RegroupRollWithdrawn")
        assert withdrawn["rule"] == "AA.MOV.2"
        assert withdrawn["data"] == {"unit": "fleeing", "seat": "A", "reason": "the unit was destroyed"}
        assert "withdrawn" in withdrawn["text"] and "Fleeing" in withdrawn["text"]
        assert not events_of(killed, "RegroupPassed") and not events_of(killed, "RegroupFailed")
    else:  # server dice roll the regroup as it is asked: nothing is left waiting for a unit destroyed after
        assert events_of(selected, "RegroupPassed") or events_of(selected, "RegroupFailed")
        game.cmd("B", "record_casualties", unit="fleeing", models=5)
    state = game.state()
    assert state["queue"] == [] and state["awaiting"]["action"] != "roll"
    assert state["sub_phase"] != "move_fleeing"  # play goes on: no unit is left to flee
    assert game.verify()["commands_ok"] is True
