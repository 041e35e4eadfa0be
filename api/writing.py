"""The one path every write takes (`write`): the body's size, the Idempotency-Key and a refusal stored for it,
the body judged into the domain's typed write, the application, then the answer, the live feed and the log line;
refusals are stored for replay like answers."""
from __future__ import annotations

import asyncio
import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial
from typing import Any
from uuid import UUID

import orjson
from eventsourcing.persistence import IntegrityError
from fastapi import Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse

from warlog.api.deps import Caller, warlog_of
from warlog.api.errors import Problem, problem_body, respond, ruling_problem
from warlog.api.json_body import parse_json
from warlog.api.schemas import parse_command
from warlog.domain.application import Answer, Conflict, Deferred, NeedsStore, Viewer
from warlog.domain.chain import canonical
from warlog.domain.rulings import Malformed, Ruling
from warlog.domain.writes import BodyRefused, Play, Sent, Write
from warlog.projections.state import KeptView, live_view


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
        raise too_large(limit)
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise too_large(limit)
        chunks.append(chunk)
    return b"".join(chunks)


def too_large(limit: int) -> Problem:
    """413: the body past `limit` bytes. Whatever of it is still coming, uvicorn reads and drops once the answer is
    sent, so the connection stays usable (tests/e2e/test_serve.py holds it to that over real HTTP)."""
    return Problem(413, f"The body may be at most {limit} bytes; this one is larger.")


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
    sent = f"as {content_type[:80]}" if content_type else "with no Content-Type"
    return Problem(415, f"Send the body as Content-Type: application/json, in UTF-8; this one came {sent}")


@dataclass(frozen=True, slots=True)
class Body:
    """A request's body as read: its value (the JSON, or a roster file's bytes), the digest an Idempotency-Key
    compares (empty without a key), and the refusal the body itself earned (415, 422), if any."""

    value: Any
    digest: str
    refusal: Exception | None = None


Reader = Callable[[bytes, bool, str | None], Body]
Judge = Callable[[Sent, Any, str], Write]  # the body's value and the game's ruleset -> the domain's write (raising
# the body's 422): a command is read by its game's ruleset's own command classes


def parsed_body(raw: bytes, keyed: bool, content_type: str | None = "application/json") -> Body:
    """The JSON body: bodies are compared as canonical JSON, or byte for byte (with their media type) when they
    are not JSON. An empty body is no body (None), whatever its Content-Type. Without an Idempotency-Key nothing
    is compared, and the digest is left empty."""
    if raw and not is_json(content_type):
        marked = f"{content_type}\n".encode("latin-1") + raw
        return Body(None, hashlib.sha256(marked).hexdigest() if keyed else "", not_json(content_type))
    try:
        value = parse_json(raw)
    except (Ruling, Problem) as error:  # 422, or 415 for JSON not in UTF-8
        return Body(None, hashlib.sha256(raw).hexdigest() if keyed else "", error)
    return Body(value, hashlib.sha256(canonical(value).encode()).hexdigest() if keyed else "")


@dataclass(frozen=True)
class Endpoint:
    """A write endpoint: its name (an Idempotency-Key belongs to one), the domain's write its body makes, how its
    bytes are read, and what its answer holds beside the version, the events and the view (`extra`, filled by
    `judge`; `told`, read off the answer, a replayed one included)."""

    name: str
    judge: Judge
    reader: Reader = parsed_body
    extra: dict[str, Any] = field(default_factory=dict)
    told: Callable[[Answer], dict[str, Any]] | None = None


def play(sent: Sent, body: Any, ruleset: str) -> Write:
    return Play(sent, parse_command(body, ruleset))


def no_body(name: str, make: Callable[[Sent], Write]) -> Endpoint:
    """Undo, redo and their answers take no body: none, `null` or `{}`; anything else is 422."""
    def judge(sent: Sent, body: Any, ruleset: str) -> Write:
        if body not in (None, {}):
            raise Malformed(f"`{name}` takes no body: send none, or {{}}")
        return make(sent)
    return Endpoint(name, judge)


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


