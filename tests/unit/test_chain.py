"""The hash chain (CONTRACT.md "Reading"): canonical JSON, event hashes, the first break,
and `GET /verify` catching an event edited in the SQLite file behind the service's back."""
import hashlib
import json
import sqlite3
from uuid import UUID

from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import settings_for
from tests.support.client import unit
from warlog.api.app import create_app
from warlog.domain import chain


def contract_hash(event):
    """The contract's own line, independent of domain.chain: without `hash`, and without `undone` and `text`,
    which a reader is given and the chain does not cover (CONTRACT.md "In the players' words")."""
    body = {k: v for k, v in event.items() if k not in ("hash", "undone", "text")}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def build(payloads):
    """A well-formed chain of events carrying the given data."""
    events, prev = [], "0" * 64
    for seq, data in enumerate(payloads, start=1):
        event = {"seq": seq, "type": "DiceRolled", "at": "2026-11-29T20:13:05.123Z", "by": "A",
                 "rule": "CORE.DICE.3", "data": data, "prev_hash": prev}
        event["hash"] = contract_hash(event)
        events.append(event)
        prev = event["hash"]
    return events


# integers past 64 bits too: the service writes canonical JSON with orjson, and with the standard encoder what
# orjson will not write as it does
json_leaf = st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.integers(-2**70, 2**70) | st.text(max_size=12)
json_data = st.dictionaries(st.text(min_size=1, max_size=8),
                            st.recursive(json_leaf, lambda inner: st.lists(inner, max_size=3)
                                         | st.dictionaries(st.text(max_size=5), inner, max_size=3), max_leaves=6),
                            max_size=4)


# --- the pure chain ----------------------------------------------------------------------------------------

def test_the_first_events_prev_hash_is_64_zeros():
    assert chain.GENESIS == "0" * 64
    assert build([{}])[0]["prev_hash"] == chain.GENESIS


def test_non_ascii_text_is_hashed_unescaped_as_the_contract_says():
    event = build([{"purpose": "Würfel für den Rückzug"}])[0]
    assert "Würfel" in chain.canonical(event["data"])
    assert chain.event_hash(event) == event["hash"]
    escaped = json.dumps({k: v for k, v in event.items() if k != "hash"}, sort_keys=True, separators=(",", ":"))
    assert hashlib.sha256(escaped.encode()).hexdigest() != event["hash"]


def test_undone_is_not_covered_by_the_hash():
    event = build([{"faces": [3]}])[0]
    assert chain.event_hash({**event, "undone": True}) == event["hash"]


@settings(max_examples=30, deadline=None)
@given(st.lists(json_data, min_size=1, max_size=8))
def test_the_service_hash_is_the_contract_hash_and_an_untouched_chain_holds(payloads):
    events = build(payloads)
    assert all(chain.event_hash(e) == e["hash"] for e in events)
    assert chain.first_break(events) == (None, len(events), events[-1]["hash"])


