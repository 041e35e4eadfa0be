"""The compact overlay a stream draws, and its own live feed."""
from __future__ import annotations

import json
from collections.abc import AsyncIterator
from functools import partial
from typing import Any
from uuid import UUID

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from sse_starlette.sse import EventSourceResponse

from warlog.api.deps import Reader, StreamReader, WarlogApp
from warlog.api.errors import READS
from warlog.api.horizon import PAGE, Horizon, seeing, state_of
from warlog.api.live import current, follow
from warlog.api.routes.stream import STREAMED, TOKEN, CountedStream, sse
from warlog.api.wire import Overlay, answer
from warlog.domain.application import Warlog
from warlog.domain.game import logged
from warlog.projections.overlay import overlay_view

router = APIRouter(tags=["overlay"], responses=READS)
DESCRIPTION = ("Round, phase, sub-phase, whose go (`whose_go`, null when either seat may act), pass points, "
               "CP and VP (where the game scores them) per seat, the last roll with its faces, their outcomes, "
               "what it needed, its successes and its sentence, the units each seat has lost (ids and names), and "
               "the result with its sentence once the game has ended. A spectator token of a game with "
               "`options.spectator_delay_s` sees it that many seconds late.")


def overlay_at(warlog: Warlog, seen: Horizon) -> dict[str, Any]:
    state, version = state_of(warlog, seen)
    return overlay_view(state, version, ended_text(warlog, seen.game.id, version) if state.result else None)


def ended_text(warlog: Warlog, game_id: UUID, version: int) -> str | None:
    """The text of the newest `GameEnded` up to `version`: the event that ended the game as it stands (undoing
    an ending restores a game under way, so a game ended stands on its newest ending)."""
    lte = version
    while lte >= 1:
        page = [logged(e) for e in warlog.repository.event_store.get(game_id, lte=lte, desc=True, limit=PAGE)]
        ended = next((e.entry["seq"] for e in page if e.entry["type"] == "GameEnded"), None)
        if ended is not None:
            told = warlog.told(game_id, ended - 1, 1)
            return str(told[0][0]["text"]) if told else None
        if len(page) < PAGE:
            return None
        lte = page[-1].entry["seq"] - 1
    return None


@router.get("/games/{game_id}/overlay", summary="The compact overlay view", description=DESCRIPTION,
            operation_id="getOverlay", responses=answer(Overlay, "what the overlay draws now"))
async def overlay(caller: Reader, warlog: WarlogApp) -> dict[str, Any]:
    return await run_in_threadpool(seeing, warlog, caller, partial(overlay_at, warlog))


@router.get("/games/{game_id}/overlay/stream", response_class=EventSourceResponse,
            summary="Server-Sent Events: the overlay now, then a new one whenever events come in (`id:` = version)",
            description=DESCRIPTION + " `?token=` for browsers; keep-alives are comments.",
            operation_id="streamOverlay", responses=sse(Overlay, "overlay", "the game's version"),
            openapi_extra={**STREAMED, "parameters": [TOKEN]})
async def overlay_stream(caller: StreamReader, warlog: WarlogApp, request: Request) -> EventSourceResponse:
    seen = await current(warlog, caller)
    limits = request.app.state.limits
    await limits.open_stream(caller.token)

    def message(view: dict[str, Any]) -> dict[str, Any]:
        return {"id": str(view["version"]), "event": "overlay", "data": json.dumps(view, ensure_ascii=False)}

    async def overlays() -> AsyncIterator[dict[str, Any]]:
        yield message(await run_in_threadpool(seeing, warlog, caller, partial(overlay_at, warlog)))
        async for _batch in follow(request, warlog, caller, seen.version):
            yield message(await run_in_threadpool(seeing, warlog, caller, partial(overlay_at, warlog)))

    settings = request.app.state.settings
    return CountedStream(overlays(), ping=settings.keepalive_s, release=lambda: limits.close_stream(caller.token))
