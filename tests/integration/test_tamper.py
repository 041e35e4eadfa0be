"""A log edited below the service (SQLite file changed with sqlite3, then a fresh service on it) is named
damaged by /verify at its first bad seq, and every other read and every write of that game is refused
with 409 SVC.DAMAGED naming that seq; nothing is appended to it (RULES.md SVC.DAMAGED)."""
import hashlib

import pytest
from fastapi.testclient import TestClient

from ops.tamper.store import SqliteStore
from tests.conftest import settings_for
from tests.support.client import GameClient, unit
from warlog.api.app import create_app


def played(tmp_path, rolls):
    """A game on a SQLite file with `rolls` free rolls after the start (a few events before them)."""
    with TestClient(create_app(settings_for(tmp_path))) as http:
        game = GameClient(http)
        game.start([unit("scouts", 5)], [unit("boyz", 10)])
        for n in range(rolls):
            game.cmd("AB"[n % 2], "free_roll", spec="D6", purpose=f"roll {n}")
        assert game.verify()["chain_ok"] is True
    return game, SqliteStore(str(tmp_path / "warlog.db"))


def judged_damaged_at(tmp_path, game, store, seq, reader="A"):
    """A fresh service on the edited store: verify names `seq`, everything else is 409 naming it."""
    rows_before = store.versions(game.id)
    with TestClient(create_app(settings_for(tmp_path))) as http:
        game.http = http
        verdict = game.verify(reader)
        assert verdict["chain_ok"] is False and verdict["first_bad_seq"] == seq, verdict
        refusals = [
            http.get(f"/games/{game.id}/state", headers=game.headers(reader)),
            http.get(f"/games/{game.id}/events", headers=game.headers(reader)),
            http.get(f"/games/{game.id}/audit/{seq}", headers=game.headers(reader)),
            http.get(f"/games/{game.id}/analytics", headers=game.headers(reader)),
            game.send("A", {"type": "free_roll", "spec": "D6", "purpose": "over the damage"}),
            game.post("B", "undo"),
        ]
        for response in refusals:
            assert response.status_code == 409, (response.request.url, response.text)
            assert response.headers["content-type"].startswith("application/problem+json")
            problem = response.json()
            assert problem["rule"] == "SVC.DAMAGED" and problem["first_bad_seq"] == seq, problem
    assert store.versions(game.id) == rows_before  # nothing was appended


def test_an_edited_snapshot_is_named_and_the_game_refused(tmp_path):
    game, store = played(tmp_path, 100)
    assert store.versions(game.id, store.snapshots) == [100]

    def more_cp(state):
        state["state"]["state"]["cp"]["A"] = 99

    store.edit(game.id, 100, more_cp, store.snapshots)
    judged_damaged_at(tmp_path, game, store, 100)


def test_an_edited_snapshot_with_its_digest_recomputed_still_disagrees_with_the_events(tmp_path):
    from warlog.api.app import create_app as make
    from warlog.domain.application import Warlog
    from warlog.domain.integrity import DIGEST_KEY, state_digest

    game, store = played(tmp_path, 100)
    app = Warlog(env=settings_for(tmp_path).eventsourcing_env())
    try:  # the digest as the service computes it over the decoded snapshot
        snapshot = next(iter(app.snapshots.get(__import__("uuid").UUID(game.id))))
        state = dict(snapshot.state)
        state["state"] = {**state["state"], "cp": {"A": 99, "B": 0}}
        forged = state_digest(state)
    finally:
        app.close()

    def forge(row):
        row["state"]["state"]["cp"] = {"A": 99, "B": 0}
        row["state"][DIGEST_KEY] = forged

    store.edit(game.id, 100, forge, store.snapshots)
    with TestClient(make(settings_for(tmp_path))) as http:
        game.http = http
        verdict = game.verify()
        assert verdict["chain_ok"] is False and verdict["first_bad_seq"] == 100
        assert http.get(f"/games/{game.id}/state", headers=game.headers("A")).json()["rule"] == "SVC.DAMAGED"


def test_events_deleted_below_the_latest_snapshot_are_named_and_nothing_is_written_over_the_hole(tmp_path):
    game, store = played(tmp_path, 100)
    store.delete(game.id, list(range(50, 100)))
    judged_damaged_at(tmp_path, game, store, 50)


def test_one_deleted_event_is_named_and_the_game_refused(tmp_path):
    game, store = played(tmp_path, 60)
    store.delete(game.id, [50])
    judged_damaged_at(tmp_path, game, store, 50)


