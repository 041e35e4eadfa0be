"""Record a golden store: games of every ruleset and dice mode played by the code as it stands, kept as data.

What it writes into OUT (a folder under tests/golden/):

- `warlog.db.gz`: the SQLite store itself (the write-ahead log folded in), read back by
  `tests/golden/test_stored_logs.py` with the code of today: every game must still verify and replay.
- `games.json`: per game its id, ruleset, dice mode, tokens, head hash, event count and `/verify` answer.
- `states.ndjson.gz`: per game and seq, `GET /state?at=SEQ` as seat A read it then.
- `export.ndjson.gz`: every game's `GET /export?format=ndjson` as it was then.
- `requests.ndjson.gz` (with `--deterministic`): every write sent, in order (path, token role, headers, body,
  the clock's reading, the answer's status), so that `tests/golden/test_replay.py` can send them again to
  today's code and ask for the very same events.

The games: every golden scenario (tests/golden/scenarios, scripted: attacks with every weapon ability,
re-rolls, undo and redo), and a random game of each ruleset in both dice modes played from the offered
actions, with undos (consented where they need it) and redos on the way, one of them conceded so that its
server seed is revealed. With `--deterministic` the game ids, tokens and dice seeds come from a seeded
generator and the clock moves one millisecond a write (`deterministic()`), so the store is the same every run.

    .venv/bin/python tests/golden/record.py OUT [--deterministic]   # run from the checkout whose code plays
"""
from __future__ import annotations

import base64
import gzip
import json
import random
import sqlite3
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from unittest import mock
from uuid import UUID

ROOT = Path.cwd()
sys.path.insert(0, str(ROOT))

from fastapi.testclient import TestClient  # noqa: E402

from tests.conftest import settings_for  # noqa: E402
from tests.golden.driver import Driver, HttpTable  # noqa: E402
from tests.golden.test_scenarios import SCENARIOS, build, send  # noqa: E402
from tests.property.test_actions_properties import RULESETS, army  # noqa: E402
from tests.support.client import GameClient  # noqa: E402
from warlog.api.app import create_app  # noqa: E402

MOVES = 120        # per random game
UNDO_EVERY = 25    # moves between an undo (and, every other time, its redo)
EPOCH = datetime(2026, 1, 1, tzinfo=UTC)


class Clock:
    """The service's clock in a recording: it reads what it was set to (one millisecond more each write)."""

    def __init__(self) -> None:
        self.ticks = 0
        self.reading = self.at(0)

    @staticmethod
    def at(ticks: int) -> str:
        return (EPOCH + timedelta(milliseconds=ticks)).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"

    def tick(self) -> str:
        self.ticks += 1
        self.reading = self.at(self.ticks)
        return self.reading

    def now(self) -> str:
        return self.reading


class Seeded:
    """`secrets` for a recording: the same tokens and dice seeds in the same order every run."""

    def __init__(self, seed: int) -> None:
        self.random = random.Random(seed)

    def token_bytes(self, n: int) -> bytes:
        return self.random.randbytes(n)

    def token_urlsafe(self, n: int) -> str:
        return base64.urlsafe_b64encode(self.random.randbytes(n)).rstrip(b"=").decode()

    def uuid4(self) -> UUID:
        return UUID(int=self.random.getrandbits(128), version=4)


@contextmanager
def deterministic(clock: Clock, seed: int = 22) -> Iterator[None]:
    """Game ids, tokens and dice seeds from a seeded generator; the event clock read from `clock`. (The places
    patched are where today's code draws them: a change that moves them changes this list.)"""
    drawn = Seeded(seed)
    with mock.patch("warlog.domain.application.secrets", drawn), mock.patch("warlog.domain.application.uuid4", drawn.uuid4), \
            mock.patch("warlog.api.shards.uuid4", drawn.uuid4), mock.patch("warlog.api.writing.now", clock.now), \
            mock.patch("warlog.api.routes.games.now", clock.now):
        yield


class Requests:
    """Every write the client sends, with the clock's reading it was answered at and the status."""

    def __init__(self, http: TestClient, clock: Clock | None) -> None:
        self.rows: list[dict[str, Any]] = []
        self.clock = clock
        http.event_hooks = {"request": [self.sent], "response": [self.answered]}

    def sent(self, request: Any) -> None:
        if request.method != "POST":
            return
        at = self.clock.tick() if self.clock else None
        body = request.read()
        try:  # the body as sent, byte for byte (a JSON object's key order is the client's, and events keep it)
            content: Any = {"text": body.decode("utf-8")}
        except UnicodeDecodeError:
            content = {"bytes": base64.b64encode(body).decode()}
        headers = {k: v for k, v in request.headers.items()
                   if k.lower() in ("authorization", "idempotency-key", "if-match", "content-type", "known-head")}
        self.rows.append({"path": request.url.path, "query": request.url.query.decode(), "headers": headers,
                          "at": at, **content})

    def answered(self, response: Any) -> None:
        if response.request.method == "POST":
            self.rows[-1]["status"] = response.status_code


