"""What undo and redo would do now (the writes themselves are in routes/commands.py)."""
from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.concurrency import run_in_threadpool

from warlog.api.deps import Reader, WarlogApp
from warlog.api.errors import READS
from warlog.api.horizon import Horizon, seeing
from warlog.api.wire import UndoPreview, answer
from warlog.projections.state import undo_view

router = APIRouter(tags=["play"], responses=READS)


@router.get("/games/{game_id}/undo", summary="What POST /undo and POST /redo would do now, for this token",
            operation_id="previewUndo", responses=answer(UndoPreview, "what undo and redo would do now"),
            description="`undo`: the seqs of the latest action not yet undone, who took it, whether it rolled "
                        "dice, and whether undoing it needs the other seat (202 + UndoRequested) or happens at "
                        "once (200). `redo`: the seqs it would bring back and whether this seat may. "
                        "`pending_request`: an undo request waiting for an answer, and whether this seat answers "
                        "it. Kept out of /state, whose every field but `version` is the same after an undo.")
async def undo_preview(caller: Reader, warlog: WarlogApp) -> dict[str, Any]:
    def build(seen: Horizon) -> dict[str, Any]:
        game = seen.game if seen.live else warlog.game_at(caller.game_id, seen.version)
        return {"version": seen.version, **undo_view(game, caller.role if caller.is_seat else None)}

    return await run_in_threadpool(seeing, warlog, caller, build)
