"""State, the event log and the chain check."""
from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query
from fastapi.concurrency import run_in_threadpool

from warlog.api.deps import SEQ_MAX, After, Reader, Verifier, WarlogApp
from warlog.api.errors import READS, Problem
from warlog.api.horizon import Horizon, entries_page, past_state, seeing, state_of
from warlog.api.schemas import UrlInt
from warlog.api.sentences import HEX64
from warlog.api.wire import EventsPage, State, VerifyReport, answer
from warlog.domain.integrity import Damaged
from warlog.projections.state import live_view, state_view

router = APIRouter(tags=["reading"], responses=READS)


@router.get("/games/{game_id}/state", summary="The current-phase projection (`?at=SEQ`: as it stood after event SEQ)",
            operation_id="getState", responses=answer(State, "the state (with a seat token, what it may send now)"),
            description="`round_heads` lists the head hash recorded at the end of each battle round: keep them, "
                        "and `GET /verify?head=` tells whether the log still extends one. A spectator token of a "
                        "game with `options.spectator_delay_s` sees the state that many seconds late.")
async def state(caller: Reader, warlog: WarlogApp,
                at: Annotated[int | None, Query(ge=1, le=SEQ_MAX, description="a seq: the state after that event"), UrlInt] = None
                ) -> dict[str, Any]:
    def view(seen: Horizon) -> dict[str, Any]:
        if at is None and seen.live:
            return live_view(seen.game, caller.role)  # what a seat's own write answers as its `view`
        if at is None:
            state, version = state_of(warlog, seen)
        elif at > seen.version:
            raise Problem(404, f"no event {at} in this game (its latest is {seen.version})")
        else:
            state, version = past_state(warlog, caller.game_id, at), at
        return state_view(state, version, caller.role)

    # what undo/redo would do lives at GET /undo: after an undo, every state field but version is as it was
    return await run_in_threadpool(seeing, warlog, caller, view)


@router.get("/games/{game_id}/events", summary="The game log, oldest first, with `undone` as of now",
            operation_id="getEvents", responses=answer(EventsPage, "a page of the log, and the game's latest seq"))
async def events(caller: Reader, warlog: WarlogApp,
                 after: After = 0,
                 limit: Annotated[int, Query(ge=1, le=SEQ_MAX, description="at most this many (honoured up to 1,000)"),
                                  UrlInt] = 100) -> dict[str, Any]:
    def page(seen: Horizon) -> dict[str, Any]:  # spectators: delayed (api/horizon)
        return {"events": entries_page(warlog, seen, after, min(limit, 1000)), "last_seq": seen.version}

    return await run_in_threadpool(seeing, warlog, caller, page)


@router.get("/games/{game_id}/verify", summary="Recompute the hash chain (and, once ended, every server roll)",
            operation_id="verifyLog", responses=answer(VerifyReport, "the report, damaged or not"),
            description="Always the report (200), damaged or not: `chain_ok` is false for every form of "
                        "SVC.DAMAGED, `damage` naming the form (altered, missing, reordered, unreadable, snapshot, "
                        "metadata, truncated, head), `first_bad_seq` where and `detail` why. Beside the chain: the "
                        "head record the service keeps apart from the events (a log that ends before it is "
                        "`truncated`, one whose event at its seq has another hash was rewritten: `head`), a head a "
                        "seat presents as `Known-Head: <seq>:<hash>` (the table app sends the last it saw; a head "
                        "the log does not hold damages the game from then on), and the `request` digest each "
                        "event carries of the books stored beside it (who sent which command, its "
                        "Idempotency-Key: an edit there is `metadata`). With `?head=HASH` (a round head a seat "
                        "kept) the answer adds `extends_head`. A spectator of a game with `spectator_delay_s` "
                        "checks the log as far as it sees it; the seed is revealed to it once it sees the end. "
                        "`commands_ok` (null when the chain is broken) says whether every stored request, played "
                        "again from the events before it with what its books say, makes exactly the events "
                        "stored with it; `first_unmatched_seq` names the first that does not. It is judged by this "
                        "version of the rules, so it informs a judge rather than refusing the game: for events "
                        "stored before `request` existed it is the only check of their books.")
async def verify(caller: Verifier, warlog: WarlogApp,
                 head: Annotated[str | None, Query(pattern=HEX64)] = None) -> dict[str, Any]:
    def check() -> dict[str, Any]:
        try:
            # a delayed spectator checks what it sees
            upto = seeing(warlog, caller, lambda seen: None if seen.live else seen.version)
        except Damaged:
            upto = None  # the one read a damaged game still answers: where it is damaged
        return warlog.verify(caller.game_id, upto, head)  # every row read once for both checks

    return await run_in_threadpool(check)
