"""What the served OpenAPI document adds to FastAPI's: the links from a created game to every route of it.

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


def install(app: FastAPI) -> None:
    generate = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            document = generate()  # FastAPI's, which it caches in app.openapi_schema
            document["paths"]["/games"]["post"]["responses"]["201"]["links"] = game_links(document)
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
