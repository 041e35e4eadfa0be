"""A roll the game waits for is said as the rules call the roll, never by its snake_case purpose: in the refusal
that says what the game waits for, and in the roll's events (`domain/words.py` PURPOSES)."""
from __future__ import annotations

from tests.e2e.test_fnp_read import escape
from tests.e2e.test_reference_audit_fixes import rolled_now, since


def test_a_refusal_while_a_feel_no_pain_roll_is_awaited_says_the_roll_as_players_call_it(new_game):
    game, seq = escape(new_game, "FEEL NO PAIN 6+")
    problem = game.refused("A", "end_phase")
    assert "the game waits for Bob to roll 6D6 for Feel No Pain against mortal wounds" in problem["detail"], problem
    assert "feel no pain mortal" not in problem["detail"] and "feel_no_pain" not in problem["detail"]
    rolled_now(game, "B", "feel_no_pain_mortal", [5, 1, 5, 1, 3, 6], "table")
    rolls = [e for e in since(game, seq - 3) if e["type"] in ("RollRequested", "DiceRolled")]
    words = {"feel_no_pain_mortal": "for Feel No Pain against mortal wounds", "hazard": "for a Desperate Escape",
             "battle_shock": "for a battle-shock test"}
    said = {(e["type"], e["data"]["purpose"]): e["text"] for e in rolls}
    assert {purpose for _, purpose in said} == set(words), said
    assert all(words[purpose] in text for (_, purpose), text in said.items()), said
