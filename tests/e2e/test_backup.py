"""Issue 28: `warlog backup` copies a store while it is served (a plain `cp` misses the events still in the -wal
file) and `warlog restore` puts it back: the games read and verify as they did."""
from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient

from tests.conftest import settings_for
from tests.support.client import GameClient, unit
from warlog.api.app import create_app
from warlog.api.cli import main as warlog_cli


def test_a_backup_taken_while_serving_restores_every_game_as_it_was(tmp_path, capsys):
    served = tmp_path / "served"
    served.mkdir()
    settings = settings_for(served)
    with TestClient(create_app(settings)) as http:
        game = GameClient(http, "alternating", "server")
        game.start([unit("a-1")], [unit("b-1")])
        game.cmd("A", "record_casualties", unit="b-1", models=2)
        game.cmd("B", "free_roll", spec="2D6", purpose="morale")
        before = game.state("A")
        assert (served / "warlog.db-wal").stat().st_size > 0  # events still in the -wal file, as while serving
        capsys.readouterr()
        warlog_cli(["backup", str(tmp_path / "copy.db"), "--db", settings.db])  # while the service holds it open
        made = json.loads(capsys.readouterr().out)
    assert made["games"] == 1 and made["backup"] == str(tmp_path / "copy.db")

    restored = tmp_path / "restored"
    restored.mkdir()
    warlog_cli(["restore", str(tmp_path / "copy.db"), "--db", str(restored / "warlog.db")])
    assert json.loads(capsys.readouterr().out)["games"] == 1
    with TestClient(create_app(settings_for(restored))) as http:
        state = http.get(f"/games/{game.id}/state", headers=game.headers("A")).json()
        verdict = http.get(f"/games/{game.id}/verify", headers=game.headers("A")).json()
    assert {k: v for k, v in state.items() if k != "units"} == {k: v for k, v in before.items() if k != "units"}
    assert state["units"]["b-1"]["models_alive"] == before["units"]["b-1"]["models_alive"] == 3
    assert verdict["chain_ok"] is True and verdict["events"] == before["version"]


def test_backup_and_restore_refuse_what_would_lose_or_overwrite_games(tmp_path):
    (tmp_path / "exists.db").write_bytes(b"")
    with pytest.raises(SystemExit) as missing:
        warlog_cli(["backup", str(tmp_path / "copy.db"), "--db", str(tmp_path / "typo.db")])
    assert "no database at" in str(missing.value) and not (tmp_path / "copy.db").exists()
    with pytest.raises(SystemExit) as not_backup:
        warlog_cli(["restore", str(tmp_path / "exists.db"), "--db", str(tmp_path / "warlog.db")])
    assert "is no warlog backup" in str(not_backup.value)
    with TestClient(create_app(settings_for(tmp_path))) as http:
        GameClient(http, "alternating", "server")
    warlog_cli(["backup", str(tmp_path / "copy.db"), "--db", str(tmp_path / "warlog.db")])
    with pytest.raises(SystemExit) as exists:
        warlog_cli(["backup", str(tmp_path / "copy.db"), "--db", str(tmp_path / "warlog.db")])
    assert "exists already" in str(exists.value)
    with pytest.raises(SystemExit) as serving:
        warlog_cli(["restore", str(tmp_path / "copy.db"), "--db", str(tmp_path / "warlog.db")])
    assert "--force" in str(serving.value)


def test_a_postgresql_store_is_backed_up_with_its_own_tools(tmp_path, monkeypatch):
    monkeypatch.setenv("WARLOG_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")
    with pytest.raises(SystemExit) as told:
        warlog_cli(["backup", str(tmp_path / "copy.db")])
    assert "pg_dump" in str(told.value) and not (tmp_path / "copy.db").exists()
