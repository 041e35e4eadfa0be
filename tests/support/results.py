"""What a player checks of a game's result (RULES.md MSN): the score adds up from the units as the state shows
them, and the winner is the seat with the higher score."""
from __future__ import annotations

from typing import Any


def destroyed_points(state: dict[str, Any], seat: str) -> int:
    """MSN.END.1 counted from the datasheets: a destroyed enemy unit's points where its army states them (a part of
    a unit split before the battle: its share, as its datasheet says), else 1 for each enemy model destroyed."""
    total = 0
    for unit in state["units"].values():
        if unit["owner"] == seat:
            continue
        if unit.get("points") is not None:
            total += unit["points"] if unit["models_alive"] == 0 else 0
        else:
            total += unit["starting_strength"] - unit["models_alive"]
    return total


def assert_result_adds_up(state: dict[str, Any]) -> None:
    result = state["result"]
    assert state["status"] == "ended" and result is not None
    score = result["score"]
    if result["by"] == "destroyed":
        assert score == {"A": destroyed_points(state, "A"), "B": destroyed_points(state, "B")}, result
        assert result["rule"] == "MSN.END.1"
    elif result["by"] == "vp":
        assert score == state["vp"] and result["rule"] == "MSN.END.1"
    if result["by"] in ("vp", "destroyed"):
        expected = None if score["A"] == score["B"] else "A" if score["A"] > score["B"] else "B"
        assert result["winner"] == expected and result["draw"] is (expected is None), result
    if result["by"] == "wipeout":
        standing = {u["owner"] for u in state["units"].values() if u["models_alive"] > 0}
        assert result["rule"] == "MSN.END.2" and result["winner"] in (standing or {None}), result


def assert_summary_adds_up(http: Any, game_id: str, token: str, state: dict[str, Any]) -> dict[str, Any]:
    """GET /summary as a player would check it against the table: VP by round sums to the VP, losses by round to
    the losses, the score is the result's, points destroyed are the datasheets' and the units lost are the units
    the log says were destroyed (the analytics' count)."""
    headers = {"Authorization": f"Bearer {token}"}
    told = http.get(f"/games/{game_id}/summary", headers=headers).json()
    analytics = http.get(f"/games/{game_id}/analytics", headers=headers).json()
    assert told["status"] == state["status"] and told["result"] == state["result"]
    for seat, side in told["seats"].items():
        assert sum(side["vp_by_round"]) == side["vp"] == (state.get("vp") or {}).get(seat, 0), (seat, side)
        assert sum(side["models_lost_by_round"]) == side["models_lost"], (seat, side)
        assert sum(side["units_lost_by_round"]) == side["units_lost"], (seat, side)
        assert len(side["vp_by_round"]) == state["battle_round"]
        assert side["points_destroyed"] == destroyed_points(state, seat), (seat, side)
        assert side["units_lost"] == analytics["units_destroyed"].get(seat, {"count": 0})["count"], (seat, side)
        if state["result"] is not None:
            assert side["score"] == state["result"]["score"][seat]
    return told
