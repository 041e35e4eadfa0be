"""The compact view a stream overlay draws: where the game is, whose go, the last roll, the losses."""
from __future__ import annotations

from typing import Any

from warlog.domain.rules.registry import find_ruleset
from warlog.domain.state import GameState
from warlog.domain.state.game import LastRoll
from warlog.projections.state import roll_view


def overlay_view(state: GameState, version: int) -> dict[str, Any]:
    ruleset = find_ruleset(state.ruleset)
    awaiting = ruleset.awaiting(state)
    destroyed: dict[str, list[str]] = {"A": [], "B": []}
    for uid in state.destroyed:
        unit = state.units.get(uid)
        if unit is not None and unit.owner in destroyed:
            destroyed[unit.owner].append(uid)
    roll = latest_roll(state)
    return {
        "game_id": state.game_id, "version": version, "status": state.status,
        "players": dict(state.players), "battle_round": state.battle_round,
        "battle_rounds": state.options.battle_rounds, "phase": state.phase,
        "sub_phase": state.sub_phase, "active_seat": state.active_seat,
        "whose_go": awaiting.get("seat"), "awaiting": awaiting["action"],
        "pass_points": dict(state.pass_points.items()), "cp": dict(state.cp.items()),
        "last_roll": roll_view(roll),
        "units_destroyed": destroyed,  # by the seat that lost them
        "result": None if state.result is None else state.result.to_json(),
    }


def latest_roll(state: GameState) -> LastRoll | None:
    """The newest roll on the table, a free roll included (the state's `last_roll` leaves free rolls out)."""
    rolls = [roll for roll in (state.last_roll, state.last_free_roll) if roll is not None]
    return max(rolls, key=lambda roll: roll.seq, default=None)
