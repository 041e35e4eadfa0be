"""The compact view a stream overlay draws: where the game is, whose go, the score, the last roll, the losses and
the result, in the players' words (names, the roll's and the result's own sentences)."""
from __future__ import annotations

from typing import Any

from warlog.domain.rules.registry import find_ruleset
from warlog.domain.state import GameState
from warlog.domain.state.game import LastRoll
from warlog.domain.words import awaited_said, shown_name, stage_title
from warlog.projections.state import result_view, roll_view, vp_view


def overlay_view(state: GameState, version: int, result_text: str | None = None) -> dict[str, Any]:
    """`result_text`: the sentence of the `GameEnded` event that ended the game (its `text`), once it has."""
    ruleset = find_ruleset(state.ruleset)
    awaiting, result = ruleset.awaiting(state), result_view(state.result)
    destroyed: dict[str, list[str]] = {"A": [], "B": []}
    for uid in state.destroyed:
        unit = state.units.get(uid)
        if unit is not None and unit.owner in destroyed:
            destroyed[unit.owner].append(uid)
    view = {
        "game_id": state.game_id, "version": version, "status": state.status,
        "players": dict(state.players), "battle_round": state.battle_round,
        "battle_rounds": state.options.battle_rounds, "phase": state.phase,
        "sub_phase": state.sub_phase, "phase_title": stage_title(state.phase, state.sub_phase),
        "active_seat": state.active_seat, "whose_go": awaiting.get("seat"), "awaiting": awaiting["action"],
        "awaiting_text": awaited_said(state, awaiting, None),  # to the stream's viewers: the players by name
        "pass_points": dict(state.pass_points.items()), "cp": dict(state.cp.items()),
        "last_roll": overlay_roll(state, latest_roll(state)),
        "units_destroyed": destroyed,  # by the seat that lost them
        "units_destroyed_names": {seat: [shown_name(state, uid) for uid in lost] for seat, lost in destroyed.items()},
        "result": None if result is None else {**result, "text": result_text},
    }
    vp = vp_view(ruleset, state)
    if vp is not None:
        view["vp"] = vp
    return view


def overlay_roll(state: GameState, roll: LastRoll | None) -> dict[str, Any] | None:
    """The roll as GET /state shows it, and the name of the unit it is for."""
    view = roll_view(roll)
    if roll is None or view is None:
        return None
    uid = roll.unit
    return {**view, "unit_name": shown_name(state, uid) if uid is not None and uid in state.units else uid}


def latest_roll(state: GameState) -> LastRoll | None:
    """The newest roll on the table, a free roll included (the state's `last_roll` leaves free rolls out)."""
    rolls = [roll for roll in (state.last_roll, state.last_free_roll) if roll is not None]
    return max(rolls, key=lambda roll: roll.seq, default=None)
