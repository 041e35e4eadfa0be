"""Issue 25: more of the reference ruleset's defects the audits reproduced (BLAST at an engaged unit, the odds of
an attack as the defender allocated it and with PRECISION, each model's gun at its own target), each held over
HTTP in both dice modes and named by the rule it keeps."""
from __future__ import annotations

import pytest

from tests.e2e.test_reference_rules import chainswords, events_of, offered, until
from tests.support.client import awaits, play_awaited, unit
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


@pytest.mark.parametrize("dice", ["server", "table"])
def test_a_reference_refusal_names_the_units_as_the_players_know_them_never_by_id(new_game, dice):
    """CONTRACT.md "In the players' words": the BLAST refusal names the attacker by its name, and a refusal about
    the other player's unit names it with its owner's name first; neither says an id."""
    tank = unit("a-tank-1", 1, name="Leman Russ", keywords=("VEHICLE",), weapons=[CANNON], engaged_with=["b-mob-1"])
    game = new_game("reference", dice=dice)
    game.start([tank], [unit("b-mob-1", 10, name="Ork Boyz")])
    until(game, 1, "A", "shooting")
    game.cmd("A", "select", unit="a-tank-1", shooting="close_quarters")
    blast = game.refused("A", "attack", unit="a-tank-1", weapon="Battle cannon", target="b-mob-1")
    assert blast["rule"] == "EXT.WPN.BLAST" and "your army, Leman Russ included" in blast["detail"]
    assert "a-tank-1" not in blast["detail"]
    not_theirs = game.refused("B", "attack", unit="a-tank-1", weapon="Battle cannon", target="b-mob-1")
    assert not_theirs["rule"] == "RS.SHO.2" and "Alice's Leman Russ" in not_theirs["detail"]
    assert "a-tank-1" not in not_theirs["detail"] and "seat" not in not_theirs["detail"]


def play_out(game, line: int = 0) -> list[dict]:
    """Play the attack to its end: at the table the attacker's dice all 6s and the defender's all 1s; every
    Command Re-roll declined; the defender's pick of the group to save next is `line`."""
    events: list[dict] = []
    while True:
        awaiting = game.state()["awaiting"]
        seat, action = awaiting["seat"], awaiting["action"]
        if action == "roll":
            count = int(awaiting["roll"]["spec"].split("D")[0] or 1)
            defender = awaiting["roll"]["purpose"] in ("save", "feel_no_pain", "mortal_feel_no_pain")
            events += game.cmd(seat, "roll", dice=[1 if defender else 6] * count)["events"]
        elif action in ("keep_dice", "command_reroll"):
            events += game.cmd(seat, "keep_dice")["events"]
        elif action == "allocate":
            events += game.cmd(seat, "allocate", line=line)["events"]
        else:
            return events


def attacks_analysed(game) -> list[dict]:
    return game.http.get(f"/games/{game.id}/analytics", headers=game.headers("A")).json()["attacks"]


def shooting_at(new_game, dice: str, weapon: dict, army_b: list[dict]):
    game = new_game("reference", dice=dice)
    game.start([unit("shooters", 2, weapons=[weapon])], army_b)
    until(game, 1, "A", "shooting")
    game.cmd("A", "select", unit="shooters", shooting="normal")
    return game