def test_an_unreadable_event_is_named_and_the_game_refused(tmp_path):
    game, store = played(tmp_path, 40)
    store.write_raw(game.id, 30, b"\x00\xffnot json")
    judged_damaged_at(tmp_path, game, store, 30)


def test_two_events_swapped_are_named_at_the_earlier_place(tmp_path):
    game, store = played(tmp_path, 20)
    store.swap(game.id, 12, 17)
    judged_damaged_at(tmp_path, game, store, 12)


def test_a_changed_token_digest_opens_nothing_and_the_game_is_named_damaged_at_its_creation(tmp_path):
    game, store = played(tmp_path, 5)
    attacker = f"{game.id.replace('-', '')}.attacker-chose-this-token"

    def take_seat_a(state):
        state["meta"]["tokens"]["A"] = hashlib.sha256(attacker.encode()).hexdigest()

    store.edit(game.id, 1, take_seat_a, "{events}")
    rows_before = store.versions(game.id)
    with TestClient(create_app(settings_for(tmp_path))) as http:
        game.http = http
        as_attacker = {"Authorization": f"Bearer {attacker}"}
        for response in (http.get(f"/games/{game.id}/state", headers=as_attacker),
                         http.post(f"/games/{game.id}/commands", headers=as_attacker,
                                   json={"type": "free_roll", "spec": "D6", "purpose": "stolen"})):
            assert response.status_code == 409 and response.json()["rule"] == "SVC.DAMAGED", response.text
            assert response.json()["first_bad_seq"] == 1  # the creation committed to the real digests
        verdict = game.verify("B")  # the genuine seat B still hears where the log is damaged
        assert verdict["chain_ok"] is False and verdict["first_bad_seq"] == 1
        assert http.get(f"/games/{game.id}/events", headers=game.headers("B")).json()["first_bad_seq"] == 1
        assert game.send("B", {"type": "free_roll", "spec": "D6", "purpose": "x"}).json()["rule"] == "SVC.DAMAGED"
        genuine_a = http.get(f"/games/{game.id}/verify", headers=game.headers("A"))
        assert genuine_a.status_code == 409 and genuine_a.json()["first_bad_seq"] == 1  # its digest was replaced
    assert store.versions(game.id) == rows_before


def test_a_truncated_log_is_damaged_and_no_longer_extends_a_head_a_seat_kept(tmp_path):
    game, store = played(tmp_path, 20)
    *_kept_rows, last = store.versions(game.id)
    kept = store.read(game.id, last)["entry"]["hash"]  # the head seat A saw last
    store.delete(game.id, [last - 1, last])
    with TestClient(create_app(settings_for(tmp_path))) as http:
        game.http = http
        verdict = http.get(f"/games/{game.id}/verify", params={"head": kept}, headers=game.headers("A")).json()
        assert verdict["chain_ok"] is False and verdict["damage"] == "truncated", verdict  # the head record tells
        assert verdict["first_bad_seq"] == last - 1 and verdict["events"] == last - 2
        assert verdict["extends_head"] is False  # ...and so does the seat's kept head


@pytest.mark.parametrize("rolls", [3, 120])
def test_an_untouched_game_is_not_damaged_after_a_restart(tmp_path, rolls):
    game, store = played(tmp_path, rolls)
    with TestClient(create_app(settings_for(tmp_path))) as http:
        game.http = http
        assert game.verify()["chain_ok"] is True and game.verify()["first_bad_seq"] is None
        assert game.cmd("A", "free_roll", spec="D6", purpose="after")["version"] == store.versions(game.id)[-1]
        assert game.verify()["events"] == len(store.versions(game.id))


def test_another_games_creation_spliced_in_is_named_at_seq_1(tmp_path):
    game, store = played(tmp_path, 3)
    with TestClient(create_app(settings_for(tmp_path))) as http:
        other = GameClient(http)
    store.splice(game.id, 1, other.id, 1)
    with TestClient(create_app(settings_for(tmp_path))) as http:
        game.http = http
        for role in ("A", "B"):
            refused = http.get(f"/games/{game.id}/state", headers=game.headers(role))
            assert refused.status_code == 409 and refused.json()["first_bad_seq"] == 1, refused.text
        assert game.send("A", {"type": "free_roll", "spec": "D6", "purpose": "x"}).json()["rule"] == "SVC.DAMAGED"


