"""Reference attacks through the attack module, over HTTP with table dice, model line by model line:
SUSTAINED and LETHAL criticals, the defender's saves and Feel No Pain from the defending seat, a leader
allocated last, DEVASTATING mortal wounds, damage that does not spill."""
from __future__ import annotations

from typing import Any

from tests.support.client import GameClient, keep_dice, play_awaited, unit
from tests.support.instances import consts

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
    assert done["DiceRolled"]["data"]["text"] == "Feel No Pain: 1 ignored wound of 4 at 5+"  # the guard's 5+
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
    mortal = resolved["MortalWoundsInflicted"]  # the devastating step has its own event, named for what it did
    assert mortal["rule"] == "EXT.WPN.DEVASTATING" and mortal["data"]["mortal_wounds"] == 2
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


def attack_targets(game: GameClient, seat: str) -> list[list[str]]:
    return [consts(a["schema"]["properties"]["target"]) for a in game.state(seat)["actions"] if a["type"] == "attack"]


def test_an_attached_leader_is_targeted_only_as_its_bodyguards_unit_until_the_bodyguard_is_gone(new_game):
    game = shooting(new_game)  # CORE.STR.1: captain + guard are one unit, named by the bodyguard
    assert attack_targets(game, "A") == [["guard"]]
    problem = game.refused("A", "attack", unit="shooters", weapon="Storm bolter", target="captain")
    assert problem["rule"] == "CORE.STR.1" and "name Bob's Guard" in problem["detail"]  # the bodyguard, by name
    game.cmd("B", "record_casualties", unit="guard", models=3)
    assert attack_targets(game, "A") == [["captain"]]  # the leader stands alone now
    game.cmd("A", "attack", unit="shooters", weapon="Storm bolter", target="captain")


def test_a_charge_names_the_bodyguard_of_an_attached_leader_and_engages_them_both(new_game):
    game = new_game("reference", dice="table")
    game.start([unit("chargers", 3)],
               [unit("guard", 3), unit("captain", 1, leader_of="guard", keywords=("INFANTRY", "CHARACTER"),
                                        models=[CAPTAIN])])
    while game.state()["phase"] != "charge" or game.state()["awaiting"]["action"] != "end_phase":
        play_awaited(game)
    game.cmd("A", "select", unit="chargers")
    game.cmd("A", "roll", dice=[5, 5])
    (move,) = [a for a in game.state("A")["actions"] if a["type"] == "charge_move"]
    assert consts(move["schema"]["properties"]["targets"]["items"]) == ["guard"]
    assert game.refused("A", "charge_move", unit="chargers", targets=["captain"], distance=6)["rule"] == "CORE.STR.1"
    engaged = game.cmd("A", "charge_move", unit="chargers", targets=["guard"], distance=6)["events"]
    (together,) = [e for e in engaged if e["type"] == "UnitsEngaged"]
    assert sorted(together["data"]["with"]) == ["captain", "guard"]


RIFLE = {"name": "Rifle", "type": "ranged", "range": 24, "A": "1", "skill": 3, "S": 4, "AP": 0, "D": "1",
         "keywords": []}
CARBINE = {**RIFLE, "name": "Carbine"}
TROOPER = {"name": "Trooper", "count": 2, "M": 6, "T": 4, "Sv": 4, "InSv": None, "W": 1, "Ld": 7, "OC": 1, "BS": 3,
           "WS": 3, "I": 4, "A": 1, "hull_points": None}
GUNNER = {**TROOPER, "name": "Gunner", "count": 1, "W": 2}


def lines_of(declared: dict[str, Any]) -> list[tuple[str, int, int]]:
    """The target's model lines an attack is read against: (name, models alive, the wounded model's lost wounds)."""
    return [(line["name"], line["count"], line["wounds_taken"]) for line in declared["data"]["profile"]["target"]["lines"]]


def test_a_wounded_gunner_keeps_its_wounds_when_the_table_removes_a_trooper_and_the_next_attack_is_judged(new_game):
    game = new_game("reference", dice="table")
    game.start([unit("shooters", 1, weapons=[RIFLE, CARBINE])], [unit("squad", 3, models=[TROOPER, GUNNER])])
    while game.state()["phase"] != "shooting" or game.state()["awaiting"]["action"] != "end_phase":
        play_awaited(game)
    game.cmd("A", "select", unit="shooters", shooting="normal")
    first = game.cmd("A", "attack", unit="shooters", weapon="Rifle", target="squad")["events"][0]
    assert lines_of(first) == [("Trooper", 2, 0), ("Gunner", 1, 0)]
    rolled(game, "A", "hit", [5])
    rolled(game, "A", "wound", [5])
    assert game.state()["awaiting"]["action"] == "allocate"  # a W1 trooper and the W2 gunner: the defender picks
    game.cmd("B", "allocate", line=1)
    resolved = rolled(game, "B", "save", [1])["AttackResolved"]["data"]
    assert resolved["lines"] == {"squad": {"alive": [2, 1], "taken": [0, 1]}}
    game.cmd("B", "record_casualties", unit="squad", models=1)  # the table removes one model of its own accord
    second = game.send("A", {"type": "attack", "unit": "shooters", "weapon": "Carbine", "target": "squad"})
    assert second.status_code == 200, second.text  # was a 500: the gunner's wound moved onto a W1 trooper
    assert lines_of(second.json()["events"][0]) == [("Trooper", 1, 0), ("Gunner", 1, 1)]


def test_a_mortal_wound_outside_an_attack_goes_to_the_wounded_gunner_first_with_its_own_w(new_game):
    game = new_game("reference", dice="table")
    game.start([unit("scouts", 1)],
               [unit("squad", 3, models=[TROOPER, GUNNER], statuses=("engaged",), engaged_with=["scouts"])])
    while (game.state()["phase"], game.state()["awaiting"]["action"]) != ("fight", "select"):
        play_awaited(game)
    game.cmd("B", "select", unit="squad", fight="normal")
    game.cmd("B", "end_fight", unit="squad")
    game.cmd("A", "select", unit="scouts", fight="normal")
    game.cmd("A", "attack", unit="scouts", weapon="Knife", target="squad")
    rolled(game, "A", "hit", [5])
    rolled(game, "A", "wound", [5])
    game.cmd("B", "allocate", line=1)
    assert rolled(game, "B", "save", [1])["AttackResolved"]["data"]["lines"] == {"squad": {"alive": [2, 1],
                                                                                          "taken": [0, 1]}}
    while (game.state()["active_seat"], game.state()["phase"]) != ("B", "movement"):
        play_awaited(game)
    game.cmd("B", "select", unit="squad", move="fall_back", escape="desperate")
    damage = rolled(game, "B", "hazard", [1, 6, 6])["DamageAllocated"]  # RS.MOV.4: one failure, one mortal wound
    # RS.ATK.3: the wounded gunner takes it and falls (its second wound of two); both troopers stand
    assert damage["data"]["models_destroyed"] == 1 and game.state()["units"]["squad"]["models_alive"] == 2
    assert damage["data"]["lines"] == {"alive": [2, 0], "taken": [0, 0]}  # what the next attack is read against
