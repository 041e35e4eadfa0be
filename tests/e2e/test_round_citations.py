"""Issue 25, citations: a battle round's start and end cite the rule of the ruleset's round where RULES.md has one
(alternating: AA.TURN.1), and none in reference and heresy, whose rounds (a turn each) RULES.md gives no ID;
CORE.SEQ.1 orders rules triggered at the same time and governs no round. A game created before that fix (rule
edition 2) goes on citing what it always cited."""
from __future__ import annotations

import pytest

from tests.support.client import play_awaited, unit
from warlog.domain.rules import editions


def round_events(game, rounds: int = 2) -> list[dict]:
    """Play the plainest offered actions until battle round `rounds` has started; its round events."""
    for _ in range(600):
        events = [e for e in game.events() if e["type"] in ("BattleRoundStarted", "BattleRoundEnded")]
        if any(e["type"] == "BattleRoundStarted" and e["data"]["battle_round"] == rounds for e in events):
            return events
        play_awaited(game)
    raise AssertionError(f"battle round {rounds} never started")


@pytest.mark.parametrize("dice", ["server", "table"])
@pytest.mark.parametrize("ruleset", ["reference", "heresy"])
def test_CORE_SEQ_1_is_not_cited_for_a_battle_round_it_does_not_govern(new_game, ruleset, dice):
    game = new_game(ruleset, dice=dice)
    game.start([unit("scouts", 5)], [unit("boyz", 10)])
    events = round_events(game)
    assert [(e["type"], e["data"]["battle_round"]) for e in events] == [
        ("BattleRoundStarted", 1), ("BattleRoundEnded", 1), ("BattleRoundStarted", 2)]
    assert {e["rule"] for e in events} == {None}
    assert all(e["text"] and "None" not in e["text"] for e in events)  # still said in words, with no rule named


@pytest.mark.parametrize("dice", ["server", "table"])
def test_AA_TURN_1_is_cited_for_each_alternating_round(new_game, dice):
    game = new_game("alternating", dice=dice)
    game.start([unit("scouts", 5)], [unit("boyz", 10)])
    assert {e["rule"] for e in round_events(game)} == {"AA.TURN.1"}


def test_a_game_created_under_the_earlier_edition_cites_what_it_always_cited(new_game, monkeypatch):
    monkeypatch.setattr(editions, "created_under", lambda: {"edition": 2})
    game = new_game("reference")
    game.start([unit("scouts", 5)], [unit("boyz", 10)])
    assert {e["rule"] for e in round_events(game)} == {"CORE.SEQ.1"}
    verified = game.http.get(f"/games/{game.id}/verify", headers=game.headers("A")).json()
    assert verified["chain_ok"] and verified["commands_ok"]  # its requests, played again, make what they made
