"""Heresy Shooting and Assault through the attack module on the older era's tables, over HTTP: every die at
the table, the defender's saves from the defending seat, casualties and hull points applied by the service."""
from __future__ import annotations

from tests.e2e.test_heresy import a_goes_first, offered, to_sub_phase
from tests.support.client import GameClient, unit, vehicle


def legion(uid: str, count: int = 5, **fields) -> dict:
    body = unit(uid, count, **fields)
    body["models"][0].update(BS=4, WS=4, I=4, T=4, Sv=3, Ld=8)
    body["weapons"][0].update(name="Bolter", A="2", S=4, AP=5, kind=None, keywords=[])
    return body


def to_shooting(game: GameClient) -> None:
    a_goes_first(game)
    to_sub_phase(game, "A", None, "shooting")


def test_a_bolter_volley_hits_on_bs_wounds_on_s_against_t_and_ap_negates_a_worse_armour_save(new_game):
    game = new_game("heresy", dice="table")
    militia = unit("militia", 3)
    militia["models"][0].update(T=3, Sv=5, InSv=None)
    game.start([legion("legion")], [militia])
    to_shooting(game)
    game.cmd("A", "select", unit="legion", targets=["militia"])
    [shoot] = offered(game, "A", "shoot")
    assert shoot["schema"]["properties"]["weapon"]["enum"] == ["Bolter"]
    game.cmd("A", "shoot", unit="legion", weapon="Bolter", target="militia", models=2)
    awaiting = game.state()["awaiting"]
    assert awaiting["seat"] == "A" and awaiting["roll"]["purpose"] == "hit" and awaiting["roll"]["spec"] == "4D6"
    answer = game.cmd("A", "roll", dice=[3, 2, 6, 1])  # BS4: 3+
    hits = next(e for e in answer["events"] if e["type"] == "HitsScored")
    assert hits["rule"] == "RS.ATK.1" and hits["data"]["needed"] == 3 and hits["data"]["hits"] == 2
    answer = game.cmd("A", "roll", dice=[3, 1])  # S4 v T3: 3+
    wounds = next(e for e in answer["events"] if e["type"] == "WoundsScored")
    assert wounds["data"]["needed"] == 3 and wounds["data"]["wounds"] == 1
    assert game.state()["awaiting"]["seat"] == "B"  # the defender saves
    answer = game.cmd("B", "roll", dice=[6])  # AP5 negates Sv5: no save at all
    saves = next(e for e in answer["events"] if e["type"] == "SavesRolled")
    assert saves["data"]["needed"] == 7 and saves["data"]["failed"] == 1
    assert game.state()["units"]["militia"]["models_alive"] == 2
    assert game.refused("A", "shoot", unit="legion", weapon="Bolter", target="militia")["rule"] == "RS.SHO.2"
