"""What a caller sees now: seats see the game live; with `options.spectator_delay_s` (tournament
broadcasts) the spectator token sees it that many seconds late, everywhere it reads — the events,
the feed, the state, the overlay, the audit, the analytics and the export.

The spectator's horizon is the latest event whose `at` is older than now − delay; the state is
the state as it stood after that event, and `undone` flags are the ones that stood then.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeVar
from uuid import UUID

from warlog.api.deps import Caller
from warlog.domain import events as ev
from warlog.domain.application import Warlog
from warlog.domain.game import Game, logged
from warlog.domain.state import GameState
from warlog.domain.undo import undone_seqs
from warlog.projections.log import flags_before

PAGE = 64
T = TypeVar("T")


def clock() -> float:
    """Seconds since the epoch (one place, so tests can move time on)."""
    return time.time()


def iso(epoch_s: float) -> str:
    """The event clock's format (UTC, milliseconds, Z), so times compare as strings."""
    return datetime.fromtimestamp(epoch_s, UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def parse_iso(text: str) -> float:
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC).timestamp()


@dataclass(frozen=True)
class Horizon:
    """Taken inside `seeing`: `version` and `live` stay true of the game as it was; `game` is the live game,
    which later writes change in place, so read it only inside the view."""

    game: Game
    version: int        # the latest seq this caller may see
    delay_s: float      # 0: live
    live: bool          # whether `version` was the game's latest


def seeing(warlog: Warlog, caller: Caller, view: Callable[[Horizon], T]) -> T:
    """`view` of what `caller` sees now, run as `Warlog.viewing` runs it: again when a write changed the game
    meanwhile. `seeing(..., lambda seen: seen)` takes just the horizon (its `version` and `live`)."""
    return warlog.viewing(caller.game_id, lambda game: view(horizon(warlog, game, caller)))


def delay_of(game: Game, caller: Caller) -> float:
    return 0.0 if caller.is_seat else float(game.state.options.spectator_delay_s or 0)


def horizon(warlog: Warlog, game: Game, caller: Caller, now: float | None = None) -> Horizon:
    delay = delay_of(game, caller)
    if delay <= 0:
        return Horizon(game, game.version, 0.0, True)
    cutoff = iso((clock() if now is None else now) - delay)
    lte = game.version
    while lte > 1:  # newest first: the horizon is usually a few events behind the head
        page = list(warlog.repository.event_store.get(game.id, lte=lte, desc=True, limit=PAGE))
        for event in map(logged, page):
            if event.entry["at"] <= cutoff:
                return Horizon(game, event.entry["seq"], delay, event.entry["seq"] == game.version)
        if len(page) < PAGE:
            break
        lte = logged(page[-1]).entry["seq"] - 1
    return Horizon(game, 1, delay, game.version == 1)  # the game's creation is no secret to a token made by it


def seconds_until_next(warlog: Warlog, seen: Horizon, now: float | None = None) -> float | None:
    """How long until the next hidden event comes into a delayed view (None: nothing is hidden)."""
    if seen.live:
        return None
    nxt = next(iter(warlog.stored(seen.game.id, seen.version, 1)), None)
    if nxt is None:
        return None
    return max(0.0, parse_iso(nxt.entry["at"]) + seen.delay_s - (clock() if now is None else now))


def state_of(warlog: Warlog, seen: Horizon) -> tuple[GameState, int]:
    if seen.live:
        return seen.game.state, seen.game.version
    return past_state(warlog, seen.game.id, seen.version), seen.version


def past_state(warlog: Warlog, game_id: UUID, seq: int) -> GameState:
    """The state as it stood after event `seq` (1 or later: the game's creation is its first)."""
    if seq < 1:
        raise ValueError(f"no state before the game's creation (seq {seq})")
    return warlog.game_at(game_id, seq).state


def entries_page(warlog: Warlog, seen: Horizon, after: int, limit: int) -> list[dict[str, Any]]:
    """Events after `after`, up to the horizon, with the `undone` flags that stood at the horizon."""
    limit = min(limit, seen.version - after)
    if limit <= 0:
        return []
    page = warlog.entries(seen.game.id, after, limit, seen.game)
    if seen.live:
        return page
    later = warlog.entries(seen.game.id, seen.version, None, seen.game)
    return flags_before(page, later)


def stored_until(warlog: Warlog, seen: Horizon) -> tuple[list[tuple[dict[str, Any], ev.Meta]], set[int]]:
    """(entry, meta) for every event up to the horizon, and the seqs undone as of it."""
    stored = warlog.told(seen.game.id, 0, seen.version)
    return stored, undone_seqs(entry for entry, _ in stored)


def entries_until(warlog: Warlog, seen: Horizon) -> list[dict[str, Any]]:
    stored, undone = stored_until(warlog, seen)
    return [{**entry, "undone": entry["seq"] in undone} for entry, _ in stored]
