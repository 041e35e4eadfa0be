"""A command is judged before any event is made (Game.ruling): a refusal leaves the cached game untouched, the
very object the next command is judged on, and names the rule the handler's own checks name."""
from __future__ import annotations

from uuid import UUID

import pytest

from tests.support.client import unit
from warlog.api.schemas import parse_command
from warlog.domain.application import NeedsStore, Warlog
from warlog.domain.rulings import Refused
from warlog.domain.writes import Play, Sent

AT = "2026-01-01T00:00:00.000Z"


@pytest.fixture
def started():
    warlog = Warlog(env={"PERSISTENCE_MODULE": "eventsourcing.popo"})
    game_id = UUID(warlog.create_game("alternating", {"A": "Alice", "B": "Bob"}, "table", {}, AT)["game_id"])
    warlog.muster(game_id, "A", [unit("scouts-1"), unit("scouts-2")], AT)
    warlog.muster(game_id, "B", [unit("boyz-1")], AT)
    warlog.command(game_id, "A", parse_command({"type": "start_game"}, "alternating"), AT)
    return warlog, game_id


@pytest.mark.parametrize("body, rule", [({"type": "pass"}, "AA.PP.1"),
                                        ({"type": "select", "unit": "scouts-1", "act": True}, "AA.PP.1"),
                                        ({"type": "declare_done"}, "AA.PP.1")])
def test_a_refused_command_makes_no_event_and_leaves_the_cached_game_as_it_was(started, body, rule):
    warlog, game_id = started
    before = warlog.read(game_id)
    version, state = before.version, repr(before.state)
    with pytest.raises(Refused) as refused:
        warlog.command(game_id, "A", parse_command(body, "alternating"), AT)
    assert refused.value.rule == rule
    after = warlog.read(game_id)
    assert after is before  # not evicted: nothing in it changed
    assert after.version == version and repr(after.state) == state and not after.pending_events


def test_a_refusal_judged_on_the_event_loop_is_judged_again_in_a_worker_thread(started):
    """The deferred write mode judges on the loop; whether a refusal stands needs the store's head record (another
    process may have moved the game on), which is not read on the loop: the write goes to a worker thread, where
    the same refusal comes, and the game is left as it was either way."""
    warlog, game_id = started
    write = Play(Sent("A", AT), parse_command({"type": "pass"}, "alternating"))
    version = warlog.read(game_id).version
    with pytest.raises(NeedsStore):
        warlog.defer(game_id, write, on_loop=True)
    with pytest.raises(Refused) as refused:
        warlog.defer(game_id, write, on_loop=False)
    assert refused.value.rule == "AA.PP.1" and warlog.read(game_id).version == version
