"""CONTRACT.md "In the players' words": an undo request can be withdrawn by the seat that asked (UndoWithdrawn),
and an undo never leaves a game where neither seat is offered anything (undoing a muster offers it again).
The undo rules cited: SVC.UNDO.CONSENT, SVC.UNDO.PENDING, SVC.UNDO.WHO, SVC.UNDO.NONE (RULES.md)."""
from __future__ import annotations

import pytest

from tests.support.client import GameClient, unit


@pytest.fixture
def game(new_game) -> GameClient:
    """Battle round 1 under way, seat A's free roll asked undone by A: the request waits for B (SVC.UNDO.CONSENT)."""
    game = new_game()
    game.start([unit("scouts-1")], [unit("boyz-1")])
    game.cmd("A", "free_roll", spec="2D6", purpose="scatter")
    assert game.post("A", "undo").status_code == 202
    return game


def offered(game: GameClient, seat: str) -> list[str]:
    """What the seat is offered now: its actions' types, then what else is open to it."""
    state = game.state(seat)
    return [a["type"] for a in state["actions"]] + state["anytime"]


# -- withdrawing an undo request ---------------------------------------------------------------------------------


def test_the_seat_that_asked_withdraws_its_undo_request_and_play_goes_on(game):
    before = game.events()
    assert "withdraw" in game.state("A")["anytime"] and "withdraw" not in game.state("B")["anytime"]
    response = game.post("A", "undo/withdraw")
    assert response.status_code == 200, response.text
    [withdrawn] = response.json()["events"]
    requested = before[-1]
    assert withdrawn["type"] == "UndoWithdrawn" and withdrawn["by"] == "A" and withdrawn["rule"] == "SVC.UNDO.CONSENT"
    assert withdrawn["data"] == {"seqs": requested["data"]["seqs"], "requested_by": "A"}
    assert not any(e["undone"] for e in game.events())  # the roll stands
    view = response.json()["view"]
    assert view["undo_request"] is None and view == game.state("A")
    assert "undo" in view["anytime"] and "withdraw" not in view["anytime"]
    assert game.state("B")["anytime"][-1] == "undo" and "approve" not in game.state("B")["anytime"]
    game.cmd("B", "free_roll", spec="D6", purpose="terrain")  # SVC.UNDO.PENDING no longer holds play back


@pytest.mark.parametrize("path", ["undo/approve", "undo/reject"])
def test_a_withdrawn_request_can_no_longer_be_answered(game, path):
    game.post("A", "undo/withdraw")
    refused = game.post("B", path)
    assert refused.status_code == 409 and refused.json()["rule"] == "SVC.UNDO.NONE"


def test_only_the_seat_that_asked_withdraws_and_nothing_is_appended_otherwise(game):
    version = game.state()["version"]
    for role in ("B", "spectator"):
        refused = game.post(role, "undo/withdraw")
        assert refused.status_code in (403, 409), refused.text
        assert refused.headers["content-type"].startswith("application/problem+json")
    other = game.post("B", "undo/withdraw").json()
    assert other["rule"] == "SVC.UNDO.WHO" and "asked" in other["detail"]
    assert game.state()["version"] == version
    assert game.post("B", "undo/approve").status_code == 200  # the request was still B's to answer


def test_withdrawing_with_no_request_waiting_is_refused_with_svc_undo_none(new_game):
    game = new_game()
    game.start([unit("scouts-1")], [unit("boyz-1")])
    refused = game.post("A", "undo/withdraw")
    assert refused.status_code == 409 and refused.json()["rule"] == "SVC.UNDO.NONE"
    game.cmd("A", "free_roll", spec="D6", purpose="scatter")
    game.post("A", "undo")
    game.post("B", "undo/reject")
    assert game.post("A", "undo/withdraw").json()["rule"] == "SVC.UNDO.NONE"  # answered already


def test_a_withdrawal_replays_for_its_idempotency_key_and_the_chain_and_requests_verify(game):
    first = game.post("A", "undo/withdraw", **{"Idempotency-Key": "w-1"})
    again = game.post("A", "undo/withdraw", **{"Idempotency-Key": "w-1"})
    assert again.status_code == 200 and again.json() == first.json()
    assert game.post("A", "undo", **{"Idempotency-Key": "w-1"}).status_code == 422  # a key belongs to one endpoint
    verified = game.verify()
    assert verified["chain_ok"] and verified["commands_ok"] is True
    audit = game.http.get(f"/games/{game.id}/audit/{first.json()['events'][0]['seq']}", headers=game.headers("A"))
    assert audit.status_code == 200 and audit.json()["event"]["type"] == "UndoWithdrawn"


# -- undo in set-up ----------------------------------------------------------------------------------------------


def test_undoing_a_muster_offers_that_seat_its_muster_again(new_game):
    game = new_game()
    assert game.muster("A", [unit("scouts-1")]).status_code == 200
    assert game.muster("B", [unit("boyz-1")]).status_code == 200
    assert game.post("A", "undo").status_code == 202  # B's muster: the other seat took it (SVC.UNDO.CONSENT)
    assert game.post("B", "undo/approve").status_code == 200
    assert game.state()["mustered"] == {"A": True, "B": False}
    assert "muster" in offered(game, "B")  # B's army may be mustered again: the game is not stranded
    assert game.muster("B", [unit("boyz-1")]).status_code == 200
    assert "start_game" in offered(game, "A")


def test_a_seat_undoing_its_own_muster_is_offered_it_again_and_the_game_starts(new_game):
    game = new_game()
    game.muster("A", [unit("scouts-1")])
    game.muster("B", [unit("boyz-1")])
    assert game.post("B", "undo").status_code == 200  # its own, dice-free: at once
    assert game.state()["mustered"] == {"A": True, "B": False}
    assert "muster" in offered(game, "B") and offered(game, "A") != [] and offered(game, "B") != []
    assert game.muster("B", [unit("boyz-2")]).status_code == 200
    game.cmd("A", "start_game")
    assert game.state()["status"] == "in_progress"


def test_muster_is_offered_only_in_set_up_and_not_while_an_undo_request_waits(new_game):
    game = new_game()
    assert "muster" in offered(game, "A") and "muster" in offered(game, "B")
    game.muster("A", [unit("scouts-1")])
    game.post("B", "undo")  # A's muster, asked by B
    assert "muster" not in offered(game, "A") and "muster" not in offered(game, "B")  # SVC.UNDO.PENDING
    game.post("A", "undo/reject")
    game.muster("B", [unit("boyz-1")])
    game.cmd("A", "start_game")
    assert "muster" not in offered(game, "A") + offered(game, "B")