async def write(request: Request, caller: Caller, limit: int, endpoint: Endpoint) -> JSONResponse:
    """One write, a step a line: the body read (413) and its digest; a refusal stored for its Idempotency-Key
    (replayed; a key unfit is 422); the body made into the domain's typed write (`judged`); `Warlog.write`'s own
    steps (a stored answer for the key, the body's refusal, the checks that need the game, If-Match, the ruling, the
    events and their append), here on the loop or where `applied` runs them, with the seat's view ("One request a
    tap"); then the answer, the live feed woken and the
    log line told (`answered`), or the refusal, stored for its key (`refused`)."""
    key = request.headers.get("idempotency-key")
    body = endpoint.reader(await read_body(request, limit), key is not None, request.headers.get("content-type"))
    stored = await stored_refusal(request, caller, key, body.digest, endpoint.name)  # 422 for a key unfit
    if stored is not None:
        return stored
    started = time.perf_counter()
    sent = Sent(caller.role, now(), key, body.digest, if_match_version(request))
    try:
        ruleset = await ruleset_of(request, caller.game_id)
        made, viewer = judged(request, endpoint, sent, body, ruleset), partial(live_view, seat=caller.role)
        if request.app.state.write_mode == "loop":  # SQLite's default: on the loop, here (Settings.write_mode)
            answer = warlog_of(request, caller.game_id).write(caller.game_id, made, viewer)
        else:
            answer = await applied(request, caller.game_id, made, viewer)
    except (Ruling, Problem) as error:
        return await refused(request, caller, sent, endpoint.name, error)
    return answered(request, caller.game_id, answer, started, endpoint)


async def stored_refusal(request: Request, caller: Caller, key: str | None, digest: str, endpoint: str
                         ) -> JSONResponse | None:
    """The refusal stored for this seat's Idempotency-Key, replayed; the same key on another endpoint, or with
    another body, is 422."""
    if key is None:
        return None
    if not key or len(key) > 255:
        raise Problem(422, "The Idempotency-Key header must be 1 to 255 characters long", field="Idempotency-Key")
    refused = await request.app.state.refusals.get(str(caller.game_id), caller.role, key)
    if refused is None:
        return None
    if refused[3] not in (None, endpoint):  # None: stored before refusals named their endpoint
        return respond(422, problem_body(422, f"This Idempotency-Key was used on {refused[3]}; a key "
                                              "belongs to one endpoint", field="Idempotency-Key"))
    if refused[0] != digest:
        return respond(422, problem_body(422, "This Idempotency-Key was used with another body",
                                         field="Idempotency-Key"))
    return respond(refused[1], refused[2])


async def ruleset_of(request: Request, game_id: UUID) -> str:
    """The ruleset the body is read by: the cached game's, or read from the store in a worker thread (never on the
    event loop, which the "deferred" write mode keeps for the appends)."""
    warlog = warlog_of(request, game_id)
    known = warlog.cached_ruleset(game_id)
    return known if known is not None else await run_in_threadpool(warlog.ruleset_of, game_id)


def judged(request: Request, endpoint: Endpoint, sent: Sent, body: Body, ruleset: str) -> Write:
    """The body made into the domain's typed write. A body refused (415, 422) is handed in as a `BodyRefused`, so
    that a stored answer for its key still comes first."""
    refusal = body.refusal
    if refusal is None:
        try:
            made = endpoint.judge(sent, body.value, ruleset)
        except (Ruling, Problem) as error:
            refusal = error
        else:
            if isinstance(made, Play):
                request.state.log_context["command"] = made.command.type
            return made
    return BodyRefused(sent, endpoint.name, refusal)


