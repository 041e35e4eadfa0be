"""The one list of rulesets: every built-in one is there, first, each with the title and line a player reads."""
from fastapi.testclient import TestClient

from warlog.api.app import create_app
from warlog.domain.rules import registry


def test_the_built_in_rulesets_come_first_each_with_a_title_and_a_summary():
    assert registry.names()[:3] == registry.BUILT_IN
    for name in registry.BUILT_IN:
        ruleset = registry.find_ruleset(name)
        assert ruleset.title and ruleset.summary, name


def test_the_document_offers_every_ruleset_by_name_and_says_what_each_plays_like():
    document = TestClient(create_app()).get("/openapi.json").json()
    field = document["components"]["schemas"]["GameCreate"]["properties"]["ruleset"]
    assert field["enum"] == list(registry.names())
    for name in registry.BUILT_IN:
        assert f"`{name}`, {registry.find_ruleset(name).title}" in field["description"]
