"""MSN.OBJ.1/attached and EXT.OBJ.1 over HTTP: a leader and its bodyguard are one unit while attached (CORE.STR.1),
so the players naming either near an objective name the unit they form: its models (alternating, heresy) or its
OC (reference) count whole, and once, both parts named or one; the sentence says the two as that one unit. A game
created before edition 6 keeps its counts."""
from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.test_attack_losses import CAPTAIN
from tests.e2e.test_msn_objectives import MARKERS, events_of, round_end
from tests.e2e.test_reference_rules import offered, until
from tests.support.client import GameClient, unit
from warlog.domain.rules import editions


def captain() -> dict[str, Any]:
    return unit("captain", 1, leader_of="guard", keywords=("INFANTRY", "CHARACTER"), models=[dict(CAPTAIN)])


def consts(schema: dict[str, Any]) -> list[str]:
    items = schema["items"]
    return [one["const"] for one in items["oneOf"]] if "oneOf" in items else list(items["enum"])


def at_round_end(new_game, ruleset: str) -> tuple[GameClient, dict[str, Any]]:
    game = new_game(ruleset, dice="server", battle_rounds=2, objectives=MARKERS)
    game.start([unit("guard", 5), captain()], [unit("boyz", 5), unit("mob", 6)])
    return game, round_end(game)


def counted_whole_and_once(counted: dict[str, Any], what: str) -> None:
    """The Guard and its Captain count 6 (models, or OC) wherever either is named (alpha: the Guard, bravo: the
    Captain), never 7 nor 12 when both are (charlie, against 6 of B's), and the objective lists both."""
    assert counted["alpha"][what] == {"A": 6, "B": 5} and counted["alpha"]["controlled_by"] == "A"
    assert counted["bravo"][what] == {"A": 6, "B": 5} and counted["bravo"]["controlled_by"] == "A"
    assert counted["charlie"][what] == {"A": 6, "B": 6} and counted["charlie"]["controlled_by"] is None
    assert counted["bravo"]["units"] == ["guard", "captain", "boyz"]


@pytest.mark.parametrize("ruleset", ["alternating", "heresy"])
def test_MSN_OBJ_1_naming_either_part_of_an_attached_unit_counts_its_models_whole_and_once(new_game, ruleset):
    game, end = at_round_end(new_game, ruleset)
    assert {"guard", "captain"} <= set(consts(end["schema"]["properties"]["control"]["properties"]["alpha"]))
    answer = game.cmd(end["seat"], "end_phase", control={"alpha": ["guard", "boyz"], "bravo": ["captain", "boyz"],
                                                         "charlie": ["guard", "captain", "mob"]})
    (held,) = events_of(answer, "ObjectivesHeld")
    counted = held["data"]["objectives"]
    counted_whole_and_once(counted, "models")
    assert counted["charlie"]["units"] == ["guard", "captain", "mob"]
    scored = {e["data"]["seat"]: e["data"] for e in events_of(answer, "VictoryPointsScored")}
    assert scored["A"]["vp"] == 10 and scored["A"]["objectives"] == ["alpha", "bravo"] and scored["B"]["vp"] == 0
    assert game.state()["vp"] == {"A": 10, "B": 0}
    assert game.verify()["commands_ok"] is True


@pytest.mark.parametrize("ruleset, status", [("alternating", "falling_back"), ("heresy", "routed")])
def test_MSN_OBJ_1_an_attached_unit_falling_back_or_routed_counts_none_said_as_one_unit(new_game, ruleset, status):
    game, end = at_round_end(new_game, ruleset)
    game.cmd("A", "set_status", unit="guard", status=status, value=True, reason="broke at the table")
    answer = game.cmd(end["seat"], "end_phase", control={"alpha": ["captain", "boyz"]})
    (held,) = events_of(answer, "ObjectivesHeld")
    alpha = held["data"]["objectives"]["alpha"]
    # CORE.DESC.1: the unit is falling back (Routed) if one of its models is: the Captain's model counts none too
    assert alpha["models"] == {"A": 0, "B": 5} and alpha["controlled_by"] == "B"
    why = "falling back" if status == "falling_back" else "Routed"
    assert alpha["uncounted"] == {"guard": why, "captain": why}
    assert f"Alice's Guard and Captain count none, {why}" in held["text"]


@pytest.mark.parametrize("ruleset", ["alternating", "heresy"])
def test_MSN_OBJ_1_a_game_created_before_edition_6_counts_each_part_named_as_it_did(new_game, ruleset, monkeypatch):
    monkeypatch.setattr(editions, "created_under", lambda: {"edition": 5})
    game, end = at_round_end(new_game, ruleset)
    answer = game.cmd(end["seat"], "end_phase", control={"alpha": ["guard", "boyz"], "bravo": ["captain"]})
    counted = events_of(answer, "ObjectivesHeld")[0]["data"]["objectives"]
    assert counted["alpha"]["models"] == {"A": 5, "B": 5} and counted["bravo"]["models"] == {"A": 1, "B": 0}
    assert counted["alpha"]["units"] == ["guard", "boyz"] and counted["bravo"]["units"] == ["captain"]
    assert game.verify()["commands_ok"] is True


def reference_at_scoring(new_game) -> GameClient:
    game = new_game("reference", dice="table", battle_rounds=2, objectives=["alpha", "bravo", "charlie"])
    game.start([unit("guard", 5), captain()], [unit("boyz", 5), unit("mob", 6)])
    until(game, 2, "A", "command")
    return game


def test_EXT_OBJ_1_naming_either_part_of_an_attached_unit_counts_its_oc_whole_and_once(new_game):
    game = reference_at_scoring(new_game)
    (end,) = offered(game, "A", "end_phase")
    assert {"guard", "captain"} <= set(consts(end["schema"]["properties"]["control"]["properties"]["alpha"]))
    answer = game.cmd("A", "end_phase", control={"alpha": ["guard", "boyz"], "bravo": ["captain", "boyz"],
                                                 "charlie": ["guard", "captain", "mob"]})
    (control,) = events_of(answer, "ObjectivesControlled")
    counted = control["data"]["objectives"]
    counted_whole_and_once(counted, "oc")
    (scored,) = events_of(answer, "VictoryPointsScored")
    assert scored["data"]["vp"] == 10 and scored["data"]["objectives"] == ["alpha", "bravo"]
    assert game.state()["vp"] == {"A": 10, "B": 0}
    assert game.verify()["commands_ok"] is True


def test_EXT_OBJ_1_a_game_created_before_edition_6_counts_each_part_named_as_it_did(new_game, monkeypatch):
    monkeypatch.setattr(editions, "created_under", lambda: {"edition": 5})
    game = reference_at_scoring(new_game)
    answer = game.cmd("A", "end_phase", control={"alpha": ["guard", "boyz"], "bravo": ["captain"]})
    counted = events_of(answer, "ObjectivesControlled")[0]["data"]["objectives"]
    assert counted["alpha"]["oc"] == {"A": 5, "B": 5} and counted["bravo"]["oc"] == {"A": 1, "B": 0}
    assert game.verify()["commands_ok"] is True
