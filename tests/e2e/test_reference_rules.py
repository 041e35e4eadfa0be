"""The reference ruleset's fuller rules over HTTP with table dice: Ingress, the fight's stages, engagement
kept both ways, weapon limits, attached units, Command Re-roll, objectives and a winner."""
from __future__ import annotations

from typing import Any

from tests.support.client import GameClient, awaits, keep_dice, play_awaited, unit
from tests.support.instances import consts


def chainswords(count: int = 5, name: str = "chargers", **fields: Any) -> dict[str, Any]:
    return unit(name, count, weapons=[{"name": "Chainsword", "type": "melee", "A": "2", "S": 4, "AP": 0, "D": "1"},
                                      {"name": "Fist", "type": "melee", "A": "1", "S": 8, "AP": -2, "D": "2"}],
                **fields)


def until(game: GameClient, battle_round: int, seat: str, phase: str) -> None:
    """Play the plainest offered actions until that seat's phase of that battle round."""
    for _ in range(400):
        state = game.state()
        if (state["battle_round"], state["active_seat"], state["phase"]) == (battle_round, seat, phase) \
                and state["awaiting"]["action"] == "end_phase":
            return
        play_awaited(game)
    raise AssertionError(f"never reached {seat}'s {phase} phase of battle round {battle_round}")


def events_of(answer: dict[str, Any], type_: str) -> list[dict[str, Any]]:
    return [e for e in answer["events"] if e["type"] == type_]


def offered(game: GameClient, seat: str, type_: str) -> list[dict[str, Any]]:
    return [a for a in game.state(seat)["actions"] if a["type"] == type_]


def charge(game: GameClient, seat: str, uid: str, targets: list[str], faces: tuple[int, int] = (6, 6),
           distance: int = 5) -> dict[str, Any]:
    game.cmd(seat, "select", unit=uid)
    game.cmd(seat, "roll", dice=list(faces))
    return game.cmd(seat, "charge_move", unit=uid, targets=targets, distance=distance)


def test_a_fight_piles_in_gives_fights_first_then_an_engaging_consolidation_draws_in_an_overrun(new_game):
    game = new_game("reference", dice="table")
    game.start([chainswords()], [unit("boyz", 8), unit("grots", 3)])
    until(game, 1, "A", "charge")
    assert events_of(charge(game, "A", "chargers", ["boyz"]), "ChargeResolved")[0]["data"]["success"] is True
    game.cmd("A", "end_phase")

    assert awaits(game.state()) == {"seat": "A", "action": "pile_in"}  # the active player first (RS.FGT.1)
    piled = game.cmd("A", "pile_in", unit="chargers", distance=2.5)
    assert piled["events"][0]["rule"] == "RS.FGT.1" and piled["events"][0]["data"]["distance"] == "2.5"
    game.cmd("B", "pile_in", unit="boyz", distance=1)

    assert awaits(game.state()) == {"seat": "A", "action": "select"}  # Fights First before B's boyz
    assert game.refused("B", "select", unit="boyz")["rule"] == "RS.FGT.2"
    game.cmd("A", "select", unit="chargers", fight="normal")
    assert awaits(game.state()) == {"seat": "A", "action": "attack", "unit": "chargers"}
    (attack,) = offered(game, "A", "attack")
    assert consts(attack["schema"]["properties"]["target"]) == ["boyz"]  # engaged with it, not the grots
    assert game.refused("A", "attack", unit="chargers", weapon="Chainsword", target="grots")["rule"] == "RS.FGT.3"
    game.cmd("A", "attack", unit="chargers", weapon="Chainsword", target="boyz", models=3)
    game.cmd("A", "roll", dice=[6] * 6)  # hits
    game.cmd("A", "roll", dice=[6] * 6)  # wounds
    keep_dice(game, game.cmd("B", "roll", dice=[1] * 6))  # the defender's saves: all fail, six boyz fall
    (attack,) = offered(game, "A", "attack")  # two models have not attacked, and one weapon is left
    assert consts(attack["schema"]["properties"]["weapon"]) == ["Fist"]
    assert attack["schema"]["properties"]["models"]["maximum"] == 2
    assert game.refused("A", "attack", unit="chargers", weapon="Chainsword", target="boyz")["rule"] == "RS.FGT.3"
    game.cmd("A", "attack", unit="chargers", weapon="Fist", target="boyz", models=2)
    game.cmd("A", "roll", dice=[6, 6])
    game.cmd("A", "roll", dice=[6, 6])
    saved = keep_dice(game, game.cmd("B", "roll", dice=[1, 1]))
    assert any(e["type"] == "UnitDestroyed" and e["data"]["unit"] == "boyz" for e in saved["events"])
    ended = events_of(saved, "EngagementEnded")[0]
    assert ended["data"] == {"unit": "boyz", "with": ["chargers"], "reason": "was destroyed"}
    assert "engaged" not in game.state()["units"]["chargers"]["statuses"]  # its last foe is gone
    assert awaits(game.state()) == {"seat": "A", "action": "end_fight", "unit": "chargers"}
    game.cmd("A", "end_fight", unit="chargers")

    assert awaits(game.state()) == {"seat": "A", "action": "consolidate"}
    answer = game.cmd("A", "consolidate", unit="chargers", mode="engaging", targets=["grots"], distance=3)
    assert events_of(answer, "Consolidated")[0]["rule"] == "RS.FGT.4"
    assert events_of(answer, "FightEligible")[0]["data"]["units"] == ["grots"]
    assert awaits(game.state()) == {"seat": "B", "action": "select"}  # the grots fight now: an Overrun
    (overrun,) = offered(game, "B", "select")
    assert overrun["schema"]["properties"]["fight"]["const"] == "overrun"
    selected = game.cmd("B", "select", unit="grots", fight="overrun", pile_in=2)
    assert selected["events"][0]["data"]["pile_in"] == "2"
    game.cmd("B", "end_fight", unit="grots")
    game.cmd("B", "consolidate", unit="grots", mode="none")
    assert awaits(game.state()) == {"seat": "A", "action": "end_phase"}
    game.cmd("A", "end_phase")

    started = [e for e in game.events() if e["type"] == "TurnStarted"][-1]
    assert started["rule"] == "CORE.PER.2" and "chargers" in started["data"]["expired"]  # Fights First is over