@settings(max_examples=60, deadline=None)
@given(json_data)
def test_a_request_digest_is_the_sha256_of_its_canonical_json(value):
    """What an event's `request` names (a request record's digest, written by orjson where it can) is the digest of
    the standard encoder's canonical JSON, as an export's reader recomputes it."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert chain.digest(value) == hashlib.sha256(text.encode("utf-8")).hexdigest()


@settings(max_examples=50, deadline=None)
@given(payloads=st.lists(json_data, min_size=1, max_size=8), data=st.data())
def test_editing_any_hashed_field_of_any_event_is_named_as_the_first_break(payloads, data):
    events = build(payloads)
    index = data.draw(st.integers(0, len(events) - 1))
    name = data.draw(st.sampled_from(["type", "at", "by", "rule", "data", "prev_hash"]))
    tampered = {"type": "Conceded", "at": "2026-11-29T20:13:06.000Z", "by": "B", "rule": "SVC.ENDED",
                "data": {"faces": [6, 6], "edited": True}, "prev_hash": "f" * 64}[name]
    if events[index][name] == tampered:
        return
    events[index] = {**events[index], name: tampered}
    assert chain.first_break(events)[0] == index + 1


@settings(max_examples=25, deadline=None)
@given(payloads=st.lists(json_data, min_size=2, max_size=8), data=st.data())
def test_an_edit_whose_hash_was_recomputed_breaks_the_next_link(payloads, data):
    events = build(payloads)
    index = data.draw(st.integers(0, len(events) - 2))
    forged = {**events[index], "data": {"forged": True}}
    forged["hash"] = contract_hash(forged)
    events[index] = forged
    assert chain.first_break(events)[0] == index + 2


@settings(max_examples=25, deadline=None)
@given(payloads=st.lists(json_data, min_size=2, max_size=8), data=st.data())
def test_a_missing_event_is_caught_where_the_sequence_jumps(payloads, data):
    events = build(payloads)
    index = data.draw(st.integers(0, len(events) - 2))
    del events[index]
    assert chain.first_break(events)[0] == index + 2


# --- the chain as the service keeps it --------------------------------------------------------------------

def played(new_game, **options):
    game = new_game(**options)
    game.start([unit("scouts", 5)], [unit("boyz", 10)])
    for purpose in ("Würfel", "difficult terrain", "scatter"):
        game.cmd("A", "free_roll", spec="2D6", purpose=purpose)
    return game


def test_anyone_can_recompute_the_chain_from_get_events_with_the_contracts_python_line(new_game):
    game = played(new_game)
    events = game.events("spectator")
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    prev = "0" * 64
    for event in events:
        assert event["prev_hash"] == prev
        body = {k: v for k, v in event.items() if k not in ("hash", "undone", "text")}
        text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        assert hashlib.sha256(text.encode("utf-8")).hexdigest() == event["hash"]
        prev = event["hash"]
    verified = game.verify("spectator")
    assert verified["chain_ok"] is True
    assert verified["head_hash"] == prev
    assert verified["events"] == len(events)
    assert verified["first_bad_seq"] is None


def edit_stored_event(db_path, game_id, seq, change):
    """Edit one stored `Logged` event in the eventsourcing SQLite recorder's table, as an attacker would."""
    db = sqlite3.connect(db_path)
    try:
        ids = (UUID(game_id).hex, str(UUID(game_id)))
        row = db.execute("SELECT originator_id, state FROM stored_events WHERE originator_id IN (?, ?) "
                         "AND originator_version = ?", (*ids, seq)).fetchone()
        assert row is not None, "the eventsourcing SQLite recorder keeps events in stored_events"
        stored = json.loads(row[1])
        change(stored["entry"])
        db.execute("UPDATE stored_events SET state = ? WHERE originator_id = ? AND originator_version = ?",
                   (json.dumps(stored).encode(), row[0], seq))
        db.commit()
    finally:
        db.close()


def verify_afresh(tmp_path, game):
    """A new service process on the same file: nothing cached from before the edit."""
    with TestClient(create_app(settings_for(tmp_path))) as http:
        response = http.get(f"/games/{game.id}/verify", headers=game.headers("spectator"))
        assert response.status_code == 200, response.text
        return response.json()


def roll_seqs(game):
    return [e["seq"] for e in game.events() if e["type"] == "DiceRolled"]


def test_a_die_face_edited_in_the_sqlite_file_is_named_by_verify(new_game, tmp_path):
    game = played(new_game)
    seq = roll_seqs(game)[1]

    def load_the_dice(entry):  # every face moved on by one: a changed roll whatever the dice showed
        entry["data"]["faces"] = [face % 6 + 1 for face in entry["data"]["faces"]]
        entry["data"]["total"] = sum(entry["data"]["faces"])

    edit_stored_event(tmp_path / "warlog.db", game.id, seq, load_the_dice)
    verified = verify_afresh(tmp_path, game)
    assert verified["chain_ok"] is False
    assert verified["first_bad_seq"] == seq
    assert verified["events"] == game.events()[-1]["seq"]


def test_an_edit_with_a_recomputed_hash_is_caught_at_the_next_event(new_game, tmp_path):
    game = played(new_game)
    seq = roll_seqs(game)[0]

    def forge(entry):
        entry["data"]["faces"] = [face % 6 + 1 for face in entry["data"]["faces"]]
        entry["hash"] = chain.event_hash(entry)

    edit_stored_event(tmp_path / "warlog.db", game.id, seq, forge)
    verified = verify_afresh(tmp_path, game)
    assert (verified["chain_ok"], verified["first_bad_seq"]) == (False, seq + 1)


def test_an_untouched_file_still_verifies_after_a_restart(new_game, tmp_path):
    game = played(new_game)
    verified = verify_afresh(tmp_path, game)
    assert (verified["chain_ok"], verified["first_bad_seq"]) == (True, None)
    assert verified["head_hash"] == game.events()[-1]["hash"]


def test_the_events_a_command_answers_are_the_ones_the_log_keeps(new_game):
    game = new_game()
    game.start([unit("scouts", 5)], [unit("boyz", 10)])
    answered = game.cmd("B", "free_roll", spec="D6", purpose="morale")["events"]
    logged = {e["seq"]: e for e in game.events()}
    assert all(logged[e["seq"]] == e for e in answered)
    assert all(contract_hash(e) == e["hash"] for e in answered)