def test_a_game_made_before_the_commitments_still_loads_verifies_and_takes_commands(tmp_path, monkeypatch):
    """No token commitments in its creation, snapshots of the library's own kind without a digest."""
    from eventsourcing.domain import Snapshot

    from warlog.domain import integrity
    from warlog.domain.game import Game

    class OlderSnapshots:
        """The older code's snapshots: the library's own, of the game's attributes, its state the JSON it was."""

        @staticmethod
        def take(aggregate):
            snapshot = Snapshot.take(aggregate)
            snapshot.state["state"] = aggregate.state.to_json()
            return snapshot

    with monkeypatch.context() as old_code:
        old_code.setattr(Game, "Snapshot", OlderSnapshots)
        old_code.setattr(integrity, "token_commitments", lambda digests: None)
        game, store = played(tmp_path, 100)
    assert store.read(game.id, 1)["entry"]["data"]["token_commitments"] is None
    assert store.read(game.id, 100, store.snapshots)["topic"] == "warlog.domain.game:Game"  # the library's snapshot
    with TestClient(create_app(settings_for(tmp_path))) as http:
        game.http = http
        assert game.verify()["chain_ok"] is True and game.state()["version"] == store.versions(game.id)[-1]
        game.cmd("B", "free_roll", spec="D6", purpose="after the upgrade")

    def more_cp(state):
        state["state"]["state"]["cp"]["A"] = 99

    store.edit(game.id, 100, more_cp, store.snapshots)  # no digest to betray it: the replay on /verify does
    with TestClient(create_app(settings_for(tmp_path))) as http:
        game.http = http
        verdict = game.verify()
        assert verdict["chain_ok"] is False and verdict["first_bad_seq"] == 100
        assert http.get(f"/games/{game.id}/state", headers=game.headers("A")).json()["rule"] == "SVC.DAMAGED"


def test_every_read_and_write_of_a_damaged_game_but_verify_is_409_naming_the_seq(tmp_path):
    game, store = played(tmp_path, 30)
    store.delete(game.id, [20])
    rows_before = store.versions(game.id)
    with TestClient(create_app(settings_for(tmp_path))) as http:
        game.http = http
        base, seat, spectator = f"/games/{game.id}", game.headers("A"), game.headers("spectator")
        calls = {
            "state": lambda: http.get(f"{base}/state", headers=seat),
            "state at": lambda: http.get(f"{base}/state", params={"at": 5}, headers=seat),
            "events": lambda: http.get(f"{base}/events", params={"after": 25}, headers=seat),
            "events of the spectator": lambda: http.get(f"{base}/events", headers=spectator),
            "stream": lambda: http.get(f"{base}/events/stream", params={"after": 0}, headers=seat),
            "audit": lambda: http.get(f"{base}/audit/3", headers=seat),
            "audit story": lambda: http.get(f"{base}/audit", params={"seat": "A"}, headers=seat),
            "overlay": lambda: http.get(f"{base}/overlay", headers=spectator),
            "overlay stream": lambda: http.get(f"{base}/overlay/stream", headers=spectator),
            "analytics": lambda: http.get(f"{base}/analytics", headers=seat),
            "export": lambda: http.get(f"{base}/export", headers=seat),
            "undo preview": lambda: http.get(f"{base}/undo", headers=seat),
            "command": lambda: game.send("A", {"type": "free_roll", "spec": "D6", "purpose": "x"}),
            "armies": lambda: game.muster("B", [unit("boyz", 10)]),
            "undo": lambda: game.post("A", "undo"),
            "approve": lambda: game.post("B", "undo/approve"),
            "reject": lambda: game.post("B", "undo/reject"),
            "redo": lambda: game.post("A", "redo"),
        }
        for name, call in calls.items():
            response = call()
            assert response.status_code == 409, (name, response.status_code, response.text[:300])
            assert response.json()["rule"] == "SVC.DAMAGED" and response.json()["first_bad_seq"] == 20, name
        assert game.verify("spectator")["first_bad_seq"] == 20
    assert store.versions(game.id) == rows_before


def test_events_another_process_appended_are_checked_as_a_cached_game_catches_up(tmp_path):
    """The full walk runs once per process; after it, each load checks the events it reads."""
    game, store = played(tmp_path, 10)
    with TestClient(create_app(settings_for(tmp_path))) as reader, \
            TestClient(create_app(settings_for(tmp_path))) as writer:
        game.http = reader
        assert game.verify()["chain_ok"] is True and game.state()  # walked in full, and cached
        game.http = writer
        appended = [game.cmd("B", "free_roll", spec="D6", purpose=f"elsewhere {n}")["version"] for n in range(3)]

        def lie(row):  # another face than the one rolled
            row["entry"]["data"]["faces"] = [face % 6 + 1 for face in row["entry"]["data"]["faces"]]

        store.edit(game.id, appended[1], lie)
        game.http = reader
        refused = reader.get(f"/games/{game.id}/state", headers=game.headers("A"))
        assert refused.status_code == 409 and refused.json()["first_bad_seq"] == appended[1], refused.text
        assert game.send("A", {"type": "free_roll", "spec": "D6", "purpose": "x"}).status_code == 409
    assert store.versions(game.id)[-1] == appended[-1]


