"""Issue 25: more of the reference ruleset's defects the audits reproduced (BLAST at an engaged unit, the odds of
an attack as the defender allocated it and with PRECISION, each model's gun at its own target), each held over
HTTP in both dice modes and named by the rule it keeps."""
from __future__ import annotations

import pytest

from tests.e2e.test_reference_rules import events_of, offered, until
from tests.support.client import unit
from tests.support.instances import consts

CANNON = {"name": "Battle cannon", "type": "ranged", "range": 48, "A": "D6", "skill": 4, "S": 9, "AP": -1, "D": "3",
          "keywords": ["BLAST"]}
HEAVY_BOLTER = {"name": "Heavy bolter", "type": "ranged", "range": 36, "A": "3", "skill": 4, "S": 5, "AP": -1,
                "D": "2", "keywords": ["SUSTAINED HITS 1"]}


@pytest.mark.parametrize("dice", ["server", "table"])
def test_EXT_WPN_BLAST_a_blast_weapon_never_attacks_a_unit_engaged_with_the_attackers_army(new_game, dice):
    # a tank within Engagement Range of the boyz shoots at them (close-quarters: a VEHICLE may, RS.SHO.1)
    tank = unit("tank", 1, keywords=("VEHICLE",), weapons=[CANNON, HEAVY_BOLTER], engaged_with=["boyz"])
    game = new_game("reference", dice=dice)
    game.start([tank], [unit("boyz", 10)])
    until(game, 1, "A", "shooting")
    game.cmd("A", "select", unit="tank", shooting="close_quarters")
    (attack,) = offered(game, "A", "attack")  # the cannon is offered no target: the boyz are engaged with the tank
    assert consts(attack["schema"]["properties"]["weapon"]) == ["Heavy bolter"]
    assert consts(attack["schema"]["properties"]["target"]) == ["boyz"]
    problem = game.refused("A", "attack", unit="tank", weapon="Battle cannon", target="boyz")
    assert problem["rule"] == "EXT.WPN.BLAST" and "BLAST" in problem["detail"]
    assert not [e for e in game.events() if e["type"] == "AttackDeclared"]  # nothing was made of it
    declared = events_of(game.cmd("A", "attack", unit="tank", weapon="Heavy bolter", target="boyz"),
                         "AttackDeclared")
    assert declared[0]["data"]["target"] == "boyz"

