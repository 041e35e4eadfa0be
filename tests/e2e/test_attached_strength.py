"""CORE.STR.1, CORE.STR.2 over HTTP (reference): a leader and its bodyguard are one unit while attached, so the
strength their losses change is that unit's: all their models alive, of the starting strength they have together,
and destroyed only once neither stands; the sentence names the two as the one unit they form."""
from __future__ import annotations

from typing import Any

from tests.e2e.test_attack_losses import CAPTAIN, at_shooting
from tests.support.client import GameClient, unit
from warlog.domain.rules import editions


def attached(new_game) -> GameClient:
    return at_shooting(new_game, [unit("guard", 5), unit("captain", 1, leader_of="guard",
                                                         keywords=("INFANTRY", "CHARACTER"), models=[CAPTAIN])])


def changed(game: GameClient, uid: str, models: int) -> list[dict[str, Any]]:
    events = game.cmd("B", "record_casualties", unit=uid, models=models)["events"]
    return [e for e in events if e["type"] in ("StrengthChanged", "UnitDestroyed")]


def test_CORE_STR_2_a_leader_falling_leaves_its_attached_unit_below_its_starting_strength_not_destroyed(new_game):
    game = attached(new_game)  # CORE.STR.1: Captain + 5 = 6
    strength, destroyed = changed(game, "captain", 1)
    assert strength["data"] == {"unit": "captain", "from": "full", "to": "below_starting", "models_alive": 5,
                                "starting_strength": 6, "attached": "guard"}
    assert strength["text"] == "Bob's Guard and Captain are now below their starting strength: 5 of 6 models left."
    assert destroyed["text"] == "Bob's Captain was destroyed."


def test_CORE_STR_2_the_worked_example_captain_and_five_counted_together_until_the_captain_stands_alone(new_game):
    game = attached(new_game)
    (half,) = changed(game, "guard", 3)  # 3 destroyed: at half-strength
    assert half["data"]["models_alive"] == 3 and half["data"]["to"] == "half"
    assert half["text"] == "Bob's Guard and Captain are now at half strength: 3 of 6 models left."
    alone, gone = changed(game, "guard", 2)  # all 5 destroyed: the Captain alone is below half-strength
    assert alone["data"] == {"unit": "guard", "from": "half", "to": "below_half", "models_alive": 1,
                             "starting_strength": 6, "attached": "captain"}
    assert alone["text"] == "Bob's Guard and Captain are now below half strength: 1 of 6 models left."
    assert gone["text"] == "Bob's Guard was destroyed."
    assert game.state()["units"]["captain"]["strength"] == "below_half"
    last, _ = changed(game, "captain", 1)  # the Captain stood alone: its fall ends the unit
    assert "attached" not in last["data"] and last["data"]["to"] == "destroyed"
    assert last["text"] == "Bob's Captain is now destroyed: 0 of 6 models left."


def test_CORE_STR_2_a_game_created_before_edition_6_keeps_its_events_and_says_the_models_its_band_counted(
        new_game, monkeypatch):
    monkeypatch.setattr(editions, "created_under", lambda: {"edition": 5})
    game = attached(new_game)
    (half,) = changed(game, "guard", 3)
    assert half["data"] == {"unit": "guard", "from": "full", "to": "half", "models_alive": 2, "starting_strength": 6}
    assert half["text"] == "Bob's Guard and Captain are now at half strength: 3 of 6 models left."  # read as it is
    strength, _ = changed(game, "captain", 1)
    assert strength["data"]["to"] == "destroyed"  # as it was judged then: the leader's part
    assert strength["text"] == "Bob's Captain is now destroyed: 0 of 6 models left."
    assert game.verify()["commands_ok"] is True
