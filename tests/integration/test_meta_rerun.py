"""The request books outside the hash chain (the audit's "sent": who sent which command, and the
Idempotency-Key books) are checked by /verify playing every stored request again: an edit there is named by
`commands_ok: false` and `first_unmatched_seq`, and the audit it would have falsified is no longer taken on
trust (domain/rerun.py). An unedited game, with undo, consent, redo and server dice, replays to itself."""
from fastapi.testclient import TestClient

from api.app import create_app
from ops.tamper.store import SqliteStore
from tests.conftest import settings_for
from tests.support.client import GameClient, unit


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


def verdict_after(tmp_path, game):
    with TestClient(create_app(settings_for(tmp_path))) as http:
        game.http = http
        return game.verify(), http.get(f"/games/{game.id}/state", headers=game.headers("A")).status_code


def first_roll(log):
    return next(e for e in log if e["type"] == "DiceRolled" and e["data"]["purpose"] == "roll 0")


def test_a_forged_sender_is_named_though_the_chain_holds(tmp_path):
    game, log, store = played(tmp_path)
    seq = first_roll(log)["seq"]

    def sent_by_b(row):
        assert row["meta"]["sent_by"] == "A"
        row["meta"]["sent_by"] = "B"

    store.edit(game.id, seq, sent_by_b)
    verdict, state = verdict_after(tmp_path, game)
    assert verdict["chain_ok"] is True and verdict["first_bad_seq"] is None  # the public log is intact
    assert verdict["commands_ok"] is False and verdict["first_unmatched_seq"] == seq, verdict
    assert state == 200  # a mismatch informs the judge; it is not SVC.DAMAGED


def test_a_forged_command_is_named(tmp_path):
    game, log, store = played(tmp_path)
    seq = first_roll(log)["seq"]

    def other_purpose(row):
        row["meta"]["command"]["purpose"] = "the roll that never was"

    store.edit(game.id, seq, other_purpose)
    verdict, _ = verdict_after(tmp_path, game)
    assert verdict["chain_ok"] is True
    assert verdict["commands_ok"] is False and verdict["first_unmatched_seq"] == seq, verdict


def test_a_forged_idempotency_book_is_named(tmp_path):
    game, log, store = played(tmp_path)
    seq = first_roll(log)["seq"]

    def other_key(row):
        row["meta"]["key"] = "A:another"

    store.edit(game.id, seq, other_key)
    verdict, _ = verdict_after(tmp_path, game)
    assert verdict["commands_ok"] is True  # the key itself is the client's; what it books is checked below

    def other_endpoint(row):
        row["meta"]["endpoint"] = "undo"

    store.edit(game.id, seq, other_endpoint)
    verdict, _ = verdict_after(tmp_path, game)
    assert verdict["commands_ok"] is False and verdict["first_unmatched_seq"] == seq, verdict


def test_a_forged_approver_is_named(tmp_path):
    game, log, store = played(tmp_path)
    undone = next(e for e in log if e["type"] == "ActionUndone")

    def approved_by_a(row):
        row["meta"]["sent_by"] = "A"

    store.edit(game.id, undone["seq"], approved_by_a)
    verdict, _ = verdict_after(tmp_path, game)
    assert verdict["chain_ok"] is True
    assert verdict["commands_ok"] is False and verdict["first_unmatched_seq"] == undone["seq"], verdict
