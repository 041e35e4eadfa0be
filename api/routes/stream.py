"""Server-Sent Events: every event after Last-Event-ID (or `after`), then live."""
from __future__ import annotations

import json
import re
from typing import Annotated, Any, AsyncIterator, Callable

from fastapi import APIRouter, Query, Request
from sse_starlette.sse import EventSourceResponse
from starlette.types import Receive, Scope, Send

from warlog.api.deps import SEQ_MAX, StreamReader, WarlogApp
from warlog.api.errors import READS, Problem
from warlog.api.live import current, follow

router = APIRouter(tags=["reading"], responses=READS)
SEQ = re.compile(r"[0-9]{1,19}")  # digits only: no sign, no spaces, no other script's digits


class CountedStream(EventSourceResponse):
    """Gives the token's stream slot back however the stream ends, even when the client leaves
    before the first event (a generator never started runs no `finally`)."""

    def __init__(self, *args: Any, release: Callable[[], None], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.release = release

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.release()


@router.get("/games/{game_id}/events/stream", response_class=EventSourceResponse,
            summary="Server-Sent Events, `id:` = seq; `?token=` for browsers; keep-alives are comments",
            description="Every event after Last-Event-ID (or `after`), then live. Each event is sent once, as "
                        "it was appended (`undone: false`); a later undo or redo arrives as its own event.")
async def stream(caller: StreamReader, warlog: WarlogApp, request: Request,
                 after: Annotated[int | None, Query(ge=0, le=SEQ_MAX)] = None) -> EventSourceResponse:
    seen = await current(warlog, caller)  # before the stream starts: a damaged game is refused (409) here
    last_id = request.headers.get("last-event-id")
    if last_id is not None:
        if not SEQ.fullmatch(last_id) or int(last_id) > SEQ_MAX:
            raise Problem(422, f"Last-Event-ID must be a seq, an integer from 0 to {SEQ_MAX}",
                          field="Last-Event-ID")
        start = int(last_id)
    elif after is not None:
        start = after
    else:
        start = seen.version  # a delayed spectator starts at its horizon
    limits = request.app.state.limits
    await limits.open_stream(caller.token)

    async def events() -> AsyncIterator[dict[str, Any]]:
        async for batch in follow(request, warlog, caller, start):  # spectators: delayed (api/horizon)
            for entry in batch:
                # as appended: each event is sent once, and a later undo or redo arrives as its own event
                sent = {**entry, "undone": False}
                yield {"id": str(entry["seq"]), "data": json.dumps(sent, ensure_ascii=False)}

    settings = request.app.state.settings
    return CountedStream(events(), ping=settings.keepalive_s, release=lambda: limits.close_stream(caller.token))
