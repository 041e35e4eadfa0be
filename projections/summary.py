"""A game's summary (CONTRACT.md "In the players' words", Results; RULES.md MSN): per seat the score as the game
is scored, VP by battle round, units and models lost and destroyed by round, dice luck and time used; the result
once the game has ended, and so far while it is in progress.

It is read off the states the log makes (`evolve`, the step `Game` takes): a round's figures are the state as that
round ended, the round under way the state now, so an undone action counts nowhere. The time used is the chess
clock's (domain/rules/clock.py `charge`), charged along the same walk, so a game without a clock says it too.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, cast

from warlog.domain import events as ev
from warlog.domain.game import evolve
from warlog.domain.rules import clock, results
from warlog.domain.rules.basics import SEATS, alive, other
from warlog.domain.rules.registry import find_ruleset
from warlog.domain.state import Clock, GameState, PerSeat
from warlog.projections.analytics import dice_summary
from warlog.projections.state import result_view

UNPAUSED = frozenset({"ActionUndone", "UndoRejected", "UndoWithdrawn"})  # an undo request answered or withdrawn

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Standing:
    """What a round's figures read of a state: each seat's VP, and its units and models lost so far."""

    vp: PerSeat[int]
    units_lost: PerSeat[int]
    models_lost: PerSeat[int]

    @classmethod
    def of(cls, state: GameState) -> Standing:
        units = list(state.units.values())  # each part of a unit split before the battle is a unit (CORE.SPL.1)
        return cls(vp=state.vp or PerSeat(0, 0),
                   units_lost=PerSeat(*(sum(1 for u in units if u.owner == seat and not alive(u)) for seat in SEATS)),
                   models_lost=PerSeat(*(sum(max(0, u.starting_strength - u.models_alive) for u in units
                                             if u.owner == seat) for seat in SEATS)))


@dataclass(frozen=True, slots=True)
class Walked:
    """The log walked: the state after its last event, each seat's seconds used, the standing as each battle round
    ended (the latest time it ended) and the result's sentence, once the game has ended."""

    state: GameState
    used: PerSeat[float]
    ended: dict[int, Standing]
    result_text: str | None


Told = tuple[dict[str, Any], ev.Meta]  # a stored event as the log reads it (`Warlog.told`: its entry with `text`)


def walk(stored: Iterable[Told]) -> Walked:
    """Every event of the log in turn, as `Game` applies it."""
    state: GameState | None = None
    paused, watch = False, None  # the time each seat used, kept as the game's clock keeps it (with or without one)
    ended: dict[int, Standing] = {}
    text = None
    for told, meta in stored:
        entry = cast(ev.Entry, told)  # an entry as stored, its `text` beside
        if state is not None and watch is not None and state.status == "in_progress":
            watch = clock.advanced(find_ruleset(state.ruleset), state, paused, watch, entry["at"])
        state = evolve(state, entry, meta)
        if watch is None and state.status == "in_progress":
            watch = Clock(used=PerSeat(0.0, 0.0), at=entry["at"])  # the clock starts with the game (MSN.CLK.1)
        if entry["type"] == "UndoRequested":
            paused = True
        elif entry["type"] in UNPAUSED:
            paused = False
        if entry["type"] == "BattleRoundEnded":
            ended[state.battle_round] = Standing.of(state)
        elif entry["type"] == "GameEnded":
            text = str(told.get("text") or "") or None
    if state is None:
        raise ValueError("a game's log starts with its creation")
    return Walked(state, watch.used if watch is not None else PerSeat(0.0, 0.0), ended, text)


def rounds(walked: Walked) -> list[Standing]:
    """The standing as each battle round ended, the round under way as it stands now (so far)."""
    state = walked.state
    done = state.status == "ended" and state.battle_round in walked.ended
    return [walked.ended[r] if r < state.battle_round or done else Standing.of(state)
            for r in range(1, state.battle_round + 1)]


def _per_round(standings: Sequence[Standing], read: str, seat: str) -> list[int]:
    """What each round added to a running figure (`read`: vp, units_lost or models_lost) for one seat."""
    totals = [getattr(s, read)[seat] for s in standings]
    return [now - before for before, now in zip([0, *totals], totals)]


