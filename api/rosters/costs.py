"""What a roster says its selections cost: each unit's `points` (the contract's roster section: what the list
says the unit costs, MSN.END.1 scores a destroyed unit by it) and the convert answer's `summary` (the roster's
total, read against the units' sum, and its other cost types: PL, CP, a faction's own).

A cost is a selection's `costs` entry (`{"name": "pts", "value": 85}`) or, in the 1.15 layout, its
`points=` attribute. Points are the cost type named pts / points / Point(s); every other name is kept as the
roster writes it (trimmed)."""
from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

Node = dict[str, Any]
POINTS = frozenset({"pts", "pt", "points", "point", "point(s)", "pts."})


def is_points(name: str) -> bool:
    return name.strip().lower() in POINTS


def amount(value: Any) -> float | None:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return number if math.isfinite(number) else None


def costs_of(node: Node) -> dict[str, float]:
    """One selection's (or the roster's) own costs by name; points under the name "pts"."""
    out: dict[str, float] = {}
    items = node.get("costs")
    for cost in items if isinstance(items, list) else []:
        if not isinstance(cost, dict) or not isinstance(cost.get("name"), str):
            continue
        value = amount(cost.get("value"))
        if value is not None:
            name = "pts" if is_points(cost["name"]) else cost["name"].strip()
            out[name] = out.get(name, 0.0) + value
    if "pts" not in out and amount(node.get("points")) is not None:  # 1.15: points= on the selection
        out["pts"] = amount(node.get("points")) or 0.0
    return out


def walk(node: Node, path: str, skip: set[str]) -> Iterator[Node]:
    yield node
    items = node.get("selections")
    for index, child in enumerate(items if isinstance(items, list) else []):
        where = f"{path}/selections/{index}"
        if isinstance(child, dict) and where not in skip:
            yield from walk(child, where, skip)


def unit_points(selection: Node, path: str, skip: set[str]) -> int | None:
    """The points of a unit: its selection's and everything bought inside it, but a unit nested in it that
    stands as its own (`skip`); null where the roster gives it no points at all."""
    found = [costs_of(node)["pts"] for node in walk(selection, path, skip) if "pts" in costs_of(node)]
    return max(0, min(100_000, round(sum(found)))) if found else None


def everything(roster: Node) -> Iterator[Node]:
    stack = [f for f in roster.get("forces") or [] if isinstance(f, dict)]
    while stack:
        force = stack.pop(0)
        for item in force.get("selections") or []:
            if isinstance(item, dict):
                yield from walk(item, "", set())
        stack += [f for f in force.get("forces") or [] if isinstance(f, dict)]


def summary(roster: Node, units: list[dict[str, Any]], unmapped: list[dict[str, str]]) -> dict[str, Any]:
    """{"points": the units' sum, "stated_points": the roster's own total (null: none stated), "costs": its
    other cost types}. The roster's own totals are used where it states them, else its selections' sum; a
    total that differs from the units' sum is listed in `unmapped`."""
    stated = costs_of(roster)
    summed: dict[str, float] = {}
    for node in everything(roster):
        for name, value in costs_of(node).items():
            summed[name] = summed.get(name, 0.0) + value
    summed.pop("pts", None)  # a roster that states no points total is given none made up
    stated = {**summed, **stated}  # a type only its selections carry (New Recruit's Detachment Points) summed
    points = sum(u.get("points") or 0 for u in units)
    stated_points = round(stated.pop("pts")) if "pts" in stated else None
    if stated_points is not None and stated_points != points:
        unmapped.append({"path": "roster/costs", "what": f"the roster states {stated_points} points; the units "
                                                         f"converted carry {points} (the rest is on selections "
                                                         "that are no unit, or on units not mustered)"})
    return {"points": points, "stated_points": stated_points,
            "costs": {name: (int(v) if v == int(v) else v) for name, v in stated.items()}}
