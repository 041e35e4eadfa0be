"""A unit's possessive in what a player reads: "Brawlers' overwatch", not "Brawlers's" (domain/words.py `owns`)."""
from __future__ import annotations

from tests.e2e.test_offers_in_words import summaries
from tests.e2e.test_refusal_players import to_go
from tests.support.client import unit


def test_an_offer_naming_a_unit_whose_name_ends_in_s_says_its_possessive_as_written(new_game):
    game = new_game("alternating", dice="table")
    game.start([unit("a-squad-1", name="Tactical Squad")], [unit("b-mob-1", name="Brawlers")])
    while to_go(game, "select_charges") != "A":
        game.cmd("B", "declare_done")
    game.cmd("A", "select", unit="a-squad-1", targets=["b-mob-1"], distance=7)
    said = " ".join(summaries(game, "B", "select"))
    assert "hold Brawlers' overwatch" in said, said
    assert "Brawlers's" not in said, said
