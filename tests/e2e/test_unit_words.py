"""A unit's card in the players' words (CONTRACT.md "In the players' words"): GET /state and a write's `view` say
each unit's strength as a player says it (`strength_title`, beside the band's name `strength`, CORE.STR.2) and
each status as the rules say a unit is it (`status_details[].title`: "Locked in Combat", not "Locked in combat"),
so no page turns `below_half` or `locked_in_combat` into words of its own. The players are Alice (A) and Bob (B)."""
from __future__ import annotations

from tests.support.client import unit


def test_a_unit_below_half_strength_says_so_and_one_untouched_is_at_full_strength(new_game):
    game = new_game("reference")
    game.start([unit("vets", 10)], [unit("guard", 10)])
    answer = game.cmd("B", "record_casualties", unit="vets", models=6)
    vets = answer["view"]["units"]["vets"]
    assert (vets["strength"], vets["strength_title"]) == ("below_half", "below half strength")
    state = game.state("spectator")["units"]
    assert state["vets"]["strength_title"] == "below half strength"
    assert (state["guard"]["strength"], state["guard"]["strength_title"]) == ("full", "at full strength")


def test_each_status_is_titled_as_the_rules_say_a_unit_is_it(new_game):
    game = new_game("alternating")
    game.start([unit("scouts", 5)], [unit("boyz", 10)])
    for status in ("gone_to_ground", "locked_in_combat", "battle_shocked"):
        game.cmd("A", "set_status", unit="scouts", status=status, value=True, reason="a rule of the table")
    titles = {d["status"]: d["title"] for d in game.state("B")["units"]["scouts"]["status_details"]}
    assert titles == {"gone_to_ground": "Gone to Ground", "locked_in_combat": "Locked in Combat",
                      "battle_shocked": "Battle-shocked"}


def test_the_openapi_document_describes_the_strength_and_the_statuses_in_words(http):
    schemas = http.get("/openapi.json").json()["components"]["schemas"]
    assert "strength_title" in schemas["UnitState"]["required"]
    assert "below half strength" in schemas["UnitState"]["properties"]["strength_title"]["description"]
    assert "Locked in Combat" in schemas["StatusDetail"]["properties"]["title"]["description"]
