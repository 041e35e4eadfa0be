"""Annotated dependencies: the application, and the caller behind the token.

The contract's order of judgement: token (401), game exists (404), token may
act here (403).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any
from uuid import UUID

from fastapi import Depends, Path, Query, Request
from fastapi.concurrency import run_in_threadpool
from pydantic import BaseModel

from warlog.api.errors import Problem
from warlog.api.schemas import UrlInt
from warlog.domain.application import Warlog
from warlog.domain.heads import parse_known_head
from warlog.domain.integrity import Damaged
from warlog.domain.rulings import NotFound

if TYPE_CHECKING:
    from warlog.api.shards import Shards

SEQ_MAX = 2 ** 63 - 1  # a seq is a signed 64-bit integer in every store; a larger `after` reaches none
After = Annotated[int, Query(ge=0, le=SEQ_MAX, description="a seq, 0..2^63-1: what comes after it"), UrlInt]


async def get_warlog(request: Request) -> Warlog:  # async: no worker-thread hop for a lookup
    """The application of the shard holding the path's game (api/shards.py)."""
    return warlog_of(request, request.path_params["game_id"])


def warlog_of(request: Request, game_id: UUID | str) -> Warlog:
    shards: Shards = request.app.state.shards
    if shards.n == 1:
        return shards.apps[0]
    try:
        return shards.of(game_id if isinstance(game_id, UUID) else UUID(game_id))
    except ValueError:  # no game has this id: the caller's own dependency answers 404
        return shards.apps[0]


WarlogApp = Annotated[Warlog, Depends(get_warlog)]


@dataclass(frozen=True)
class Caller:
    game_id: UUID
    role: str          # "A", "B" or "spectator"
    token: str

    @property
    def is_seat(self) -> bool:
        return self.role in ("A", "B")


def _token(request: Request, query_allowed: bool) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, value = header.partition(" ")
    if scheme.lower() == "bearer" and value.strip():
        return value.strip()
    if query_allowed:
        return request.query_params.get("token")
    return None


async def _caller(request: Request, game_id: str, query_allowed: bool, head_damage_raises: bool = True) -> Caller:
    """Runs on the event loop: a token already checked costs no store access and no thread hop."""
    shards = request.app.state.shards
    token = _token(request, query_allowed)
    if not token:
        raise Problem(401, "Send this seat's token as Authorization: Bearer <token>", headers={"WWW-Authenticate": "Bearer"})
    found = shards.known_role(token) or await run_in_threadpool(shards.role_of, token)
    if found is None:
        raise Problem(401, "This token opens no game: check the link or the token you were given", headers={"WWW-Authenticate": "Bearer"})
    try:
        wanted = UUID(game_id)
    except ValueError:
        raise Problem(404, no_game(game_id)) from None
    if found[0] != wanted:  # the token's own game exists; is the one asked for there at all?
        try:
            await run_in_threadpool(shards.of(wanted).read, wanted)
        except NotFound:
            raise Problem(404, no_game(game_id)) from None
        except Damaged:
            pass  # it exists; whether it is damaged is not this token's business
        raise Problem(403, "This token belongs to another game")
    await request.app.state.limits.take(token)
    request.state.log_context = {"game_id": str(wanted), "seat": found[1]}
    caller = Caller(wanted, found[1], token)
    known_query(request, "token" if query_allowed else None)
    await judge_known_head(request, caller, head_damage_raises)
    return caller


def no_game(game_id: str) -> str:
    """404: the path names no game (an id that is no game's, or no id at all)."""
    return f"There is no game {json.dumps(game_id, ensure_ascii=False)[:80]}: check the game's link"


_QUERY_NAMES: dict[int, frozenset[str]] = {}


def known_query(request: Request, also: str | None = None) -> None:
    """A query parameter the route does not take is 422 naming it, not silently ignored (`?afetr=5`)."""
    if not request.scope.get("query_string") or not request.query_params:  # no query string: nothing to parse
        return
    route = request.scope.get("route")
    names = _QUERY_NAMES.get(id(route))
    if names is None:
        names = _QUERY_NAMES[id(route)] = query_names(route.dependant) if route is not None else frozenset()
    for name in request.query_params:
        if name not in names and name != also:
            taken = ", ".join(f"`{n}`" for n in sorted(names | ({also} if also else set())))
            raise Problem(422, f"This request takes no query parameter {json.dumps(name, ensure_ascii=False)}"
                               + (f"; it takes {taken}" if taken else "; it takes none"), field=name)


def query_names(dependant: Any) -> frozenset[str]:
    """The query parameters a route and its dependencies take (a model's fields where one model is the query)."""
    names: set[str] = set()
    stack = [dependant]
    while stack:
        current = stack.pop()
        for param in current.query_params:
            model = param.field_info.annotation
            if isinstance(model, type) and issubclass(model, BaseModel):
                names |= {info.alias or name for name, info in model.model_fields.items()}
            else:
                names.add(param.alias)
        stack.extend(current.dependencies)
    return frozenset(names)


async def no_unknown_query(request: Request) -> None:
    """`known_query` as a dependency, for the routes that take no token."""
    known_query(request)


async def judge_known_head(request: Request, caller: Caller, raises: bool) -> None:
    """`Known-Head: <seq>:<hash>` from a seat (the table app sends the last head it saw): the log must hold it
    (SVC.DAMAGED), else the game is damaged from now on; `raises` false for /verify, which reports it. A
    spectator's is not judged: only a seat vouches for what its game showed it."""
    value = request.headers.get("known-head")
    if value is None:
        return
    known = parse_known_head(value)
    if known is None:
        raise Problem(422, "Known-Head must be <seq>:<hash>: the seq of an event this seat saw, a colon, and that "
                           "event's hash (64 lower-case hex digits)", field="Known-Head")
    if not caller.is_seat:
        return
    warlog = warlog_of(request, caller.game_id)
    if warlog.holds_head(caller.game_id, *known):
        return
    try:
        await run_in_threadpool(warlog.known_head, caller.game_id, *known, caller.role)
    except Damaged:
        if raises:
            raise


async def reader(request: Request, game_id: Annotated[str, Path()]) -> Caller:
    return await _caller(request, game_id, query_allowed=False)


async def verifier(request: Request, game_id: Annotated[str, Path()]) -> Caller:
    """A reader whose Known-Head, if the log lacks it, is reported by /verify rather than refused."""
    return await _caller(request, game_id, query_allowed=False, head_damage_raises=False)


async def stream_reader(request: Request, game_id: Annotated[str, Path()]) -> Caller:
    return await _caller(request, game_id, query_allowed=True)


async def seat(request: Request, game_id: Annotated[str, Path()]) -> Caller:
    caller = await _caller(request, game_id, query_allowed=False)
    if not caller.is_seat:
        raise Problem(403, "The spectator token only reads: a seat's token sends commands")
    return caller


Reader = Annotated[Caller, Depends(reader)]
Verifier = Annotated[Caller, Depends(verifier)]
StreamReader = Annotated[Caller, Depends(stream_reader)]
Seat = Annotated[Caller, Depends(seat)]
