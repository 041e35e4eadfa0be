"""The SSE stream: every event after Last-Event-ID (or `after`), then live ones, `id:` = seq,
each event once; `?token=` for browsers. Served by a real uvicorn on 127.0.0.1, read with httpx
streaming, every wait bounded."""
import json
import threading
import time
from contextlib import contextmanager

import httpx
import pytest

from tests.conftest import settings_for
from tests.support.client import GameClient, unit
from tests.support.live import serving
from warlog.api.app import create_app

WAIT_S = 10.0


@pytest.fixture(scope="module")
def base_url(tmp_path_factory):
    with serving(create_app(settings_for(tmp_path_factory.mktemp("stream"), keepalive_s=1))) as url:
        yield url


@pytest.fixture
def http(base_url):
    with httpx.Client(base_url=base_url, timeout=WAIT_S) as client:
        yield client


def started(http):
    game = GameClient(http)
    game.start([unit("scouts", 5)], [unit("boyz", 10)])
    return game


class Stream:
    """Reads SSE messages (CR, LF or CRLF line ends) from an open httpx streaming response."""

    def __init__(self, response):
        assert response.status_code == 200, response.read()
        assert response.headers["content-type"].startswith("text/event-stream")
        self.lines = response.iter_lines()
        self.comments = 0

    def next_message(self):
        """The next block up to a blank line: its fields, or {} for a block of comments only."""
        fields, seen = {}, False
        for line in self.lines:
            if line == "":
                if seen:
                    return fields
                continue
            seen = True
            if line.startswith(":"):
                self.comments += 1
                continue
            name, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            fields[name] = fields.get(name, "") + ("\n" if name in fields else "") + value
        raise AssertionError("the stream ended")

    def take(self, count):
        """The next `count` events as (id, event); the client's read timeout bounds each wait."""
        got = []
        while len(got) < count:
            message = self.next_message()
            if "data" in message:
                got.append((message.get("id"), json.loads(message["data"])))
        return got


@contextmanager
def stream(http, game, role="spectator", params=None, headers=None, via_query=False):
    params = dict(params or {})
    headers = dict(headers or {})
    if via_query:
        params["token"] = game.tokens[role]
    else:
        headers["Authorization"] = f"Bearer {game.tokens[role]}"
    with http.stream("GET", f"/games/{game.id}/events/stream", params=params, headers=headers) as response:
        yield Stream(response)


def test_after_zero_sends_the_whole_log_then_follows_live_events_with_id_as_seq(http):
    game = started(http)
    logged = game.events()
    with stream(http, game, params={"after": 0}) as events:
        backlog = events.take(len(logged))
        assert [event for _, event in backlog] == logged
        assert [int(i) for i, _ in backlog] == [e["seq"] for e in logged]
        answered = game.cmd("B", "free_roll", spec="2D6", purpose="live")["events"]
        live = events.take(len(answered))
        assert [event for _, event in live] == answered
        assert [int(i) for i, _ in live] == [e["seq"] for e in answered]


def test_last_event_id_resumes_after_that_seq(http):
    game = started(http)
    logged = game.events()
    with stream(http, game, headers={"Last-Event-ID": "3"}) as events:
        resumed = events.take(len(logged) - 3)
        assert [event["seq"] for _, event in resumed] == list(range(4, len(logged) + 1))


def test_last_event_id_wins_over_after(http):
    game = started(http)
    logged = game.events()
    with stream(http, game, params={"after": 1}, headers={"Last-Event-ID": str(len(logged) - 1)}) as events:
        assert [event["seq"] for _, event in events.take(1)] == [len(logged)]


def test_with_neither_the_stream_starts_after_the_current_head(http):
    game = started(http)
    with stream(http, game) as events:
        answered = game.cmd("A", "free_roll", spec="D6", purpose="first live roll")["events"]
        assert [event for _, event in events.take(1)] == answered


