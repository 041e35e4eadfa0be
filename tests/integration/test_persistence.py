"""Stop the service and start it again on the same store: the same state, the same log, the same
chain; on SQLite and on PostgreSQL. Snapshots are taken every 100 events and loading uses them."""
import sqlite3
from uuid import UUID

import psycopg
import pytest
from fastapi.testclient import TestClient
from psycopg import sql

from tests.conftest import settings_for
from tests.integration.conftest import PG_URL, pg_settings, tables
from tests.support.client import GameClient, unit
from warlog.api.app import create_app
from warlog.domain.application import Warlog


def play(http):
    """Two games: one in progress with undos, redos and an approved undo, one conceded."""
    game = GameClient(http)
    game.start([unit("scouts", 5), unit("tactical", 10)], [unit("boyz", 10)])
    for n in range(3):
        game.cmd("AB"[n % 2], "free_roll", spec="2D6", purpose=f"roll {n}")
    game.cmd("A", "record_casualties", unit="boyz", models=3)
    assert game.post("A", "undo").status_code == 200
    assert game.post("A", "redo").status_code == 200
    game.cmd("B", "free_roll", spec="D6", purpose="to be undone")
    assert game.post("B", "undo").status_code == 202
    assert game.post("A", "undo/approve").status_code == 200
    ended = GameClient(http, dice="server")
    ended.start([unit("scouts", 5)], [unit("boyz", 10)])
    ended.cmd("A", "free_roll", spec="3D6", purpose="last")
    ended.cmd("B", "concede")
    return game, ended


def seen(game):
    return {role: (game.state(role), game.events(role), game.verify(role)) for role in ("A", "B", "spectator")}


def restart_keeps_everything(settings):
    with TestClient(create_app(settings)) as http:
        games = play(http)
        before = [seen(game) for game in games]
    with TestClient(create_app(settings)) as http:
        for game in games:
            game.http = http
        after = [seen(game) for game in games]
        follow_up = games[0].cmd("A", "free_roll", spec="D6", purpose="after the restart")
    assert after == before
    game_view, ended_view = after
    assert game_view["A"][2]["chain_ok"] is True
    assert ended_view["A"][2]["dice_ok"] is True and ended_view["A"][2]["server_seed"]
    assert game_view["A"][1][-1]["type"] == "ActionUndone"
    assert game_view["A"][1][-2]["undone"] is False and game_view["A"][1][-3]["undone"] is True
    assert follow_up["events"][0]["seq"] == game_view["A"][1][-1]["seq"] + 1
    assert follow_up["events"][0]["prev_hash"] == game_view["A"][1][-1]["hash"]


def test_state_and_log_are_identical_after_a_restart_on_sqlite(tmp_path):
    restart_keeps_everything(settings_for(tmp_path))


@pytest.mark.postgres
def test_state_and_log_are_identical_after_a_restart_on_postgresql(pg_schema):
    restart_keeps_everything(pg_settings(pg_schema))
    assert {"warlog_events", "warlog_snapshots", "warlog_refusals"} <= tables(pg_schema)


def long_game(http, rolls):
    game = GameClient(http)
    game.start([unit("scouts", 5)], [unit("boyz", 10)])
    for n in range(rolls):
        game.cmd("AB"[n % 2], "free_roll", spec="D6", purpose=f"roll {n}")
    return game


def loads_from_the_snapshot(settings, game_id, version):
    """A fresh application replays only the events after the latest snapshot (its first load also walks
    every stored row once to check it, domain/integrity, but applies none of them)."""
    app = Warlog(env=settings.eventsourcing_env())
    try:
        reads = []
        event_store = app.repository.event_store
        real_get = event_store.get

        def counting_get(*args, **kwargs):
            events = list(real_get(*args, **kwargs))
            reads.extend(e.originator_version for e in events)
            return events

        event_store.get = counting_get
        assert app.read(UUID(game_id)).version == version
        return reads
    finally:
        app.close()


