"""Several writers on one game: two `Warlog` applications (and two `warlog serve` processes) on one
database. Every acknowledged event is present, seq runs 1..n without a gap, the chain verifies, and a
lost race is retried or answered 409 SVC.CONFLICT: never lost, never applied twice."""
import asyncio
import os
import sys
import threading
from collections import Counter
from contextlib import ExitStack
from pathlib import Path
from uuid import UUID

import httpx
import pytest
from fastapi.testclient import TestClient

from ops.service import free_port, wait_until_answers
from tests.conftest import settings_for
from tests.integration.conftest import PG_URL, pg_settings
from tests.support.client import GameClient, unit
from tests.support.processes import started
from warlog.api.app import create_app
from warlog.api.schemas import parse_army
from warlog.domain import commands
from warlog.domain.application import Conflict, Warlog

AT = "2026-11-29T20:00:00.000Z"
ROOT = Path(__file__).resolve().parents[2]


def new_started_game(app):
    game_id = UUID(app.create_game("alternating", {"A": "Alice", "B": "Bob"}, "server", {}, AT)["game_id"])
    app.muster(game_id, "A", parse_army({"units": [unit("scouts", 5)]}), AT)
    app.muster(game_id, "B", parse_army({"units": [unit("boyz", 10)]}), AT)
    app.command(game_id, "A", commands.StartGame(), AT)
    return game_id


def roll(purpose):
    return commands.FreeRoll(spec="D6", purpose=purpose)


def check_log(app, game_id, acknowledged):
    """Every acknowledged answer is in the log as answered; seq 1..n; the chain holds."""
    log = app.entries(game_id)
    assert [e["seq"] for e in log] == list(range(1, len(log) + 1))
    by_seq = {e["seq"]: e for e in log}
    for answer in acknowledged:
        for event in answer["events"]:
            assert by_seq[event["seq"]] == event
    verified = app.verify(game_id)
    assert (verified["chain_ok"], verified["first_bad_seq"]) == (True, None)
    return log


def rolled_purposes(log):
    return Counter(e["data"]["purpose"] for e in log if e["type"] == "DiceRolled")


# --- a race staged deterministically, on SQLite and PostgreSQL --------------------------------------------

def race_on_save(loser, winner, game_id, times):
    """Before `loser` puts events in its event store, `winner` appends a roll of its own, `times` times."""
    real_put = loser.events.put
    interlopers = []

    def put(events, **kwargs):
        if len(interlopers) < times:
            interlopers.append(winner.command(game_id, "B", roll(f"interloper {len(interlopers)}"), AT))
        return real_put(events, **kwargs)

    loser.events.put = put
    return interlopers


def stop_racing(loser):
    del loser.events.put  # the event store's own method again


def envs(request, tmp_path):
    if request.param == "sqlite":
        return settings_for(tmp_path).eventsourcing_env()
    return pg_settings(request.getfixturevalue("pg_schema")).eventsourcing_env()


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def two_apps(request, tmp_path):
    env = envs(request, tmp_path)
    first, second = Warlog(env=env), Warlog(env=env)
    yield first, second
    first.close()
    second.close()


def test_a_command_that_loses_a_race_is_retried_on_the_winners_log(two_apps):
    loser, winner = two_apps
    game_id = new_started_game(loser)
    loser.read(game_id)  # cached in the loser before the race
    interlopers = race_on_save(loser, winner, game_id, times=1)
    answer = loser.command(game_id, "A", roll("mine"), AT, key="mine", body="mine")
    assert answer["events"][0]["seq"] == interlopers[0]["version"] + 1
    log = check_log(loser, game_id, [*interlopers, answer])
    assert rolled_purposes(log) == {"interloper 0": 1, "mine": 1}
    assert loser.read(game_id).state == winner.read(game_id).state
    assert loser.read(game_id).version == log[-1]["seq"]


