"""What the served OpenAPI document adds to FastAPI's: the links from a created game to every route of it, and
the Known-Head header every route of a game takes.

`POST /games` answers a game id and three tokens; every route under `/games/{game_id}` takes that id
in its path and one of those tokens as `Authorization: Bearer`. OpenAPI links say so, per token, so
that clients (and stateful API testers) can follow a created game without being told by hand.
"""
from __future__ import annotations

from typing import Any

from fastapi import FastAPI

ROLES = ("A", "B", "spectator")


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
    "schema": {"type": "string", "pattern": "^[1-9][0-9]{0,18}:[0-9a-f]{64}$"},
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


def install(app: FastAPI) -> None:
    generate = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            document = generate()  # FastAPI's, which it caches in app.openapi_schema
            document["paths"]["/games"]["post"]["responses"]["201"]["links"] = game_links(document)
            known_head(document)
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
