"""The OpenAPI document clients generate code from: every reference resolves, and every refusal a
route can give is there, as the problem+json it is."""
import json
import re

import pytest


def test_every_schema_reference_in_the_document_resolves(http):
    doc = http.get("/openapi.json").json()
    text = json.dumps(doc)
    refs = set(re.findall(r'"\$ref": "([^"]+)"', text))
    assert refs, "the answers' models are referenced from components"
    assert {ref.rsplit("/", 1)[-1] for ref in refs} <= set(doc["components"]["schemas"])
    assert all(ref.startswith("#/components/schemas/") for ref in refs)


def test_every_refusal_is_documented_as_problem_json(http):
    doc = http.get("/openapi.json").json()
    for path, operations in doc["paths"].items():
        for method, operation in operations.items():
            responses = operation["responses"]
            for status, response in responses.items():
                if int(status) >= 400:
                    assert list(response["content"]) == ["application/problem+json"], (method, path, status)
            if "{game_id}" in path:  # behind a token
                assert {"401", "403", "404", "429"} <= set(responses), (method, path)
            if method == "post":
                assert {"413", "422"} <= set(responses), (method, path)
            if method == "post":  # every body is read as JSON: 415 otherwise
                assert "415" in responses, (method, path)
            if method == "post" and "{game_id}" in path:
                assert {"409", "412"} <= set(responses), (method, path)


def test_the_document_states_the_header_limits_the_writes_enforce(http):
    doc = http.get("/openapi.json").json()
    writes = [(path, ops["post"]) for path, ops in doc["paths"].items() if "{game_id}" in path and "post" in ops]
    assert len(writes) >= 6
    for path, operation in writes:
        headers = {p["name"]: p for p in operation["parameters"] if p["in"] == "header"}
        assert headers["Idempotency-Key"]["schema"] == {"type": "string", "minLength": 1, "maxLength": 255}, path
        # any text is an If-Match: one naming no version, or another than the game's, is 412 (not 422)
        assert headers["If-Match"]["schema"] == {"type": "string"}, path
        assert "412" in headers["If-Match"]["description"] and '`""`' in headers["If-Match"]["description"]


def test_the_document_states_the_game_creation_cap_and_that_the_audit_story_needs_a_filter(http):
    doc = http.get("/openapi.json").json()
    created = doc["paths"]["/games"]["post"]["responses"]
    assert "client address" in created["429"]["description"]
    assert list(created["429"]["content"]) == ["application/problem+json"]
    story = doc["paths"]["/games/{game_id}/audit"]["get"]["responses"]["422"]
    assert "`unit`" in story["description"] and "`seat`" in story["description"]
    (of,) = [p for p in doc["paths"]["/games/{game_id}/audit"]["get"]["parameters"] if p["in"] == "query"]
    assert (of["required"], of["style"], of["explode"]) == (True, "form", True)  # ?unit=…&seat=… on the wire
    from jsonschema import Draft202012Validator
    judge = Draft202012Validator(of["schema"])
    assert [judge.is_valid(v) for v in ({"unit": "x"}, {"seat": "A"}, {"unit": "x", "seat": "B"}, {}, {"seat": "C"})] \
        == [True, True, True, False, False]  # one of them is required, as the service answers 422 without either


def test_options_and_other_methods_on_a_path_of_two_routers_allow_every_method_it_has(http):
    game_id = http.post("/games", json={"ruleset": "alternating", "players": [
        {"seat": "A", "name": "a"}, {"seat": "B", "name": "b"}]}).json()["game_id"]
    for method in ("OPTIONS", "DELETE", "PUT"):
        refused = http.request(method, f"/games/{game_id}/undo")  # GET /undo in reading, POST /undo in play
        assert refused.status_code == 405 and refused.headers["allow"] == "GET, HEAD, POST", method
    assert http.options(f"/games/{game_id}/commands").headers["allow"] == "POST"