@pytest.mark.parametrize("dice", ["server", "table"])
def test_EXT_WPN_PRECISION_an_attack_sending_critical_wounds_to_a_character_has_its_exact_odds(new_game, dice):
    from tests.e2e.test_reference_attacks import CAPTAIN

    sniper = {"name": "Sniper rifle", "type": "ranged", "range": 36, "A": "3", "skill": 3, "S": 4, "AP": -1,
              "D": "1", "keywords": ["PRECISION"]}
    game = shooting_at(new_game, dice, sniper, [unit("guard", 3), unit("captain", 1, leader_of="guard",
                                                                    keywords=("INFANTRY", "CHARACTER"),
                                                                    models=[CAPTAIN])])
    game.cmd("A", "attack", unit="shooters", weapon="Sniper rifle", target="guard", precision=True)
    resolved = [e for e in play_out(game) if e["type"] == "AttackResolved"]
    (attack,) = attacks_analysed(game)
    assert "unsupported" not in attack  # the odds are computed, PRECISION and all
    assert (attack["attacker"], attack["target"], attack["weapon"]) == ("shooters", "guard", "Sniper rifle")
    for reading in ("wounds_lost", "models_destroyed"):
        assert 0 <= attack[reading]["luck_percentile"] <= 100 and 0 < attack[reading]["p_at_least_this_good"] <= 1
    if dice == "table":  # six critical hits, every save failed: the captain (4 W) falls, two wounds spill over
        assert resolved[0]["data"]["models_destroyed"] == 3
        assert attack["models_destroyed"]["luck_percentile"] > 90


@pytest.mark.parametrize("dice", ["server", "table"])
def test_RS_ATK_3_an_attacks_odds_follow_the_order_its_defender_allocated_in(new_game, dice):
    from dataclasses import replace

    from warlog.domain.attacks import distribution, from_data, luck

    flamer = {"name": "Flamer", "type": "ranged", "range": 12, "A": "3", "skill": 3, "S": 8, "AP": 0, "D": "1",
              "keywords": ["TORRENT"]}  # six automatic hits that wound on 2+: the defender is asked to allocate
    squad = unit("squad", 2, models=[
        {"name": "Trooper", "count": 1, "M": 6, "T": 4, "Sv": 6, "W": 1, "Ld": 6, "OC": 1, "BS": 3, "WS": 3, "A": 1},
        {"name": "Gunner", "count": 1, "M": 6, "T": 4, "Sv": 6, "W": 2, "Ld": 6, "OC": 1, "BS": 3, "WS": 3, "A": 1}])
    game = shooting_at(new_game, dice, flamer, [squad])
    declared = events_of(game.cmd("A", "attack", unit="shooters", weapon="Flamer", target="squad"),
                         "AttackDeclared")[0]
    events = play_out(game, line=1)  # the defender sends the wounds to its gunner first
    assert [e["data"]["line"] for e in events if e["type"] == "GroupAllocated"] == [1]
    (attack,) = attacks_analysed(game)
    profile = from_data(declared["data"]["profile"])
    picked = distribution(replace(profile, target=replace(profile.target, order=(1, 0))))
    destroyed = next(e for e in events if e["type"] == "AttackResolved")["data"]["models_destroyed"]
    assert attack["models_destroyed"] == luck(picked.models_destroyed, destroyed)
    assert picked.models_destroyed != distribution(profile).models_destroyed  # the order changes the odds


def aimed(events: list[dict]) -> list[tuple[str, str, int]]:
    """Each attack declared: its weapon, target and models."""
    return [(e["data"]["weapon"], e["data"]["target"], e["data"]["models"]) for e in events
            if e["type"] == "AttackDeclared"]


def resolved_at(events: list[dict]) -> list[str]:
    return [e["data"]["target"] for e in events if e["type"] == "AttackResolved"]


