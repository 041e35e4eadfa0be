"""Wakes the live streams of a game when this process appends to it.

Streams also re-read the store every `poll_s`, so writes by other processes
sharing the database reach them too.
"""
from __future__ import annotations

import asyncio
from collections import defaultdict
from uuid import UUID


class Feed:
    def __init__(self, poll_s: float = 0.5) -> None:
        self.poll_s = poll_s
        self._waiters: dict[UUID, set[asyncio.Event]] = defaultdict(set)

    def notify(self, game_id: UUID) -> None:
        for waiter in list(self._waiters.get(game_id, ())):
            waiter.set()

    async def wait(self, game_id: UUID, timeout: float | None = None) -> None:
        waiter = asyncio.Event()
        self._waiters[game_id].add(waiter)
        try:
            await asyncio.wait_for(waiter.wait(), timeout or self.poll_s)
        except asyncio.TimeoutError:
            pass
        finally:
            self._waiters[game_id].discard(waiter)
