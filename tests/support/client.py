"""A small table-side client over the HTTP contract, shared by the e2e, golden and property tests."""
from __future__ import annotations

import copy
from typing import Any

import httpx


def unit(uid: str, count: int = 5, *, keywords: tuple[str, ...] = ("INFANTRY",), abilities: tuple[str, ...] = (),
         ranged: bool = True, statuses: tuple[str, ...] = (), **fields: Any) -> dict[str, Any]:
    """A unit in the contract's shape; keyword arguments override any top-level field."""
    body: dict[str, Any] = {
        "id": uid, "name": uid.replace("-", " ").title(), "keywords": list(keywords), "abilities": list(abilities),
        "models": [{"name": "Model", "count": count, "M": 6, "T": 4, "Sv": 4, "InSv": None, "W": 1, "Ld": 7,
                    "OC": 1, "BS": 3, "WS": 3, "I": 4, "A": 1, "hull_points": None}],
        "weapons": ([{"name": "Boltgun", "type": "ranged", "range": 24, "A": "2", "skill": 3, "S": 4, "AP": 0,
                      "D": "1", "kind": "rapid_fire", "keywords": ["RAPID FIRE 1"]}] if ranged else [])
        + [{"name": "Knife", "type": "melee", "A": "1", "S": 4, "AP": 0, "D": "1"}],
        "transport": None, "embarked_in": None, "in_reserves": False, "leader_of": None,
        "statuses": list(statuses),
    }
    body.update(copy.deepcopy(fields))
    return body


def vehicle(uid: str, *, hull_points: int = 3, M: int = 12, capacity: int | None = None, fire_points: int = 0,
            weapons: bool = True, **fields: Any) -> dict[str, Any]:
    body = unit(uid, 1, keywords=("VEHICLE",) + (("TRANSPORT",) if capacity else ()), ranged=weapons, **fields)
    body["models"][0].update(M=M, W=hull_points, hull_points=hull_points, T=7, Sv=3)
    body["weapons"] = [w for w in body["weapons"] if w["type"] == "ranged"]
    if capacity:
        body["transport"] = {"capacity": capacity, "fire_points": fire_points}
    return body


class GameClient:
    """One game seen from the table: `g.cmd("A", "select", unit="x")`, `g.state()`."""

    def __init__(self, http: httpx.Client, ruleset: str = "alternating", dice: str = "server",
                 options: dict[str, Any] | None = None) -> None:
        self.http = http
        response = http.post("/games", json={
            "ruleset": ruleset, "dice": dice, "options": options or {},
            "players": [{"seat": "A", "name": "Alice"}, {"seat": "B", "name": "Bob"}]})
        assert response.status_code == 201, response.text
        self.created = response.json()
        self.id = self.created["game_id"]
        self.tokens = self.created["tokens"]

    def headers(self, role: str, **extra: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[role]}", **extra}

    def muster(self, seat: str, units: list[dict[str, Any]]) -> httpx.Response:
        return self.http.post(f"/games/{self.id}/armies", json={"units": units}, headers=self.headers(seat))

    def send(self, seat: str, body: dict[str, Any], **headers: str) -> httpx.Response:
        return self.http.post(f"/games/{self.id}/commands", json=body, headers=self.headers(seat, **headers))

    def cmd(self, seat: str, type_: str, **fields: Any) -> dict[str, Any]:
        """Send a command that must be accepted; returns {"version", "events"}."""
        response = self.send(seat, {"type": type_, **fields})
        assert response.status_code == 200, f"{type_} by {seat}: {response.status_code} {response.text}"
        return response.json()

    def refused(self, seat: str, type_: str, **fields: Any) -> dict[str, Any]:
        """Send a command that must be refused by a rule (409); returns the problem."""
        response = self.send(seat, {"type": type_, **fields})
        assert response.status_code == 409, f"{type_} by {seat}: {response.status_code} {response.text}"
        return response.json()

    def post(self, seat: str, path: str, **headers: str) -> httpx.Response:
        return self.http.post(f"/games/{self.id}/{path}", headers=self.headers(seat, **headers))

    def state(self, role: str = "A") -> dict[str, Any]:
        response = self.http.get(f"/games/{self.id}/state", headers=self.headers(role))
        assert response.status_code == 200, response.text
        return response.json()

    def events(self, role: str = "A", after: int = 0, limit: int = 1000) -> list[dict[str, Any]]:
        events: list[dict[str, Any]] = []
        while True:
            page = self.http.get(f"/games/{self.id}/events", params={"after": after, "limit": limit},
                                 headers=self.headers(role)).json()
            events += page["events"]
            if not page["events"] or page["events"][-1]["seq"] >= page["last_seq"]:
                return events
            after = page["events"][-1]["seq"]

    def verify(self, role: str = "A") -> dict[str, Any]:
        return self.http.get(f"/games/{self.id}/verify", headers=self.headers(role)).json()

    def start(self, army_a: list[dict[str, Any]], army_b: list[dict[str, Any]]) -> dict[str, Any]:
        assert self.muster("A", army_a).status_code == 200
        assert self.muster("B", army_b).status_code == 200
        return self.cmd("A", "start_game")


SEAT_ONLY = ("actions", "anytime", "records", "undo_request")  # what a seat may send now (and the undo request
# waiting): the live game's, never a past or delayed state's


def table_of(state: dict[str, Any], *leave_out: str) -> dict[str, Any]:
    """The state as the table stands, without what only the live game offers a seat (and `leave_out`), and what
    it waits for without its sentence to the reader (`awaits`)."""
    table = {k: v for k, v in state.items() if k not in SEAT_ONLY + leave_out}
    return {**table, "awaiting": awaits(state)} if "awaiting" in table else table


def play_awaited(game: GameClient) -> dict[str, Any]:
    """Send the plainest instance of the first action offered for what the game awaits (its seat's); a roll-off
    at the table is won by seat A."""
    from tests.support.instances import simplest

    awaiting = game.state()["awaiting"]
    seat = awaiting["seat"] or "A"
    offered = [a for a in game.state(seat)["actions"] if a["type"] == awaiting["action"]]
    assert offered, f"seat {seat} is awaited for {awaiting['action']} but offered nothing"
    body = simplest(offered[0]["schema"])
    if body["type"] == "roll_off" and "dice" in body:
        body["dice"] = {"A": 6, "B": 1}  # the plainest dice would tie, and a tie is rolled again
    return game.cmd(seat, body["type"], **{k: v for k, v in body.items() if k != "type"})


def keep_dice(game: GameClient, answer: dict[str, Any]) -> dict[str, Any]:
    """Decline every Command Re-roll an attack offers now (reference, EXT.CP.1): the answer's events with those
    the attack appended as it went on."""
    events = list(answer["events"])
    while game.state()["awaiting"]["action"] in ("command_reroll", "keep_dice"):
        events += game.cmd(game.state()["awaiting"]["seat"], "keep_dice")["events"]
    return {**answer, "events": events}


def awaits(state: dict[str, Any]) -> dict[str, Any]:
    """What GET /state says the game waits for, without its sentence to the reader (`awaiting.text`, which
    tests/e2e/test_state_in_words.py holds): what a test compares whole."""
    return {key: value for key, value in state["awaiting"].items() if key != "text"}