def test_a_created_game_links_to_every_route_of_that_game_with_each_of_its_tokens(http):
    doc = http.get("/openapi.json").json()
    links = doc["paths"]["/games"]["post"]["responses"]["201"]["links"]
    routes = {op["operationId"] for path, ops in doc["paths"].items() if path.startswith("/games/{game_id}")
              for op in ops.values()}
    assert {link["operationId"] for link in links.values()} == routes
    for role in ("A", "B", "spectator"):
        for route in routes:
            link = links[f"{route}_as_{role}"]
            assert link["parameters"] == {"path.game_id": "$response.body#/game_id",
                                          "header.Authorization": f"Bearer {{$response.body#/tokens/{role}}}"}


def test_the_select_names_every_field_a_rulesets_select_has_and_whose_each_is(http):
    """One `Select` under the one discriminator: the fields of every ruleset's select, those only one ruleset's
    select has saying which."""
    import dataclasses

    from warlog.domain.rules import registry

    select = http.get("/openapi.json").json()["components"]["schemas"]["Select"]
    for name in registry.names():
        own = registry.table(name).get("select")
        for field in dataclasses.fields(own) if own else ():
            assert field.name in select["properties"], (name, field.name)
    assert select["properties"]["weapons"]["description"].startswith("`alternating` only")
    assert select["properties"]["move"]["description"].startswith("`reference` only")
    assert "description" not in select["properties"]["unit"] and select["required"] == ["type", "unit"]



def test_the_documents_event_kinds_describe_the_stored_logs_and_a_played_game(http):
    """`Event` is one component a kind (discriminated by `type`, the kind's data typed): every event of the golden
    stores, written by earlier code, and of a game played now is valid against it as the document says."""
    from jsonschema import Draft202012Validator

    from tests.support.client import GameClient
    from tests.support.payloads import exported

    doc = http.get("/openapi.json").json()
    event = Draft202012Validator({"$ref": "#/components/schemas/Event", "components": doc["components"]})
    assert set(doc["components"]["schemas"]["Event"]["discriminator"]["mapping"]) >= {"GameCreated", "AttackResolved"}
    game = GameClient(http, "alternating", "server")
    game.start([{"id": "scouts", "name": "Scouts", "keywords": ["INFANTRY"], "models": [
        {"name": "Trooper", "count": 5, "M": 6, "T": 4, "Sv": 4, "W": 1, "Ld": 7, "OC": 1, "BS": 3, "WS": 3, "I": 4,
         "A": 1}]}], [{"id": "boyz", "name": "Boyz", "keywords": ["INFANTRY"], "models": [
        {"name": "Boy", "count": 10, "M": 6, "T": 4, "Sv": 6, "W": 1, "Ld": 7, "OC": 1, "BS": 5, "WS": 3, "I": 2,
         "A": 2}]}])
    played = game.events()
    assert len(played) > 3
    for entry in played:
        errors = [e.message for e in event.iter_errors(entry)]
        assert not errors, (entry["type"], errors[:3])
    for folder in ("legacy", "pre-typed-core"):
        for row in exported(folder):
            data = event.evolve(schema={"$ref": f"#/components/schemas/{row['type']}Data",
                                        "components": doc["components"]})
            errors = [e.message for e in data.iter_errors(row["data"])]
            assert not errors, (folder, row["type"], errors[:3])


@pytest.mark.parametrize("page", ["/docs", "/redoc"])
def test_the_reference_pages_load_every_script_from_the_service_itself(http, page):
    """Issue 28: a table with no internet still reads /docs and /redoc: no script or style from a CDN."""
    html = http.get(page)
    assert html.status_code == 200 and "text/html" in html.headers["content-type"]
    assets = re.findall(r"""(?:src|href)=["']([^"']+\.(?:js|css|png))["']""", html.text)
    assert assets and all(asset.startswith("/") for asset in assets), assets
    for asset in assets:
        assert http.get(asset).status_code == 200, asset
