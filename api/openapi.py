"""What the served OpenAPI document adds to FastAPI's: the components of every body and answer, the bearer
tokens, the links from a created game to every route of it, and the Known-Head header every route of a game
takes.

The routes read their own bodies and answer JSON the domain builds (so that the wire stays as CONTRACT.md fixes
it), so FastAPI knows no model of either: api/schemas.py (requests, commands) and api/wire.py (answers) state
them, and this module writes them into the document as components the operations refer to.

`POST /games` answers a game id and three tokens; every route under `/games/{game_id}` takes that id
in its path and one of those tokens as `Authorization: Bearer`. OpenAPI links say so, per token, so
that clients (and stateful API testers) can follow a created game without being told by hand.
"""
from __future__ import annotations

from functools import cache
from typing import Any

from fastapi import FastAPI
from pydantic import TypeAdapter

from warlog.api import errors, schemas, wire, wire_audit
from warlog.api.routes.pages import QrRequest  # a page helper's body, kept beside its route
from warlog.domain.rules import registry

ROLES = ("A", "B", "spectator")
SECURITY_SCHEMES = {
    "bearer": {"type": "http", "scheme": "bearer", "description": (
        "a token POST /games answered: seat A's or B's (reads the game, acts for that seat) or the spectator's "
        "(reads only). Tokens of one game open nothing in another (403)")},
    "token": {"type": "apiKey", "in": "query", "name": "token", "description": (
        "the same token as `?token=`, for the streams and the overlay page only (a browser's EventSource cannot "
        "send headers)")}}
BEARER: list[dict[str, list[str]]] = [{"bearer": []}]  # the document's default: every operation but the anonymous ones (`security: []`)


def components() -> dict[str, Any]:
    """Every body and answer the document names: the request models, the commands and the answers."""
    return {**schemas.models_components((*schemas.REQUESTS, QrRequest, *wire.ANSWERS, *wire_audit.ANSWERS)),
            **schemas.command_components()}


def game_links(document: dict[str, Any]) -> dict[str, Any]:
    """The 201 links of POST /games: one per route of a game and token."""
    links: dict[str, Any] = {}
    for path, operations in document["paths"].items():
        if not path.startswith("/games/{game_id}"):
            continue
        for method, operation in operations.items():
            for role in ROLES:
                links[f"{operation['operationId']}_as_{role}"] = {
                    "operationId": operation["operationId"],
                    "parameters": {"path.game_id": "$response.body#/game_id",
                                   "header.Authorization": f"Bearer {{$response.body#/tokens/{role}}}"},
                    "description": f"{method.upper()} {path} for the created game, with the {role} token"}
    return links


KNOWN_HEAD = {
    "name": "Known-Head", "in": "header", "required": False,
    "schema": {"type": "string", "pattern": "^[1-9][0-9]{0,17}:[0-9a-f]{64}$"},
    "description": "`<seq>:<hash>`: the newest event this seat was shown (the table app sends it on every request). "
                   "The log must still hold it (RULES.md SVC.DAMAGED): when it ends before that seq, or has another "
                   "event there, the game is damaged from then on (409 SVC.DAMAGED, `damage` truncated or head; "
                   "GET /verify reports it). Malformed: 422. A spectator's is not judged."}


def known_head(document: dict[str, Any]) -> None:
    """Every operation of a game takes a seat's Known-Head (api/deps.py judges it for all of them at once)."""
    for path, operations in document["paths"].items():
        if path.startswith("/games/{game_id}"):
            for operation in operations.values():
                operation.setdefault("parameters", []).append(KNOWN_HEAD)


def failures(document: dict[str, Any]) -> None:
    """Any request may meet a failure of the service itself: 500, as problem+json (api/logging.py RequestLog)."""
    for operations in document["paths"].values():
        for operation in operations.values():
            operation["responses"].setdefault("500", errors.problems(500)[500])


def plain_references(document: dict[str, Any]) -> None:
    """An answer's schema that names a component is that component alone. FastAPI writes the schema of a route's
    return annotation (`dict[str, Any]`: an open object) and then merges the documented one into it; the route
    keeps its annotation, whose serializer is the one the wire has always had."""
    for operations in document["paths"].values():
        for operation in operations.values():
            for response in operation.get("responses", {}).values():
                for media in response.get("content", {}).values():
                    schema = media.get("schema", {})
                    if "$ref" in schema:
                        media["schema"] = {"$ref": schema["$ref"]}


@cache
def payload_schema(payload: type) -> tuple[dict[str, Any], dict[str, Any]]:
    """A kind's payload type (domain/events.py) as JSON Schema (the keys it names, and no other), and the
    components of the typed values it holds (`ModelLines`, ...)."""
    schema = TypeAdapter(payload).json_schema(ref_template="#/components/schemas/{model}")
    schema.pop("title", None)
    parts = {name: {**part, "additionalProperties": False} for name, part in schema.pop("$defs", {}).items()}
    return {**schema, "additionalProperties": False}, parts


def typed_events(document: dict[str, Any]) -> None:
    """`Event` (and the audit's `StoryEvent`, an event with its link) as the kinds the registered rulesets log, one
    component each (`EventUnitSelected`: `type` that kind, `data` its payload, `UnitSelectedData`), told apart by
    `type` (a discriminator), so that a generated client reads every event's data as its kind's typed value. The
    kinds are the registry's (a plugin's own included)."""
    schemas = document["components"]["schemas"]
    kinds: dict[str, type] = {}
    for name in registry.names():
        kinds.update(registry.find_ruleset(name).event_payloads)
    for kind in sorted(kinds):
        schema, parts = payload_schema(kinds[kind])
        schemas.update(parts)
        schemas[f"{kind}Data"] = {**schema, "description": f"what a {kind} event records"}
    for component in ("Event", "StoryEvent"):
        base, mapping = schemas[component], {}
        for kind in sorted(kinds):
            properties = {**base["properties"], "data": {"$ref": f"#/components/schemas/{kind}Data"},
                          "type": {"type": "string", "const": kind, "description": "the event type"}}
            schemas[f"{component}{kind}"] = {**base, "title": f"{component}{kind}", "properties": properties}
            mapping[kind] = f"#/components/schemas/{component}{kind}"
        schemas[component] = {"title": component, "description": base.get("description", ""),
                              "oneOf": [{"$ref": ref} for ref in mapping.values()],
                              "discriminator": {"propertyName": "type", "mapping": mapping}}
    schemas.pop("EventData", None)


def install(app: FastAPI) -> None:
    """The document is built when first asked for and kept; a ruleset registered or unregistered since (an
    installed package's, a test's) builds it again, so its name and its commands are in it."""
    generate = app.openapi
    built_at: list[int] = []  # the registry's generation the kept document was built at

    def openapi() -> dict[str, Any]:
        if built_at != [registry.generation()]:
            app.openapi_schema = None
        if app.openapi_schema is not None:
            return app.openapi_schema
        registry.load()  # the document built once a registry generation (FastAPI keeps it in app.openapi_schema)
        built_at[:] = [registry.generation()]
        document = generate()  # FastAPI's, which it caches in app.openapi_schema
        document.setdefault("components", {}).setdefault("schemas", {}).update(components())
        typed_events(document)
        document["components"]["securitySchemes"] = SECURITY_SCHEMES
        document["security"] = BEARER
        plain_references(document)
        failures(document)
        document["paths"]["/games"]["post"]["responses"]["201"]["links"] = game_links(document)
        known_head(document)
        return document

    app.openapi = openapi  # type: ignore[method-assign]
