"""The loop every live stream runs: read what the caller may see, send it, then sleep until an
append wakes the feed or the next hidden event comes into a delayed spectator's view."""
from __future__ import annotations

import math
from collections.abc import AsyncIterator
from typing import Any

from fastapi import Request
from fastapi.concurrency import run_in_threadpool

from api.deps import Caller
from api.feed import sleep_until
from api.horizon import Horizon, entries_page, horizon, seconds_until_next
from domain.application import Warlog

PAGE = 500


async def follow(request: Request, warlog: Warlog, caller: Caller,
                 start: int) -> AsyncIterator[tuple[Horizon, list[dict[str, Any]]]]:
    """(what the caller sees, the new events) each time something new comes into view."""
    feed = request.app.state.feed

    def read(after: int) -> tuple[Horizon, list[dict[str, Any]], float]:
        seen = horizon(warlog, warlog.read(caller.game_id), caller)
        batch = entries_page(warlog, seen, after, PAGE)
        reveal = seconds_until_next(warlog, seen)
        return seen, batch, min(feed.poll_s, math.inf if reveal is None else reveal + 0.01)

    last = start
    with feed.listening(caller.game_id) as woken:
        while not await request.is_disconnected():
            woken.clear()  # before reading: an append from here on wakes the wait below
            seen, batch, wait_s = await run_in_threadpool(read, last)
            if batch:
                last = batch[-1]["seq"]
                yield seen, batch
            if len(batch) < PAGE:
                await sleep_until(woken, wait_s)


async def current(warlog: Warlog, caller: Caller) -> Horizon:
    return await run_in_threadpool(lambda: horizon(warlog, warlog.read(caller.game_id), caller))
