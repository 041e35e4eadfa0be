"""The rules-dispute audit: one event's why, and a unit's or a seat's whole story."""
from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query
from fastapi.concurrency import run_in_threadpool

from warlog.api.deps import SEQ_MAX, Reader, WarlogApp
from warlog.api.errors import READS, Problem
from warlog.api.horizon import seeing, stored_until
from warlog.api.schemas import UrlInt
from warlog.api.sentences import SEAT
from warlog.api.wire import answer
from warlog.api.wire_audit import EventAudit, Story
from warlog.domain.application import Warlog
from warlog.projections.audit import GameLog, audit, story

router = APIRouter(tags=["audit"], responses=READS)


def game_log(warlog: Warlog, caller: Any) -> tuple[GameLog, int]:
    # spectators: delayed (api/horizon); the state only names the game's units and players in the reasons
    seen, state = seeing(warlog, caller, lambda seen: (seen, seen.game.state))
    stored, undone = stored_until(warlog, seen)
    return GameLog(str(caller.game_id), stored, undone, state), seen.version


@router.get("/games/{game_id}/audit/{seq}", summary="Why event SEQ happened", operation_id="auditEvent",
            responses=answer(EventAudit, "the event, the request that made it, its rule, dice, facts and causes"),
            description="The command and the seat that sent it, when; the rule with its RULES.md summary and "
                        "seed file; the dice (faces, re-roll lineage, and for server dice the proof: counter, "
                        "commitment, entropy, derivation, and once the game has ended the seed and whether the "
                        "faces re-derive); the characteristics and attested facts it used; the earlier events it "
                        "depends on (`causes`) and the undos that touched it, each linked.")
async def audit_event(caller: Reader, warlog: WarlogApp,
                      seq: Annotated[int, Path(ge=1, le=SEQ_MAX), UrlInt]) -> dict[str, Any]:
    def build() -> dict[str, Any]:
        log, version = game_log(warlog, caller)
        if seq > version:
            raise Problem(404, f"no event {seq} in this game (its latest is {version})")
        return audit(log, seq)

    return await run_in_threadpool(build)


STORY_OF = {  # `unit` and `seat` as one exploded query object: so the document can say that one of them is required
    "name": "of", "in": "query", "required": True, "style": "form", "explode": True,
    "description": "whose story: `unit=ID`, `seat=A` or `seat=B`, or both (their intersection); at least one",
    "schema": {"type": "object", "additionalProperties": False,  # another parameter is 422, as on every route
               "properties": {"unit": {"type": "string", "maxLength": 200, "description": "a unit id of this game "
                                                                                           "(another is 404)"},
                              "seat": {"type": "string", "enum": ["A", "B"]}},
               "anyOf": [{"required": ["unit"]}, {"required": ["seat"]}]}}


@router.get("/games/{game_id}/audit", summary="A unit's or a seat's whole story (`?unit=ID`, `?seat=A`)",
            description="Every event of the unit (or seat) with its link, every undo request, answer, undo and "
                        "redo that touched them, and every undone roll beside the roll that replaced it "
                        "(`replaced_rolls`). Both filters together give their intersection; neither is 422.",
            openapi_extra={"parameters": [STORY_OF]}, operation_id="getStory",
            responses={**answer(Story, "the unit's (or seat's) events, the undos that touched them, replaced rolls"),
                       422: {**READS[422], "description": "neither `unit` nor `seat` given, or a malformed one"}})
async def audit_story(caller: Reader, warlog: WarlogApp,
                      unit: Annotated[str | None, Query(max_length=200, include_in_schema=False)] = None,
                      seat: Annotated[str | None, Query(pattern=SEAT, include_in_schema=False)] = None
                      ) -> dict[str, Any]:
    if unit is None and seat is None:
        raise Problem(422, "give unit=ID or seat=A|B")

    def build() -> dict[str, Any]:
        log, _ = game_log(warlog, caller)
        known = {u["id"] for e in log.ordered if e["type"] == "ArmyMustered" for u in e["data"]["units"]}
        if unit is not None and unit not in known:
            raise Problem(404, f"no unit {unit!r} in this game")
        return story(log, unit=unit, seat=seat)

    return await run_in_threadpool(build)
