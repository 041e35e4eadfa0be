"""Roster files converted to the contract's units, without touching any game."""
from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Depends, Query, Request
from fastapi.concurrency import run_in_threadpool

from warlog.api.deps import no_unknown_query
from warlog.api.errors import problems
from warlog.api.rosters import convert, is_roster
from warlog.api.routes.games import ROSTER_BODY, ROSTER_OR_JSON, ROSTER_TYPE
from warlog.api.schemas import utf8
from warlog.api.wire import RosterConversion, answer
from warlog.api.writing import is_json, media_type, not_json, read_body

router = APIRouter(tags=["games"])


@router.post("/rosters/convert", dependencies=[Depends(no_unknown_query)], summary="Convert a roster file (.rosz, .ros, New Recruit JSON) to units",
             operation_id="convertRoster",
             responses={**answer(RosterConversion, "the units read, and what could not be mapped (with its path)"),
                        **problems(413), **ROSTER_OR_JSON},
             openapi_extra={"requestBody": {"required": True, "content": {"application/octet-stream": ROSTER_BODY}},
                            "security": []})
async def convert_roster(request: Request, ruleset: Literal["reference", "alternating", "heresy"] | None = Query(
        None, description="the ruleset the units are for; default: the one the roster's game system plays as "
                          "(40k 10th/11th reference, 8th/9th alternating, Horus Heresy heresy)")) -> dict[str, Any]:
    """Answers `{format, ruleset, units: [Unit…], unmapped: [{path, what}]}`; a file that is not a roster, or is
    broken, or misses what the ruleset needs, is 422 naming its path in the roster (`field`)."""
    raw = await read_body(request, request.app.state.settings.max_army_bytes)
    content_type = request.headers.get("content-type")
    if raw and not is_roster(raw, content_type) and media_type(content_type) != ROSTER_TYPE:
        if not is_json(content_type):
            raise not_json(content_type)  # neither a roster file nor JSON (which is then refused as no roster)
        utf8(raw)  # JSON in another encoding is 415, as for every JSON body
    return await run_in_threadpool(convert, raw, ruleset)