def test_an_older_snapshot_edited_after_the_first_load_is_caught_when_a_past_state_uses_it(tmp_path):
    game, store = played(tmp_path, 200)
    assert store.versions(game.id, store.snapshots) == [100, 200]
    with TestClient(create_app(settings_for(tmp_path))) as http:
        game.http = http
        assert game.state()["version"] > 200  # walked in full, and cached

        def more_cp(state):
            state["state"]["state"]["cp"]["B"] = 7

        store.edit(game.id, 100, more_cp, store.snapshots)
        past = http.get(f"/games/{game.id}/state", params={"at": 150}, headers=game.headers("A"))
        assert past.status_code == 409 and past.json()["first_bad_seq"] == 100, past.text
        assert http.get(f"/games/{game.id}/state", headers=game.headers("A")).status_code == 409


def test_the_state_an_undo_restores_is_checked_against_the_events_by_verify(tmp_path):
    game, store = played(tmp_path, 4)
    with TestClient(create_app(settings_for(tmp_path))) as http:
        game.http = http
        game.cmd("A", "record_casualties", unit="boyz", models=3)
        assert game.post("A", "undo").status_code == 200
        undone = game.events()[-1]
        assert undone["type"] == "ActionUndone" and game.verify()["chain_ok"] is True

    def fewer_boyz(row):
        row["meta"]["state"]["units"]["boyz"]["models_alive"] = 4

    store.edit(game.id, undone["seq"], fewer_boyz)
    with TestClient(create_app(settings_for(tmp_path))) as http:
        game.http = http
        verdict = game.verify()
        assert verdict["chain_ok"] is False and verdict["first_bad_seq"] == undone["seq"], verdict
        assert http.get(f"/games/{game.id}/state", headers=game.headers("A")).json()["rule"] == "SVC.DAMAGED"


@pytest.mark.postgres
def test_on_postgresql_a_deleted_event_and_an_edited_snapshot_are_named_and_refused(pg_schema):
    from ops.tamper.store import PostgresStore
    from tests.integration.conftest import PG_URL, pg_settings

    settings = pg_settings(pg_schema)
    with TestClient(create_app(settings)) as http:
        game = GameClient(http)
        game.start([unit("scouts", 5)], [unit("boyz", 10)])
        for n in range(100):
            game.cmd("AB"[n % 2], "free_roll", spec="D6", purpose=f"roll {n}")
    store = PostgresStore(PG_URL, pg_schema)
    assert store.versions(game.id, store.snapshots) == [100]

    def more_cp(state):
        state["state"]["state"]["cp"]["A"] = 99

    store.edit(game.id, 100, more_cp, store.snapshots)
    store.delete(game.id, [60])
    rows_before = store.versions(game.id)
    with TestClient(create_app(settings)) as http:
        game.http = http
        verdict = game.verify()
        assert verdict["chain_ok"] is False and verdict["first_bad_seq"] == 60, verdict
        for response in (http.get(f"/games/{game.id}/state", headers=game.headers("A")),
                         game.send("B", {"type": "free_roll", "spec": "D6", "purpose": "over the hole"})):
            assert response.status_code == 409 and response.json()["first_bad_seq"] == 60, response.text
    assert store.versions(game.id) == rows_before


@pytest.mark.parametrize("topic, form", [("warlog.domain.game:Game.Created", "altered"),
                                         ("warlog.domain.game:Game.Snapshot", "altered"),
                                         ("warlog.domain.game:NoSuchEvent", "unreadable")])
def test_a_middle_row_whose_topic_was_changed_is_reported_by_verify_and_refused_elsewhere(tmp_path, topic, form):
    import sqlite3
    from uuid import UUID

    game, store = played(tmp_path, 6)
    db = sqlite3.connect(tmp_path / "warlog.db")
    with db:
        db.execute("UPDATE stored_events SET topic = ? WHERE originator_id = ? AND originator_version = 5",
                   (topic, UUID(game.id).hex))
    db.close()
    with TestClient(create_app(settings_for(tmp_path))) as http:
        game.http = http
        response = http.get(f"/games/{game.id}/verify", headers=game.headers("A"))
        assert response.status_code == 200, response.text  # the report, never a 409 of its own
        assert response.json()["first_bad_seq"] == 5 and response.json()["damage"] == form
    judged_damaged_at(tmp_path, game, store, 5)
