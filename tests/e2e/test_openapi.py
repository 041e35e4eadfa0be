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
