"""CONTRACT.md "In the players' words": a reason a game stores with the units' names in it (rules edition 4,
domain/rules/editions.py) is read as stored, even where a word of a unit's name is another unit's id; only a game
created before edition 4, whose reasons store ids, has its ids said as the units' names (Words.names). The players
are Alice (seat A) and Bob (seat B)."""
from __future__ import annotations

import pytest

from tests.e2e.test_named_reasons import created_under, reasons
from tests.e2e.test_reference_rules import charge, until
from tests.support.client import unit


@pytest.mark.parametrize("edition", [4, 3])
def test_a_word_of_a_units_name_that_is_another_units_id_is_read_as_the_name(new_game, monkeypatch, edition):
    # Bob's Grots were mustered with the id "boyz", a word of the name of Alice's Big boyz
    created_under(monkeypatch, edition)
    game = new_game("reference", dice="table")
    game.start([unit("a-boyz-1", name="Big boyz")], [unit("boyz", name="Grots")])
    until(game, 1, "A", "charge")
    events = charge(game, "A", "a-boyz-1", ["boyz"])["events"]
    assert reasons(events, "UnitsEngaged") == ["charge by Alice's Big boyz" if edition == 4 else "charge by a-boyz-1"]
    assert [e["text"] for e in events if e["type"] in ("UnitsEngaged", "StatusGained")] == [  # the same in both
        "Alice's Big boyz is now engaged with Bob's Grots (charge by Alice's Big boyz).",
        "Alice's Big boyz (5 of 5) is now engaged: charge by Alice's Big boyz.",
        "Bob's Grots (5 of 5) is now engaged: charge by Alice's Big boyz."]
