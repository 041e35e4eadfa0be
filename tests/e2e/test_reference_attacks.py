"""Reference attacks through the attack module, over HTTP with table dice, model line by model line:
SUSTAINED and LETHAL criticals, the defender's saves and Feel No Pain from the defending seat, a leader
allocated last, DEVASTATING mortal wounds, damage that does not spill."""
from __future__ import annotations

from typing import Any

from tests.support.client import GameClient, keep_dice, play_awaited, unit

STORM_BOLTER = {"name": "Storm bolter", "type": "ranged", "range": 24, "A": "3", "skill": 3, "S": 4, "AP": -1,
                "D": "1", "keywords": ["SUSTAINED HITS 1", "[LETHAL HITS]"]}
PLASMA = {"name": "Plasma", "type": "ranged", "range": 24, "A": "1", "skill": 3, "S": 8, "AP": -3, "D": "2",
          "keywords": ["DEVASTATING WOUNDS"]}
CAPTAIN = {"name": "Captain", "count": 1, "M": 6, "T": 4, "Sv": 3, "InSv": 4, "W": 4, "Ld": 6, "OC": 1, "BS": 2,
           "WS": 2, "I": 5, "A": 4, "hull_points": None}


def shooting(new_game) -> GameClient:
    game = new_game("reference", dice="table")
    game.start([unit("shooters", 2, weapons=[STORM_BOLTER, PLASMA])],
               [unit("guard", 3, abilities=("FEEL NO PAIN 5+",)),
                unit("captain", 1, leader_of="guard", keywords=("INFANTRY", "CHARACTER"), models=[CAPTAIN])])
    while game.state()["phase"] != "shooting" or game.state()["awaiting"]["action"] != "end_phase":
        play_awaited(game)
    game.cmd("A", "select", unit="shooters", shooting="normal")
    return game


def rolled(game: GameClient, seat: str, purpose: str, faces: list[int]) -> dict[str, dict[str, Any]]:
    assert game.state()["awaiting"]["seat"] == seat and game.state()["awaiting"]["roll"]["purpose"] == purpose
    events = keep_dice(game, game.cmd(seat, "roll", dice=faces))["events"]  # EXT.CP.1: not this time
    return {e["type"]: e for e in events}


def test_criticals_sustain_and_wound_at_once_the_defender_saves_and_feels_no_pain_and_the_leader_goes_last(new_game):
    game = shooting(new_game)
    declared = game.cmd("A", "attack", unit="shooters", weapon="Storm bolter", target="guard")["events"][0]
    assert declared["data"]["abilities"] == ["LETHAL HITS", "SUSTAINED HITS 1"]
    hits = rolled(game, "A", "hit", [6, 6, 3, 2, 1, 4])  # 2 models x A3; BS 3+
    assert hits["HitsScored"]["data"]["hits"] == 4 and hits["HitsScored"]["data"]["criticals"] == 2
    assert hits["SustainedHitsScored"]["rule"] == "EXT.WPN.SUSTAINED"
    assert hits["SustainedHitsScored"]["data"]["extra_hits"] == 2
    # two critical hits wound at once (LETHAL): 2 + 2 extra hits roll to wound
    wounds = rolled(game, "A", "wound", [1, 2, 5, 6])
    assert wounds["WoundsScored"]["data"]["wounds"] == 4 and wounds["WoundsScored"]["data"]["lethal"] == 2
    assert "EXT.WPN.LETHAL" in wounds["WoundsScored"]["data"]["rules"]
    saves = rolled(game, "B", "save", [1, 1, 1, 1])  # the defending seat rolls, for the bodyguard first
    assert saves["SavesRolled"]["data"]["failed"] == 4 and saves["SavesRolled"]["data"]["needed"] == 5
    done = rolled(game, "B", "feel_no_pain", [5, 1, 1, 1])  # EXT.FNP: the first wound is not lost
    assert done["DiceRolled"]["data"]["seat"] == "B" and done["DiceRolled"]["rule"] == "EXT.FNP"
    assert "EXT.FNP" in done["DamageInflicted"]["data"]["rules"]
    resolved = done["AttackResolved"]["data"]
    assert resolved["wounds_lost"] == 3 and resolved["models_destroyed"] == 3
    assert resolved["lines"] == {"guard": {"alive": [0], "taken": [0]}, "captain": {"alive": [1], "taken": [0]}}
    units = game.state()["units"]
    assert units["guard"]["models_alive"] == 0 and units["guard"]["strength"] == "destroyed"
    assert units["captain"]["models_alive"] == 1 and units["captain"]["wounds_lost"] == 0  # allocated last


def test_a_devastating_critical_wound_is_mortal_and_other_damage_does_not_spill(new_game):
    game = shooting(new_game)
    game.cmd("A", "attack", unit="shooters", weapon="Plasma", target="guard")
    rolled(game, "A", "hit", [6, 3])
    wounds = rolled(game, "A", "wound", [6, 4])  # S8 v T4: 2+; the 6 is a critical wound
    assert wounds["WoundsScored"]["data"]["devastating"] == 1
    assert "EXT.WPN.DEVASTATING" in wounds["WoundsScored"]["data"]["rules"]
    saves = rolled(game, "B", "save", [1])  # one save only: the devastating wound is not saved
    assert saves["SavesRolled"]["data"]["failed"] == 1
    resolved = {}
    while game.state()["awaiting"]["action"] == "roll":
        awaiting = game.state()["awaiting"]
        resolved.update(rolled(game, awaiting["seat"], awaiting["roll"]["purpose"],
                               [1] * int(awaiting["roll"]["spec"].split("D")[0] or 1)))  # FNP all failed
    outcome = resolved["AttackResolved"]["data"]
    # the failed save's 2 damage kills one W1 guard (the excess is lost); 2 mortal wounds spill over two more
    assert outcome["mortal_wounds"] == 2 and outcome["models_destroyed"] == 3
    assert game.state()["units"]["guard"]["models_alive"] == 0
    assert game.state()["units"]["captain"]["wounds_lost"] == 0


