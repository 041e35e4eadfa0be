"""The request books beside each event (the audit's "sent": who sent which command, and the Idempotency-Key
books) are committed to by the event's `request` digest, inside the hash chain: an edit there is damage
("metadata", SVC.DAMAGED) at that event's seq, and every read and write of the game is refused. Games stored
before `request` existed are still checked by /verify playing every stored request again (`commands_ok`, a
diagnostic: tests/golden/test_stored_logs.py). An unedited game, with undo, consent, redo and server dice,
verifies and replays to itself."""
from fastapi.testclient import TestClient

from ops.tamper.store import SqliteStore
from tests.conftest import settings_for
from tests.support.client import GameClient, unit
from warlog.api.app import create_app


def played(tmp_path):
    with TestClient(create_app(settings_for(tmp_path))) as http:
        game = GameClient(http)
        game.start([unit("scouts", 5)], [unit("boyz", 10)])
        for n in range(6):
            response = game.send("AB"[n % 2], {"type": "free_roll", "spec": "2D6", "purpose": f"roll {n}"},
                                 **{"Idempotency-Key": f"k{n}"})
            assert response.status_code == 200, response.text
        assert game.post("A", "undo").status_code == 202  # B's roll: A asks, B approves
        assert game.post("B", "undo/approve").status_code == 200
        assert game.post("A", "redo").status_code == 200
        verdict = game.verify()
        assert verdict["chain_ok"] is True
        assert verdict["commands_ok"] is True and verdict["first_unmatched_seq"] is None, verdict
        log = game.events()
    return game, log, SqliteStore(str(tmp_path / "warlog.db"))


def damaged_at(verdict, seq):
    return (verdict["chain_ok"] is False and verdict["first_bad_seq"] == seq and verdict["damage"] == "metadata"
            and verdict["commands_ok"] is None)


def verdict_after(tmp_path, game):
    with TestClient(create_app(settings_for(tmp_path))) as http:
        game.http = http
        return game.verify(), http.get(f"/games/{game.id}/state", headers=game.headers("A")).status_code


def first_roll(log):
    return next(e for e in log if e["type"] == "DiceRolled" and e["data"]["purpose"] == "roll 0")


def test_every_event_of_a_request_carries_its_digest(tmp_path):
    _, log, _ = played(tmp_path)
    assert "request" not in log[0]  # the creation commits to its books through its data
    assert all(len(e["request"]) == 64 for e in log[1:])
    rolls = [e for e in log if e["type"] == "DiceRolled"]
    assert len({e["request"] for e in rolls}) == len(rolls)  # each roll its own request


def test_a_forged_sender_is_damage_at_its_seq(tmp_path):
    game, log, store = played(tmp_path)
    seq = first_roll(log)["seq"]

    def sent_by_b(row):
        assert row["meta"]["sent_by"] == "A"
        row["meta"]["sent_by"] = "B"

    store.edit(game.id, seq, sent_by_b)
    verdict, state = verdict_after(tmp_path, game)
    assert damaged_at(verdict, seq), verdict
    assert state == 409  # the audit it would falsify is never read again


def test_a_forged_command_is_damage_at_its_seq(tmp_path):
    game, log, store = played(tmp_path)
    seq = first_roll(log)["seq"]

    def other_spec(row):
        assert row["meta"]["command"]["spec"] == "2D6"
        row["meta"]["command"]["spec"] = "D20"

    store.edit(game.id, seq, other_spec)
    verdict, _ = verdict_after(tmp_path, game)
    assert damaged_at(verdict, seq), verdict


def test_a_forged_idempotency_book_is_damage_at_its_seq(tmp_path):
    game, log, store = played(tmp_path)
    seq = first_roll(log)["seq"]

    def other_key(row):
        row["meta"]["key"] = "A:another"

    store.edit(game.id, seq, other_key)
    verdict, _ = verdict_after(tmp_path, game)
    assert damaged_at(verdict, seq), verdict


def test_a_forged_approver_is_damage_at_its_seq(tmp_path):
    game, log, store = played(tmp_path)
    undone = next(e for e in log if e["type"] == "ActionUndone")

    def approved_by_a(row):
        row["meta"]["sent_by"] = "A"

    store.edit(game.id, undone["seq"], approved_by_a)
    verdict, _ = verdict_after(tmp_path, game)
    assert damaged_at(verdict, undone["seq"]), verdict


def test_a_continuing_event_made_the_start_of_a_request_is_damage(tmp_path):
    game, log, store = played(tmp_path)
    redone = next(e for e in log if e["type"] == "ActionRedone")

    def starts_anew(row):
        row["meta"] = {"kind": "action", "starts": True, "sent_by": "B"}

    store.edit(game.id, redone["seq"], starts_anew)
    verdict, _ = verdict_after(tmp_path, game)
    assert damaged_at(verdict, redone["seq"]), verdict
