"""Heresy Shooting and Assault through the attack module on the older era's tables, over HTTP: every die at
the table, the defender's saves from the defending seat, casualties and hull points applied by the service."""
from __future__ import annotations

from tests.e2e.test_heresy import a_goes_first, offered, to_sub_phase
from tests.support.client import GameClient, awaits, unit
from tests.support.instances import consts


def legion(uid: str, count: int = 5, **fields) -> dict:
    body = unit(uid, count, **fields)
    body["models"][0].update(BS=4, WS=4, I=4, T=4, Sv=3, Ld=8)
    body["weapons"][0].update(name="Bolter", A="2", S=4, AP=5, kind=None, keywords=[])
    return body


def to_phase(game: GameClient, phase: str) -> None:
    a_goes_first(game)
    to_sub_phase(game, "A", None, phase)


def test_a_bolter_volley_hits_on_bs_wounds_on_s_against_t_and_ap_negates_a_worse_armour_save(new_game):
    game = new_game("heresy", dice="table")
    militia = unit("militia", 3)
    militia["models"][0].update(T=3, Sv=5, InSv=None)
    game.start([legion("legion")], [militia])
    to_phase(game, "shooting")
    game.cmd("A", "select", unit="legion", targets=["militia"])
    [shoot] = offered(game, "A", "shoot")
    assert consts(shoot["schema"]["properties"]["weapon"]) == ["Bolter"]
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


def test_a_charge_that_reaches_locks_both_units_and_they_fight_in_initiative_order(new_game):
    game = new_game("heresy", dice="table")
    militia = unit("militia", 4)
    militia["models"][0].update(WS=3, I=3, T=3, Sv=5, Ld=7)
    militia["weapons"][1].update(name="Bayonet", S=3, AP=0)
    charger = legion("legion", 3)
    charger["weapons"][1].update(name="Chainsword", A="2", S=4, AP=0)
    game.start([charger], [militia])
    to_phase(game, "assault")
    [rolled] = [a for a in offered(game, "A", "select") if "distance" in a["schema"]["properties"]]
    assert rolled["schema"]["properties"]["targets"]["maxItems"] == 1
    game.cmd("A", "select", unit="legion", targets=["militia"], distance=7)
    assert game.state()["awaiting"]["roll"] == {"purpose": "charge", "unit": "legion", "spec": "2D6",
                                                "rule": "RS.CHG.2"}
    answer = game.cmd("A", "roll", dice=[3, 4])
    kinds = [(e["type"], e["data"].get("unit")) for e in answer["events"]]
    assert ("ChargeRolled", "legion") in kinds and ("StatusGained", "legion") in kinds and \
        ("StatusGained", "militia") in kinds and ("FightBegan", None) in kinds
    state = game.state()
    assert "locked_in_combat" in state["units"]["legion"]["statuses"]
    assert awaits(state) == {"seat": "A", "action": "strike", "unit": "legion", "rule": "RS.FGT.3"}  # I4 first
    assert game.refused("A", "end_phase")["rule"] == "RS.FGT.3"
    game.cmd("A", "strike", unit="legion", weapon="Chainsword")
    answer = game.cmd("A", "roll", dice=[3, 3, 3, 3, 2, 1])  # WS4 v WS3: 3+
    assert next(e for e in answer["events"] if e["type"] == "HitsScored")["data"]["needed"] == 3
    game.cmd("A", "roll", dice=[3, 3, 1, 1])  # S4 v T3: 3+
    game.cmd("B", "roll", dice=[5, 1])  # Sv5: one saved
    state = game.state()
    assert state["units"]["militia"]["models_alive"] == 3
    assert awaits(state) == {"seat": "B", "action": "strike", "unit": "militia", "rule": "RS.FGT.3"}
    game.cmd("B", "strike", unit="militia", weapon="Bayonet")
    assert game.state()["awaiting"]["roll"]["spec"] == "3D6"  # the three left strike at I3
    game.cmd("B", "roll", dice=[1, 1, 1])  # WS3 v WS4: 4+: all miss
    answer = game.events(after=0)
    resolved = next(e for e in answer if e["type"] == "FightResolved")
    assert resolved["data"]["loser"] == "militia" and resolved["data"]["wounds_caused"] == {"legion": 1, "militia": 0}
    assert game.state()["awaiting"]["roll"]["purpose"] == "fight_leadership"
    answer = game.cmd("B", "roll", dice=[5, 4])  # 9 > Ld7: failed
    kinds = [(e["type"], e["data"].get("unit"), e["data"].get("status")) for e in answer["events"]]
    assert ("StatusGained", "militia", "routed") in kinds
    assert ("StatusLost", "militia", "locked_in_combat") in kinds and ("StatusLost", "legion", "locked_in_combat") in kinds
    assert game.state()["awaiting"]["action"] == "end_phase"


