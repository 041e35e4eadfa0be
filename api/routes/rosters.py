"""Roster files converted to the contract's units, without touching any game."""
from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.concurrency import run_in_threadpool
from pydantic import AfterValidator
from pydantic_core import PydanticCustomError

from warlog.api.deps import no_unknown_query
from warlog.api.errors import problems
from warlog.api.json_body import utf8
from warlog.api.rosters import convert, is_roster, no_reading, readers
from warlog.api.routes.games import ROSTER_BODY, ROSTER_OR_JSON
from warlog.api.wire import RosterConversion, answer
from warlog.api.writing import is_json, read_body
from warlog.domain.rules import registry

router = APIRouter(tags=["games"])


def reads_rosters(name: str | None) -> str | None:
    """A ruleset that reads roster files, judged against the registry when the request comes: any other name is
    refused as JSON Schema's enum refuses it, and a ruleset that reads none (a plugin's that states no roster
    reading) says so."""
    if name is None or name in readers():
        return name
    if name in registry.names():
        raise PydanticCustomError("roster_reading", no_reading(name))
    named = [repr(known) for known in readers()]
    expected = " or ".join([", ".join(named[:-1]), named[-1]] if len(named) > 1 else named)
    raise PydanticCustomError("literal_error", "Input should be {expected}", {"expected": expected})


def roster_enum(schema: dict[str, Any]) -> None:
    """The document lists the rulesets that read roster files when it is built (again when the registry moves)."""
    schema["anyOf"] = [{"enum": list(readers()), "type": "string"}, {"type": "null"}]


RosterRuleset = Annotated[str | None, AfterValidator(reads_rosters), Query(
    description="the ruleset the units are for; default: the one the roster's game system plays as (40k 10th/11th "
                "reference, 8th/9th alternating, Horus Heresy heresy). A ruleset reads roster files when it states "
                "how (its roster reading); one that states none (a plugin's) takes none: 422 naming `ruleset`, its "
                "armies sent as JSON units", json_schema_extra=roster_enum)]


@router.post("/rosters/convert", dependencies=[Depends(no_unknown_query)], summary="Convert a roster file (.rosz, .ros, New Recruit JSON) to units",
             operation_id="convertRoster",
             responses={**answer(RosterConversion, "the units read, and what could not be mapped (with its path)"),
                        **problems(413), **ROSTER_OR_JSON},
             openapi_extra={"requestBody": {"required": True, "content": {"application/octet-stream": ROSTER_BODY}},
                            "security": []})
async def convert_roster(request: Request, ruleset: RosterRuleset = None) -> dict[str, Any]:
    """Answers `{format, ruleset, units: [Unit…], unmapped: [{path, what}]}`; a file that is not a roster, or is
    broken, or misses what the ruleset needs, is 422 naming its path in the roster (`field`)."""
    raw = await read_body(request, request.app.state.settings.max_army_bytes)
    content_type = request.headers.get("content-type")
    if raw and not is_roster(raw, content_type) and is_json(content_type):
        utf8(raw)  # JSON in another encoding is 415, as for every JSON body; any other body is a file, judged as
        # one: a text file or a form is no roster (422, saying what warlog reads), not a wrong media type
    return await run_in_threadpool(convert, raw, ruleset)