def test_falling_back_unengages_the_enemy_too(new_game):
    game = new_game("reference", dice="table")
    game.start([unit("scouts", 3, engaged_with=["boyz"])], [unit("boyz", 5)])
    assert "engaged" in game.state()["units"]["boyz"]["statuses"]  # the army said so; both sides know
    until(game, 1, "A", "movement")
    answer = game.cmd("A", "select", unit="scouts", move="fall_back", escape="ordered")
    assert events_of(answer, "EngagementEnded")[0]["data"]["with"] == ["boyz"]
    state = game.state()
    assert "engaged" not in state["units"]["scouts"]["statuses"]
    assert "engaged" not in state["units"]["boyz"]["statuses"]
    until(game, 1, "B", "movement")
    game.cmd("B", "select", unit="boyz", move="normal")  # no longer held by the scouts


def test_strategic_reserves_arrive_by_ingress_from_the_second_battle_round(new_game):
    game = new_game("reference", dice="table")
    game.start([unit("scouts"), unit("deep", 5, in_reserves=True)], [unit("boyz")])
    until(game, 1, "A", "movement")
    assert game.refused("A", "select", unit="deep", move="ingress")["rule"] == "RS.RES.1"
    until(game, 2, "A", "movement")
    (ingress,) = [a for a in offered(game, "A", "select") if a["rule"] == "RS.RES.1"]
    assert consts(ingress["schema"]["properties"]["unit"]) == ["deep"]
    assert "opponent's deployment zone" in ingress["summary"]  # before battle round 3
    answer = game.cmd("A", "select", unit="deep", move="ingress")
    assert [e["rule"] for e in answer["events"]] == ["RS.RES.1", "RS.RES.1"]
    assert game.state()["units"]["deep"]["in_reserves"] is False
    # RS.RES.1 names why: until its next Charge phase it makes no other move (RS.MOV.1's once a phase as well)
    assert game.refused("A", "select", unit="deep", move="normal")["rule"] == "RS.RES.1"
    until(game, 2, "A", "charge")
    assert game.state()["units"]["deep"]["eligible"] is True  # its next Charge phase: it may declare a charge


