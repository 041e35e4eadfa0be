"""The payload types (domain/events.py) say what every event of the stored golden logs holds, written by the code
of their day: each event's data has every key its kind's type requires, no other, each of its type."""
from __future__ import annotations

import pytest

from tests.support.payloads import check_payload, exported
from warlog.domain.rules.registry import find_ruleset


@pytest.mark.parametrize("folder", ["legacy", "pre-typed-core"])
def test_every_stored_event_holds_to_its_kinds_payload_type(folder):
    rows = exported(folder)
    rulesets = {row["game_id"]: row["data"]["ruleset"] for row in rows if row["type"] == "GameCreated"}
    kinds: set[tuple[str, str]] = set()
    for row in rows:
        check_payload(rulesets[row["game_id"]], row["type"], row["data"])
        kinds.add((rulesets[row["game_id"]], row["type"]))
    assert {ruleset for ruleset, _ in kinds} == {"alternating", "reference", "heresy"}
    assert len(kinds) > 60  # the stores play most kinds in every ruleset


def test_a_payload_type_refuses_what_its_kind_never_holds():
    with pytest.raises(AssertionError, match="keys its payload type does not name"):
        check_payload("alternating", "BattleRoundStarted", {"battle_round": 2, "round": 2})
    with pytest.raises(ValueError):  # pydantic's ValidationError: a string is no battle round, strictly
        check_payload("alternating", "BattleRoundStarted", {"battle_round": "2"})
    with pytest.raises(AssertionError, match="no type names"):
        check_payload("reference", "NoSuchEvent", {})
    assert set(find_ruleset("reference").event_payloads) > {"AttackDeclared", "TurnStarted"}
