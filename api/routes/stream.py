"""Server-Sent Events: every event after Last-Event-ID (or `after`), then live."""
from __future__ import annotations

import json
from typing import Annotated, Any, AsyncIterator

from fastapi import APIRouter, Query, Request
from fastapi.concurrency import run_in_threadpool
from sse_starlette.sse import EventSourceResponse

from api.deps import StreamReader, WarlogApp
from api.errors import Problem

router = APIRouter(tags=["reading"])


@router.get("/games/{game_id}/events/stream", response_class=EventSourceResponse,
            summary="Server-Sent Events, `id:` = seq; `?token=` for browsers; keep-alives are comments")
async def stream(caller: StreamReader, warlog: WarlogApp, request: Request,
                 after: Annotated[int | None, Query(ge=0)] = None) -> EventSourceResponse:
    last_id = request.headers.get("last-event-id")
    if last_id is not None:
        try:
            start = int(last_id)
        except ValueError:
            raise Problem(422, "Last-Event-ID must be a seq") from None
    elif after is not None:
        start = after
    else:
        start = (await run_in_threadpool(warlog.read, caller.game_id)).version
    limits, feed = request.app.state.limits, request.app.state.feed
    limits.open_stream(caller.token)

    async def events() -> AsyncIterator[dict[str, Any]]:
        last = start
        try:
            while not await request.is_disconnected():
                page = await run_in_threadpool(warlog.entries, caller.game_id, last, 500)
                for entry in page:
                    last = entry["seq"]
                    yield {"id": str(entry["seq"]), "data": json.dumps(entry, ensure_ascii=False)}
                if len(page) < 500:
                    await feed.wait(caller.game_id)
        finally:
            limits.close_stream(caller.token)

    settings = request.app.state.settings
    return EventSourceResponse(events(), ping=settings.keepalive_s)
