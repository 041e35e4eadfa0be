"""The loop every live stream runs: read what the caller may see, send it, then sleep until an
append wakes the feed or the next hidden event comes into a delayed spectator's view."""
from __future__ import annotations

import math
from collections.abc import AsyncIterator
from typing import Any

from fastapi import Request
from fastapi.concurrency import run_in_threadpool

from warlog.api.deps import Caller
from warlog.api.feed import sleep_until
from warlog.api.horizon import Horizon, entries_page, seconds_until_next, seeing
from warlog.domain.application import Warlog

PAGE = 500


async def follow(request: Request, warlog: Warlog, caller: Caller, start: int) -> AsyncIterator[list[dict[str, Any]]]:
    """The new events, each time something new comes into the caller's view."""
    feed = request.app.state.feed
    game_id = caller.game_id

    def read_delayed(after: int) -> tuple[list[dict[str, Any]], float, bool]:
        def view(seen: Horizon) -> tuple[list[dict[str, Any]], float, bool]:
            reveal = seconds_until_next(warlog, seen)
            wait = min(feed.poll_s, math.inf if reveal is None else reveal + 0.01)
            return entries_page(warlog, seen, after, PAGE), wait, seen.delay_s > 0
        return seeing(warlog, caller, view)

    def read_live(after: int, generation: int, woken: bool) -> tuple[list[dict[str, Any]], float, bool]:
        batch = feed.tails.read(game_id, after, generation, woken,
                                lambda since: warlog.entries(game_id, since, PAGE), PAGE)
        return batch, feed.poll_s, False

    last, delayed, woken_up = start, True, False  # the first read finds out whether this caller is delayed
    with feed.listening(game_id) as woken:
        while not await request.is_disconnected():
            generation = feed.generation(game_id)
            woken.clear()  # before reading, with no await between: an append from here on wakes the wait
            shared = feed.tails.peek(game_id, last, generation) if woken_up and not delayed else None
            if shared is not None:  # another stream of this game read it already: no thread, no store
                batch, wait_s = shared, feed.poll_s
            elif delayed:
                batch, wait_s, delayed = await run_in_threadpool(read_delayed, last)
            else:
                batch, wait_s, _ = await run_in_threadpool(read_live, last, generation, woken_up)
            if batch:
                last = batch[-1]["seq"]
                yield batch
            woken_up = len(batch) < PAGE and await sleep_until(woken, wait_s)


async def current(warlog: Warlog, caller: Caller) -> Horizon:
    return await run_in_threadpool(seeing, warlog, caller, lambda seen: seen)