def test_a_browser_may_pass_its_token_in_the_query(http):
    game = started(http)
    with stream(http, game, role="A", params={"after": 0}, via_query=True) as events:
        assert events.take(1)[0][1]["type"] == "GameCreated"


def test_a_bad_query_token_is_401_and_the_query_token_opens_only_the_stream(http):
    game = started(http)
    response = http.get(f"/games/{game.id}/events/stream", params={"token": "nope", "after": 0})
    assert response.status_code == 401
    assert response.headers["content-type"].startswith("application/problem+json")
    assert http.get(f"/games/{game.id}/state", params={"token": game.tokens["A"]}).status_code == 401


def test_every_event_written_while_streaming_arrives_once_and_in_order(http, base_url):
    game = started(http)
    head = game.events()[-1]["seq"]
    acknowledged = []

    def write():
        with httpx.Client(base_url=base_url, timeout=WAIT_S) as writer:
            for n in range(25):
                response = writer.post(f"/games/{game.id}/commands", headers=game.headers("AB"[n % 2]),
                                       json={"type": "free_roll", "spec": "D6", "purpose": f"roll {n}"})
                assert response.status_code == 200
                acknowledged.extend(e["seq"] for e in response.json()["events"])

    with stream(http, game, params={"after": head}) as events:
        writer = threading.Thread(target=write)
        writer.start()
        writer.join(WAIT_S * 3)
        assert not writer.is_alive()
        received = [event["seq"] for _, event in events.take(len(acknowledged))]
    assert received == acknowledged == list(range(head + 1, head + 26))


def test_undo_and_redo_arrive_as_their_own_events_and_nothing_is_resent(http):
    game = started(http)
    head = game.events()[-1]["seq"]
    with stream(http, game, params={"after": head}) as events:
        action = game.cmd("A", "record_casualties", unit="boyz", models=1)["events"]
        undo = game.post("A", "undo")
        redo = game.post("A", "redo")
        assert (undo.status_code, redo.status_code) == (200, 200)
        sent = action + undo.json()["events"] + redo.json()["events"]
        received = [event for _, event in events.take(len(sent))]
        game.cmd("B", "free_roll", spec="D6", purpose="after the redo")
        after = events.take(1)[0][1]
    assert received == sent
    assert [e["type"] for e in received][-2:] == ["ActionUndone", "ActionRedone"]
    assert received[-1]["data"]["seqs"] == [e["seq"] for e in action]
    assert (after["seq"], after["type"]) == (sent[-1]["seq"] + 1, "DiceRolled")


def test_keep_alives_are_comments(http):
    game = started(http)
    with stream(http, game) as events:
        deadline = time.monotonic() + WAIT_S
        while events.comments == 0:
            assert time.monotonic() < deadline
            message = events.next_message()
            assert "data" not in message
    assert events.comments >= 1


def test_too_many_streams_for_one_token_is_429_with_retry_after(tmp_path):
    with serving(create_app(settings_for(tmp_path, streams_per_token=1))) as url, \
            httpx.Client(base_url=url, timeout=WAIT_S) as http:
        game = started(http)
        with stream(http, game, role="B") as events:
            game.cmd("A", "free_roll", spec="D6", purpose="x")
            events.take(1)
            second = http.get(f"/games/{game.id}/events/stream", headers=game.headers("B"))
            assert second.status_code == 429
            assert int(second.headers["retry-after"]) >= 1
            with stream(http, game, role="A") as others:
                game.cmd("A", "free_roll", spec="D6", purpose="y")
                assert others.take(1)[0][1]["data"]["purpose"] == "y"
        deadline = time.monotonic() + WAIT_S
        while True:  # the server notices the closed stream and gives its slot back
            with http.stream("GET", f"/games/{game.id}/events/stream", headers=game.headers("B")) as again:
                if again.status_code == 200:
                    break
                assert again.status_code == 429 and time.monotonic() < deadline
            time.sleep(0.05)