def test_analytics_reads_each_attacks_luck_against_its_own_odds(new_game):
    game = shooting(new_game)
    game.cmd("A", "attack", unit="shooters", weapon="Storm bolter", target="guard")
    while game.state()["awaiting"]["action"] == "roll":  # the attacker's dice all 6s, the defender's all 1s
        awaiting = game.state()["awaiting"]
        count = int(awaiting["roll"]["spec"].split("D")[0] or 1)
        rolled(game, awaiting["seat"], awaiting["roll"]["purpose"], [6 if awaiting["seat"] == "A" else 1] * count)
    (attack,) = game.http.get(f"/games/{game.id}/analytics", headers=game.headers("A")).json()["attacks"]
    assert (attack["attacker"], attack["target"], attack["seat"]) == ("shooters", "guard", "A")
    assert attack["models_destroyed"]["luck_percentile"] > 90  # every die its best: far luckier than average
    assert 0 < attack["models_destroyed"]["p_at_least_this_good"] < 0.2


def test_precision_sends_the_critical_hits_wounds_to_the_attached_character(new_game):
    sniper = {"name": "Sniper rifle", "type": "ranged", "range": 36, "A": "1", "skill": 3, "S": 4, "AP": -1,
              "D": "1", "keywords": ["PRECISION"]}
    game = new_game("reference", dice="table")
    game.start([unit("snipers", 2, weapons=[sniper])],
               [unit("guard", 3), unit("captain", 1, leader_of="guard", keywords=("INFANTRY", "CHARACTER"),
                                        models=[CAPTAIN])])
    while game.state()["phase"] != "shooting" or game.state()["awaiting"]["action"] != "end_phase":
        play_awaited(game)
    game.cmd("A", "select", unit="snipers", shooting="normal")
    game.cmd("A", "attack", unit="snipers", weapon="Sniper rifle", target="guard", precision=True)
    while game.state()["awaiting"]["action"] == "roll":
        awaiting = game.state()["awaiting"]
        count = int(awaiting["roll"]["spec"].split("D")[0] or 1)
        rolled(game, awaiting["seat"], awaiting["roll"]["purpose"], [6 if awaiting["seat"] == "A" else 1] * count)
    units = game.state()["units"]
    assert units["captain"]["wounds_lost"] == 2 and units["guard"]["models_alive"] == 3  # both criticals: the captain


def test_precision_is_offered_to_the_attacker_only_where_a_precision_weapon_can_reach_a_character(new_game):
    sniper = {"name": "Sniper rifle", "type": "ranged", "range": 36, "A": "1", "skill": 3, "S": 4, "AP": -1,
              "D": "1", "keywords": ["PRECISION"]}
    game = new_game("reference", dice="table")
    game.start([unit("snipers", 2, weapons=[sniper]), unit("plain", 2)],
               [unit("guard", 3), unit("captain", 1, leader_of="guard", keywords=("INFANTRY", "CHARACTER"),
                                        models=[CAPTAIN])])
    while game.state()["phase"] != "shooting" or game.state()["awaiting"]["action"] != "end_phase":
        play_awaited(game)
    game.cmd("A", "select", unit="snipers", shooting="normal")
    game.cmd("A", "select", unit="plain", shooting="normal")
    attacks = {a["schema"]["properties"]["unit"]["const"]: a["schema"]["properties"]
               for a in game.state("A")["actions"] if a["type"] == "attack"}
    assert attacks["snipers"]["precision"]["type"] == "boolean"
    assert "precision" not in attacks["plain"]  # no PRECISION weapon: nothing to choose


def test_a_command_rerolled_hit_counts_with_its_new_face_and_analytics_count_both_dice(new_game):
    game = shooting(new_game)
    game.cmd("A", "attack", unit="shooters", weapon="Storm bolter", target="guard")
    game.cmd("A", "roll", dice=[1, 3, 3, 3, 3, 3])
    assert game.state()["awaiting"]["choice"] == {"step": "hit", "batch": [1, 3, 3, 3, 3, 3], "choices": [0]}
    game.cmd("A", "command_reroll", die=0)
    hits = rolled(game, "A", "hit", [6])  # CORE.DICE.2: the re-rolled 6 is a critical hit, SUSTAINED and LETHAL
    assert hits["HitsScored"]["data"]["criticals"] == 1 and hits["SustainedHitsScored"]["data"]["extra_hits"] == 1
    while game.state()["awaiting"]["action"] == "roll":
        awaiting = game.state()["awaiting"]
        count = int(awaiting["roll"]["spec"].split("D")[0] or 1)
        rolled(game, awaiting["seat"], awaiting["roll"]["purpose"], [4] * count)
    analytics = game.http.get(f"/games/{game.id}/analytics", headers=game.headers("A")).json()
    (attack,) = analytics["attacks"]
    assert attack["attacker"] == "shooters" and 0 <= attack["wounds_lost"]["luck_percentile"] <= 100
    assert analytics["dice"]["A"]["hit"]["dice"] == 7  # both faces were rolled: the 1 and its re-roll
