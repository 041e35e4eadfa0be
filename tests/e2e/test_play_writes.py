"""`api.writing.PlayWrites` serves the play writes past FastAPI's routing, and `api.app.Cors` answers a request
without Origin past Starlette's CORS middleware: every answer, refusal and header must be the one FastAPI's own
route and Starlette's middleware give. The same requests go to two apps on two stores, one as served and one with
neither, with the same game ids, tokens, dice seeds and clock (tests/golden/record.py), and every answer is
compared byte for byte."""
from __future__ import annotations

import json
from typing import Any

from fastapi.middleware.cors import CORSMiddleware
from fastapi.testclient import TestClient
from starlette.middleware import Middleware

from tests.conftest import settings_for
from tests.golden.record import Clock, deterministic
from tests.support.client import unit
from warlog.api.app import Cors, create_app
from warlog.api.writing import PlayWrites

ROLL = {"type": "free_roll", "spec": "2D6", "purpose": "same"}


def requests(game: dict[str, Any], other: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    """(method, path, httpx keyword arguments) of every request compared."""
    gid, tokens = game["game_id"], game["tokens"]

    def by(role: str, **headers: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {tokens[role]}", **headers}

    commands = f"/games/{gid}/commands"
    return [
        ("POST", commands, {"json": {"type": "start_game"}, "headers": by("A")}),
        ("POST", commands, {"json": ROLL, "headers": by("A", **{"Idempotency-Key": "k1"})}),
        ("POST", commands, {"json": ROLL, "headers": by("A", **{"Idempotency-Key": "k1"})}),  # replayed
        ("POST", commands, {"json": {**ROLL, "purpose": "other"}, "headers": by("A", **{"Idempotency-Key": "k1"})}),
        ("POST", f"/games/{gid}/undo", {"headers": by("A", **{"Idempotency-Key": "k1"})}),  # another endpoint
        ("POST", commands, {"content": b"{not json", "headers": by("A", **{"Idempotency-Key": "k2",
                                                                            "Content-Type": "application/json"})}),
        ("POST", commands, {"content": b"{not json", "headers": by("A", **{"Idempotency-Key": "k2",
                                                                            "Content-Type": "application/json"})}),
        ("POST", commands, {"content": b"roll", "headers": by("A", **{"Content-Type": "text/plain"})}),
        ("POST", commands, {"json": {"type": "no_such"}, "headers": by("A")}),
        ("POST", commands, {"json": {"type": "free_roll", "spec": "2Q6"}, "headers": by("A")}),
        ("POST", commands, {"json": {"type": "select", "unit": "ghosts"}, "headers": by("A")}),
        ("POST", commands, {"json": {"type": "choose_order", "first": "A"}, "headers": by("B")}),  # a rule refuses
        ("POST", commands + "?after=1", {"json": ROLL, "headers": by("A")}),
        ("POST", commands, {"json": ROLL}),
        ("POST", commands, {"json": ROLL, "headers": {"Authorization": "Bearer nope"}}),
        ("POST", commands, {"json": ROLL, "headers": by("spectator")}),
        ("POST", f"/games/{other['game_id']}/commands", {"json": ROLL, "headers": by("A")}),
        ("POST", "/games/not-a-game/commands", {"json": ROLL, "headers": by("A")}),
        ("POST", commands, {"json": ROLL, "headers": by("A", **{"If-Match": '"1"'})}),
        ("POST", commands, {"json": ROLL, "headers": by("A", **{"If-Match": "*"})}),
        ("POST", commands, {"json": ROLL, "headers": by("A", **{"Idempotency-Key": "x" * 256})}),
        ("POST", commands, {"json": ROLL, "headers": by("A", **{"Known-Head": "12"})}),
        ("POST", commands, {"content": b"[" + b"0," * 40_000 + b"0]", "headers": by("A")}),
        ("POST", commands, {"json": ROLL, "headers": by("A", Origin="https://table.example")}),
        ("OPTIONS", commands, {"headers": {"Origin": "https://table.example", "Access-Control-Request-Method": "POST"}}),
        ("GET", commands, {"headers": by("A")}),
        ("POST", commands + "/", {"json": ROLL, "headers": by("A")}),
        ("POST", f"/games/{gid}/undo", {"headers": by("B")}),
        ("POST", f"/games/{gid}/undo", {"headers": by("A")}),  # 202: it rolled dice
        ("POST", f"/games/{gid}/undo/approve", {"json": {"why": 1}, "headers": by("B")}),
        ("POST", f"/games/{gid}/undo/approve", {"headers": by("A")}),
        ("POST", f"/games/{gid}/undo/reject", {"json": {}, "headers": by("B")}),
        ("POST", f"/games/{gid}/undo", {"json": None, "headers": by("A")}),
        ("POST", f"/games/{gid}/undo/approve", {"headers": by("B")}),
        ("POST", f"/games/{gid}/redo", {"headers": by("B")}),
        ("POST", f"/games/{gid}/redo", {"headers": by("A", **{"Idempotency-Key": "r"})}),
        ("POST", f"/games/{gid}/redo", {"headers": by("A", **{"Idempotency-Key": "r"})}),
        ("GET", f"/games/{gid}/events", {"headers": by("A")}),
        ("POST", commands, {"json": ROLL, "headers": by("A", **{"Known-Head": "1:" + "0" * 64})}),  # damages it
        ("POST", commands, {"json": ROLL, "headers": by("B")}),
    ]


def played(tmp_path: Any, direct: bool) -> list[tuple[int, list[tuple[str, str]], bytes]]:
    clock = Clock()
    tmp_path.mkdir()
    app = create_app(settings_for(tmp_path, max_command_bytes=64 * 1024))
    if not direct:
        app.user_middleware = [Middleware(CORSMiddleware, *m.args, **m.kwargs) if m.cls is Cors else m
                               for m in app.user_middleware if m.cls is not PlayWrites]
    answers = []
    with deterministic(clock), TestClient(app) as http:
        made = []
        for _ in range(2):
            made.append(http.post("/games", json={"ruleset": "alternating", "players": [
                {"seat": "A", "name": "Al"}, {"seat": "B", "name": "Bo"}]}).json())
        for seat, units in (("A", [unit("scouts", 5)]), ("B", [unit("boyz", 10)])):
            http.post(f"/games/{made[0]['game_id']}/armies", json={"units": units},
                      headers={"Authorization": f"Bearer {made[0]['tokens'][seat]}"})
        for method, path, arguments in requests(*made):
            clock.tick()
            response = http.request(method, path, follow_redirects=False, **arguments)
            answers.append((response.status_code, sorted(response.headers.items()), response.content))
    return answers


def test_the_direct_play_writes_answer_as_fastapis_routes_do(tmp_path):
    direct, routed = played(tmp_path / "direct", True), played(tmp_path / "routed", False)
    assert len(direct) == len(routed)
    for n, (mine, theirs) in enumerate(zip(direct, routed, strict=True)):
        assert mine == theirs, f"request {n}: {mine} != {theirs}"
    statuses = [status for status, _, _ in direct]
    assert {200, 202, 401, 403, 404, 405, 409, 412, 413, 415, 422} <= set(statuses), statuses
    assert json.loads(direct[2][2]) == json.loads(direct[1][2])  # the key's stored answer, replayed
