"""An Idempotency-Key belongs to one endpoint, also for the answers stored before keys named theirs."""
from uuid import uuid4

import pytest

from warlog.domain.game import Game, Table
from warlog.domain.rulings import Malformed


def new_game() -> Game:
    return Game.create(uuid4(), "alternating", {"A": "Alice", "B": "Bob"}, "server", {}, b"\0" * 32,
                       {"A": "a", "B": "b", "spectator": "s"}, "2026-11-29T20:00:00.000Z")


SCOUTS = [{"id": "scouts", "name": "Scouts", "keywords": ["INFANTRY"], "abilities": [],
           "models": [{"name": "Scout", "count": 5, "W": 1, "Ld": 7}], "weapons": []}]


def test_a_mustering_key_replays_on_armies_and_is_refused_on_commands():
    game = new_game()
    game.muster("A", SCOUTS, "2026-11-29T20:00:01.000Z", key="k", body="digest")
    assert game.answer("A", "k", "digest", "armies")[1] == 200
    with pytest.raises(Malformed) as refused:
        game.answer("A", "k", "digest", "commands")
    assert refused.value.field == "Idempotency-Key"


def test_a_key_stored_without_its_endpoint_is_read_off_the_entry_it_started(monkeypatch):
    plain = Table.next_meta

    def as_stored_before(self):  # what the log held before keys named their endpoint: "seat:key" only
        meta = plain(self)
        meta.pop("endpoint", None)
        return meta

    monkeypatch.setattr(Table, "next_meta", as_stored_before)
    game = new_game()
    game.muster("A", SCOUTS, "2026-11-29T20:00:01.000Z", key="old", body="digest")
    assert "endpoint" not in game.pending_events[-1].meta
    assert game.answer("A", "old", "digest", "armies")[1] == 200
    with pytest.raises(Malformed):
        game.answer("A", "old", "digest", "undo")


@pytest.mark.parametrize("entry, meta, endpoint", [
    ({"type": "DiceRolled", "data": {}}, {"kind": "action", "command": {"type": "free_roll"}}, "commands"),
    ({"type": "ArmyMustered", "data": {}}, {"kind": "action", "command": {"type": "muster"}}, "armies"),
    ({"type": "UndoRequested", "data": {}}, {"kind": "control"}, "undo"),
    ({"type": "ActionUndone", "data": {"action_by": "A"}}, {"kind": "restore"}, "undo"),
    ({"type": "ActionUndone", "data": {"approved_by": "B"}}, {"kind": "restore"}, "approve"),
    ({"type": "UndoRejected", "data": {}}, {"kind": "control"}, "reject"),
    ({"type": "ActionRedone", "data": {}}, {"kind": "restore"}, "redo"),
])
def test_the_endpoint_of_an_old_entry_follows_from_what_it_records(entry, meta, endpoint):
    assert Game.endpoint_of(entry, meta) == endpoint


def test_an_answer_from_a_snapshot_without_endpoints_replays_anywhere():
    game = new_game()
    game.requests["A:snap"] = ["digest", 200, 2, 2]  # the book's old shape, as an older snapshot holds it
    assert game.answer("A", "snap", "digest", "redo") == ["digest", 200, 2, 2]
