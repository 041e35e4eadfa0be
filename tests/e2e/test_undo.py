"""Undo and redo over HTTP, exactly as CONTRACT.md "Undo and redo" fixes them."""
import pytest

from tests.support.client import GameClient, awaits, unit
from warlog.domain.rules import editions


def without_version(state):
    """CONTRACT.md: after an undo or a redo every state field but version is what it was (what undo and redo
    would do now, `anytime`, is the one thing they change)."""
    return {k: v for k, v in state.items() if k not in ("version", "anytime")}


@pytest.fixture
def game(new_game) -> GameClient:
    """Battle round 1, Movement Pass Point Calculation: both seats still to confirm their counts."""
    game = new_game()
    game.start([unit("scouts-1"), unit("scouts-2")], [unit("boyz-1")])
    assert awaits(game.state()) == {"seat": None, "action": "confirm_count"}
    return game


def undone_flags(game):
    return {e["seq"]: e["undone"] for e in game.events()}


def test_a_seat_undoes_its_own_dice_free_action_at_once_and_the_state_is_as_before(game):
    before = game.state()
    action = game.cmd("A", "confirm_count")
    response = game.post("A", "undo")
    assert response.status_code == 200
    [undone] = response.json()["events"]
    assert undone["type"] == "ActionUndone" and undone["by"] == "A"
    assert undone["data"]["seqs"] == [e["seq"] for e in action["events"]]
    assert without_version(game.state()) == without_version(before)
    assert game.state()["version"] == undone["seq"]
    flags = undone_flags(game)
    assert all(flags[e["seq"]] for e in action["events"]) and not flags[undone["seq"]]


def test_an_action_of_several_events_is_undone_whole(game):
    game.cmd("A", "confirm_count")
    before = game.state()
    action = game.cmd("B", "confirm_count")  # B's count, the calculation, Move Units starts, its roll-off
    assert len(action["events"]) > 2
    undone = game.post("B", "undo").json()["events"][0]
    assert undone["data"]["seqs"] == [e["seq"] for e in action["events"]]
    assert without_version(game.state()) == without_version(before)


def test_undoing_an_action_that_rolled_dice_needs_the_other_seat(game):
    roll = game.cmd("A", "free_roll", spec="2D6", purpose="terrain")
    response = game.post("A", "undo")
    assert response.status_code == 202
    [requested] = response.json()["events"]
    assert requested["type"] == "UndoRequested" and requested["rule"] == "SVC.UNDO.CONSENT"
    assert requested["data"]["seqs"] == [roll["events"][0]["seq"]]
    assert not undone_flags(game)[roll["events"][0]["seq"]]

    approved = game.post("B", "undo/approve")
    assert approved.status_code == 200
    [undone] = approved.json()["events"]
    assert undone["type"] == "ActionUndone"
    assert undone["data"] == {"seqs": [roll["events"][0]["seq"]], "requested_by": "A", "approved_by": "B"}
    assert undone_flags(game)[roll["events"][0]["seq"]]


def test_undoing_the_other_seats_action_needs_its_consent_and_a_rejection_keeps_it(game):
    before = game.state()
    action = game.cmd("A", "confirm_count")
    requested = game.post("B", "undo")
    assert requested.status_code == 202
    assert requested.json()["events"][0]["data"]["reason"] == "Alice took it"  # by name (SVC.UNDO.CONSENT, ed. 4)
    rejected = game.post("A", "undo/reject")
    assert rejected.status_code == 200
    [answer] = rejected.json()["events"]
    assert answer["type"] == "UndoRejected" and answer["data"]["rejected_by"] == "A"
    assert not undone_flags(game)[action["events"][0]["seq"]]
    assert game.state()["units"] == before["units"]
    assert [e["type"] for e in game.events()][-2:] == ["UndoRequested", "UndoRejected"]  # both stay in the log


def test_a_game_created_before_the_players_words_fix_keeps_the_seats_reason(new_game, monkeypatch):
    """A game created under edition 3 (domain/rules/editions.py, SVC.UNDO.CONSENT) asks as it always asked, and
    /verify plays its requests again to the same events."""
    monkeypatch.setattr(editions, "created_under", lambda: {"edition": 3})
    game = new_game()
    game.start([unit("scouts-1")], [unit("boyz-1")])
    game.cmd("A", "confirm_count")
    requested = game.post("B", "undo")
    assert requested.status_code == 202
    assert requested.json()["events"][0]["data"]["reason"] == "the other seat took it"
    assert game.verify()["commands_ok"] is True


def test_only_the_other_seat_answers_an_undo_request(game):
    game.cmd("A", "free_roll", spec="D6", purpose="terrain")
    assert game.post("A", "undo").status_code == 202
    for path in ("undo/approve", "undo/reject"):
        response = game.post("A", path)
        assert response.status_code == 409 and response.json()["rule"] == "SVC.UNDO.WHO"
        assert "You asked for this undo: Bob approves or rejects it" in response.json()["detail"]  # by name
        assert game.post("spectator", path).status_code == 403


def test_only_the_player_who_undid_an_action_redoes_it_and_the_refusal_names_them(game):
    game.cmd("A", "confirm_count")
    assert game.post("A", "undo").status_code == 200
    response = game.post("B", "redo")
    assert response.status_code == 409 and response.json()["rule"] == "SVC.UNDO.WHO"
    assert "Only Alice, who undid this action, may redo it" in response.json()["detail"]
    assert "seat" not in response.json()["detail"]
    assert game.post("A", "redo").status_code == 200


