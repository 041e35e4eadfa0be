"""Issue 25: the reference ruleset's defects the audits reproduced, each held over HTTP in both dice modes and
named by the rule it keeps."""
from __future__ import annotations

import pytest

from tests.e2e.test_reference_rules import events_of, until
from tests.support.client import unit


@pytest.mark.parametrize("dice", ["server", "table"])
def test_EXT_OBJ_1_control_sums_the_oc_of_every_model_line_in_range(new_game, dice):
    # a sergeant (OC 2) leads four troopers (OC 1): six in all, against five boyz (OC 1)
    squad = unit("squad", 5, models=[
        {"name": "Sergeant", "count": 1, "M": 6, "T": 4, "Sv": 3, "W": 2, "Ld": 6, "OC": 2, "BS": 3, "WS": 3, "A": 2},
        {"name": "Trooper", "count": 4, "M": 6, "T": 4, "Sv": 3, "W": 1, "Ld": 6, "OC": 1, "BS": 3, "WS": 3, "A": 1}])
    game = new_game("reference", dice=dice, battle_rounds=2, objectives=["alpha"])
    game.start([squad], [unit("boyz", 5)])
    until(game, 2, "A", "command")
    answer = game.cmd("A", "end_phase", control={"alpha": ["squad", "boyz"]})
    control = events_of(answer, "ObjectivesControlled")[0]["data"]["objectives"]["alpha"]
    assert control["oc"] == {"A": 6, "B": 5} and control["controlled_by"] == "A"