def test_a_race_lost_every_time_is_a_409_conflict_and_appends_nothing(two_apps):
    loser, winner = two_apps
    game_id = new_started_game(loser)
    race_on_save(loser, winner, game_id, times=100)
    with pytest.raises(Conflict) as refused:
        loser.command(game_id, "A", roll("mine"), AT, key="mine", body="mine")
    assert refused.value.rule == "SVC.CONFLICT"
    log = check_log(loser, game_id, [])
    assert "mine" not in rolled_purposes(log)
    assert loser.read(game_id).version == winner.read(game_id).version == log[-1]["seq"]
    stop_racing(loser)
    again = loser.command(game_id, "A", roll("mine"), AT, key="mine", body="mine")
    assert rolled_purposes(check_log(loser, game_id, [again]))["mine"] == 1


def test_a_conflict_over_http_is_409_with_a_conflict_type_and_the_same_key_may_be_sent_again(tmp_path):
    settings = settings_for(tmp_path)
    with TestClient(create_app(settings)) as http:
        game = GameClient(http)
        game.start([unit("scouts", 5)], [unit("boyz", 10)])
        body = {"type": "free_roll", "spec": "D6", "purpose": "mine"}
        service = http.app.state.shards.apps[0]
        winner = Warlog(env=settings.eventsourcing_env())
        try:
            race_on_save(service, winner, UUID(game.id), times=100)
            response = game.send("A", body, **{"Idempotency-Key": "mine"})
        finally:
            winner.close()
        assert response.status_code == 409
        assert response.headers["content-type"].startswith("application/problem+json")
        problem = response.json()
        assert problem["type"].endswith("/conflict")
        assert problem["rule"] == "SVC.CONFLICT"
        assert "again" in problem["detail"]
        stop_racing(service)
        again = game.send("A", body, **{"Idempotency-Key": "mine"})
        assert again.status_code == 200
        assert rolled_purposes(game.events())["mine"] == 1


# --- real threads on one PostgreSQL database --------------------------------------------------------------