def scenario_game(http: Any, path: Path) -> GameClient:
    scenario = json.loads(path.read_text())
    game = GameClient(http, scenario.get("ruleset", "alternating"), scenario.get("dice", "table"),
                      scenario.get("options"))
    for seat in ("A", "B"):
        assert game.muster(seat, [build(spec) for spec in scenario["armies"][seat]]).status_code == 200
    for step in scenario["steps"]:
        seat = step["seat"] if step["seat"] != "awaiting" else game.state()["awaiting"]["seat"]
        response = send(game, seat, step)
        while step.get("repeat_while_awaiting") and response.status_code == 200 \
                and game.state()["awaiting"]["action"] == step["repeat_while_awaiting"]:
            response = send(game, seat, step)
    return game


def undo_and_maybe_redo(game: GameClient, seat: str, redo: bool) -> None:
    other = "B" if seat == "A" else "A"
    answer = game.post(seat, "undo")
    if answer.status_code == 202:
        game.post(other, "undo/approve")
    if answer.status_code in (200, 202) and redo:
        game.post(seat, "redo")


def random_game(http: Any, ruleset: str, dice: str, seed: int, concede: bool) -> GameClient:
    rng = random.Random(seed)
    game = GameClient(http, ruleset, dice, {"battle_rounds": 3})
    game.start(army("A", rng), army("B", rng))
    driver = Driver(HttpTable(game, dice), rng)
    for n in range(1, MOVES + 1):
        if game.state()["status"] == "ended":
            break
        driver.move()
        if n % UNDO_EVERY == 0:
            undo_and_maybe_redo(game, rng.choice("AB"), redo=n % (2 * UNDO_EVERY) == 0)
    if concede and game.state()["status"] != "ended":
        game.cmd("B", "concede")
    return game


def play_all(http: Any) -> list[GameClient]:
    games = [scenario_game(http, path) for path in SCENARIOS]
    seed = 1
    for ruleset in RULESETS:
        for dice in ("server", "table"):
            games.append(random_game(http, ruleset, dice, seed, concede=(ruleset, dice) == ("alternating", "server")))
            seed += 1
    return games


def gz(path: Path, text: str) -> None:
    path.write_bytes(gzip.compress(text.encode("utf-8"), 9, mtime=0))


def record(out: Path, fixed: bool) -> None:
    out.mkdir(parents=True, exist_ok=True)
    clock = Clock() if fixed else None
    with tempfile.TemporaryDirectory() as tmp, (deterministic(clock) if clock else nullcontext()):
        with TestClient(create_app(settings_for(Path(tmp)))) as http:
            requests = Requests(http, clock)
            games = play_all(http)
            http.event_hooks = {"request": [], "response": []}
            summary, exports, states = [], [], []
            for game in games:
                events = game.events()
                for event in events:
                    at = http.get(f"/games/{game.id}/state", params={"at": event["seq"]},
                                  headers=game.headers("A")).json()
                    states.append(json.dumps({"game_id": game.id, "seq": event["seq"], "state": at},
                                             sort_keys=True) + "\n")
                exports.append(http.get(f"/games/{game.id}/export", params={"format": "ndjson"},
                                        headers=game.headers("A")).text)
                summary.append({"game_id": game.id, "ruleset": events[0]["data"]["ruleset"],
                                "dice": events[0]["data"]["dice"], "tokens": game.tokens,
                                "events": len(events), "head": events[-1]["hash"], "verify": game.verify()})
        source = sqlite3.connect(Path(tmp) / "warlog.db")
        target = sqlite3.connect(Path(tmp) / "golden.db")
        source.backup(target)
        source.close()
        target.execute("VACUUM")
        target.close()
        (out / "warlog.db.gz").write_bytes(gzip.compress((Path(tmp) / "golden.db").read_bytes(), 9, mtime=0))
    (out / "games.json").write_text(json.dumps(summary, indent=1, sort_keys=True) + "\n")
    gz(out / "states.ndjson.gz", "".join(states))
    gz(out / "export.ndjson.gz", "".join(exports))
    if fixed:
        gz(out / "requests.ndjson.gz", "".join(json.dumps(row, sort_keys=True) + "\n" for row in requests.rows))
    print(f"{len(summary)} games, {sum(g['events'] for g in summary)} events, {len(requests.rows)} writes into {out}")


if __name__ == "__main__":
    record(Path(sys.argv[1]).resolve(), "--deterministic" in sys.argv[2:])