def test_a_command_re_roll_rolls_the_charge_again_once_for_one_cp(new_game):
    game = new_game("reference", dice="table")
    game.start([chainswords()], [unit("boyz")])
    until(game, 1, "A", "charge")
    assert game.state()["cp"]["A"] == 1
    game.cmd("A", "select", unit="chargers")
    game.cmd("A", "roll", dice=[1, 1])
    (reroll,) = [a for a in offered(game, "A", "use_stratagem") if a["schema"]["properties"]["name"].get("const")]
    assert reroll["rule"] == "EXT.CP.1" and consts(reroll["schema"]["properties"]["unit"]) == ["chargers"]
    used = game.cmd("A", "use_stratagem", name="Command Re-roll", unit="chargers")
    assert used["events"][0]["data"] == {"seat": "A", "name": "Command Re-roll", "unit": "chargers", "cp": 1,
                                         "cp_left": 0, "rules": ["EXT.CP.1", "CORE.OWN.1"]}
    assert game.state()["awaiting"]["roll"] == {"purpose": "charge", "unit": "chargers", "spec": "2D6",
                                                "rule": "CORE.DICE.2"}
    rolled = game.cmd("A", "roll", dice=[6, 5])
    assert events_of(rolled, "ChargeRolled")[0]["data"]["total"] == 11
    assert game.refused("A", "use_stratagem", name="Command Re-roll", unit="chargers")["rule"] == "EXT.CP.1"
    assert events_of(game.cmd("A", "charge_move", unit="chargers", targets=["boyz"], distance=9),
                     "ChargeResolved")[0]["data"]["success"] is True


def test_objectives_are_scored_from_the_second_round_and_more_vp_wins(new_game):
    game = new_game("reference", dice="table", battle_rounds=2, objectives=["alpha", "bravo"])
    game.start([unit("scouts", 5), unit("snipers", 2)], [unit("boyz", 4, statuses=("battle_shocked",))])
    until(game, 1, "A", "command")
    assert game.refused("A", "end_phase", control={"alpha": ["scouts"]})["rule"] == "EXT.VP.1"
    until(game, 2, "A", "command")
    assert game.state("B")["vp"] == {"A": 0, "B": 0}  # the score, as the table app shows it
    (end,) = offered(game, "A", "end_phase")
    assert set(end["schema"]["properties"]["control"]["properties"]) == {"alpha", "bravo"}
    answer = game.cmd("A", "end_phase", control={"alpha": ["snipers", "boyz"], "bravo": ["scouts"]})
    control = events_of(answer, "ObjectivesControlled")[0]
    assert control["rule"] == "EXT.OBJ.1"
    assert control["data"]["objectives"]["alpha"]["oc"] == {"A": 2, "B": 0}  # battle-shocked boyz count OC 0
    assert control["data"]["objectives"]["bravo"]["controlled_by"] == "A"
    scored = events_of(answer, "VictoryPointsScored")[0]
    assert scored["rule"] == "EXT.VP.1" and scored["data"]["vp"] == 10 and scored["data"]["objectives"] == [
        "alpha", "bravo"]
    assert game.state("B")["vp"] == {"A": 10, "B": 0}
    for _ in range(400):
        state = game.state()
        if state["status"] == "ended":
            break
        play_awaited(game)
    assert game.state()["result"]["winner"] == "A"
    verified = game.verify()  # the scored end_phase requests play again to their events
    assert verified["commands_ok"] is True, verified
    assert "vp" not in new_game("alternating").state()  # a ruleset that keeps no VP shows none


def test_each_weapon_attacks_once_a_phase_and_indirect_fire_fires_only_its_own_weapons(new_game):
    mortar = {"name": "Mortar", "type": "ranged", "range": 48, "A": "1", "S": 5, "AP": 0, "D": "1",
              "keywords": ["INDIRECT FIRE"]}
    game = new_game("reference", dice="table")
    game.start([unit("team", 2, weapons=[unit("x")["weapons"][0], mortar])], [unit("boyz")])
    until(game, 1, "A", "shooting")
    game.cmd("A", "select", unit="team", shooting="indirect")
    (attack,) = offered(game, "A", "attack")
    assert consts(attack["schema"]["properties"]["weapon"]) == ["Mortar"]
    assert game.refused("A", "attack", unit="team", weapon="Boltgun", target="boyz")["rule"] == "RS.SHO.1"
    game.cmd("A", "attack", unit="team", weapon="Mortar", target="boyz")
    game.cmd("A", "roll", dice=[1, 1])  # both miss
    assert game.refused("A", "attack", unit="team", weapon="Mortar", target="boyz")["rule"] == "RS.SHO.1"
    assert offered(game, "A", "attack") == []


