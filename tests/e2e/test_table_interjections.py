"""What players do at a real table in the middle of a game — a status given for a while, casualties recorded,
models returned, an undo asked and withdrawn — and what each answer then says in the players' words.
(Found by a random walk that interjects these into games of every ruleset.)"""
from __future__ import annotations

import re

from tests.e2e.test_reference_effects import to
from tests.support.client import unit
from warlog.domain.rules import editions


def test_a_status_given_for_the_phase_ends_in_the_players_words_not_its_field_name(new_game):
    """CORE.PER.1 (edition 6): the status a `set_status` gave for a while is lost with its effect named as players
    say it ("the falling back status ended"), not "status falling_back ended"."""
    game = new_game("reference", dice="table", battle_rounds=2)
    game.start([unit("squad", 5)], [unit("boyz", 5)])
    to(game, "command", "A")
    game.cmd("A", "set_status", unit="squad", status="falling_back", value=True, duration="end_of_phase",
             reason="a psychic power")
    ended = game.cmd("A", "end_phase")
    (lost,) = [e for e in ended["events"] if e["type"] == "StatusLost"]
    assert lost["data"]["reason"] == "the falling back status ended: the end of the phase has come"
    assert not re.search(r"[A-Za-z]_[A-Za-z]", lost["text"]), lost["text"]
    assert game.verify()["commands_ok"] is True


def test_a_game_created_before_the_fix_loses_the_status_with_the_reason_it_always_gave(new_game, monkeypatch):
    monkeypatch.setattr(editions, "created_under", lambda: {"edition": 5})
    game = new_game("reference", dice="table", battle_rounds=2)
    game.start([unit("squad", 5)], [unit("boyz", 5)])
    to(game, "command", "A")
    game.cmd("A", "set_status", unit="squad", status="falling_back", value=True, duration="end_of_phase")
    (lost,) = [e for e in game.cmd("A", "end_phase")["events"] if e["type"] == "StatusLost"]
    assert lost["data"]["reason"] == "status falling_back ended: the end of the phase has come"
    assert game.verify()["commands_ok"] is True


def test_a_destroyed_unit_gains_no_status(new_game):
    """CORE.STR.2 (edition 6): a unit with no models left is refused a status gained, as it is refused more
    casualties; "Alice's Solo is now Pinned" would be said of models no longer on the table. Every ruleset."""
    for ruleset in ("alternating", "reference", "heresy"):
        game = new_game(ruleset, dice="table")
        game.start([unit("solo", 1), unit("squad", 5)], [unit("boyz", 5)])
        game.cmd("A", "record_casualties", unit="solo", models=1)
        for seat in ("A", "B"):
            problem = game.refused(seat, "set_status", unit="solo", status="pinned", value=True)
            assert problem["rule"] == "CORE.STR.2" and "destroyed" in problem["detail"], problem
        assert game.state()["units"]["solo"]["statuses"] == []
        assert not [e for e in game.events() if e["type"] == "StatusGained"]


def test_a_game_created_before_the_fix_still_records_a_status_on_a_destroyed_unit(new_game, monkeypatch):
    monkeypatch.setattr(editions, "created_under", lambda: {"edition": 5})
    game = new_game("alternating", dice="table")
    game.start([unit("solo", 1), unit("squad", 5)], [unit("boyz", 5)])
    game.cmd("A", "record_casualties", unit="solo", models=1)
    gained = game.cmd("A", "set_status", unit="solo", status="pinned", value=True)
    assert [e["type"] for e in gained["events"]] == ["StatusGained"]
    assert game.verify()["commands_ok"] is True
