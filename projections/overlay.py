"""The compact view a stream overlay draws: where the game is, whose go, the last roll, the losses."""
from __future__ import annotations

from typing import Any

from warlog.domain.rules.registry import find_ruleset
from warlog.domain.state.bridge import StateView


def overlay_view(state: dict[str, Any], version: int) -> dict[str, Any]:
    state = StateView.of(state)  # the game's dict view, or a past state's JSON (domain/state/bridge.py)
    ruleset = find_ruleset(state["ruleset"])
    awaiting = ruleset.awaiting(state.seen_by(ruleset))
    destroyed: dict[str, list[str]] = {"A": [], "B": []}
    for uid in state.get("destroyed", []):
        owner = state["units"].get(uid, {}).get("owner")
        if owner in destroyed:
            destroyed[owner].append(uid)
    return {
        "game_id": state["game_id"], "version": version, "status": state["status"],
        "players": state["players"], "battle_round": state["battle_round"],
        "battle_rounds": state["options"].get("battle_rounds"), "phase": state["phase"],
        "sub_phase": state["sub_phase"], "active_seat": state["active_seat"],
        "whose_go": awaiting.get("seat"), "awaiting": awaiting["action"],
        "pass_points": dict(state["pass_points"]), "cp": dict(state["cp"]),
        "last_roll": latest_roll(state),
        "units_destroyed": destroyed,  # by the seat that lost them
        "result": state.get("result"),
    }


def latest_roll(state: dict[str, Any]) -> dict[str, Any] | None:
    """The newest roll on the table, a free roll included (the state's `last_roll` leaves free rolls out)."""
    rolls = [roll for roll in (state.get("last_roll"), state.get("last_free_roll")) if roll]
    return max(rolls, key=lambda roll: roll["seq"], default=None)
