"""The current-phase projection: what `GET /state` serves (CONTRACT.md "Reading")."""
from __future__ import annotations

from typing import Any

from warlog.domain import army
from warlog.domain.game import Game
from warlog.domain.rules.registry import find_ruleset
from warlog.domain.state.bridge import StateView


def unit_view(state: dict[str, Any], uid: str, eligible: bool) -> dict[str, Any]:
    unit = state["units"][uid]
    return {"owner": unit["owner"], "name": unit["name"], "models_alive": unit["models_alive"],
            "starting_strength": unit["starting_strength"], "strength": army.unit_strength(state["units"], uid),
            "wounds_lost": unit.get("wounds_lost", 0), "statuses": list(unit["statuses"]),
            "selected": unit["selected"], "eligible": eligible, "in_reserves": bool(unit.get("in_reserves")),
            "arriving": bool(unit.get("arriving")), "embarked_in": unit.get("embarked_in"),
            "action": unit["turn"].get("action"),  # reference: the action it started this turn (RS.CMD.3)
            # CORE.PER.1/2 (reference): what lasts for a while, since when and until when
            "effects": [{"effect": e["effect"], "by": e["by"], "until": e["until"], "since_seq": e["seq"],
                         "since": {"battle_round": e["battle_round"], "phase": e["phase"]}}
                        for e in unit.get("effects", [])]}


def state_view(state: dict[str, Any], version: int, seat: str | None = None,
               game: Game | None = None) -> dict[str, Any]:
    """`game`: the live game, whose seat gets its legal actions; a past or delayed state offers none. `state`: the
    game's dict view (domain/state/bridge.py), or a past state's JSON."""
    state = StateView.of(state)
    ruleset = find_ruleset(state["ruleset"])
    seen = state.seen_by(ruleset)
    in_step = state["status"] == "in_progress"
    view = {
        "game_id": state["game_id"], "ruleset": state["ruleset"], "version": version,
        "status": state["status"], "battle_round": state["battle_round"], "active_seat": state["active_seat"],
        "phase": state["phase"], "sub_phase": state["sub_phase"], "awaiting": ruleset.awaiting(seen),
        "pass_points": dict(state["pass_points"]), "declared_done": dict(state["declared_done"]),
        "cp": dict(state["cp"]), "dice": state["dice"], "players": state["players"],
        "options": state["options"], "dice_commitment": state["dice_commitment"],
        "mustered": dict(state["mustered"]), "result": state["result"], "last_roll": state["last_roll"],
        # CORE.SEQ.1: rules triggered at once wait in this order (the active player's first); `awaiting` is the head
        "queue": [{k: request[k] for k in ("seat", "purpose", "unit", "spec", "rule")} for request in state["rolls"]],
        "round_heads": list(state.get("round_heads", [])),  # keep them: `verify?head=` checks the log extends them
        "units": {uid: unit_view(state, uid, in_step and ruleset.eligible(seen, uid)) for uid in state["units"]},
    }
    if ruleset.keeps_vp:
        view["vp"] = dict(state.get("vp") or {"A": 0, "B": 0})
    if seat is not None:
        view["actions"], view["anytime"], view["records"] = [], [], []
        if game is not None and seat in ("A", "B"):  # the live game offers a player's seat what it may do
            view["actions"] = [a.as_dict() for a in game.actions(seat)]
            view["anytime"] = game.anytime(seat)
            view["records"] = [a.as_dict() for a in game.records(seat, view["anytime"])]
    return view


def undo_view(game: Game, seat: str | None) -> dict[str, Any]:
    """What undo and redo would do now, for this seat."""
    pending = game.pending_undo
    undo = None
    if game.done and game.state.status != "ended":
        first, last, by, rolled = game.done[-1]
        immediate = seat == by and not rolled
        undo = {"seqs": list(range(first, last + 1)), "action_by": by, "rolled_dice": rolled,
                "needs_consent": not immediate}
    redo = None
    if game.redo_stack and game.state.status != "ended":
        first, last, _by, _rolled, undone_by = game.redo_stack[-1]
        redo = {"seqs": list(range(first, last + 1)), "allowed": seat == undone_by}
    return {"undo": undo, "redo": redo,
            "pending_request": None if pending is None else {
                "requested_by": pending["seat"], "seqs": pending["seqs"],
                "you_answer": seat is not None and seat != pending["seat"]}}
