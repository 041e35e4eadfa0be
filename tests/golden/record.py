"""Record a golden store: games of every ruleset and dice mode played by the code as it stands, kept as data.

What it writes into OUT (a folder under tests/golden/):

- `warlog.db.gz`: the SQLite store itself (the write-ahead log folded in), read back by
  `tests/golden/test_stored_logs.py` with the code of today: every game must still verify and replay.
- `games.json`: per game its id, ruleset, dice mode, tokens, head hash, event count and `/verify` answer.
- `states.ndjson.gz`: per game and seq, `GET /state?at=SEQ` as seat A read it then.
- `export.ndjson.gz`: every game's `GET /export?format=ndjson` as it was then.

The games: every golden scenario (tests/golden/scenarios, scripted: attacks with every weapon ability,
re-rolls, undo and redo), and a random game of each ruleset in both dice modes played from the offered
actions, with undos (consented where they need it) and redos on the way, one of them conceded so that its
server seed is revealed.

    .venv/bin/python tests/golden/record.py tests/golden/legacy     # run from the checkout whose code plays
"""
from __future__ import annotations

import gzip
import json
import random
import sqlite3
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path.cwd()
sys.path.insert(0, str(ROOT))

from fastapi.testclient import TestClient  # noqa: E402

from api.app import create_app  # noqa: E402
from tests.conftest import settings_for  # noqa: E402
from tests.golden.driver import Driver, HttpTable  # noqa: E402
from tests.golden.test_scenarios import SCENARIOS, build, send  # noqa: E402
from tests.property.test_actions_properties import RULESETS, army  # noqa: E402
from tests.support.client import GameClient  # noqa: E402

MOVES = 120        # per random game
UNDO_EVERY = 25    # moves between an undo (and, every other time, its redo)


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


def record(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        with TestClient(create_app(settings_for(Path(tmp)))) as http:
            games = [scenario_game(http, path) for path in SCENARIOS]
            seed = 1
            for ruleset in RULESETS:
                for dice in ("server", "table"):
                    games.append(random_game(http, ruleset, dice, seed, concede=(ruleset, dice) == ("alternating",
                                                                                                 "server")))
                    seed += 1
            summary, exports = [], []
            with gzip.open(out / "states.ndjson.gz", "wt", encoding="utf-8") as states:
                for game in games:
                    events = game.events()
                    for event in events:
                        at = http.get(f"/games/{game.id}/state", params={"at": event["seq"]},
                                      headers=game.headers("A")).json()
                        states.write(json.dumps({"game_id": game.id, "seq": event["seq"], "state": at},
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
    (out / "export.ndjson.gz").write_bytes(gzip.compress("".join(exports).encode("utf-8"), 9, mtime=0))
    print(f"{len(summary)} games, {sum(g['events'] for g in summary)} events into {out}")


if __name__ == "__main__":
    record(Path(sys.argv[1]).resolve())
