"""Persisting effects in reference (CORE.PER.1/2): a stratagem's effect for the phase, a status for a stated time,
kept while the unit is embarked, ended at its boundary with the audit linking start and end."""
from __future__ import annotations

from typing import Any

from tests.support.client import GameClient, play_awaited, unit, vehicle
from warlog.domain.rules import editions


def to(game: GameClient, phase: str, seat: str, battle_round: int | None = None) -> None:
    for _ in range(200):
        state = game.state()
        if (state["phase"], state["active_seat"]) == (phase, seat) and battle_round in (None, state["battle_round"]) \
                and state["awaiting"]["action"] in ("end_phase", "select"):
            return
        play_awaited(game)
    raise AssertionError(f"never reached {phase} of seat {seat}")


def of(answer: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [e for e in answer["events"] if e["type"] == kind]


def test_a_stratagem_lasts_the_phase_and_a_status_with_a_duration_ends_by_itself_even_embarked(new_game):
    game = new_game("reference", dice="table", battle_rounds=2)
    game.start([unit("squad", 5), unit("marines", 3), vehicle("rhino", capacity=10)], [unit("boyz", 5)])
    to(game, "command", "A")
    used = game.cmd("A", "use_stratagem", name="Insane Bravery", unit="squad")
    (started,) = of(used, "EffectStarted")
    assert started["rule"] == "CORE.PER.2" and started["data"]["until"] == "end_of_phase"  # none stated
    assert game.state()["units"]["squad"]["effects"] == [
        {"effect": "Insane Bravery", "by": "A", "until": "end_of_phase", "until_title": "until the end of the phase",
         "since_seq": started["seq"], "since": {"battle_round": 1, "phase": "command"}}]
    pinned = game.cmd("A", "set_status", unit="marines", status="pinned", value=True, duration="start_of_next_turn",
                      reason="a rule pins it until A's next turn")
    assert of(pinned, "EffectStarted")[0]["rule"] == "CORE.PER.1"
    # how long it lasts, in the players' words, the player whose turn it waits for by name
    (pinned_effect,) = game.state()["units"]["marines"]["effects"]
    assert pinned_effect["until_title"] == "until the start of Alice's next turn"
    ended = game.cmd("A", "end_phase")
    (bravery,) = of(ended, "EffectEnded")
    assert bravery["data"]["effect"] == "Insane Bravery" and bravery["rule"] == "CORE.PER.2"
    assert game.state()["units"]["squad"]["effects"] == []
    audit = game.http.get(f"/games/{game.id}/audit/{bravery['seq']}", headers=game.headers("A")).json()
    assert any(c["seq"] == started["seq"] for c in audit["causes"])  # the audit links the end to its start
    # the pinned marines embark: off the battlefield, the effect keeps its duration (CORE.PER.1)
    game.cmd("A", "select", unit="marines", move="normal", embark="rhino")
    assert game.state()["units"]["marines"]["embarked_in"] == "rhino"
    to(game, "command", "B")
    assert [e["effect"] for e in game.state()["units"]["marines"]["effects"]] == ["status pinned"]
    to(game, "movement", "A", battle_round=2)
    events = game.events()
    (end,) = [e for e in events if e["type"] == "EffectEnded" and e["data"]["unit"] == "marines"]
    lost = next(e for e in events if e["type"] == "StatusLost" and e["data"]["unit"] == "marines")
    assert end["rule"] == "CORE.PER.1" and end["data"]["until"] == "start_of_next_turn" and lost["seq"] > end["seq"]
    # its end names the player who gave it (CORE.PER.1, edition 4), not "the giving seat"
    assert end["data"]["reason"] == "the start of Alice's next turn has come"
    assert lost["data"]["reason"] == "the Pinned status ended: the start of Alice's next turn has come"
    turn = next(e for e in events if e["type"] == "TurnStarted" and e["data"]["battle_round"] == 2)
    assert turn["data"]["seat"] == "A" and end["seq"] < turn["seq"] + 10
    marines = game.state()["units"]["marines"]
    assert marines["effects"] == [] and "pinned" not in marines["statuses"]


def test_a_game_created_before_the_players_words_fix_ends_an_effect_at_the_giving_seats_turn(new_game, monkeypatch):
    """A game created under edition 3 (domain/rules/editions.py, CORE.PER.1) logs the reason it always logged, and
    /verify plays its requests again to the same events."""
    monkeypatch.setattr(editions, "created_under", lambda: {"edition": 3})
    game = new_game("reference", dice="table", battle_rounds=2)
    game.start([unit("marines", 3)], [unit("boyz", 5)])
    to(game, "command", "A")
    game.cmd("A", "set_status", unit="marines", status="pinned", value=True, duration="start_of_next_turn")
    to(game, "movement", "A", battle_round=2)
    events = game.events()
    (end,) = [e for e in events if e["type"] == "EffectEnded" and e["data"]["unit"] == "marines"]
    assert end["data"]["reason"] == "the start of the giving seat's next turn has come"
    assert game.verify()["commands_ok"] is True


def test_durations_are_checked_and_belong_to_reference(new_game):
    game = new_game("reference", dice="table")
    game.start([unit("squad", 5)], [unit("boyz", 5)])
    to(game, "command", "A")
    problem = game.send("A", {"type": "set_status", "unit": "squad", "status": "pinned", "duration": "forever"})
    assert problem.status_code == 422 and problem.json()["field"] == "/duration"
    other = new_game("alternating", dice="table")
    other.start([unit("squad", 5)], [unit("boyz", 5)])
    problem = other.send("A", {"type": "set_status", "unit": "squad", "status": "pinned", "duration": "end_of_phase"})
    assert problem.status_code == 422 and problem.json()["field"] == "/duration"
    assert not [e for e in other.events() if e["type"] == "StatusGained"]


def test_a_stratagem_is_used_once_a_phase_by_each_player(new_game):
    game = new_game("reference", dice="table", battle_rounds=2)
    game.start([unit("squad", 5), unit("marines", 3)], [unit("boyz", 5)])
    to(game, "command", "A", battle_round=2)
    assert game.state()["cp"]["A"] >= 2
    used = game.cmd("A", "use_stratagem", name="Insane Bravery", unit="squad")
    assert of(used, "StratagemUsed")[0]["data"]["rules"] == ["EXT.CP.1", "CORE.OWN.1"]
    again = game.send("A", {"type": "use_stratagem", "name": "Insane Bravery", "unit": "marines"}).json()
    assert again["rule"] == "EXT.CP.1" and "CORE.OWN.1" in again["detail"]  # the limit counts per player
