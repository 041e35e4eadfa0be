"""PostgreSQL's default write mode, "deferred" (api/settings.py `write_mode`): a write is judged on the event
loop and its append awaited there (api/storage.py AsyncAppends). What a player would check: a race lost to
another process is judged again on the winner's log, a race lost every time is 409 SVC.CONFLICT and appends
nothing, while an append is in flight nobody reads the game as if it had been stored, and a refusal judged on
the cached game is judged again on the store's latest (in a worker thread: the loop never waits on the store)."""
from __future__ import annotations

import asyncio
import threading
from collections import Counter
from uuid import UUID

import pytest
from fastapi.testclient import TestClient

from tests.integration.conftest import pg_settings
from tests.support.client import GameClient, unit
from warlog.api.app import create_app
from warlog.domain import commands
from warlog.domain.application import Warlog

AT = "2026-12-01T20:00:00.000Z"
ROLL = {"type": "free_roll", "spec": "D6", "purpose": "mine"}


def purposes(events):
    return Counter(e["data"]["purpose"] for e in events if e["type"] == "DiceRolled")


@pytest.fixture
def served(pg_schema):
    settings = pg_settings(pg_schema)
    assert settings.write_mode() == "deferred"
    with TestClient(create_app(settings)) as http:
        game = GameClient(http)
        game.start([unit("scouts", 5)], [unit("boyz", 10)])
        service = http.app.state.shards.apps[0]
        winner = Warlog(env=settings.eventsourcing_env())  # another process's application on the same tables
        try:
            yield http, game, http.app.state.appends[id(service)], winner
        finally:
            winner.close()


def race(appends, winner, game_id, times):
    """Before this process's append reaches the database, `winner` appends a roll of its own, `times` times."""
    real, interlopers = appends.insert, []

    async def insert(stored_events, head):
        if len(interlopers) < times:
            interlopers.append(winner.command(game_id, "B", commands.FreeRoll(
                spec="D6", purpose=f"interloper {len(interlopers)}"), AT))
        return await real(stored_events, head)

    appends.insert = insert
    return interlopers


@pytest.mark.postgres
def test_a_deferred_write_that_loses_a_race_is_judged_again_on_the_winners_log(served):
    _http, game, appends, winner = served
    interlopers = race(appends, winner, UUID(game.id), times=2)
    answer = game.send("A", ROLL, **{"Idempotency-Key": "mine"})
    assert answer.status_code == 200, answer.text
    assert answer.json()["events"][0]["seq"] == interlopers[-1]["version"] + 1
    log = game.events()
    assert [e["seq"] for e in log] == list(range(1, len(log) + 1))
    assert purposes(log) == {"interloper 0": 1, "interloper 1": 1, "mine": 1}
    assert game.verify()["chain_ok"] is True
    assert game.state()["version"] == log[-1]["seq"]  # the cache holds the stored game, not a stale one


@pytest.mark.postgres
def test_a_deferred_write_that_loses_every_race_is_409_appends_nothing_and_may_be_sent_again(served):
    _http, game, appends, winner = served
    real = appends.insert
    race(appends, winner, UUID(game.id), times=100)
    refused = game.send("A", ROLL, **{"Idempotency-Key": "mine"})
    assert refused.status_code == 409 and refused.json()["rule"] == "SVC.CONFLICT"
    assert "mine" not in purposes(game.events())
    appends.insert = real
    again = game.send("A", ROLL, **{"Idempotency-Key": "mine"})
    assert again.status_code == 200
    assert purposes(game.events())["mine"] == 1
    assert game.send("A", ROLL, **{"Idempotency-Key": "mine"}).json() == again.json()  # replayed, not appended


@pytest.mark.postgres
def test_while_an_append_is_in_flight_the_game_reads_as_stored_and_then_as_appended(served):
    _http, game, appends, _winner = served
    before = game.state()["version"]
    real, entered, release = appends.insert, threading.Event(), threading.Event()

    async def held(stored_events, head):
        entered.set()
        await asyncio.to_thread(release.wait, 10)  # the loop goes on serving meanwhile
        return await real(stored_events, head)

    appends.insert = held
    answers = []
    writer = threading.Thread(target=lambda: answers.append(game.send("A", ROLL, **{"Idempotency-Key": "held"})))
    writer.start()
    try:
        assert entered.wait(10)
        assert game.state()["version"] == before  # judged, not stored: nobody sees it yet
        assert "mine" not in purposes(game.events())
    finally:
        release.set()
        writer.join(10)
    assert answers and answers[0].status_code == 200
    assert game.state()["version"] == answers[0].json()["version"] == before + 1


@pytest.mark.postgres
def test_a_deferred_write_refused_on_the_cached_game_is_judged_again_on_the_store_that_another_process_moved(
        pg_schema):
    settings = pg_settings(pg_schema)
    with TestClient(create_app(settings)) as http:
        game = GameClient(http)
        game.muster("A", [unit("scouts", 5)])
        game.muster("B", [unit("boyz", 10)])  # cached here, not started
        winner = Warlog(env=settings.eventsourcing_env())
        try:
            winner.command(UUID(game.id), "A", commands.StartGame(), AT)  # another process starts it
        finally:
            winner.close()
        answer = game.send("A", ROLL, **{"Idempotency-Key": "after-start"})
        assert answer.status_code == 200, answer.text  # not 409 SVC.SETUP from the stale cached game
        refused = game.send("A", {"type": "start_game"})
        assert refused.status_code == 409 and refused.json()["rule"]  # a real refusal still is one, with its rule
        assert purposes(game.events())["mine"] == 1
