"""RS.ATK.4 over HTTP, reference, table dice: what an attack records as lost when the table records casualties, or
returns models, while the attack waits for its dice (a roll, a Command Re-roll, the defender's allocation). The
attack resolves against its target as it was declared; its losses are laid over the unit as it stands, and are
never a negative count, never more than the unit has, and never fall on a unit the attack did not strike."""
from __future__ import annotations

import re
from typing import Any

from tests.support.client import GameClient, keep_dice, play_awaited, unit
from warlog.domain.rules import editions

RIFLE = {"name": "Rifle", "type": "ranged", "range": 24, "A": "1", "skill": 3, "S": 4, "AP": 0, "D": "1",
         "keywords": []}
CAPTAIN = {"name": "Captain", "count": 1, "M": 6, "T": 4, "Sv": 3, "InSv": 4, "W": 4, "Ld": 6, "OC": 1, "BS": 2,
           "WS": 2, "I": 5, "A": 4, "hull_points": None}


def at_shooting(new_game, defenders: list[dict[str, Any]], shooters: int = 3) -> GameClient:
    game = new_game("reference", dice="table")
    game.start([unit("shooters", shooters, weapons=[RIFLE])], defenders)
    while game.state()["phase"] != "shooting" or game.state()["awaiting"]["action"] != "end_phase":
        play_awaited(game)
    game.cmd("A", "select", unit="shooters", shooting="normal")
    return game


def roll_out(game: GameClient, attacker: int, defender: int) -> list[dict[str, Any]]:
    """Every die the attack still waits for: the attacker's all `attacker`, the defender's all `defender`; the
    events the rolls appended."""
    events: list[dict[str, Any]] = []
    while game.state()["awaiting"]["action"] == "roll":
        awaiting = game.state()["awaiting"]
        count = int(awaiting["roll"]["spec"].split("D")[0] or 1)
        face = attacker if awaiting["seat"] == "A" else defender
        events += keep_dice(game, game.cmd(awaiting["seat"], "roll", dice=[face] * count))["events"]
    return events


def losses(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == "CasualtiesRecorded" and e["rule"] == "RS.ATK.4"]


def no_negative_count(events: list[dict[str, Any]]) -> None:
    for e in events:
        assert not re.search(r"-\d+ (model|wound)", e["text"]), e["text"]
        assert all(v >= 0 for k, v in e["data"].items()
                   if k in ("models", "wounds", "models_alive", "wounds_lost", "models_destroyed")), e


def test_RS_ATK_4_casualties_recorded_while_the_attack_waits_leave_its_loss_a_count_of_the_models_still_there(new_game):
    game = at_shooting(new_game, [unit("guard", 3)])
    game.cmd("A", "attack", unit="shooters", weapon="Rifle", target="guard")
    keep_dice(game, game.cmd("A", "roll", dice=[6, 1, 1]))  # 1 hit; the wound roll is awaited
    game.cmd("B", "record_casualties", unit="guard", models=2)  # the table removes 2 of the 3 meanwhile
    events = roll_out(game, attacker=6, defender=1)  # 1 wound, its save fails: 1 model slain, the last
    no_negative_count(events)
    (lost,) = losses(events)
    assert lost["data"]["models"] == 1 and lost["text"] == "Bob's Guard (0 of 3) lost 1 model and 1 wound."
    assert game.state()["units"]["guard"]["models_alive"] == 0
    assert game.state()["units"]["guard"]["strength"] == "destroyed"


def test_RS_ATK_4_a_game_created_before_edition_6_counts_its_losses_as_it_did_and_verifies(new_game, monkeypatch):
    monkeypatch.setattr(editions, "created_under", lambda: {"edition": 5})  # its players began under these rules
    game = at_shooting(new_game, [unit("guard", 3)])
    game.cmd("A", "attack", unit="shooters", weapon="Rifle", target="guard")
    keep_dice(game, game.cmd("A", "roll", dice=[6, 1, 1]))
    game.cmd("B", "record_casualties", unit="guard", models=2)
    (lost,) = losses(roll_out(game, attacker=6, defender=1))
    assert lost["data"]["models"] == -1  # as it always did (domain/rules/editions.py, RS.ATK.4/paused)
    assert game.verify()["commands_ok"] is True


def test_RS_ATK_4_a_unit_destroyed_while_the_attack_waits_is_not_brought_back_by_it(new_game):
    game = at_shooting(new_game, [unit("guard", 3)])
    game.cmd("A", "attack", unit="shooters", weapon="Rifle", target="guard")
    keep_dice(game, game.cmd("A", "roll", dice=[6, 1, 1]))
    game.cmd("B", "record_casualties", unit="guard", models=3)  # destroyed at the table meanwhile
    events = roll_out(game, attacker=6, defender=1)  # the attack, as declared, slays 1 of 3
    no_negative_count(events)
    assert losses(events) == []  # nothing left to lose
    assert not [e for e in events if e["type"] == "StrengthChanged"]
    assert game.state()["units"]["guard"]["models_alive"] == 0
    assert game.state()["units"]["guard"]["strength"] == "destroyed"


