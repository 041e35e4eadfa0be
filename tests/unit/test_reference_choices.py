"""Choices inside a reference attack with server dice (domain/rules/reference/choices.py): the attack pauses
between batches for a Command Re-roll (EXT.CP.1, CORE.DICE.2) or the defender's group (RS.ATK.3), only when the
choice is real, and goes on from the very batch it paused at."""
from __future__ import annotations

from typing import Any
from uuid import UUID

from tests.golden.driver import AppTable
from tests.support.client import unit
from warlog.domain.application import Warlog

AT = "2026-01-01T00:00:00.000Z"
TWO_LINES = [{"name": "Trooper", "count": 4, "M": 6, "T": 4, "Sv": 4, "InSv": None, "W": 1, "Ld": 7, "OC": 1,
              "BS": 4, "WS": 4, "I": 4, "A": 1, "hull_points": None},
             {"name": "Gunner", "count": 2, "M": 6, "T": 4, "Sv": 5, "InSv": None, "W": 2, "Ld": 7, "OC": 1,
              "BS": 4, "WS": 4, "I": 4, "A": 1, "hull_points": None}]


def shooting_game(seed: int, **b_squad: Any) -> AppTable:
    warlog = Warlog(env={"PERSISTENCE_MODULE": "eventsourcing.popo"})
    created = warlog.create_game("reference", {"A": "Alice", "B": "Bob"}, "server", {"battle_rounds": 1}, AT,
                                 game_id=UUID(int=seed), seed=seed.to_bytes(32, "big"))
    table = AppTable(warlog, UUID(created["game_id"]), "server")
    armies = {"A": [unit("shooters", 10)], "B": [unit("squad", 6, **{"models": TWO_LINES, **b_squad})]}
    for seat in "AB":
        warlog.muster(table.game_id, seat, armies[seat], AT)
    send(table, "A", {"type": "start_game"})
    while (table.view("A")["phase"], table.view("A")["active_seat"]) != ("shooting", "A"):
        awaiting = table.view("A")["awaiting"]
        body = {"roll_off": {"type": "roll_off"}, "choose_order": {"type": "choose_order", "first": "A"}}.get(
            awaiting["action"], {"type": "end_phase"})
        send(table, awaiting["seat"] or "A", body)
    send(table, "A", {"type": "select", "unit": "shooters", "shooting": "normal"})
    return table


def send(table: AppTable, seat: str, body: dict[str, Any]) -> list[dict[str, Any]]:
    status, answer = table.send(seat, body)
    assert status == 200, (body, answer)
    return answer["events"]


def offered(table: AppTable, seat: str) -> set[str]:
    return {a["type"] for a in table.view(seat)["actions"]}


def test_server_dice_pause_for_a_command_reroll_and_the_defenders_group_then_go_on_from_that_batch():
    table = shooting_game(7)
    events = send(table, "A", {"type": "attack", "unit": "shooters", "weapon": "Boltgun", "target": "squad"})
    assert events[-1]["type"] == "CommandRerollOffered"  # 20 hit dice at BS 3+: some missed
    pause = events[-1]["data"]
    assert table.view("A")["awaiting"]["action"] == "command_reroll" and offered(table, "B") == set()
    assert offered(table, "A") == {"command_reroll", "keep_dice"}
    die = pause["choices"][0]
    events = send(table, "A", {"type": "command_reroll", "die": die})
    used, rolled, rerolled = events[0], events[1], events[2]
    assert used["type"] == "StratagemUsed" and used["data"]["cp_left"] == 0 and used["data"]["roll"]["die"] == die
    assert rolled["type"] == "DiceRolled" and rolled["rule"] == "CORE.DICE.2" and "counter" in rolled["data"]
    assert rerolled["type"] == "AttackRollRerolled" and rerolled["data"]["was"] == [pause["batch"][die]]
    batch = list(pause["batch"])
    batch[die] = rolled["data"]["faces"][0]
    assert rerolled["data"]["batch"] == batch
    hits = next(e for e in events if e["type"] == "HitsScored")
    assert hits["data"]["dice"] == batch  # the re-rolled die counts with its new face
    assert table.view("A")["cp"]["A"] == 0
    # A has no CP left: its wound roll does not pause; the defender picks which of its two groups saves first
    assert not [e for e in events if e["type"] == "CommandRerollOffered"]
    assert table.view("A")["awaiting"]["action"] == "allocate"
    (allocate,) = table.view("B")["actions"]
    assert allocate["schema"]["properties"]["line"] == {  # each group by its models, as the player sees them
        "oneOf": [{"const": 0, "title": "Trooper (4 of 4)"}, {"const": 1, "title": "Gunner (2 of 2)"}],
        "format": "model_line", "title": "Model group to save next",
        "description": "the group of the target's models that saves next"}
    events = send(table, "B", {"type": "allocate", "line": 1})
    while table.view("A")["awaiting"]["action"] in ("command_reroll", "keep_dice", "allocate"):
        awaiting = table.view("A")["awaiting"]
        body = {"type": "keep_dice"} if awaiting["action"] != "allocate" else \
            {"type": "allocate", "line": awaiting["choice"]["choices"][0]["line"]}
        events += send(table, awaiting["seat"], body)
    assert [e["data"]["line"] for e in events if e["type"] == "SavesRolled"][:1] == [1]  # the Gunners first
    assert any(e["type"] == "AttackResolved" for e in events)


def test_a_battle_shocked_unit_is_offered_no_command_reroll_and_its_attack_does_not_pause():
    table = shooting_game(7, models=TWO_LINES[:1])
    send(table, "A", {"type": "set_status", "unit": "shooters", "status": "battle_shocked", "value": True,
                      "reason": "failed a battle-shock test"})
    events = send(table, "A", {"type": "attack", "unit": "shooters", "weapon": "Boltgun", "target": "squad"})
    attackers = [e for e in events if e["type"] == "CommandRerollOffered" and e["data"]["seat"] == "A"]
    assert not attackers  # RS.CMD.3: no stratagem for a battle-shocked unit
    while table.view("A")["awaiting"]["action"] in ("command_reroll", "keep_dice"):  # the defender's saves may
        events += send(table, table.view("A")["awaiting"]["seat"], {"type": "keep_dice"})
    assert any(e["type"] == "AttackResolved" for e in events)
