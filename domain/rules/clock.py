"""MSN.CLK.1, the chess clock: each seat's time used, taken from the entries' timestamps.

From the start of a game with `options.clock_minutes` (`GameStarted`) the state keeps a `Clock`: each seat's seconds used, counted up to
the time of the latest entry. When an entry comes later than that, the time between goes to the seats the game
waited for then: the seat `awaiting` named or, where it named none, each seat still offered an action; nobody's
while an undo request was pending, and nobody's once the game has ended. The time is read from the log alone,
so a replay gives the same clock; an undo does not give back the time it took (the restored state keeps the
clock it replaces). With `options.clock_minutes` a seat whose time is used up is shown `out`; with
`options.clock_loses` it loses at the end of its current action (`Game.execute`).
"""
from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from warlog.domain.rules.basics import SEATS
from warlog.domain.state import Clock, GameState, PerSeat
from warlog.domain.state.values import replace

if TYPE_CHECKING:
    from warlog.domain.rules.ruleset import Ruleset


def seconds(since: str, until: str) -> float:
    return (datetime.fromisoformat(until) - datetime.fromisoformat(since)).total_seconds()


def waited_for(ruleset: Ruleset, state: GameState, paused: bool) -> tuple[str, ...]:
    """The seats whose time runs in this state."""
    if paused or state.status != "in_progress":
        return ()
    seat = ruleset.awaiting(state)["seat"]
    if seat in SEATS:
        return (seat,)
    return tuple(s for s in SEATS if ruleset.actions(state, s))


def charge(ruleset: Ruleset, state: GameState, paused: bool, used: PerSeat[float], since: str,
           until: str) -> PerSeat[float]:
    """Each seat's time used, with the time from `since` (the latest entry's) to `until` (the next entry's) given
    to the seats the game waited for in `state`."""
    spent = seconds(since, until)
    seats = waited_for(ruleset, state, paused) if spent > 0 else ()
    if not seats:
        return used
    return PerSeat(*(used[s] + (spent if s in seats else 0.0) for s in SEATS))


def charged(ruleset: Ruleset, state: GameState, paused: bool, at: str) -> Clock | None:
    """The state's clock brought up to `at` (an entry's time): the time since its last entry goes to the seats
    the game waited for."""
    return None if state.clock is None else advanced(ruleset, state, paused, state.clock, at)


def advanced(ruleset: Ruleset, state: GameState, paused: bool, clock: Clock, at: str) -> Clock:
    """`clock` brought up to `at`, the time since its own `at` given to the seats the game waited for in `state`;
    an entry stamped no later (another process's clock a little behind) gives no time back and leaves it as it
    was (GET /summary's clock reads the log so too)."""
    if not at or seconds(clock.at, at) <= 0:
        return clock
    return Clock(used=charge(ruleset, state, paused, clock.used, clock.at, at), at=at)


def kept(state: GameState, clock: Clock | None, at: str) -> GameState:
    """The state after an entry, with the clock as charged up to it: started by the entry that starts a game with
    a clock (a game without one keeps none: its states, and the ones its undos stored, are as they always were);
    an undo's restored state keeps the clock it replaces."""
    if clock is None and state.status == "in_progress" and at and state.options.clock_minutes is not None:
        clock = Clock(used=PerSeat(0.0, 0.0), at=at)
    return state if state.clock is clock else replace(state, clock=clock)


def limit_s(state: GameState) -> float | None:
    minutes = state.options.clock_minutes
    return None if minutes is None else 60.0 * minutes


def out(state: GameState, seat: str) -> bool:
    """Whether this seat has used up its time (MSN.CLK.1; never, without `options.clock_minutes`)."""
    limit = limit_s(state)
    return limit is not None and state.clock is not None and state.clock.used[seat] >= limit


def used_s(state: GameState, seat: str) -> float:
    return round(state.clock.used[seat], 1) if state.clock is not None else 0.0


def shown(ruleset: Ruleset, state: GameState, paused: bool) -> dict[str, Any] | None:
    """`state.clock` (CONTRACT.md "In the players' words"): per seat `used_s`, `left_s`, `out`, and `running`
    (its time runs now, from `since`, the time of the latest entry: a client ticks it on itself)."""
    limit = limit_s(state)
    if limit is None:
        return None
    running = waited_for(ruleset, state, paused)
    since = state.clock.at if state.clock is not None else None
    return {seat: {"used_s": used_s(state, seat), "left_s": round(max(0.0, limit - used_s(state, seat)), 1),
                   "out": out(state, seat), "running": seat in running, "since": since if seat in running else None}
            for seat in SEATS}
