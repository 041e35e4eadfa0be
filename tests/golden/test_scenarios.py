"""Golden scenarios: data files replayed through the HTTP contract, the state asserted after every go.

A scenario file (tests/golden/scenarios/*.json) holds one game:

    {"title": "...", "ruleset": "alternating", "rules": ["AA.PP.2"], "dice": "table", "options": {},
     "armies": {"A": [unit spec, ...], "B": [...]},
     "steps": [{"seat": "A", "command": {"type": "select", "unit": "x"},
                "expect": {"status": 200, "rule": "...", "events": [...], "absent": [...],
                           "state": {...}, "views": {"B": {...}}}}, ...]}

A unit spec is `{"unit": id, ...}` or `{"vehicle": id, ...}`, the rest being the keyword arguments of
`tests.support.client.unit` / `vehicle`. `ruleset` defaults to "alternating". A step's `seat` is "A", "B"
or "awaiting": the seat `awaiting` names before the step (a server-dice roll-off's winner). A step sends a
`command`, or `"undo": "undo" | "approve" | "reject" | "redo"`; `"repeat_while_awaiting": "roll_off"` sends
it again while the game still awaits that (a server-dice roll-off that tied). `expect.status` defaults to
200; a refusal (409, 422) must name `rule` (when given) and append nothing. `events` are matched, in order,
against the events the step appended; `absent` names event types it must not have appended. `state` is
matched against `GET /state` as the step's seat sees it, `views` against other seats' views. Matching is by
subset: a dict names only the keys it cares about, a list is matched element by element and must have the
same length; the string "*" matches any value (server dice: assert structure, not faces).
"""
from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.support.client import GameClient, unit, vehicle
from tests.support.payloads import untitled

SCENARIOS = sorted((Path(__file__).parent / "scenarios").glob("*.json"))
UNDO_PATHS = {"undo": "undo", "approve": "undo/approve", "reject": "undo/reject", "redo": "redo"}


def build(spec: dict[str, Any]) -> dict[str, Any]:
    fields = dict(spec)
    if "vehicle" in fields:
        return vehicle(fields.pop("vehicle"), **fields)
    uid = fields.pop("unit")
    count = fields.pop("count", 5)
    return unit(uid, count, **fields)


def mismatch(expected: Any, actual: Any, where: str = "") -> str | None:
    """Where `actual` fails to contain `expected` (None if it does); "*" stands for any value."""
    if expected == "*":
        return None
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return f"{where or '.'}: expected an object, got {actual!r}"
        for key, value in expected.items():
            if key not in actual:
                return f"{where}.{key}: missing (have {sorted(actual)})"
            found = mismatch(value, actual[key], f"{where}.{key}")
            if found:
                return found
        return None
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return f"{where}: expected {len(expected)} items {expected!r}, got {actual!r}"
        for index, (want, have) in enumerate(zip(expected, actual)):
            found = mismatch(want, have, f"{where}[{index}]")
            if found:
                return found
        return None
    return None if expected == actual else f"{where}: expected {expected!r}, got {actual!r}"


def match_events(expected: list[dict[str, Any]], appended: list[dict[str, Any]]) -> str | None:
    """Each expected event matches a later appended one than the previous match (a subsequence)."""
    position = 0
    for want in expected:
        while position < len(appended) and mismatch(want, appended[position]):
            position += 1
        if position == len(appended):
            return f"no appended event matches {want!r} in order; appended: " + ", ".join(
                f"{e['type']}{e['data']}" for e in appended)
        position += 1
    return None


def last_seq(game: GameClient) -> int:
    response = game.http.get(f"/games/{game.id}/events", params={"after": 0, "limit": 1}, headers=game.headers("A"))
    return response.json()["last_seq"]


def send(game: GameClient, seat: str, step: dict[str, Any]) -> Any:
    if "undo" in step:
        return game.post(seat, UNDO_PATHS[step["undo"]])
    return game.send(seat, step["command"])


def run_step(game: GameClient, number: int, step: dict[str, Any]) -> None:
    seat, expect = step["seat"], step.get("expect", {})
    if seat == "awaiting":
        seat = game.state()["awaiting"]["seat"]
        assert seat in ("A", "B"), f"step {number}: awaiting names no seat"
    label = f"step {number} ({seat} {step.get('command') or step.get('undo')})"
    before = last_seq(game)
    response = send(game, seat, step)
    while step.get("repeat_while_awaiting") and response.status_code == 200 \
            and game.state()["awaiting"]["action"] == step["repeat_while_awaiting"]:
        before = last_seq(game)
        response = send(game, seat, step)
    status = expect.get("status", 200)
    assert response.status_code == status, f"{label}: {response.status_code} {response.text}"
    body = response.json()
    if "rule" in expect:
        assert body.get("rule") == expect["rule"], f"{label}: rule {body.get('rule')!r}: {body.get('detail')}"
    appended = game.events(after=before)
    if status >= 400:
        assert not appended, f"{label}: a refusal appended {appended}"
    else:
        assert [e["seq"] for e in body["events"]] == [e["seq"] for e in appended], label
        problem = match_events(expect.get("events", []), appended)
        assert problem is None, f"{label}: {problem}"
        types = {e["type"] for e in appended}
        for absent in expect.get("absent", []):
            assert absent not in types, f"{label}: appended {absent}"
    _check_views(game, label, seat, expect)


def _check_views(game: GameClient, label: str, seat: str, expect: dict[str, Any]) -> None:
    for role, wanted in [(seat, expect.get("state")), *expect.get("views", {}).items()]:
        if wanted is not None:
            wanted, view = dict(wanted), game.state(role)
            # the scenarios name a choice's values as an enum, as offers read before issue 24 titled them
            # (tests/e2e/test_titled_choices.py holds the titles)
            view["actions"] = untitled(view.get("actions", []))
            if "action_types" in wanted:  # the types of the legal actions offered to that seat
                view["action_types"] = sorted({a["type"] for a in view["actions"]})
            problem = mismatch(wanted, view)
            assert problem is None, f"{label}, state as {role} sees it: {problem}"


def played(http: Any, scenario: dict[str, Any], client: type[GameClient] = GameClient,
           after_step: Callable[[GameClient, int], None] | None = None) -> GameClient:
    """The scenario's game played step by step (each step's expectations held), `after_step` called after each."""
    game = client(http, scenario.get("ruleset", "alternating"), scenario.get("dice", "table"), scenario.get("options"))
    for seat in ("A", "B"):
        response = game.muster(seat, [build(spec) for spec in scenario["armies"][seat]])
        assert response.status_code == 200, response.text
    for number, step in enumerate(scenario["steps"], 1):
        run_step(game, number, step)
        if after_step is not None:
            after_step(game, number)
    return game


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_golden_scenario_replays_with_the_expected_state_after_every_go(http, path):
    verified = played(http, json.loads(path.read_text())).verify()
    assert verified["chain_ok"] is True and verified["first_bad_seq"] is None
    assert verified["commands_ok"] is True, str(verified)  # every stored request plays again to its events


def test_every_scenario_names_the_rules_it_pins_and_asserts_state_after_each_accepted_go():
    assert SCENARIOS, "no golden scenarios found"
    for path in SCENARIOS:
        scenario = json.loads(path.read_text())
        assert scenario.get("rules"), f"{path.name} names no rule"
        for number, step in enumerate(scenario["steps"], 1):
            expect = step.get("expect", {})
            if expect.get("status", 200) < 400:
                assert "state" in expect, f"{path.name} step {number} asserts no state"
            else:
                assert "rule" in expect or expect["status"] != 409, f"{path.name} step {number}: 409 names no rule"
