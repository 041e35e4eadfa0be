"""The writes recorded in a golden folder (tests/golden/record.py --deterministic), sent again to today's code,
make the very same log: every answer's status, every event (its entry, hash chain included, and the books beside
it), and the state at every seq as the recording read it. The store recorded then is read back too
(tests/golden/test_stored_logs.py reads the older one)."""
from __future__ import annotations

import base64
import gzip
import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.conftest import settings_for
from tests.golden.record import Clock, deterministic
from tests.support.payloads import assert_as_recorded
from warlog.api.app import create_app

FOLDERS = [p.parent for p in sorted(Path(__file__).parent.glob("*/requests.ndjson.gz"))]


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in gzip.decompress(path.read_bytes()).decode("utf-8").splitlines()]


def stored(db: Path) -> dict[tuple[str, int], tuple[Any, Any]]:
    """Every event row of a SQLite store, decoded: (game, version) -> (entry, meta)."""
    import sqlite3

    connection = sqlite3.connect(db)
    try:
        rows = connection.execute("SELECT originator_id, originator_version, state FROM stored_events").fetchall()
    finally:
        connection.close()
    decoded = {}
    for game, version, state in rows:
        event = json.loads(bytes(state))
        decoded[(game, version)] = (event["entry"], event["meta"])
    return decoded


@pytest.mark.parametrize("folder", FOLDERS, ids=[f.name for f in FOLDERS])
def test_the_recorded_writes_played_again_make_the_same_log_and_states(folder, tmp_path):
    clock = Clock()
    with deterministic(clock), TestClient(create_app(settings_for(tmp_path))) as http:
        for number, row in enumerate(lines(folder / "requests.ndjson.gz")):
            clock.reading = row["at"]
            content = base64.b64decode(row["bytes"]) if "bytes" in row else row["text"].encode("utf-8")
            url = row["path"] + (f"?{row['query']}" if row["query"] else "")
            answer = http.post(url, headers=row["headers"], content=content)
            assert answer.status_code == row["status"], (number, row, answer.text)
        recorded_states = lines(folder / "states.ndjson.gz")
        games = {g["game_id"]: g for g in json.loads((folder / "games.json").read_text())}
        for row in recorded_states:
            game = games[row["game_id"]]
            now = http.get(f"/games/{row['game_id']}/state", params={"at": row["seq"]},
                           headers={"Authorization": f"Bearer {game['tokens']['A']}"}).json()
            assert_as_recorded(now, row["state"], (game["ruleset"], game["dice"], row["seq"]))
    (tmp_path / "golden.db").write_bytes(gzip.decompress((folder / "warlog.db.gz").read_bytes()))
    then, now = stored(tmp_path / "golden.db"), stored(tmp_path / "warlog.db")
    assert now.keys() == then.keys()
    for key, (entry, meta) in then.items():
        assert now[key] == (entry, meta), key
