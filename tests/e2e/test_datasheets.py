"""Units as datasheets (CONTRACT.md "In the players' words"): each unit in `state.units` carries what a player
reads off its card — model lines with their profiles and what is left of them, weapons in the datasheet's
notation, abilities and keywords, who leads whom, and each status with how long it lasts."""
from __future__ import annotations

from dataclasses import replace

from tests.support.client import unit
from warlog.domain.state import Lines, Unit
from warlog.domain.state.turns import OtherTurn
from warlog.projections.state import model_lines


def squad() -> dict:
    return unit("vets", 5, abilities=("Oath of Moment",), models=[
        {"name": "Sergeant", "count": 1, "M": 6, "T": 4, "Sv": 3, "W": 2, "Ld": 6, "OC": 1, "BS": 3, "WS": 3, "A": 2},
        {"name": "Veteran", "count": 4, "M": 6, "T": 4, "Sv": 3, "W": 1, "Ld": 6, "OC": 1, "BS": 3, "WS": 3, "A": 1}])


def test_a_unit_reads_as_its_datasheet(new_game):
    game = new_game("reference")
    game.start([squad(), unit("captain", 1, leader_of="vets")], [unit("guard", 10)])
    vets = game.state("B")["units"]["vets"]
    assert vets["name"] == "Vets" and vets["abilities"] == ["Oath of Moment"] and vets["keywords"] == ["INFANTRY"]
    assert [(m["name"], m["alive"], m["count"], m["W"], m["wounds_left"]) for m in vets["models"]] == [
        ("Sergeant", 1, 1, 2, None), ("Veteran", 4, 4, 1, None)]
    assert vets["led_by"] == "captain" and game.state()["units"]["captain"]["leader_of"] == "vets"
    bolter, knife = vets["weapons"]
    assert bolter == {"name": "Boltgun", "type": "ranged", "kind": "rapid_fire", "keywords": ["RAPID FIRE 1"],
                      "profile": {"Range": '24"', "A": "2", "BS": "3+", "S": "4", "AP": "0", "D": "1"}}
    assert knife["profile"] == {"Range": "Melee", "A": "1", "S": "4", "AP": "0", "D": "1"}  # no WS stated: none


def test_casualties_show_on_the_lines_they_took(new_game):
    game = new_game("reference")
    game.start([squad()], [unit("guard", 10)])
    game.cmd("B", "record_casualties", unit="vets", models=2)  # the first lines lose their models first
    lines = game.state()["units"]["vets"]["models"]
    assert [(m["name"], m["alive"], m["count"]) for m in lines] == [("Sergeant", 0, 1), ("Veteran", 3, 4)]


def test_a_status_says_how_long_it_lasts(new_game):
    game = new_game("reference")
    game.start([squad()], [unit("guard", 10)])
    game.cmd("A", "set_status", unit="vets", status="battle_shocked", value=True, reason="a rule of the table")
    assert game.state()["units"]["vets"]["status_details"] == [{
        "status": "battle_shocked", "title": "Battle-shocked", "rule": "RS.CMD.2",
        "until": "until it passes a battle-shock test in its player's Command phase"}]


def test_a_status_no_rule_ends_lasts_until_a_player_clears_it(new_game):
    game = new_game("alternating")
    game.start([unit("scouts", 5)], [unit("boyz", 10)])
    game.cmd("A", "set_status", unit="scouts", status="pinned", value=True, reason="a rule of the table")
    assert game.state()["units"]["scouts"]["status_details"] == [{
        "status": "pinned", "title": "Pinned", "until": "until a player clears it", "rule": "CORE.DESC.1"}]


def test_a_wounded_model_shows_its_wounds_left_where_the_last_attack_left_it():
    vets = Unit.mustered("A", squad(), OtherTurn)
    kept = replace(vets, models_alive=4, lines=Lines(alive=(1, 3), taken=(1, 0)))  # a Veteran slain, the Sergeant hit
    assert [(m["name"], m["alive"], m["wounds_left"]) for m in model_lines(kept)] == [
        ("Sergeant", 1, 1), ("Veteran", 3, None)]
