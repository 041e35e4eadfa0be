"""Games, tokens and armies."""
from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import ValidationError

from api.deps import Seat, WarlogApp
from api.errors import WRITES, problems
from api.routes.commands import WRITE_HEADERS
from api.schemas import ArmyIn, GameCreate, GamePublic, body_schema, parse_army, parse_json
from api.writing import is_json, not_json, now, read_body, write

router = APIRouter(tags=["games"])
CREATION_LIMIT = ("too many games created from this client address (`games_per_minute`, with a burst of "
                  "`games_burst`): Retry-After says when to come back")


@router.post("/games", status_code=201, response_model=GamePublic,
             responses={**problems(413, 415, 422), 429: {**problems(429)[429], "description": CREATION_LIMIT}},
             openapi_extra={"requestBody": {"required": True, "content": {"application/json": {
                 "schema": body_schema(GameCreate)}}}},
             summary="Create a game: three tokens and, with server dice, the dice commitment")
async def create_game(warlog: WarlogApp, request: Request) -> dict:
    # judged before the body is read: a refused creation costs nothing
    await request.app.state.limits.create_game(request.client.host if request.client else "unknown")
    raw = await read_body(request, request.app.state.settings.max_command_bytes)
    content_type = request.headers.get("content-type")
    if raw and not is_json(content_type):
        raise not_json(content_type)
    try:
        body = GameCreate.model_validate(parse_json(raw))  # one JSON reading for every body: duplicate keys are 422
    except ValidationError as error:
        raise RequestValidationError(error.errors(include_url=False)) from None
    players = {p.seat: p.name for p in body.players}
    created = await run_in_threadpool(warlog.create_game, body.ruleset, players, body.dice,
                                      body.options.model_dump(), now())
    request.state.log_context = {"game_id": created["game_id"]}
    return created


@router.post("/games/{game_id}/armies", summary="Muster (or replace) this seat's army until the game starts",
             openapi_extra={**WRITE_HEADERS, "requestBody": {"required": True, "content": {"application/json": {
                 "schema": body_schema(ArmyIn)}}}}, responses=WRITES)
async def muster(caller: Seat, warlog: WarlogApp, request: Request) -> JSONResponse:
    settings = request.app.state.settings

    def call(body, at, key, digest, if_match):
        return warlog.muster(caller.game_id, caller.role, lambda: parse_army(body()), at, key, digest, if_match)

    return await write(request, caller, settings.max_army_bytes, call, "armies")
