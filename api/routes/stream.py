"""Server-Sent Events: every event after Last-Event-ID (or `after`), then live."""
from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator, Callable
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from sse_starlette.sse import EventSourceResponse
from starlette.types import Receive, Scope, Send

from warlog.api.deps import SEQ_MAX, StreamReader, WarlogApp
from warlog.api.errors import READS, Problem
from warlog.api.live import current, follow
from warlog.api.schemas import ref
from warlog.api.wire import Event

router = APIRouter(tags=["reading"], responses=READS)
SEQ = re.compile(r"[0-9]{1,19}")  # digits only: no sign, no spaces, no other script's digits
STREAMED: dict[str, Any] = {"security": [{"bearer": []}, {"token": []}]}  # Authorization: Bearer, or ?token= from a browser
TOKEN = {"name": "token", "in": "query", "required": False, "schema": {"type": "string"},
         "description": "the token, for a browser's EventSource, which cannot send Authorization (a header wins)"}
LAST_EVENT_ID = {"name": "Last-Event-ID", "in": "header", "required": False,
                 "schema": {"type": "string", "pattern": "^[0-9]{1,19}$"},
                 "description": "the seq of the last event received (an EventSource sends it when it reconnects): "
                                "every event after it, then live; it wins over `after`. An integer from 0 to "
                                "2^63-1 (else 422)"}


def sse(model: type[Any], event: str | None, id_is: str) -> dict[int | str, dict[str, Any]]:
    """A stream's 200: Server-Sent Events whose every message carries one `model` as JSON. OpenAPI 3.1 has no
    word for a stream's items, so `x-itemSchema` says it as OpenAPI 3.2's `itemSchema` does."""
    named = f"`event: {event}`, " if event else ""
    item: dict[str, Any] = {
        "type": "object", "required": ["id", "data"], "properties": {
            "id": {"type": "string", "pattern": "^[0-9]+$", "description": id_is},
            "data": {"type": "string", "contentMediaType": "application/json", "contentSchema": ref(model.__name__),
                     "description": f"one {model.__name__}, as JSON"}}}
    if event:
        item["properties"]["event"] = {"const": event}
        item["required"].append("event")
    return {200: {"description": f"Server-Sent Events, each message {named}`id: <{id_is}>` and `data:` one "
                                 f"{model.__name__} as JSON; keep-alives are SSE comments",
                  "content": {"text/event-stream": {
                      "schema": {"type": "string", "description": "the event stream (text/event-stream), followed "
                                                                  "live until the client leaves"},
                      "x-itemSchema": item}}}}


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


@router.get("/games/{game_id}/events/stream", response_class=EventSourceResponse, operation_id="streamEvents",
            responses=sse(Event, None, "the event's seq"), openapi_extra={**STREAMED, "parameters": [TOKEN, LAST_EVENT_ID]},
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
