"""RS.CMD.3 in reference: a battle-shocked unit is no stratagem's target (Command Re-roll included) and starts no
action; actions started in the Shooting phase instead of shooting complete at the end of the turn, or fail."""
from __future__ import annotations

from typing import Any

from tests.support.client import GameClient, play_awaited, unit
from tests.support.instances import choice, consts


def offered(game: GameClient, seat: str, kind: str) -> list[dict[str, Any]]:
    return [a for a in game.state(seat)["actions"] if a["type"] == kind]


def to_phase(game: GameClient, phase: str) -> None:
    while game.state()["phase"] != phase or game.state()["awaiting"]["action"] != "end_phase":
        play_awaited(game)


def test_a_battle_shocked_unit_is_no_stratagems_target_and_starts_no_action(new_game):
    game = new_game("reference", dice="table")
    game.start([unit("scouts", 5), unit("shocked", 5, statuses=("battle_shocked",))], [unit("boyz", 5)])
    game.cmd("A", "roll_off", dice={"A": 6, "B": 1})
    game.cmd("A", "choose_order", first="A")
    game.cmd("A", "roll", dice=[1, 1])  # the shocked unit's battle-shock test: failed, still battle-shocked
    (strategems,) = [a for a in offered(game, "A", "use_stratagem") if choice(a["schema"]["properties"]["name"])]
    assert consts(strategems["schema"]["properties"]["unit"]) == ["scouts"]
    assert game.refused("A", "use_stratagem", name="Insane Bravery", unit="shocked")["rule"] == "RS.CMD.3"
    # its battle-shock test may be re-rolled (the test is the roll), but not a later roll of the shocked unit
    assert [a for a in offered(game, "A", "use_stratagem") if a["schema"]["properties"]["name"].get("const")]
    to_phase(game, "shooting")
    (start,) = offered(game, "A", "start_action")
    assert consts(start["schema"]["properties"]["unit"]) == ["scouts"]
    assert consts(start["schema"]["properties"]["action"]) == ["Secure objective", "Sabotage", "Recover intel"]
    assert game.refused("A", "start_action", unit="shocked", action="Sabotage")["rule"] == "RS.CMD.3"
    assert game.refused("A", "start_action", unit="scouts", action="Dance")["rule"] == "RS.SHO.1"
    started = game.cmd("A", "start_action", unit="scouts", action="Sabotage")["events"][0]
    assert (started["type"], started["rule"], started["data"]["action"]) == ("ActionStarted", "RS.CMD.3", "Sabotage")
    assert game.state()["units"]["scouts"]["action"] == "Sabotage"
    assert game.refused("A", "select", unit="scouts", shooting="normal")["rule"] == "RS.SHO.1"  # it does not shoot
    game.cmd("A", "end_phase")
    assert game.refused("A", "select", unit="scouts")["rule"] == "RS.CHG.1"  # nor charge
    to_phase(game, "fight")
    ended = game.cmd("A", "end_phase")["events"]
    (done,) = [e for e in ended if e["type"] == "ActionCompleted"]
    assert done["data"] == {"unit": "scouts", "action": "Sabotage", "at": "the end of the turn"}


def test_an_action_fails_when_its_unit_is_battle_shocked_before_the_turn_ends_and_advancing_forbids_one(new_game):
    game = new_game("reference", dice="table", actions=["Raise the banner"])
    game.start([unit("scouts", 5), unit("runners", 5)], [unit("boyz", 5)])
    game.cmd("A", "roll_off", dice={"A": 6, "B": 1})
    game.cmd("A", "choose_order", first="A")
    game.cmd("A", "end_phase")
    game.cmd("A", "select", unit="runners", move="advance")
    game.cmd("A", "roll", dice=[3])
    game.cmd("A", "end_phase")
    (start,) = offered(game, "A", "start_action")
    assert consts(start["schema"]["properties"]["unit"]) == ["scouts"]
    assert consts(start["schema"]["properties"]["action"]) == ["Raise the banner"]
    assert game.refused("A", "start_action", unit="runners", action="Raise the banner")["rule"] == "RS.MOV.3"
    game.cmd("A", "start_action", unit="scouts", action="Raise the banner")
    game.cmd("A", "set_status", unit="scouts", status="battle_shocked", value=True, reason="a rule of the table")
    to_phase(game, "fight")
    (failed,) = [e for e in game.cmd("A", "end_phase")["events"] if e["type"] == "ActionFailed"]
    assert failed["rule"] == "RS.CMD.3" and "battle-shocked" in failed["data"]["reason"]