def test_the_spectator_token_neither_undoes_nor_redoes(game):
    game.cmd("A", "confirm_count")
    assert game.post("spectator", "undo").status_code == 403
    game.post("A", "undo")
    assert game.post("spectator", "redo").status_code == 403


def test_play_undo_and_redo_wait_while_a_request_is_pending(game):
    game.cmd("A", "free_roll", spec="D6", purpose="terrain")
    game.post("A", "undo")
    version = game.state()["version"]
    for seat in ("A", "B"):
        assert game.refused(seat, "confirm_count")["rule"] == "SVC.UNDO.PENDING"
        for path in ("undo", "redo"):
            response = game.post(seat, path)
            assert response.status_code == 409 and response.json()["rule"] == "SVC.UNDO.PENDING"
    assert game.state()["version"] == version


def test_nothing_to_undo_and_nothing_pending_are_refused_with_svc_undo_none(new_game):
    game = new_game()
    assert game.post("A", "undo").json()["rule"] == "SVC.UNDO.NONE"
    assert game.post("B", "undo/approve").json()["rule"] == "SVC.UNDO.NONE"
    assert game.post("A", "redo").json()["rule"] == "SVC.UNDO.NONE"


def test_redo_brings_back_the_rolled_action_with_its_original_dice(game):
    roll = game.cmd("A", "free_roll", spec="3D6", purpose="terrain")["events"][0]
    after_roll = game.state()
    game.post("A", "undo")
    game.post("B", "undo/approve")
    redone = game.post("A", "redo")  # the seat that asked for the undo
    assert redone.status_code == 200
    [event] = redone.json()["events"]
    assert event["type"] == "ActionRedone" and event["data"]["seqs"] == [roll["seq"]]
    logged = {e["seq"]: e for e in game.events()}
    assert logged[roll["seq"]]["data"]["faces"] == roll["data"]["faces"] and not logged[roll["seq"]]["undone"]
    assert [e["type"] for e in logged.values()].count("DiceRolled") == 1
    assert without_version(game.state()) == without_version(after_roll)


def test_only_the_seat_that_undid_may_redo(game):
    game.cmd("A", "confirm_count")
    game.post("A", "undo")
    response = game.post("B", "redo")
    assert response.status_code == 409 and response.json()["rule"] == "SVC.UNDO.WHO"


def test_undo_steps_back_through_actions_and_redo_replays_them_in_order(game):
    states = [game.state()]
    game.cmd("A", "confirm_count")
    states.append(game.state())
    game.cmd("A", "free_roll", spec="D6", purpose="terrain")
    states.append(game.state())
    game.post("A", "undo")
    game.post("B", "undo/approve")
    assert without_version(game.state()) == without_version(states[1])
    game.post("A", "undo")
    assert without_version(game.state()) == without_version(states[0])
    game.post("A", "redo")
    assert without_version(game.state()) == without_version(states[1])
    game.post("A", "redo")
    assert without_version(game.state()) == without_version(states[2])
    assert game.post("A", "redo").json()["rule"] == "SVC.UNDO.NONE"
    assert game.verify()["chain_ok"]


def test_a_new_action_clears_what_redo_would_bring_back(game):
    game.cmd("A", "confirm_count")
    game.post("A", "undo")
    game.cmd("B", "confirm_count")
    assert game.post("A", "redo").json()["rule"] == "SVC.UNDO.NONE"


def test_a_new_roll_after_an_undo_never_reuses_the_undone_rolls_counter(game):
    first = game.cmd("A", "free_roll", spec="6D6", purpose="terrain")["events"][0]
    game.post("A", "undo")
    game.post("B", "undo/approve")
    again = game.cmd("A", "free_roll", spec="6D6", purpose="terrain")["events"][0]
    assert again["data"]["counter"] == first["data"]["counter"] + 1


def test_undo_and_redo_are_refused_once_the_game_has_ended(game):
    game.cmd("A", "confirm_count")
    game.post("A", "undo")
    game.cmd("B", "concede")
    for path in ("undo", "redo"):
        for seat in ("A", "B"):
            response = game.post(seat, path)
            assert response.status_code == 409 and response.json()["rule"] == "SVC.ENDED"


def test_get_undo_tells_each_seat_what_undo_and_redo_would_do_now(game):
    action = game.cmd("A", "confirm_count")
    seqs = [e["seq"] for e in action["events"]]

    def preview(role):
        response = game.http.get(f"/games/{game.id}/undo", headers=game.headers(role))
        assert response.status_code == 200
        return response.json()

    assert preview("A")["undo"] == {"seqs": seqs, "action_by": "A", "rolled_dice": False, "needs_consent": False}
    assert preview("B")["undo"]["needs_consent"] is True
    assert preview("spectator")["undo"]["needs_consent"] is True
    game.post("A", "undo")
    assert preview("A")["redo"] == {"seqs": seqs, "allowed": True}
    assert preview("B")["redo"] == {"seqs": seqs, "allowed": False}
    game.cmd("A", "free_roll", spec="D6", purpose="terrain")
    game.post("A", "undo")
    assert preview("B")["pending_request"]["you_answer"] is True
    assert preview("A")["pending_request"]["you_answer"] is False


def test_the_events_keep_every_undone_action_and_the_chain_covers_them_all(game):
    game.cmd("A", "confirm_count")
    game.post("A", "undo")
    game.post("A", "redo")
    game.post("A", "undo")
    events = game.events()
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    assert [e["type"] for e in events][-3:] == ["ActionUndone", "ActionRedone", "ActionUndone"]
    verified = game.verify()
    assert verified["chain_ok"] and verified["events"] == len(events)
