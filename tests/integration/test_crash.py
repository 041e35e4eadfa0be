"""A `warlog serve` process killed (SIGKILL) while two players roll: after a restart on the same store every
acknowledged event is there as answered, seq runs 1..n, the chain verifies, and a request whose answer was lost
is settled by resending it with its Idempotency-Key: replayed if it had been stored, appended once if not.

The store is a SQLite file (WAL, the default `synchronous=NORMAL`: a commit survives the death of the process)
and, once, PostgreSQL in a schema of its own. `ops/crash/crash_loop.py` repeats the cycle."""
from __future__ import annotations

import random
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import pytest

from ops.service import Service, free_roll, roll_until_killed
from tests.integration.conftest import PG_URL
from tests.support.client import GameClient, unit

SEATS = ("A", "B")


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[list[str], dict[str, str]]:
    """(the `warlog serve` arguments naming the store, its environment): limits raised so no roll is a 429."""
    env = {"WARLOG_REQUESTS_PER_SECOND": "100000", "WARLOG_BURST": "100000"}
    if request.param == "sqlite":
        return ["--db", str(tmp_path / "warlog.db")], env
    return ["--postgres", PG_URL], {**env, "WARLOG_POSTGRES_SCHEMA": request.getfixturevalue("pg_schema")}


def test_a_killed_server_keeps_every_acknowledged_roll_and_a_resent_key_appends_it_at_most_once(store, tmp_path):
    args, env = store
    service = Service(args, env, tmp_path / "serve.err")
    seed = random.randrange(1 << 32)
    kill_after = random.Random(seed).uniform(0.5, 1.5)
    try:
        service.start()
        url = service.url
        with httpx.Client(base_url=url, timeout=10) as http:
            game = GameClient(http)
            started = game.start([unit("scouts", 5)], [unit("boyz", 10)])["version"]

        acknowledged: dict[str, dict[str, Any]] = {}
        unacknowledged: dict[str, str] = {}
        refused: list[str] = []
        stop = threading.Event()
        players = [threading.Thread(target=roll_until_killed, args=(
            url, game.id, seat, seat, lambda key, seat=seat: game.headers(seat, **{"Idempotency-Key": key}), stop,
            acknowledged, unacknowledged, refused)) for seat in SEATS]
        for player in players:
            player.start()
        time.sleep(kill_after)
        service.kill()
        stop.set()
        for player in players:
            player.join(30)
        assert refused == []
        assert acknowledged, f"no roll was answered in {kill_after:.2f} s (seed {seed})"
        note = f"killed after {kill_after:.2f} s (seed {seed}), {len(acknowledged)} answered, " \
               f"{len(unacknowledged)} unanswered"

        service.start()
        with httpx.Client(base_url=service.url, timeout=10) as http:
            game.http = http
            log = game.events("spectator")
            assert [e["seq"] for e in log] == list(range(1, len(log) + 1)), note
            by_seq = {e["seq"]: e for e in log}
            for answer in acknowledged.values():
                for event in answer["events"]:
                    assert by_seq.get(event["seq"]) == event, note  # same seq, same hash, same everything
            verified = game.verify("spectator")
            assert (verified["chain_ok"], verified["first_bad_seq"], verified["events"]) == (True, None, len(log))

            before = {e["data"]["purpose"]: e for e in log[started:] if e["type"] == "DiceRolled"}
            print(f"{note}; stored before the kill: {sorted(set(unacknowledged) & set(before))}")  # pytest -s
            for key, seat in unacknowledged.items():
                resent = game.send(seat, free_roll(key), **{"Idempotency-Key": key})
                assert resent.status_code == 200, resent.text
                events = resent.json()["events"]
                if key in before:  # stored before the kill: the answer is replayed, nothing appended
                    assert events == [before[key]], note
                else:               # lost with the process: appended now, after everything that was kept
                    assert [e["data"]["purpose"] for e in events] == [key]
                    assert events[0]["seq"] > len(log)
            # an answered request sent again after the restart is answered as it was the first time
            key, answer = next(iter(acknowledged.items()))
            again = game.send(key.split("-")[0], free_roll(key), **{"Idempotency-Key": key})
            assert again.json() == answer

            final = game.events("spectator")
            rolled = Counter(e["data"]["purpose"] for e in final[started:] if e["type"] == "DiceRolled")
            assert set(rolled) == set(acknowledged) | set(unacknowledged), note
            assert set(rolled.values()) == {1}, f"a roll appended twice: {rolled.most_common(3)}; {note}"
            assert [e["seq"] for e in final] == list(range(1, len(final) + 1))
            assert game.verify("spectator")["chain_ok"] is True
    finally:
        service.stop()
