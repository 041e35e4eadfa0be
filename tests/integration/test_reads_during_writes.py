"""Reads in worker threads while writes change the cached game in place (`Warlog.viewing`). What a player
would check: a state, a page of events or an overlay read while a command is being applied is the game as
it stood before that command or after it, never half of each, and a read torn by a write is not answered
with the error it tripped over. Each write is staged inside the read, deterministically."""
from __future__ import annotations

import threading
from uuid import UUID

import pytest
from fastapi.testclient import TestClient

from tests.conftest import settings_for
from tests.integration.test_concurrency import AT, new_started_game, roll
from tests.support.client import GameClient, unit
from warlog.api.app import create_app
from warlog.domain.application import VIEW_TRIES, Warlog, remember
from warlog.projections import state as projected


@pytest.fixture
def app(tmp_path):
    warlog = Warlog(env=settings_for(tmp_path).eventsourcing_env())
    yield warlog
    warlog.close()


def in_another_thread(act, wait=True):
    """`act` in a thread of its own (as a write on the event loop or another request's thread would run)."""
    thread = threading.Thread(target=act)
    thread.start()
    if wait:
        thread.join(10)
        assert not thread.is_alive()
    return thread


def test_a_view_a_write_overlapped_is_run_again_on_the_game_that_write_left(app):
    game_id = new_started_game(app)
    runs = []

    def view(game):
        before = game.version
        if not runs:  # the first run: a command is applied to this very game object meanwhile
            in_another_thread(lambda: app.command(game_id, "A", roll("meanwhile"), AT))
        runs.append(game.version)
        return before, game.version, game.state.last_free_roll.purpose if game.state.last_free_roll else None

    before, after, last = app.viewing(game_id, view)
    assert before == after == app.read(game_id).version  # one game, not the start of one and the end of another
    assert last == "meanwhile"
    assert len(runs) == 2


def test_an_error_a_write_caused_midway_is_not_the_answer(app):
    game_id = new_started_game(app)
    runs = []

    def view(game):
        runs.append(game.version)
        if len(runs) == 1:
            in_another_thread(lambda: app.command(game_id, "B", roll("meanwhile"), AT))
            raise RuntimeError("dictionary changed size during iteration")  # what a torn read trips over
        return game.version

    assert app.viewing(game_id, view) == app.read(game_id).version == runs[0] + 1


def test_an_error_no_write_overlapped_is_the_answer(app):
    game_id = new_started_game(app)

    def view(game):
        raise KeyError("a real fault of the view")

    with pytest.raises(KeyError):
        app.viewing(game_id, view)


def test_a_view_overlapped_every_time_runs_under_the_games_lock_at_last(app):
    game_id = new_started_game(app)
    runs, writers = [], []

    def view(game):
        before = game.version
        writer = in_another_thread(lambda: app.command(game_id, "A", roll(f"write {len(writers)}"), AT),
                                   wait=False)
        writers.append(writer)
        writer.join(0.5)  # finishes at once, unless this run holds the game's lock
        runs.append(writer.is_alive())
        return before, game.version

    before, after = app.viewing(game_id, view)
    assert before == after
    assert runs == [False] * VIEW_TRIES + [True]  # the last run held the lock: its write waited for it
    writers[-1].join(10)
    assert app.read(game_id).version == after + 1


def test_a_cached_game_fast_forwarded_with_another_processs_events_is_a_write_to_its_readers(tmp_path):
    env = settings_for(tmp_path).eventsourcing_env()
    mine, theirs = Warlog(env=env), Warlog(env=env)
    try:
        game_id = new_started_game(mine)
        runs = []

        def view(game):
            before = game.version
            if not runs:
                theirs.command(game_id, "B", roll("elsewhere"), AT)  # another process appends
                # another reader here loads the game: the cached object is brought up to date in place
                in_another_thread(lambda: mine.viewing(game_id, lambda current: current.version))
            runs.append(game.version)
            return before, game.version

        before, after = mine.viewing(game_id, view)
        assert before == after == theirs.read(game_id).version
        assert len(runs) == 2
    finally:
        mine.close()
        theirs.close()


def test_the_state_read_over_http_while_a_command_is_applied_is_one_version(tmp_path, monkeypatch):
    """Through the service: GET /state in its worker thread, a command applied after its horizon was taken
    and before its view was drawn (`version` from one game, the units and phase from the next, unless run again)."""
    with TestClient(create_app(settings_for(tmp_path))) as http:
        game = GameClient(http)
        game.start([unit("scouts", 5)], [unit("boyz", 10)])
        warlog, game_id = http.app.state.shards.apps[0], UUID(game.id)
        started, staged = game.state("A")["version"], []
        real = projected.state_view  # what GET /state's live_view draws the seat's state with

        def state_view(state, version, *args):
            if not staged:
                staged.append(in_another_thread(lambda: warlog.command(game_id, "A", roll("meanwhile"), AT)))
            return real(state, version, *args)

        monkeypatch.setattr(projected, "state_view", state_view)
        monkeypatch.setattr(projected, "SEAT_VIEWS", projected.SeatViews())  # drawn anew, not the view kept
        state = game.state("A")
        monkeypatch.undo()
        assert staged
        assert state == game.state("A")  # the state after the command, whole
        assert state["version"] == started + 1


def test_two_threads_forgetting_the_same_old_tokens_at_once_is_no_error():
    """The books of tokens checked and games walked are bounded; two request threads may reach the bound
    together and forget the same oldest half. Staged: the other thread forgets two of them first."""
    class Racing(dict):
        def __iter__(self):
            keys = list(super().__iter__())
            for gone in keys[:2]:
                super().__delitem__(gone)
            return iter(keys)

    book = Racing((f"token {n}", n) for n in range(10))
    remember(book, "new token", 10, most=10)
    assert list(book) == [f"token {n}" for n in range(5, 10)] + ["new token"]