async def applied(request: Request, game_id: UUID, write: Write, viewer: Viewer) -> Answer:
    """The application's answer to `write` where Settings.write_mode runs it off the loop's own turn: in a worker
    thread, or judged on the loop and appended by the shard's AsyncAppends (`deferred_write`); its `view` by
    `viewer`. (The "loop" mode is `write`'s own call: one frame and one await fewer on SQLite's path.)"""
    if request.app.state.write_mode == "thread":
        return await run_in_threadpool(warlog_of(request, game_id).write, game_id, write, viewer)
    async with request.app.state.turns.of(game_id):
        return await deferred_write(request, game_id, write, viewer)


async def deferred_write(request: Request, game_id: UUID, write: Write, viewer: Viewer) -> Answer:
    """The "deferred" write mode (Settings.write_mode): the write judged on the loop (in a worker thread when it
    must first read the store: the game not cached, or a refusal to judge again on the latest), its events
    appended by the shard's AsyncAppends, a lost race judged again on the store's latest game, up to five
    times, then 409 SVC.CONFLICT."""
    warlog = warlog_of(request, game_id)
    try:
        judged = warlog.defer(game_id, write, on_loop=True, viewer=viewer)
    except NeedsStore:
        judged = await run_in_threadpool(partial(warlog.defer, game_id, write, False, viewer=viewer))
    for attempt in range(5):
        if not isinstance(judged, Deferred):
            return judged
        try:
            await request.app.state.appends[id(judged.app)].insert(judged.stored_events(), judged.head)
        except IntegrityError:
            await asyncio.sleep(0.01 * (attempt + 1))
            judged = await run_in_threadpool(judged.again)  # the store's latest is loaded first
            continue
        return await run_in_threadpool(judged.appended) if judged.snapshot_due() else judged.appended()
    raise Conflict.lost_race()


async def refused(request: Request, caller: Caller, sent: Sent, endpoint: str, error: Ruling | Problem
                  ) -> JSONResponse:
    """A refusal as problem+json, stored for its Idempotency-Key (a lost race is not: it says "send it again",
    and storing it would answer every resend with the same 409)."""
    if isinstance(error, Problem):
        status, body = error.status, problem_body(error.status, error.detail, **error.extra)
    else:
        status, body = ruling_problem(error)
    settled = not isinstance(error, Conflict) and body.get("field") != "Idempotency-Key"
    if sent.key is not None and status < 500 and settled:
        await request.app.state.refusals.put(str(caller.game_id), caller.role, sent.key, sent.digest, status, body,
                                             endpoint)
    request.state.log_context.update(rule=body.get("rule"), refused=status)
    return respond(status, body)


def answered(request: Request, game_id: UUID, answer: Answer, started: float, endpoint: Endpoint
             ) -> JSONResponse:
    """The answer sent, the game's live streams woken, and the write's time told to the request's log line."""
    answer.update(endpoint.extra)
    if endpoint.told is not None:
        answer.update(endpoint.told(answer))
    request.state.log_context.update(version=answer["version"], write_ms=round((time.perf_counter() - started) * 1000, 2))
    request.app.state.feed.notify(game_id)
    return Answered(answer, status_code=answer.status)


class Answered(JSONResponse):
    """A JSONResponse, its body rendered by orjson: the bytes the standard encoder writes with `ensure_ascii=False`
    and `separators=(",", ":")` (compact, UTF-8, no NaN: answers hold no floats), several times faster; a write's
    answer carries the seat's whole state (`view`)."""

    OPTIONS = orjson.OPT_NON_STR_KEYS  # a map keyed by seq (analytics) is written with its keys as strings, as json does

    KEPT_PARTS = ("units", "actions", "records")  # a view's bulk, the same while its view is kept

    def render(self, content: Any) -> bytes:
        view = content.get("view") if isinstance(content, dict) else None
        if isinstance(view, KeptView):  # its datasheets and offers written once while the view is kept
            rendered = view.rendered
            if not rendered:
                rendered.update({part: orjson.Fragment(orjson.dumps(view[part], option=self.OPTIONS))
                                 for part in self.KEPT_PARTS if part in view})
            content = {**content, "view": {**view, **rendered}}
        return orjson.dumps(content, option=self.OPTIONS)
