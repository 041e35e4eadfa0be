"""Games, tokens and armies."""
from __future__ import annotations

import hashlib
from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse
from pydantic import ValidationError

from warlog.api.deps import Seat, no_unknown_query
from warlog.api.errors import WRITES, problems
from warlog.api.json_body import parse_json
from warlog.api.rosters import convert, is_roster, sniff
from warlog.api.routes.commands import WRITE_HEADERS
from warlog.api.schemas import GameCreate, body_context, parse_army, request_body
from warlog.api.sentences import invalid
from warlog.api.wire import CreatedGame, MusterAnswer, answer
from warlog.api.writing import Body, Endpoint, is_json, media_type, not_json, now, parsed_body, read_body, write
from warlog.domain.writes import Muster, Sent, Write

router = APIRouter(tags=["games"])
GAME_EXAMPLE = {"ruleset": "alternating", "dice": "server", "options": {},  # CONTRACT.md's
                "players": [{"seat": "A", "name": "Alice"}, {"seat": "B", "name": "Bob"}]}
ARMY_EXAMPLE = {"units": [{  # CONTRACT.md's Unit
    "id": "scouts-1", "name": "Scout Squad", "keywords": ["INFANTRY"], "abilities": ["ATSKNF"],
    "models": [{"name": "Scout", "count": 5, "M": 6, "T": 4, "Sv": 4, "InSv": None, "W": 1, "Ld": 7, "OC": 1, "BS": 3,
                "WS": 3, "I": 4, "A": 1, "hull_points": None}],
    "weapons": [{"name": "Boltgun", "type": "ranged", "range": 24, "A": "2", "skill": 3, "S": 4, "AP": 0, "D": "1",
                 "kind": "rapid_fire", "keywords": ["RAPID FIRE 1"]}],
    "transport": {"capacity": 10, "fire_points": 0}, "embarked_in": None, "in_reserves": False, "leader_of": None,
    "statuses": [], "engaged_with": [], "points": 70}]}
CREATION_LIMIT = ("too many games created from this client address (`games_per_minute`, with a burst of "
                  "`games_burst`): Retry-After says when to come back")


@router.post("/games", status_code=201, dependencies=[Depends(no_unknown_query)], response_model=CreatedGame,
             operation_id="createGame",
             responses={201: {"description": "the game: its id, its three tokens and, with server dice, the dice "
                                             "commitment"},
                        **problems(413, 415, 422), 429: {**problems(429)[429], "description": CREATION_LIMIT}},
             openapi_extra={**request_body("GameCreate", GAME_EXAMPLE), "security": []},
             summary="Create a game: three tokens and, with server dice, the dice commitment")
async def create_game(request: Request) -> dict[str, Any]:
    # judged before the body is read: a refused creation costs nothing
    await request.app.state.limits.create_game(request.client.host if request.client else "unknown")
    raw = await read_body(request, request.app.state.settings.max_command_bytes)
    content_type = request.headers.get("content-type")
    if raw and not is_json(content_type):
        raise not_json(content_type)
    sent = parse_json(raw)  # one JSON reading for every body: duplicate keys are 422
    try:
        body = GameCreate.model_validate(sent)
    except ValidationError as error:
        raise invalid(error, sent, body_context(GameCreate, "A game", "a game")) from None
    players = {p.seat: p.name for p in body.players}
    created: dict[str, Any] = await run_in_threadpool(request.app.state.shards.create_game, body.ruleset, players, body.dice,
                                      body.options.as_created(), now())
    request.state.log_context = {"game_id": created["game_id"]}
    return created


ROSTER_BODY = {"schema": {"type": "string", "format": "binary", "description": (
    "a roster file as the raw body (CONTRACT.md \"Roster import\"): a BattleScribe .rosz (known by its PK "
    "magic bytes, whatever the Content-Type), a .ros (XML) or New Recruit JSON (a top-level \"roster\"). The "
    "answer adds `import`: {format, units (the unit ids), unmapped: [{path, what}]}")}}
ARMY_ANSWER = answer(MusterAnswer, "ArmyMustered: the events appended; from a roster file also `import`, what "
                                   "was read and what could not be mapped (with its path in the roster)")
ROSTER_OR_JSON: dict[int | str, dict[str, Any]] = {415: {**problems(415)[415], "description": "a body that is neither a roster file (sent as "
                                                             "application/octet-stream, or known by its bytes: "
                                                             ".rosz by its PK bytes, XML, JSON with a top-level "
                                                             "\"roster\") nor JSON in UTF-8 sent as Content-Type: "
                                                             "application/json"},
                  422: {**problems(422)[422], "description": "malformed: the detail says what to fix (`field` names "
                                                             "it); a file that is not a roster, or a broken one, "
                                                             "names its path in the roster"}}


ROSTER_TYPE = "application/octet-stream"  # the media type the document gives a roster file


def roster_reader(raw: bytes, keyed: bool, content_type: str | None) -> Body:
    """A roster file is the one body `/armies` takes that is not a JSON army: kept as its bytes (and
    compared byte for byte for Idempotency-Key), converted when the write is judged. A zip or XML is one
    whatever its Content-Type; JSON is one when its top level holds a "roster" object. Bytes sent as
    application/octet-stream are read as a roster file whatever they hold: one that is no roster (none at all
    included) is 422 naming what it is not (CONTRACT.md "Roster import"), not 415."""
    if media_type(content_type) == ROSTER_TYPE or (raw and (
            sniff.encoding(raw) in ("rosz", "ros") or (not is_json(content_type) and is_roster(raw, content_type)))):
        return Body(RosterFile(raw), hashlib.sha256(b"roster\n" + raw).hexdigest() if keyed else "")
    body = parsed_body(raw, keyed, content_type)
    if isinstance(body.value, dict) and isinstance(body.value.get("roster"), dict):
        return Body(RosterFile(raw), body.digest)
    return body


class RosterFile(bytes):
    """The raw bytes of a roster body, told apart from a parsed JSON army."""


@router.post("/games/{game_id}/armies", summary="Muster (or replace) this seat's army until the game starts: "
                                                 "a JSON army, or a roster file (.rosz, .ros, New Recruit JSON)",
             operation_id="musterArmy",
             openapi_extra={**WRITE_HEADERS, **request_body("Army", ARMY_EXAMPLE, **{ROSTER_TYPE: ROSTER_BODY})},
             responses={**WRITES, **ROSTER_OR_JSON, **ARMY_ANSWER})
async def muster(caller: Seat, request: Request) -> JSONResponse:
    extra: dict[str, Any] = {}  # a roster's import report, beside the answer's version and events

    def army(sent: Sent, body: Any, ruleset: str) -> Write:
        if isinstance(body, RosterFile):
            imported = convert(body, ruleset)
            extra["import"] = {"format": imported["format"], "units": [u["id"] for u in imported["units"]],
                               "unmapped": imported["unmapped"]}
            body = {"units": imported["units"]}
        return Muster(sent, parse_army(body))

    endpoint = Endpoint("armies", army, roster_reader, extra, renamed)
    return await write(request, caller, request.app.state.settings.max_army_bytes, endpoint)


def renamed(answer: dict[str, Any]) -> dict[str, Any]:
    """CONTRACT.md "Unit ids are unique in a game": the ids of this army the other army already used, and what
    each was mustered as, read off the ArmyMustered event (so a replayed answer says it too); {} when none."""
    return {"renamed": next((e["data"].get("renamed", {}) for e in answer["events"] if e["type"] == "ArmyMustered"),
                            {})}