def test_an_attached_leader_moves_and_is_selected_with_its_bodyguard(new_game):
    game = new_game("reference", dice="table")
    game.start([unit("captain", 1, leader_of="guard", keywords=("INFANTRY", "CHARACTER")), unit("guard", 5)],
               [unit("boyz")])
    until(game, 1, "A", "movement")
    assert game.refused("A", "select", unit="captain", move="normal")["rule"] == "CORE.STR.1"
    answer = game.cmd("A", "select", unit="guard", move="normal")
    assert answer["events"][0]["data"]["with"] == ["captain"]
    units = game.state()["units"]
    assert units["guard"]["selected"] is True and units["captain"]["selected"] is True


def test_revived_models_return_only_to_their_own_unit_up_to_its_starting_strength(new_game):
    game = new_game("reference", dice="table")
    game.start([unit("captain", 1, leader_of="guard", keywords=("INFANTRY", "CHARACTER")), unit("guard", 4)],
               [unit("boyz")])
    game.cmd("B", "record_casualties", unit="captain", models=1)
    game.cmd("B", "record_casualties", unit="guard", models=2)
    assert game.refused("A", "revive", unit="guard", models=3)["rule"] == "CORE.REV.1"
    assert game.refused("B", "revive", unit="guard", models=1)["rule"] == "CORE.REV.1"
    answer = game.cmd("A", "revive", unit="captain", models=1, reason="a returning ability")
    assert answer["events"][0]["type"] == "ModelsRevived" and answer["events"][0]["rule"] == "CORE.REV.1"
    # the count is the attached unit's, as its starting strength is (CORE.STR.1): the Captain and 2 Guard of 5
    assert answer["events"][0]["text"] == ("Alice returned 1 model to Alice's Captain (3 of 5), set up in coherency "
                                           "with models that began the phase on the battlefield: a returning ability.")
    answer = game.cmd("A", "revive", unit="guard", models=2)
    assert answer["events"][0]["text"] == ("Alice returned 2 models to Alice's Guard (5 of 5), set up in coherency "
                                           "with models that began the phase on the battlefield.")
    units = game.state()["units"]
    assert units["captain"]["models_alive"] == 1 and units["guard"]["models_alive"] == 4
    assert units["guard"]["strength"] == "full"  # the attached unit whole again: 5 of 5
    assert "revive" in game.state("A")["anytime"]


def test_rolls_triggered_at_once_wait_in_a_visible_queue_in_order(new_game):
    game = new_game("reference", dice="table")
    game.start([unit("first", 4, statuses=("battle_shocked",)), unit("second", 4, statuses=("battle_shocked",))],
               [unit("boyz")])
    game.cmd("A", "roll_off", dice={"A": 6, "B": 1})
    game.cmd("A", "choose_order", first="A")
    state = game.state("B")  # either seat, and a spectator, sees what waits
    assert [(q["unit"], q["purpose"], q["rule"], q["seat"]) for q in state["queue"]] == [
        ("first", "battle_shock", "RS.CMD.2", "A"), ("second", "battle_shock", "RS.CMD.2", "A")]
    assert state["awaiting"]["roll"]["unit"] == "first"  # the head of the queue is what is awaited (CORE.SEQ.1)
    answer = game.cmd("A", "roll", dice=[6, 6])
    assert [q["unit"] for q in game.state()["queue"]] == ["second"]
    assert events_of(answer, "BattleShockTested")[0]["text"] == \
        "Alice's First (4 of 4) passed their battle-shock test: 12 on 2D6 against Ld 7."


def test_no_command_re_roll_is_offered_for_a_unit_destroyed_since_its_roll(new_game):
    game = new_game("reference", dice="table")
    game.start([chainswords()], [unit("boyz")])
    until(game, 1, "A", "charge")
    game.cmd("A", "select", unit="chargers")
    game.cmd("A", "roll", dice=[1, 1])
    assert consts(offered(game, "A", "use_stratagem")[0]["schema"]["properties"]["unit"]) == ["chargers"]
    game.cmd("B", "record_casualties", unit="chargers", models=5)  # wiped out at the table before the re-roll
    assert not [a for a in offered(game, "A", "use_stratagem") if a["schema"]["properties"]["name"].get("const")]
    assert game.refused("A", "use_stratagem", name="Command Re-roll", unit="chargers")["rule"] == "EXT.CP.1"
    assert awaits(game.state()) == {"seat": "A", "action": "end_phase"}  # a destroyed unit charges nothing
    assert [e for e in game.events() if e["type"] == "ChargeResolved"][-1]["data"]["reason"] == \
        "the charging unit was destroyed"
