"""What a player checks of a game's result (RULES.md MSN): the score adds up from the units as the state shows
them, and the winner is the seat with the higher score."""
from __future__ import annotations

from typing import Any


def destroyed_points(state: dict[str, Any], seat: str) -> int:
    """MSN.END.1 counted from the datasheets: a destroyed enemy unit's points where its army states them, else 1
    for each enemy model destroyed."""
    total = 0
    for unit in state["units"].values():
        if unit["owner"] == seat or unit.get("split_into"):
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
