"""The OpenAPI document clients generate code from: every reference resolves, and every refusal a
route can give is there, as the problem+json it is."""
import json
import re


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
        pattern = re.compile(headers["If-Match"]["schema"]["pattern"])
        assert [bool(pattern.search(v)) for v in ('"12"', 'W/"12"', "12", "", '""', "*")] == \
            [True, True, True, False, False, False], path
        assert "412" in headers["If-Match"]["description"] and '`""`' in headers["If-Match"]["description"]


def test_the_document_states_the_game_creation_cap_and_that_the_audit_story_needs_a_filter(http):
    doc = http.get("/openapi.json").json()
    created = doc["paths"]["/games"]["post"]["responses"]
    assert "client address" in created["429"]["description"]
    assert list(created["429"]["content"]) == ["application/problem+json"]
    story = doc["paths"]["/games/{game_id}/audit"]["get"]["responses"]["422"]
    assert "`unit`" in story["description"] and "`seat`" in story["description"]


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