def hammer(send, writers, rolls):
    """`writers` threads each send `rolls` free rolls with unique keys, resending a key after a conflict."""
    acknowledged, conflicts, failures = [], [], []

    def writer(index):
        try:
            for n in range(rolls):
                key = f"w{index}-{n}"
                for _attempt in range(50):
                    outcome = send(index, key)
                    if outcome[0] == "ok":
                        acknowledged.append(outcome[1])
                        break
                    conflicts.append(outcome[1])
                else:
                    failures.append(f"{key} never settled")
        except Exception as error:  # surfaced below: a thread's failure fails the test
            failures.append(repr(error))

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(writers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert not any(thread.is_alive() for thread in threads), "a writer did not finish"
    assert failures == []
    return acknowledged, conflicts


@pytest.mark.postgres
def test_two_applications_writing_one_game_from_several_threads_lose_nothing(pg_schema):
    env = pg_settings(pg_schema).eventsourcing_env()
    apps = [Warlog(env=env), Warlog(env=env)]
    try:
        game_id = new_started_game(apps[0])

        def send(index, key):
            try:
                return "ok", apps[index % 2].command(game_id, "AB"[index % 2], roll(key), AT, key=key, body=key)
            except Conflict as conflict:
                return "conflict", conflict

        writers, rolls = 6, 12
        acknowledged, conflicts = hammer(send, writers, rolls)
        assert all(c.rule == "SVC.CONFLICT" for c in conflicts)
        reader = Warlog(env=env)
        try:
            log = check_log(reader, game_id, acknowledged)
        finally:
            reader.close()
        purposes = rolled_purposes(log)
        assert len(acknowledged) == writers * rolls
        assert set(purposes) == {f"w{i}-{n}" for i in range(writers) for n in range(rolls)}
        assert set(purposes.values()) == {1}
        for app in apps:
            assert app.read(game_id).version == log[-1]["seq"]
    finally:
        for app in apps:
            app.close()


@pytest.mark.postgres
def test_services_starting_at_once_on_an_empty_database_all_start(pg_schema):
    """CREATE TABLE IF NOT EXISTS races between processes; each service still comes up."""
    settings = pg_settings(pg_schema)
    started, failures = [], []
    gate = threading.Barrier(4)

    def start():
        try:
            gate.wait(10)
            started.append(create_app(settings))
        except Exception as error:  # surfaced below
            failures.append(repr(error))

    threads = [threading.Thread(target=start) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    try:
        assert failures == []
        assert len(started) == 4
        game = started[0].state.shards.create_game("alternating", {"A": "Alice", "B": "Bob"}, "server", {}, AT)
        assert started[3].state.shards.of(UUID(game["game_id"])).read(UUID(game["game_id"])).version == 1
    finally:
        for app in started:
            asyncio.run(app.state.refusals.close())
            app.state.shards.close()


def serve(stack, schema, log):
    """`warlog serve --postgres` on a free port, its output in `log` (no pipe left unread), ended when `stack`
    closes (SIGTERM, then SIGKILL), even when the test fails; its URL once it answers."""
    port = free_port()
    env = {**os.environ, "WARLOG_POSTGRES_SCHEMA": schema, "WARLOG_REQUESTS_PER_SECOND": "10000",
           "WARLOG_BURST": "10000", "WARLOG_LOG_JSON": "true"}
    process = stack.enter_context(started([sys.executable, "-m", "warlog.api.cli", "serve", "--port", str(port),
                                           "--postgres", PG_URL], log, cwd=ROOT, env=env))
    url = f"http://127.0.0.1:{port}"
    wait_until_answers(process, f"{url}/openapi.json", log, within=60)
    return url


@pytest.mark.postgres
def test_two_warlog_serve_processes_on_one_database_lose_nothing(pg_schema, tmp_path):
    with ExitStack() as stack:
        urls = [serve(stack, pg_schema, tmp_path / f"serve-{n}.log") for n in (1, 2)]
        clients = [stack.enter_context(httpx.Client(base_url=url, timeout=30)) for url in urls]
        game = GameClient(clients[0])
        game.start([unit("scouts", 5)], [unit("boyz", 10)])
        # the second process learns of the game from the shared database
        assert clients[1].get(f"/games/{game.id}/state", headers=game.headers("B")).json()["status"] == "in_progress"

        def send(index, key):
            seat = "AB"[index % 2]
            response = clients[index % 2].post(
                f"/games/{game.id}/commands", headers=game.headers(seat, **{"Idempotency-Key": key}),
                json={"type": "free_roll", "spec": "D6", "purpose": key})
            if response.status_code == 200:
                return "ok", response.json()
            assert response.status_code == 409, response.text
            return "conflict", response.json()

        writers, rolls = 4, 10
        acknowledged, conflicts = hammer(send, writers, rolls)
        assert all(c["type"].endswith("/conflict") and c["rule"] == "SVC.CONFLICT" for c in conflicts)
        for client in clients:
            game.http = client
            log = game.events("spectator")
            assert [e["seq"] for e in log] == list(range(1, len(log) + 1))
            by_seq = {e["seq"]: e for e in log}
            assert all(by_seq[e["seq"]] == e for answer in acknowledged for e in answer["events"])
            purposes = rolled_purposes(log)
            assert set(purposes) == {f"w{i}-{n}" for i in range(writers) for n in range(rolls)}
            assert set(purposes.values()) == {1}
            assert game.verify("spectator")["chain_ok"] is True


def test_a_refusal_is_judged_on_the_latest_log_when_another_process_moved_the_game(two_apps):
    first, second = two_apps
    game_id = new_started_game(first)
    version = first.read(game_id).version  # cached in the first application at this version
    second.command(game_id, "B", roll("elsewhere"), AT)  # the other process moves the game on
    answer = first.command(game_id, "A", roll("here"), AT, if_match=version + 1)
    assert answer["version"] == version + 2  # If-Match named the latest version: accepted, not 412