def test_RS_ATK_4_models_returned_while_the_attack_waits_are_not_slain_by_it(new_game):
    game = at_shooting(new_game, [unit("guard", 3)])
    game.cmd("B", "record_casualties", unit="guard", models=1)  # 2 of 3 stand when the attack is declared
    game.cmd("A", "attack", unit="shooters", weapon="Rifle", target="guard")
    keep_dice(game, game.cmd("A", "roll", dice=[6, 6, 6]))
    game.cmd("B", "revive", unit="guard", models=1, reason="a rule returns it")  # 3 stand again
    events = roll_out(game, attacker=6, defender=1)  # 3 wounds, every save fails: the 2 it was declared at slain
    no_negative_count(events)
    (lost,) = losses(events)
    assert lost["data"]["models"] == 2
    assert game.state()["units"]["guard"]["models_alive"] == 1  # the model returned meanwhile still stands


def test_RS_ATK_4_a_leader_returned_while_the_attack_on_its_bodyguard_waits_is_not_struck_by_it(new_game):
    game = at_shooting(new_game, [unit("guard", 3), unit("captain", 1, leader_of="guard",
                                                         keywords=("INFANTRY", "CHARACTER"), models=[CAPTAIN])])
    game.cmd("B", "record_casualties", unit="captain", models=1)  # the captain is gone when the attack is declared
    game.cmd("A", "attack", unit="shooters", weapon="Rifle", target="guard")
    keep_dice(game, game.cmd("A", "roll", dice=[6, 6, 1]))
    game.cmd("B", "revive", unit="captain", models=1, reason="a rule returns him")
    events = roll_out(game, attacker=6, defender=1)  # 2 guards slain
    no_negative_count(events)
    assert [(e["data"]["unit"], e["data"]["models"]) for e in losses(events)] == [("guard", 2)]
    units = game.state()["units"]
    assert units["captain"]["models_alive"] == 1 and units["guard"]["models_alive"] == 1


def test_RS_ATK_4_a_leader_struck_after_its_bodyguard_fell_meanwhile_takes_the_wounds_the_attack_gave_it(new_game):
    game = at_shooting(new_game, [unit("guard", 1), unit("captain", 1, leader_of="guard",
                                                         keywords=("INFANTRY", "CHARACTER"),
                                                         models=[{**CAPTAIN, "W": 2}])], shooters=4)
    game.cmd("A", "attack", unit="shooters", weapon="Rifle", target="guard")
    keep_dice(game, game.cmd("A", "roll", dice=[6, 6, 6, 6]))
    game.cmd("B", "record_casualties", unit="guard", models=1)  # the bodyguard falls at the table meanwhile
    events = roll_out(game, attacker=6, defender=1)  # 4 wounds, every save fails: 1 at the guard, 2 at the captain
    no_negative_count(events)
    assert [(e["data"]["unit"], e["data"]["models"]) for e in losses(events)] == [("captain", 1)]
    assert game.state()["units"]["captain"]["models_alive"] == 0


def test_RS_ATK_4_a_leaders_feel_no_pain_is_read_after_the_leader_fell_while_the_attack_waited(new_game):
    game = at_shooting(new_game, [unit("guard", 1), unit("captain", 1, leader_of="guard", abilities=("FEEL NO PAIN 5+",),
                                                         keywords=("INFANTRY", "CHARACTER"),
                                                         models=[{**CAPTAIN, "W": 2}])], shooters=4)
    game.cmd("A", "attack", unit="shooters", weapon="Rifle", target="guard")
    keep_dice(game, game.cmd("A", "roll", dice=[6, 6, 6, 6]))
    game.cmd("B", "record_casualties", unit="captain", models=1)  # the leader falls at the table meanwhile
    events = roll_out(game, attacker=6, defender=1)  # the guard slain; the captain's wounds, as declared, lost
    no_negative_count(events)
    assert [(e["data"]["unit"], e["data"]["models"]) for e in losses(events)] == [("guard", 1)]
    assert game.state()["units"]["captain"]["models_alive"] == 0 and game.state()["units"]["guard"]["models_alive"] == 0