def luck_of(dice: dict[str, Any]) -> float | None:
    """One seat's dice luck: the analytics' mid-p percentiles of its purposes, weighted by their dice (50 is
    average luck, above 50 luckier); null with no die rolled."""
    weighed = [(group["dice"], group["luck_percentile"]) for group in dice.values()
               if group["luck_percentile"] is not None]
    count = sum(n for n, _ in weighed)
    return round(sum(n * p for n, p in weighed) / count, 1) if count else None


def summary(stored: Sequence[Told], dice_rows: Iterable[dict[str, Any]],
            version: int) -> dict[str, Any]:
    """GET /games/{id}/summary as of the last event of `stored`."""
    walked = walk(stored)
    state = walked.state
    ruleset = find_ruleset(state.ruleset)
    scored = ruleset.scored_by(state)
    score = results.score(state, scored)
    standings = rounds(walked)
    luck = dice_summary(dice_rows)
    now = Standing.of(state)
    seats = {}
    for seat in SEATS:
        enemy = other(seat)
        seats[seat] = {
            "player": state.players[seat], "score": score[seat],
            "vp": now.vp[seat], "vp_by_round": _per_round(standings, "vp", seat),
            "units_lost": now.units_lost[seat], "models_lost": now.models_lost[seat],
            "units_lost_by_round": _per_round(standings, "units_lost", seat),
            "models_lost_by_round": _per_round(standings, "models_lost", seat),
            "units_destroyed": now.units_lost[enemy], "models_destroyed": now.models_lost[enemy],
            "points_destroyed": results.destroyed_by(state, seat),
            "dice_rolled": sum(group["dice"] for group in luck.get(seat, {}).values()),
            "luck_percentile": luck_of(luck.get(seat, {})),
            "time_used_s": round(walked.used[seat], 1)}
    return {"game_id": state.game_id, "ruleset": state.ruleset, "version": version, "status": state.status,
            "battle_round": state.battle_round, "battle_rounds": state.options.battle_rounds, "scored_by": scored,
            "result": result_view(state.result),
            "text": walked.result_text or _so_far(state, scored, score), "seats": seats}


def _so_far(state: GameState, scored: str, score: PerSeat[int]) -> str:
    """The game in a sentence while it is under way: "Battle round 3 of 5: Alice 10, Bob 5 on victory points"."""
    how = "on victory points" if scored == "vp" else "on points destroyed"
    players = ", ".join(f"{state.players[seat]} {score[seat]}" for seat in SEATS)
    if state.status == "setup":
        return f"{state.players['A']} and {state.players['B']} are setting up; nothing is scored yet"
    return f"Battle round {state.battle_round} of {state.options.battle_rounds}: {players} {how} so far"


class ByVersion(Generic[T]):
    """What is made of each game as of a version (its summary; a chart drawn from it), kept by (game, what, version):
    a game's log up to a version never changes, so a client polling the summary, or its charts, between two writes is
    answered without walking the log or drawing again (the caller's horizon names the version: a delayed spectator's
    is an earlier one than a seat's). Bounded: the `size` read last are kept (least recently read out), strongly; a
    kept value is never changed (its readers only read)."""

    def __init__(self, size: int = 256) -> None:
        self.size = size
        self._kept: OrderedDict[tuple[str, str, int], T] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id: str, version: int, make: Callable[[], T], what: str = "") -> T:
        """`what` of `game_id` as of `version`: kept, else `make()` (outside the lock: two readers of a new version
        may both make it, and keep the same)."""
        key = (game_id, what, version)
        with self._lock:
            kept = self._kept.get(key)
            if kept is not None:
                self._kept.move_to_end(key)
                return kept
        made = make()
        with self._lock:
            self._kept[key] = made
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)
        return made

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()


SUMMARIES: ByVersion[dict[str, Any]] = ByVersion()
DRAWN: ByVersion[bytes] = ByVersion()  # the charts of a summary (api/charts.py), by chart and version
