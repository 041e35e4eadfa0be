"""How a game ends, in every ruleset (RULES.md MSN): the score that decides it and the result it logs.

- MSN.END.1: after the last battle round, more VP wins where the game has objectives; a game without objectives is
  scored by what each seat destroyed (a destroyed enemy unit's `points` where its army states them, else 1 per
  enemy model destroyed; each part of a unit split before the battle counts as a unit, worth its share of the
  whole's points). Equal is a draw.
- MSN.END.2: at the end of a phase, a seat with no unit left on the battlefield and none still to come (every
  unit of it has no model left) loses; both at once is a draw.
- MSN.END.3: the conceding seat loses.

The result is logged whole in `GameEnded` (`winner`, `draw`, `by`, `score`, `rule`); a game created before
results were judged (rules/editions.py) logged only `reason` and `winner`, and its result is read with the score
its state holds, by the same functions.
"""
from __future__ import annotations

from typing import Literal

from warlog.domain.rules import editions
from warlog.domain.rules.basics import SEATS, alive
from warlog.domain.state import GameState, PerSeat, Unit

By = Literal["vp", "destroyed", "wipeout", "concession", "time"]
Scored = Literal["vp", "destroyed"]

# why the game ended (GameEnded's `reason`) -> how it was decided, where not by the score
BY_REASON: dict[str, By] = {"concede": "concession", "wipeout": "wipeout", "time": "time"}
RULE_BY: dict[By, str] = {"vp": "MSN.END.1", "destroyed": "MSN.END.1", "wipeout": "MSN.END.2",
                          "concession": "MSN.END.3", "time": "MSN.CLK.1"}


def scored_by(state: GameState) -> Scored:
    """MSN.END.1: a game with objectives is scored by VP, one without by what each seat destroyed (a ruleset
    whose own rules keep a score says so itself: `Flow.scored_by`)."""
    return "vp" if state.options.objectives else "destroyed"


def destroyed_by(state: GameState, seat: str) -> int:
    """MSN.END.1: what `seat` destroyed of the enemy: each destroyed unit's points where its army states them,
    else 1 for each of its models destroyed."""
    split = editions.fixed(state, "MSN.END.1/split")
    return sum(_worth(state, unit, split) for unit in state.units.values() if unit.owner != seat)


def _worth(state: GameState, unit: Unit, split: bool) -> int:
    """A destroyed unit's points, else 1 a model destroyed. A unit split before the battle (CORE.SPL.1) is two
    units: each counts its own models, and each is worth its share of the points its army states for the whole
    (by its models, the part that kept the unit's id the rest), so both destroyed are worth the whole. A game
    created before that fix (rules/editions.py) counted nothing of the part that kept the id."""
    if unit.split_into is not None and not split:
        return 0
    if unit.points is not None:
        return 0 if alive(unit) else points_of(state, unit) or 0
    return max(0, unit.starting_strength - unit.models_alive)


def points_of(state: GameState, unit: Unit) -> int | None:
    """The points a unit is worth destroyed (its datasheet's `points`): what its army states, or for a part of a
    unit split before the battle, in a game judged by that fix, its share of the whole's (each part keeps the
    figure its army states for the whole) by the parts' models, the new part's rounded down."""
    points = unit.points
    other = state.units.get(unit.split_into or unit.split_from or "")
    if points is None or other is None or not editions.fixed(state, "MSN.END.1/split"):
        return points
    new = unit if unit.split_from is not None else other
    new_share = points * new.starting_strength // max(1, unit.starting_strength + other.starting_strength)
    return new_share if new is unit else points - new_share


def score(state: GameState, scored: Scored) -> PerSeat[int]:
    """Each seat's score as the game is scored: its VP, or what it destroyed."""
    if scored == "vp":
        return state.vp or PerSeat(0, 0)
    return PerSeat(destroyed_by(state, "A"), destroyed_by(state, "B"))


def higher(points: PerSeat[int]) -> str | None:
    """The seat with the higher score; None when equal."""
    return None if points.A == points.B else "A" if points.A > points.B else "B"


def wiped_out(state: GameState) -> tuple[str, ...]:
    """MSN.END.2: the seats with no unit left on the battlefield and none still to come (a unit in reserves or
    embarked keeps its models: it is still to come)."""
    standing = {unit.owner for unit in state.units.values() if alive(unit)}
    return tuple(seat for seat in SEATS if seat not in standing)


def by_of(reason: str, scored: Scored) -> By:
    """How a game that ended for `reason` was decided (a game that ran its battle rounds: by its score)."""
    return BY_REASON.get(reason) or scored