def test_RS_ATK_4_wounds_recorded_while_the_attack_waits_are_kept_and_its_wound_falls_on_the_wounded_model(new_game):
    guard = unit("guard", 3)
    guard["models"][0].update(W=2)
    game = at_shooting(new_game, [guard])
    game.cmd("A", "attack", unit="shooters", weapon="Rifle", target="guard")
    keep_dice(game, game.cmd("A", "roll", dice=[6, 1, 1]))  # 1 hit; the wound roll is awaited
    game.cmd("B", "record_casualties", unit="guard", wounds=1)  # a guard loses a wound at the table meanwhile
    events = roll_out(game, attacker=6, defender=1)  # 1 wound, its save fails: 1 damage, to the wounded guard
    no_negative_count(events)
    (lost,) = losses(events)
    assert (lost["data"]["models"], lost["data"]["wounds"]) == (1, 1)
    guard_now = game.state()["units"]["guard"]
    assert guard_now["models_alive"] == 2 and not guard_now["wounds_lost"]  # the two left unhurt
    assert game.verify()["commands_ok"] is True


def test_RS_ATK_4_an_attack_whose_target_fell_while_it_waited_ends_and_asks_no_more_dice(new_game):
    game = at_shooting(new_game, [unit("guard", 3)])
    game.cmd("A", "attack", unit="shooters", weapon="Rifle", target="guard")
    keep_dice(game, game.cmd("A", "roll", dice=[6, 6, 1]))  # 2 hits; the wound roll is awaited
    game.cmd("B", "record_casualties", unit="guard", models=3)  # destroyed at the table meanwhile
    events = keep_dice(game, game.cmd("A", "roll", dice=[6, 6]))["events"]  # the wounds the attack waited for
    assert not [e for e in events if e["type"] in ("RollRequested", "SavesRolled", "AllocationOffered")]
    assert game.state()["awaiting"]["action"] != "roll"  # no save is asked of a unit no longer on the table
    (resolved,) = [e for e in events if e["type"] == "AttackResolved"]
    assert resolved["data"]["ended"] == "destroyed"
    assert "Bob's Guard was destroyed" in resolved["text"], resolved["text"]
    assert resolved["data"]["wounds_lost"] == 0 and resolved["data"]["models_destroyed"] == 0
    assert losses(events) == []
    assert game.verify()["commands_ok"] is True


HAZARD_GUN = {**RIFLE, "name": "Plasma", "keywords": ["HAZARDOUS"]}


def plasma_fired(new_game: Any) -> GameClient:
    """A table-dice reference game in which three shooters have fired their HAZARDOUS Plasma at three guards: its
    hit roll is awaited."""
    game = new_game("reference", dice="table")
    game.start([unit("shooters", 3, weapons=[HAZARD_GUN])], [unit("guard", 3)])
    while game.state()["phase"] != "shooting" or game.state()["awaiting"]["action"] != "end_phase":
        play_awaited(game)
    game.cmd("A", "select", unit="shooters", shooting="normal")
    game.cmd("A", "attack", unit="shooters", weapon="Plasma", target="guard")
    return game


def test_EXT_WPN_HAZARDOUS_slays_no_more_models_than_the_attacker_has_left(new_game):
    game = plasma_fired(new_game)
    keep_dice(game, game.cmd("A", "roll", dice=[1, 1, 1]))  # three misses: the hazard roll is awaited
    game.cmd("A", "record_casualties", unit="shooters", models=2)  # two shooters fall meanwhile
    events = keep_dice(game, game.cmd("A", "roll", dice=[1, 1, 1]))["events"]  # three ones
    no_negative_count(events)
    lost = [e for e in events if e["type"] == "CasualtiesRecorded" and e["data"]["unit"] == "shooters"]
    assert [e["data"]["models"] for e in lost] == [1], [e["text"] for e in lost]
    assert len([e for e in game.events() if e["type"] == "UnitDestroyed"]) == 1
    assert game.state()["units"]["shooters"]["models_alive"] == 0
    assert game.verify()["commands_ok"] is True


def test_EXT_WPN_HAZARDOUS_is_still_rolled_after_an_attack_that_ended_when_its_target_fell(new_game):
    game = plasma_fired(new_game)
    keep_dice(game, game.cmd("A", "roll", dice=[6, 6, 1]))  # 2 hits: the wound roll is awaited
    game.cmd("B", "record_casualties", unit="guard", models=3)  # destroyed at the table meanwhile
    keep_dice(game, game.cmd("A", "roll", dice=[6, 6]))  # the attack ends; its weapon was used
    awaiting = game.state()["awaiting"]
    assert awaiting["action"] == "roll" and awaiting["roll"]["purpose"] == "hazardous", awaiting
    events = keep_dice(game, game.cmd("A", "roll", dice=[1, 6, 6]))["events"]
    assert [e["data"]["models"] for e in events if e["type"] == "CasualtiesRecorded"] == [1]
    assert game.state()["units"]["shooters"]["models_alive"] == 2