def test_a_charge_roll_short_of_the_distance_does_nothing(new_game):
    game = new_game("heresy", dice="table")
    game.start([legion("legion", 3)], [unit("militia", 4)])
    to_phase(game, "assault")
    answer = game.cmd("A", "select", unit="legion", targets=["militia"], distance=9.5)
    assert answer["events"][0]["data"]["distance"] == "9.5"
    answer = game.cmd("A", "roll", dice=[4, 5])
    assert [e["type"] for e in answer["events"]] == ["DiceRolled", "ChargeRolled"]
    assert answer["events"][1]["data"]["reached"] is False
    assert "locked_in_combat" not in game.state()["units"]["legion"]["statuses"]


def test_the_audit_explains_a_heresy_attack_and_a_charge_from_their_causes(new_game):
    game = new_game("heresy")
    game.start([legion("legion", 3)], [unit("militia", 4)])
    to_phase(game, "shooting")
    game.cmd("A", "select", unit="legion", targets=["militia"])
    declared = game.cmd("A", "shoot", unit="legion", weapon="Bolter", target="militia")["events"][0]
    audit = game.http.get(f"/games/{game.id}/audit/{declared['seq']}", headers=game.headers("A")).json()
    assert audit["facts"]["used"]["tables"] == "heresy"
    assert audit["facts"]["characteristics"]["legion"]["models"][0]["BS"] == 4
    assert any(c["why"] == "the unit selected to shoot, and its targets" for c in audit["causes"])
    game.cmd("A", "end_phase")
    answer = game.cmd("A", "select", unit="legion", targets=["militia"], distance=2)
    rolled = next(e for e in answer["events"] if e["type"] == "ChargeRolled")
    audit = game.http.get(f"/games/{game.id}/audit/{rolled['seq']}", headers=game.headers("A")).json()
    assert audit["facts"]["used"]["reached"] is True and audit["facts"]["used"]["distance"] == "2"
    assert any(c["why"] == "the charge it rolls for" for c in audit["causes"])
    analytics = game.http.get(f"/games/{game.id}/analytics", headers=game.headers("A")).json()
    shot = next(a for a in analytics["attacks"] if a["weapon"] == "Bolter")
    assert 0 <= shot["wounds_lost"]["luck_percentile"] <= 100


def test_what_the_older_profile_lacks_stays_the_tables_and_the_weapon_types_change_the_shots(new_game):
    game = new_game("heresy", dice="table")
    blind = legion("blind", 2)
    blind["models"][0]["BS"] = None
    gunners = legion("gunners", 2)
    gunners["weapons"][0].update(name="Bolter", kind="rapid_fire", A="1")
    gunners["weapons"].insert(1, {"name": "Heavy bolter", "type": "ranged", "range": 36, "A": "3", "S": 5, "AP": 4,
                                  "D": "1", "kind": "heavy", "keywords": []})
    game.start([blind, gunners], [unit("militia", 5)])
    a_goes_first(game)
    to_sub_phase(game, "A", "move")
    game.cmd("A", "move", unit="gunners", move="normal", distance=3)
    to_sub_phase(game, "A", None, "shooting")
    game.cmd("A", "select", unit="blind", targets=["militia"])
    assert offered(game, "A", "shoot") == []  # no BS: rolled as a free roll, its casualties recorded
    assert "rolled as a free roll" in next(a for a in offered(game, "A", "select"))["summary"]
    game.cmd("A", "select", unit="gunners", targets=["militia"])
    game.cmd("A", "shoot", unit="gunners", weapon="Bolter", target="militia", within_half_range=True)
    assert game.state()["awaiting"]["roll"]["spec"] == "4D6"  # RAPID FIRE within half range: 2 shots a model
    game.cmd("A", "roll", dice=[1, 1, 1, 1])
    declared = game.cmd("A", "shoot", unit="gunners", weapon="Heavy bolter", target="militia")["events"][0]
    assert declared["data"]["snap_shots"] is True  # a heavy weapon after moving: snap shots
    answer = game.cmd("A", "roll", dice=[5, 5, 5, 5, 5, 6])
    hits = next(e for e in answer["events"] if e["type"] == "HitsScored")["data"]
    assert (hits["needed"], hits["hits"]) == (6, 1)