def snapshot_is_taken_and_used(settings, snapshot_versions):
    with TestClient(create_app(settings)) as http:
        game = long_game(http, 110)
        state = game.state()
        version = state["version"]
    assert snapshot_versions() == [100]
    reads = loads_from_the_snapshot(settings, game.id, version)
    assert reads and min(reads) == 101
    with TestClient(create_app(settings)) as http:
        game.http = http
        assert game.state() == state


def sqlite_snapshot_versions(tmp_path):
    db = sqlite3.connect(tmp_path / "warlog.db")
    try:
        return [row[0] for row in db.execute("SELECT originator_version FROM stored_snapshots")]
    finally:
        db.close()


def test_a_game_past_100_events_has_a_snapshot_on_sqlite_and_loading_starts_from_it(tmp_path):
    snapshot_is_taken_and_used(settings_for(tmp_path), lambda: sqlite_snapshot_versions(tmp_path))


@pytest.mark.postgres
def test_a_game_past_100_events_has_a_snapshot_on_postgresql_and_loading_starts_from_it(pg_schema):
    def snapshot_versions():
        with psycopg.connect(PG_URL, autocommit=True) as db:
            rows = db.execute(sql.SQL("SELECT originator_version FROM {}").format(
                sql.Identifier(pg_schema, "warlog_snapshots"))).fetchall()
        return [row[0] for row in rows]

    snapshot_is_taken_and_used(pg_settings(pg_schema), snapshot_versions)


def test_an_action_that_crosses_a_hundred_events_leaves_the_snapshot_the_store_would_rebuild(tmp_path):
    """The snapshot is taken from the game just saved; it must be the game replayed from the events."""
    settings = settings_for(tmp_path)
    with TestClient(create_app(settings)) as http:
        game = long_game(http, 0)
        while game.state()["version"] < 99:
            game.cmd("A", "free_roll", spec="D6", purpose="towards 100")
        assert [e["seq"] for e in game.cmd("B", "concede")["events"]] == [100, 101]
    assert sqlite_snapshot_versions(tmp_path) == [101]
    with_snapshot = Warlog(env=settings.eventsourcing_env())
    replayed = Warlog(env={**settings.eventsourcing_env(), "IS_SNAPSHOTTING_ENABLED": "n"})
    try:
        from_snapshot = with_snapshot.repository.get(UUID(game.id))
        from_events = replayed.repository.get(UUID(game.id))
        assert replayed.snapshots is None and from_snapshot.version == from_events.version == 101
        assert vars(from_snapshot) == vars(from_events)
        assert from_snapshot.state.status == "ended"
    finally:
        with_snapshot.close()
        replayed.close()


def test_the_library_keeps_sqlite_events_in_one_row_per_event(tmp_path):
    settings = settings_for(tmp_path)
    with TestClient(create_app(settings)) as http:
        game = long_game(http, 3)
        count = len(game.events())
    db = sqlite3.connect(tmp_path / "warlog.db")
    stored = db.execute("SELECT COUNT(*) FROM stored_events").fetchone()[0]
    db.close()
    assert stored == count


@pytest.mark.postgres
def test_the_librarys_postgres_variables_choose_postgresql_without_a_postgres_url(pg_schema, tmp_path, monkeypatch):
    for name, value in {"POSTGRES_DBNAME": "test", "POSTGRES_HOST": "127.0.0.1", "POSTGRES_PORT": "5432",
                        "POSTGRES_USER": "postgres", "POSTGRES_PASSWORD": "", "POSTGRES_SCHEMA": pg_schema}.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("WARLOG_POSTGRES", raising=False)
    settings = settings_for(tmp_path)
    assert settings.postgres is None
    with TestClient(create_app(settings)) as http:
        game = long_game(http, 1)
        assert game.send("A", {"type": "start_game"}, **{"Idempotency-Key": "refused"}).status_code == 409
    assert not (tmp_path / "warlog.db").exists()
    assert {"warlog_events", "warlog_snapshots", "warlog_refusals"} <= tables(pg_schema)
