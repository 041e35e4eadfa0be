"""Random legal play with random undos, approvals, rejections and redos (hypothesis):

- rebuilding the game from its stored events gives the live state;
- an undo followed by its redo gives back the state exactly (every field; `version` is not in it);
- the `undone` flags agree with replaying ActionUndone/ActionRedone over the log;
- the hash chain always verifies;
- the ledger projection kept up to date along the way equals one rebuilt from zero.
"""
from __future__ import annotations

import copy
import random
from functools import reduce
from uuid import UUID, uuid4

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from tests.golden.driver import AppTable, Driver
from tests.support.client import unit
from warlog.domain.application import Warlog
from warlog.domain.rulings import Refused
from warlog.domain.undo import undone_seqs
from warlog.projections.ledger import catch_up, open_ledger, rebuild

AT = "2026-01-01T00:00:00.000Z"
IN_MEMORY = {"PERSISTENCE_MODULE": "eventsourcing.sqlite"}
OPS = st.sampled_from(["move", "move", "move", "undo", "undo_then_redo", "redo", "catch_up"])


def memory_ledger():
    return open_ledger({**IN_MEMORY, "SQLITE_DBNAME": f"file:ledger-{uuid4().hex}?mode=memory&cache=shared"})


def new_game(warlog: Warlog, dice_mode: str) -> tuple[UUID, AppTable]:
    game_id = UUID(warlog.create_game("alternating", {"A": "Alice", "B": "Bob"}, dice_mode, {}, AT)["game_id"])
    armies = {"A": [unit("a-1", statuses=("falling_back",)), unit("a-2"), unit("a-3", in_reserves=True)],
              "B": [unit("b-1"), unit("b-2", 3)]}
    for seat, army in armies.items():
        warlog.muster(game_id, seat, army, AT)
    table = AppTable(warlog, game_id, dice_mode)
    assert table.send("A", {"type": "start_game"})[0] == 200
    return game_id, table


def rebuilt_state(warlog: Warlog, game_id: UUID) -> dict:
    events = list(warlog.repository.event_store.get(game_id))
    return reduce(lambda game, event: event.mutate(game), events, None).state


def undo_once(warlog: Warlog, game_id: UUID, seat: str, approve: bool) -> str | None:
    """Ask for an undo; answer a consent request. Returns the seat that may redo, or None."""
    try:
        answer = warlog.undo(game_id, seat, AT)
    except Refused:
        return None
    if answer.status == 202:
        warlog.answer_undo(game_id, "B" if seat == "A" else "A", approve, AT)
        return seat if approve else None
    return seat


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**16), dice_mode=st.sampled_from(["server", "table"]),
       ops=st.lists(st.tuples(OPS, st.sampled_from("AB"), st.booleans()), min_size=5, max_size=30))
def test_random_play_with_undos_replays_verifies_and_round_trips(seed, dice_mode, ops):
    warlog = Warlog(env={"PERSISTENCE_MODULE": "eventsourcing.popo"})
    kept, fresh = memory_ledger(), memory_ledger()
    try:
        game_id, table = new_game(warlog, dice_mode)
        driver, started = Driver(table, random.Random(seed)), warlog.read(game_id).version
        for op, seat, approve in ops:
            game = warlog.read(game_id)
            if game.state.status == "ended":
                break
            if op == "move":
                driver.move(table.view("A"))
            elif op == "undo" and game.undo_first_seq() > started:  # the set-up stays (the driver plays on)
                undo_once(warlog, game_id, seat, approve)
            elif op == "undo_then_redo":
                before = copy.deepcopy(warlog.read(game_id).state)
                redoer = undo_once(warlog, game_id, seat, True)
                if redoer is not None:
                    warlog.redo(game_id, redoer, AT)
                    assert warlog.read(game_id).state == before
            elif op == "redo":
                try:
                    warlog.redo(game_id, seat, AT)
                except Refused as refusal:
                    assert refusal.rule in ("SVC.UNDO.NONE", "SVC.UNDO.WHO")
            else:
                catch_up(warlog, kept)
            assert rebuilt_state(warlog, game_id) == warlog.read(game_id).state

        entries = warlog.entries(game_id)
        event(f"undone events: {'some' if any(e['undone'] for e in entries) else 'none'}")
        event(f"redos: {'some' if any(e['type'] == 'ActionRedone' for e in entries) else 'none'}")
        assert {e["seq"] for e in entries if e["undone"]} == undone_seqs(entries)
        assert warlog.verify(game_id)["chain_ok"] is True
        catch_up(warlog, kept)
        rebuild(warlog, fresh)
        for name in ("games", "dice", "facts"):
            assert kept.view.rows(name) == fresh.view.rows(name)
    finally:
        warlog.close()