@pytest.mark.parametrize("dice", ["server", "table"])
def test_RS_SHO_2_each_models_gun_is_a_weapon_three_boltguns_at_one_unit_and_two_at_another(new_game, dice):
    game = new_game("reference", dice=dice)
    game.start([unit("squad", 5), unit("second", 5)], [unit("boyz", 10), unit("grots", 5)])
    until(game, 1, "A", "shooting")
    game.cmd("A", "select", unit="squad", shooting="normal")
    one, each = offered(game, "A", "attack")  # the one-target form as it was, and each model's target
    assert consts(one["schema"]["properties"]["target"]) == ["boyz", "grots"]
    targets = each["schema"]["properties"]["targets"]
    assert targets["title"] == "Each model's target" and targets["maxItems"] == 5
    assert targets["items"]["format"] == "unit"
    assert [c["title"] for c in targets["items"]["oneOf"]] == ["Bob's Boyz (10 of 10)", "Bob's Grots (5 of 5)"]
    assert "target" not in each["schema"]["properties"] and "targets" in each["schema"]["required"]
    near = each["schema"]["properties"]["within_half_range_of"]  # each target's own range, attested
    assert near["title"] == "Targets within half range" and consts(near["items"]) == ["boyz", "grots"]

    problem = game.refused("A", "attack", unit="squad", weapon="Boltgun", targets=["boyz", "second"])
    assert problem["rule"] == "RS.SHO.2"  # each model's target is judged as a target
    answer = game.cmd("A", "attack", unit="squad", weapon="Boltgun",
                      targets=["boyz", "boyz", "grots", "boyz", "grots"], within_half_range_of=["grots"])
    events = answer["events"] + play_out(game)
    assert aimed(events) == [("Boltgun", "boyz", 3), ("Boltgun", "grots", 2)]  # each target its own attack
    assert resolved_at(events) == ["boyz", "grots"]
    declared = [e for e in events if e["type"] == "AttackDeclared"]
    assert [e["data"]["profile"]["situation"]["models"] for e in declared] == [3, 2]
    assert [e["data"]["within_half_range"] for e in declared] == [False, True]  # RAPID FIRE at the grots only
    assert [e["by"] for e in declared] == ["A", "A"]  # the attacker's, also when the defender's roll led to it
    assert [len(e["data"]["profile"]["target"]["lines"]) for e in declared] == [1, 1]
    assert declared[1]["data"]["profile"]["target"]["lines"][0]["name"] == "Model"
    if dice == "table":  # every die its best: three boltguns' 6 hits at the boyz, two's 4 + 2 (RAPID FIRE 1)
        hits = [e["data"]["hits"] for e in events if e["type"] == "AttackResolved"]
        assert hits == [6, 6] and game.state()["units"]["boyz"]["models_alive"] == 4
    assert offered(game, "A", "attack") == []  # the boltguns have all fired

    game.cmd("A", "select", unit="second", shooting="normal")  # the one-target form works as before
    answer = game.cmd("A", "attack", unit="second", weapon="Boltgun", target="boyz", models=2)
    assert aimed(answer["events"] + play_out(game)) == [("Boltgun", "boyz", 2)]
    assert game.verify()["commands_ok"] is True  # every request plays again to its events


@pytest.mark.parametrize("dice", ["server", "table"])
def test_RS_FGT_3_each_models_melee_weapon_is_a_weapon_in_a_fight_too(new_game, dice):
    game = new_game("reference", dice=dice)
    game.start([chainswords(engaged_with=["boyz", "grots"])],
               [unit("boyz", 10, weapons=[]), unit("grots", 5, weapons=[])])  # they have nothing to fight with
    for _ in range(200):
        state = game.state()
        if state["phase"] == "fight" and awaits(state) == {"seat": "A", "action": "attack", "unit": "chargers"}:
            break
        if state["phase"] == "fight" and awaits(state) == {"seat": "A", "action": "select"}:
            game.cmd("A", "select", unit="chargers", fight="normal")
        else:
            play_awaited(game)
    _, each = offered(game, "A", "attack")
    assert each["schema"]["properties"]["targets"]["maxItems"] == 5
    answer = game.cmd("A", "attack", unit="chargers", weapon="Chainsword", targets=["grots", "boyz", "grots", "grots"])
    events = answer["events"] + play_out(game)
    assert aimed(events) == [("Chainsword", "grots", 3), ("Chainsword", "boyz", 1)]
    assert resolved_at(events) == ["grots", "boyz"]
    assert awaits(game.state()) == {"seat": "A", "action": "attack", "unit": "chargers"}
    (last,) = offered(game, "A", "attack")  # one model has not fought: its fist, at one target
    assert consts(last["schema"]["properties"]["weapon"]) == ["Fist"]
    assert last["schema"]["properties"]["models"]["maximum"] == 1 and "targets" not in last["schema"]["properties"]
