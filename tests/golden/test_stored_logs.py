"""Stores written by earlier code read back by today's: every log verifies as it did, replays to the states it
answered then, and goes on. `tests/golden/legacy` was written before the head record and request digests
(tests/golden/legacy/README.md); a database like it opens as it is, each game taking its head when first read."""
from __future__ import annotations

import gzip
import json
import sqlite3
from collections import defaultdict
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
from fastapi.testclient import TestClient

from ops.tamper.store import SqliteStore
from tests.conftest import settings_for
from tests.support.payloads import assert_as_recorded
from warlog.api.app import create_app
from warlog.api.cli import main as warlog_cli

LEGACY = Path(__file__).parent / "legacy"
GAMES = json.loads((LEGACY / "games.json").read_text())
HASHED = ("seq", "type", "at", "by", "rule", "data", "prev_hash", "hash")


def recorded_states() -> dict[str, dict[int, Any]]:
    states: dict[str, dict[int, Any]] = defaultdict(dict)
    with gzip.open(LEGACY / "states.ndjson.gz", "rt", encoding="utf-8") as lines:
        for line in lines:
            row = json.loads(line)
            states[row["game_id"]][row["seq"]] = row["state"]
    return states


def recorded_exports() -> dict[str, list[dict[str, Any]]]:
    rows: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for line in gzip.decompress((LEGACY / "export.ndjson.gz").read_bytes()).decode("utf-8").splitlines():
        row = json.loads(line)
        rows[row["game_id"]].append(row)
    return rows


def opened(tmp_path, folder: Path):
    (tmp_path / "warlog.db").write_bytes(gzip.decompress((folder / "warlog.db.gz").read_bytes()))
    return TestClient(create_app(settings_for(tmp_path))), SqliteStore(str(tmp_path / "warlog.db"))


@pytest.fixture
def legacy(tmp_path):
    client, store = opened(tmp_path, LEGACY)
    with client as http:
        yield http, store


@pytest.mark.parametrize("folder", [LEGACY, LEGACY.parent / "pre-typed-core"], ids=lambda f: f.name)
def test_every_stored_game_verifies_as_it_did_then(tmp_path, folder):
    client, store = opened(tmp_path, folder)
    with client as http:
        for game in json.loads((folder / "games.json").read_text()):
            verdict = http.get(f"/games/{game['game_id']}/verify", headers=headers(game)).json()
            assert {k: verdict[k] for k in game["verify"]} == game["verify"], (game["ruleset"], verdict)
            assert store.head(game["game_id"]) == (game["events"], game["head"])


def headers(game: dict[str, Any], role: str = "A") -> dict[str, str]:
    return {"Authorization": f"Bearer {game['tokens'][role]}"}


def test_the_legacy_store_holds_every_ruleset_in_both_dice_modes_with_undo_redo_and_an_ended_game():
    kinds = {(g["ruleset"], g["dice"]) for g in GAMES}
    assert kinds == {(r, d) for r in ("alternating", "reference", "heresy") for d in ("server", "table")}
    exported = [row for rows in recorded_exports().values() for row in rows]
    types = {row["type"] for row in exported}
    assert {"ActionUndone", "ActionRedone", "UndoRequested", "AttackResolved"} <= types
    assert any(g["verify"]["dice_ok"] is True for g in GAMES)  # a game ended: its seed revealed, its dice held
    assert not any("request" in row for row in exported)  # written before request digests


def test_every_legacy_game_verifies_as_it_did_and_takes_its_head_when_first_read(legacy):
    http, store = legacy
    assert all(store.head(g["game_id"]) is None for g in GAMES)  # written before head records
    for game in GAMES:
        verdict = http.get(f"/games/{game['game_id']}/verify", headers=headers(game)).json()
        for field in ("chain_ok", "events", "head_hash", "first_bad_seq", "dice_ok", "server_seed", "commands_ok"):
            assert verdict[field] == game["verify"][field], (game["ruleset"], field, verdict)
        assert store.head(game["game_id"]) == (game["events"], game["head"])


def test_every_legacy_log_reads_back_entry_for_entry_and_replays_to_the_states_it_answered(legacy):
    http, _ = legacy
    states, exports = recorded_states(), recorded_exports()
    for game in GAMES:
        gid = game["game_id"]
        events = http.get(f"/games/{gid}/events", params={"limit": 1000}, headers=headers(game)).json()["events"]
        assert [{k: e[k] for k in HASHED} for e in events] == [
            {**{k: row[k] for k in HASHED}, "data": json.loads(row["data"])} for row in exports[gid]]
        for seq, then in states[gid].items():
            now = http.get(f"/games/{gid}/state", params={"at": seq}, headers=headers(game)).json()
            assert_as_recorded(now, then, (game["ruleset"], game["dice"], seq))


def test_a_legacy_game_goes_on_with_request_digests_and_its_old_events_stay_a_diagnostic(legacy, tmp_path):
    http, store = legacy
    states = recorded_states()
    game = next(g for g in GAMES if g["ruleset"] == "alternating" and g["dice"] == "table"
                and states[g["game_id"]][g["events"]]["status"] == "in_progress" and g["events"] > 30)
    gid = game["game_id"]
    answer = http.post(f"/games/{gid}/commands", headers=headers(game),
                       json={"type": "free_roll", "spec": "2D6", "purpose": "after the upgrade", "dice": [3, 4]})
    assert answer.status_code == 200, answer.text
    [appended] = answer.json()["events"]
    assert len(appended["request"]) == 64 and appended["seq"] == game["events"] + 1
    assert http.get(f"/games/{gid}/verify", headers=headers(game)).json()["chain_ok"] is True
    # an old event's books edited: no digest covers them, so the replay diagnostic names it, never damage
    old = next(v for v in store.versions(gid)[1:] if "sent_by" in store.read(gid, v)["meta"])

    def sent_by_other(row: dict[str, Any]) -> None:
        row["meta"]["sent_by"] = "B" if row["meta"]["sent_by"] == "A" else "A"

    store.edit(gid, old, sent_by_other)
    with TestClient(create_app(settings_for(tmp_path))) as fresh:
        verdict = fresh.get(f"/games/{gid}/verify", headers=headers(game)).json()
        assert verdict["chain_ok"] is True and verdict["commands_ok"] is False, verdict
        assert verdict["first_unmatched_seq"] == old
        assert fresh.get(f"/games/{gid}/state", headers=headers(game)).status_code == 200
    assert sqlite3.connect(tmp_path / "warlog.db").execute(
        "SELECT seq FROM warlog_heads WHERE game_id = ?", (UUID(gid).hex,)).fetchone() == (game["events"] + 1,)


def test_export_and_analytics_read_a_store_written_before_the_warlog_package_name(tmp_path, capsys):
    """Its rows name their topics domain.game:Game.*; the ledger asks for notifications by topic, so a judge's
    `warlog export` of such a store must still find every game and every event."""
    (tmp_path / "warlog.db").write_bytes(gzip.decompress((LEGACY / "warlog.db.gz").read_bytes()))
    events = sum(game["events"] for game in GAMES)
    warlog_cli(["export", "--db", str(tmp_path / "warlog.db"), "--out", str(tmp_path / "out"), "--format", "ndjson"])
    counts = json.loads(capsys.readouterr().out)
    assert counts["games"] == len(GAMES) and counts["events"] == events
    warlog_cli(["analytics", "--db", str(tmp_path / "warlog.db")])
    assert json.loads(capsys.readouterr().out)["games"] == len(GAMES)
