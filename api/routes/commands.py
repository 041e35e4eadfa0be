"""Commands, undo and redo: every write of play."""
from __future__ import annotations

from functools import partial

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from warlog.api.deps import Seat
from warlog.api.errors import WRITES
from warlog.api.schemas import request_body
from warlog.api.wire import ActionAnswer, answer
from warlog.api.writing import Endpoint, no_body, play, write
from warlog.domain.writes import Consent, Redo, Undo, Withdraw

router = APIRouter(tags=["play"], responses=WRITES)
WRITE_HEADERS = {"parameters": [
    {"name": "Idempotency-Key", "in": "header", "required": False,
     "schema": {"type": "string", "minLength": 1, "maxLength": 255},
     "description": "1..255 characters (else 422): replays the stored answer for 24 hours; another body, or another "
                    "endpoint, with the same key is 422"},
    {"name": "If-Match", "in": "header", "required": False,
     "schema": {"type": "string"},  # any text: one naming no version is a precondition that fails (412), not 422
     "description": "`\"<version>\"` (the game's latest seq; W/ and the quotes may be left off): refused with 412 "
                    "unless it is the game's current version. A value naming no version (the empty one, `\"\"`, "
                    "`*`, a list) matches none: 412 too, judged after the body (a malformed body is 422 first)"}]}


COMMAND = Endpoint("commands", play)
UNDO, REDO = no_body("undo", Undo), no_body("redo", Redo)
APPROVE, REJECT = no_body("approve", partial(Consent, approve=True)), no_body("reject", partial(Consent, approve=False))
WITHDRAW = no_body("withdraw", Withdraw)


@router.post("/games/{game_id}/commands", operation_id="sendCommand",
             responses=answer(ActionAnswer, "the events the command appended (one action)"),
             summary="Send a command for this seat; answers the events it appended (one action)",
             openapi_extra={**WRITE_HEADERS, **request_body("Command", {
                 "type": "free_roll", "spec": "2D6", "purpose": "scatter"})})
async def command(caller: Seat, request: Request) -> JSONResponse:
    return await write(request, caller, request.app.state.settings.max_command_bytes, COMMAND)


@router.post("/games/{game_id}/undo", operation_id="undo", openapi_extra=WRITE_HEADERS,
             responses={**answer(ActionAnswer, "ActionUndone: undone at once (this seat's own action, no dice)"),
                        **answer(ActionAnswer, "UndoRequested: the other seat must approve", 202)},
             summary="Undo the latest action not yet undone (202 when it needs the other seat)")
async def undo(caller: Seat, request: Request) -> JSONResponse:
    return await write(request, caller, request.app.state.settings.max_command_bytes, UNDO)


@router.post("/games/{game_id}/undo/approve", operation_id="approveUndo", openapi_extra=WRITE_HEADERS,
             responses=answer(ActionAnswer, "ActionUndone: the request approved and the action undone"),
             summary="The other seat approves the pending undo request")
async def approve(caller: Seat, request: Request) -> JSONResponse:
    return await write(request, caller, request.app.state.settings.max_command_bytes, APPROVE)


@router.post("/games/{game_id}/undo/reject", operation_id="rejectUndo", openapi_extra=WRITE_HEADERS,
             responses=answer(ActionAnswer, "UndoRejected: the request refused; the action stands"),
             summary="The other seat rejects the pending undo request")
async def reject(caller: Seat, request: Request) -> JSONResponse:
    return await write(request, caller, request.app.state.settings.max_command_bytes, REJECT)


@router.post("/games/{game_id}/undo/withdraw", operation_id="withdrawUndo", openapi_extra=WRITE_HEADERS,
             responses=answer(ActionAnswer, "UndoWithdrawn: the request taken back; the action stands"),
             summary="The seat that asked withdraws its pending undo request",
             description="Only the seat whose request waits (else 409 SVC.UNDO.WHO), only while one waits (else "
                         "409 SVC.UNDO.NONE). Appends `UndoWithdrawn` (rule SVC.UNDO.CONSENT); commands are open "
                         "again (SVC.UNDO.PENDING no longer holds them).")
async def withdraw(caller: Seat, request: Request) -> JSONResponse:
    return await write(request, caller, request.app.state.settings.max_command_bytes, WITHDRAW)


@router.post("/games/{game_id}/redo", operation_id="redo", openapi_extra=WRITE_HEADERS,
             responses=answer(ActionAnswer, "ActionRedone: the latest undone action brought back"),
             summary="Bring back the latest undone action (the seat that undid it)")
async def redo(caller: Seat, request: Request) -> JSONResponse:
    return await write(request, caller, request.app.state.settings.max_command_bytes, REDO)

