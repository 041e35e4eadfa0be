"""State, the event log and the chain check."""
from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query
from fastapi.concurrency import run_in_threadpool

from api.deps import Reader, WarlogApp
from projections.state import state_view

router = APIRouter(tags=["reading"])


@router.get("/games/{game_id}/state", summary="The current-phase projection")
async def state(caller: Reader, warlog: WarlogApp) -> dict[str, Any]:
    game = await run_in_threadpool(warlog.read, caller.game_id)
    # what undo/redo would do lives at GET /undo: after an undo, every state field but version is as it was
    return state_view(game.state, game.version, caller.role)


@router.get("/games/{game_id}/events", summary="The game log, oldest first, with `undone` as of now")
async def events(caller: Reader, warlog: WarlogApp,
                 after: Annotated[int, Query(ge=0)] = 0,
                 limit: Annotated[int, Query(ge=1)] = 100) -> dict[str, Any]:
    def page() -> dict[str, Any]:
        game = warlog.read(caller.game_id)
        return {"events": warlog.entries(caller.game_id, after, min(limit, 1000), game), "last_seq": game.version}

    return await run_in_threadpool(page)


@router.get("/games/{game_id}/verify", summary="Recompute the hash chain (and, once ended, every server roll)")
async def verify(caller: Reader, warlog: WarlogApp) -> dict[str, Any]:
    return await run_in_threadpool(warlog.verify, caller.game_id)
