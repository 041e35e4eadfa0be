"""The one path every write takes: size limit, Idempotency-Key, If-Match,
then the application; refusals are stored for replay like answers."""
from __future__ import annotations

import asyncio
import hashlib
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

from eventsourcing.persistence import IntegrityError
from fastapi import Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse

from warlog.api.deps import Caller
from warlog.api.errors import Problem, problem_body, respond, ruling_problem
from warlog.api.schemas import parse_json
from warlog.domain.application import Answer, Conflict, Deferred, NeedsStore, deferring
from warlog.domain.chain import canonical
from warlog.domain.rulings import Malformed, Ruling


def now() -> str:
    """The event clock: UTC, milliseconds, Z."""
    return datetime.now(UTC).replace(tzinfo=None).isoformat(timespec="milliseconds") + "Z"


def if_match_version(request: Request) -> int | str | None:
    """The version If-Match names; text naming none is kept and refused (412) after the body is judged."""
    value = request.headers.get("if-match")
    if value is None:
        return None
    text = value.strip().removeprefix("W/").strip('"')
    try:
        return int(text)
    except ValueError:
        return value


async def read_body(request: Request, limit: int) -> bytes:
    """The body, refused (413) as soon as it passes `limit`, whatever Content-Length claims.

    Not FastAPI's `max_body_size`: that one answers a body announced too large with a plain-text 413
    even when the token was refused first, and the contract judges the token first, in problem+json."""
    length = request.headers.get("content-length")
    if length and length.isdigit() and int(length) > limit:
        raise Problem(413, f"the body is larger than {limit} bytes")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise Problem(413, f"the body is larger than {limit} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


def media_type(content_type: str | None) -> str:
    """The media type of a Content-Type, without its parameters, in lower case ("" for none)."""
    return (content_type or "").split(";", 1)[0].strip().lower()


def is_json(content_type: str | None) -> bool:
    """application/json, or a structured `+json` type such as application/vnd.x+json, with no charset but
    UTF-8 (RFC 8259: JSON is UTF-8; the media type has no charset parameter, and one naming UTF-8 is let pass)."""
    media, parameters = media_type(content_type), (content_type or "").partition(";")[2]
    if not (media == "application/json" or (media.startswith("application/") and media.endswith("+json"))):
        return False
    for parameter in parameters.split(";"):
        name, _, value = parameter.partition("=")
        if name.strip().lower() == "charset" and value.strip().strip('"').lower() not in ("utf-8", "utf8"):
            return False
    return True


def not_json(content_type: str | None) -> Problem:
    sent = f"Content-Type {content_type!r}" if content_type else "no Content-Type"
    return Problem(415, f"send the body as Content-Type: application/json, in UTF-8 (got {sent})")


def parsed_body(raw: bytes, keyed: bool, content_type: str | None = "application/json"
                ) -> tuple[Callable[[], Any], str]:
    """(a thunk giving the JSON body or raising its 415/422, the digest Idempotency-Key compares):
    bodies are compared as canonical JSON, or byte for byte (with their media type) when they are not
    JSON. An empty body is no body (None), whatever its Content-Type. Without an Idempotency-Key nothing
    is compared, and the digest is left empty."""
    refusal: Exception | None = None
    body: Any = None
    if raw and not is_json(content_type):
        refusal, raw = not_json(content_type), f"{content_type}\n".encode("latin-1") + raw
    else:
        try:
            body = parse_json(raw)
        except (Ruling, Problem) as error:  # 422, or 415 for JSON not in UTF-8
            refusal = error
    if refusal is not None:
        def refused() -> Any:
            raise refusal
        return refused, hashlib.sha256(raw).hexdigest() if keyed else ""
    return (lambda: body), hashlib.sha256(canonical(body).encode()).hexdigest() if keyed else ""


def no_body(endpoint: str) -> Callable[[Any], None]:
    """Undo, redo and their answers take no body: none, `null` or `{}`; anything else is 422."""
    def judge(body: Any) -> None:
        if body not in (None, {}):
            raise Malformed(f"{endpoint} takes no body: send none, or {{}}")
    return judge


class Turns:
    """This process's writes of one game take turns on the event loop while their appends are awaited
    (striped, as the application's thread locks are: a bounded set, however many game ids). The locks
    belong to the loop that serves; an app served again on another loop (a test's second client) gets
    new ones."""

    def __init__(self, stripes: int = 64) -> None:
        self._stripes = stripes
        self._loop: asyncio.AbstractEventLoop | None = None
        self._locks: list[asyncio.Lock] = []

    def of(self, game_id: UUID) -> asyncio.Lock:
        loop = asyncio.get_running_loop()
        if loop is not self._loop:
            self._loop, self._locks = loop, [asyncio.Lock() for _ in range(self._stripes)]
        return self._locks[game_id.int % self._stripes]


async def deferred_write(request: Request, game_id: UUID, call: Callable[[], Any]) -> Answer:
    """The "deferred" write mode (Settings.write_mode): the write judged on the loop (in a worker thread
    when it must first read the store: the game not cached, or a refusal to judge again on the latest),
    its events appended by the shard's AsyncAppends, a lost race judged again on the store's latest game,
    up to five times, then 409 SVC.CONFLICT."""
    def judged(on_loop: bool) -> Any:
        with deferring(on_loop):
            return call()

    try:
        answer = judged(True)
    except NeedsStore:
        answer = await run_in_threadpool(judged, False)
    for attempt in range(5):
        if not isinstance(answer, Deferred):
            return answer
        try:
            await request.app.state.appends[id(answer.app)].insert(answer.stored_events(), answer.head)
        except IntegrityError:
            await asyncio.sleep(0.01 * (attempt + 1))
            answer = await run_in_threadpool(answer.again)  # the store's latest is loaded first
            continue
        return await run_in_threadpool(answer.appended) if answer.snapshot_due() else answer.appended()
    raise Conflict.lost_race()


async def write(request: Request, caller: Caller, limit: int,
                call: Callable[[Any, str, str | None, str, int | str | None], Answer], endpoint: str,
                reader: Callable[[bytes, bool, str | None], tuple[Callable[[], Any], str]] = parsed_body
                ) -> JSONResponse:
    """`call(body_json_thunk, at, key, digest, if_match)` runs in a worker thread. An Idempotency-Key
    belongs to one `endpoint` of its game and token: the same key on another endpoint is 422. `reader`
    turns the raw body into (thunk, digest); `/armies` gives one that also takes roster files."""
    raw = await read_body(request, limit)
    key = request.headers.get("idempotency-key")
    body, digest = reader(raw, key is not None, request.headers.get("content-type"))
    store = request.app.state.refusals
    game = str(caller.game_id)
    if key is not None:
        if not key or len(key) > 255:
            raise Problem(422, "Idempotency-Key must be 1..255 characters")
        refused = await store.get(game, caller.role, key)
        if refused is not None:
            if refused[3] not in (None, endpoint):  # None: stored before refusals named their endpoint
                return respond(422, problem_body(422, f"this Idempotency-Key was used on {refused[3]}; a key "
                                                      "belongs to one endpoint", field="Idempotency-Key"))
            if refused[0] != digest:
                return respond(422, problem_body(422, "this Idempotency-Key was used with another body",
                                                 field="Idempotency-Key"))
            return respond(refused[1], refused[2])
    started = time.perf_counter()
    if_match = if_match_version(request)
    try:
        mode = request.app.state.write_mode
        if mode == "loop":
            answer = call(body, now(), key, digest, if_match)
        elif mode == "thread":
            answer = await run_in_threadpool(call, body, now(), key, digest, if_match)
        else:
            async with request.app.state.turns.of(caller.game_id):
                answer = await deferred_write(request, caller.game_id, lambda: call(body, now(), key, digest, if_match))
    except (Ruling, Problem) as error:
        if isinstance(error, Problem):
            status, body = error.status, problem_body(error.status, error.detail)
        else:
            status, body = ruling_problem(error)
        # a lost race says "send it again": storing it would answer every resend with the same 409
        settled = not isinstance(error, Conflict) and body.get("field") != "Idempotency-Key"
        if key is not None and status < 500 and settled:
            await store.put(game, caller.role, key, digest, status, body, endpoint)
        request.state.log_context.update(rule=body.get("rule"), refused=status)
        return respond(status, body)
    request.state.log_context.update(version=answer["version"], write_ms=round((time.perf_counter() - started) * 1000, 2))
    request.app.state.feed.notify(caller.game_id)
    return JSONResponse(dict(answer), status_code=answer.status)
