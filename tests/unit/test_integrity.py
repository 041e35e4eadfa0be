"""domain/integrity: the walk names the first bad seq; a snapshot's digest survives the library's own
transcoding and betrays an edit."""
import dataclasses
import hashlib
import json
from uuid import uuid4

import pytest

from tests.support.client import unit
from warlog.domain import integrity
from warlog.domain.application import Warlog, digest
from warlog.domain.game import Game
from warlog.domain.integrity import Damaged

AT = "2026-12-01T10:00:00.000Z"


def a_game():
    game = Game.create(uuid4(), "alternating", {"A": "Alice", "B": "Bob"}, "server",
                       {"battle_rounds": 5, "reserves_from_round": 2, "spectator_delay_s": 0}, b"\x01" * 32,
                       {"A": digest("a"), "B": digest("b"), "spectator": digest("s")}, AT)
    game.muster("A", [unit("scouts", 5)], AT)
    game.muster("B", [unit("boyz", 10)], AT)
    return game


def rows(events):
    return [(event.originator_version, lambda event=event: event) for event in events]


def test_a_sound_log_walks_to_its_end():
    events = a_game().collect_events()
    found = integrity.inspect(rows(events))
    assert found.ok and [e["seq"] for e in found.entries] == [1, 2, 3]


def test_a_missing_event_is_named_by_its_seq():
    first, _, third = a_game().collect_events()
    found = integrity.inspect(rows([first, third]))
    assert (found.first_bad_seq, found.why) == (2, "an event is missing")


def test_a_row_that_does_not_decode_is_named_by_its_seq():
    def unreadable():
        raise ValueError("not JSON")

    first, _second, _ = a_game().collect_events()
    assert integrity.inspect([*rows([first]), (2, unreadable)]).first_bad_seq == 2


def test_a_token_digest_the_creation_did_not_commit_to_is_damage_at_seq_1():
    first, *rest = a_game().collect_events()
    first.meta["tokens"]["A"] = hashlib.sha256(b"attacker").hexdigest()
    found = integrity.inspect(rows([first, *rest]))
    assert found.first_bad_seq == 1 and "token" in found.why


def test_the_dice_seed_must_be_the_one_the_commitment_names():
    first, *rest = a_game().collect_events()
    first.meta["seed"] = "02" * 32
    assert integrity.inspect(rows([first, *rest])).first_bad_seq == 1


def test_the_projector_refuses_an_event_that_does_not_link_to_the_head_before_it():
    first, second, third = a_game().collect_events()
    edited = dataclasses.replace(third)
    vars(edited)["entry"] = {**third.entry, "prev_hash": first.entry["hash"]}
    with pytest.raises(Damaged) as refused:
        integrity.checked(None, [first, second, edited])
    assert refused.value.first_bad_seq == 3 and refused.value.rule == "SVC.DAMAGED"
    assert integrity.checked(None, [first, second, third]).version == 3


def test_a_snapshot_through_the_librarys_transcoder_keeps_its_digest_and_betrays_an_edit():
    warlog = Warlog(env={"PERSISTENCE_MODULE": "eventsourcing.popo"})
    try:
        game = a_game()
        game.collect_events()
        stored = warlog.mapper.to_stored_event(Game.Snapshot.take(game))
        assert vars(warlog.mapper.to_domain_event(stored).mutate(None)) == vars(game)
        body = json.loads(stored.state)
        body["state"]["state"]["cp"]["A"] = 99
        edited = dataclasses.replace(stored, state=json.dumps(body).encode())
        with pytest.raises(Damaged) as refused:
            warlog.mapper.to_domain_event(edited).mutate(None)
        assert refused.value.first_bad_seq == 3
    finally:
        warlog.close()
