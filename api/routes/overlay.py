"""The compact overlay a stream draws, and its own live feed."""
from __future__ import annotations

import json
from collections.abc import AsyncIterator
from functools import partial
from typing import Any

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from sse_starlette.sse import EventSourceResponse

from warlog.api.deps import Reader, StreamReader, WarlogApp
from warlog.api.errors import READS
from warlog.api.horizon import Horizon, seeing, state_of
from warlog.api.live import current, follow
from warlog.api.routes.stream import STREAMED, TOKEN, CountedStream, sse
from warlog.api.wire import Overlay, answer
from warlog.domain.application import Warlog
from warlog.projections.overlay import overlay_view

router = APIRouter(tags=["overlay"], responses=READS)
DESCRIPTION = ("Round, phase, sub-phase, whose go (`whose_go`, null when either seat may act), pass points, "
               "CP, the last roll with its faces, and the units each seat has lost. A spectator token of a "
               "game with `options.spectator_delay_s` sees it that many seconds late.")


def overlay_at(warlog: Warlog, seen: Horizon) -> dict[str, Any]:
    state, version = state_of(warlog, seen)
    return overlay_view(state, version)


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
