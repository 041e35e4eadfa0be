"""The ledger projection on PostgreSQL, followed live by the library's ProjectionRunner (LISTEN/NOTIFY),
equals the same projection rebuilt from zero — undos, approvals and redos included."""
from __future__ import annotations

import random
from uuid import UUID

import pytest
from eventsourcing.projection import ProjectionRunner

from tests.golden.driver import AppTable, Driver
from tests.integration.conftest import PG_URL
from tests.support.client import unit
from warlog.api.settings import Settings
from warlog.domain.application import Warlog
from warlog.projections.ledger import Ledger, ledger_env, open_ledger, rebuild, view_class

AT = "2026-01-01T00:00:00.000Z"


@pytest.fixture
def pg_env(pg_schema):
    return Settings(postgres=PG_URL, postgres_schema=pg_schema).eventsourcing_env()


@pytest.mark.postgres
def test_the_ledger_followed_live_on_postgres_equals_a_rebuild_from_zero(pg_env, tmp_path):
    warlog = Warlog(env=pg_env)
    view_env = ledger_env(pg_env)
    runner = ProjectionRunner(application_class=Warlog, projection_class=Ledger,
                              view_class=view_class(view_env), env={**pg_env, **view_env})
    try:
        with runner:
            created = warlog.create_game("alternating", {"A": "Alice", "B": "Bob"}, "server", {}, AT)
            game_id = UUID(created["game_id"])
            table = AppTable(warlog, game_id, "server")
            for seat, army in (("A", [unit("a-1", statuses=("falling_back",)), unit("a-2")]),
                               ("B", [unit("b-1"), unit("b-2", 3)])):
                warlog.muster(game_id, seat, army, AT)
            assert table.send("A", {"type": "start_game"})[0] == 200
            driver, rng = Driver(table, random.Random(7)), random.Random(7)
            for _ in range(40):
                driver.move(table.view("A"))
                if rng.random() < 0.3:
                    seat = rng.choice("AB")
                    if warlog.undo(game_id, seat, AT).status == 202:
                        warlog.answer_undo(game_id, "B" if seat == "A" else "A", rng.random() < 0.7, AT)
                    if warlog.read(game_id).redo_stack and rng.random() < 0.5:
                        warlog.redo(game_id, warlog.read(game_id).redo_stack[-1][4], AT)
            # and one roll taken back for certain, whatever the random play undid: the ledger marks it undone
            assert table.send("A", {"type": "free_roll", "spec": "D6", "purpose": "taken back"})[0] == 200
            assert warlog.undo(game_id, "A", AT).status == 202
            warlog.answer_undo(game_id, "B", True, AT)
            runner.wait(warlog.recorder.max_notification_id(), timeout=30)
            followed = {name: runner.projection.view.rows(name) for name in ("games", "dice", "facts")}
    finally:
        warlog.close()

    fresh_app = Warlog(env=pg_env)
    try:
        fresh = open_ledger({"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp_path / "l.db")})
        rebuild(fresh_app, fresh)
        assert {name: fresh.view.rows(name) for name in followed} == followed
        assert any(row["undone"] for row in followed["dice"] + followed["facts"])
    finally:
        fresh_app.close()
