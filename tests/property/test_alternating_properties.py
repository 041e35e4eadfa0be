"""Properties of `alternating` under random legal play (hypothesis drives the seeds).

- Rebuilding a game from its stored events gives the live state, whatever was played (undos and redos
  included): folding the stored events from nothing, and `repository.get` at the head version (no cache).
- Nobody is ever stuck: while the game is in progress, somebody is offered an action, `awaiting` names
  one the named seat is offered, and the action the driver picks from `actions` is accepted.
"""
from __future__ import annotations

import random
from uuid import UUID

from eventsourcing.application import project_aggregate
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.golden.driver import AppTable, Driver, armies
from warlog.domain.application import Warlog
from warlog.projections.state import state_view

PLAY = settings(max_examples=12, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow])


def new_game(seed: int, dice_mode: str) -> tuple[Warlog, AppTable, random.Random]:
    warlog = Warlog(env={"PERSISTENCE_MODULE": "eventsourcing.popo"})
    rng = random.Random(seed)
    created = warlog.create_game("alternating", {"A": "Alice", "B": "Bob"}, dice_mode, {},
                                 "2026-01-01T00:00:00.000Z")
    game_id = UUID(created["game_id"])
    army_a, army_b = armies(rng)
    warlog.muster(game_id, "A", army_a, "2026-01-01T00:00:00.000Z")
    warlog.muster(game_id, "B", army_b, "2026-01-01T00:00:00.000Z")
    table = AppTable(warlog, game_id, dice_mode)
    status, answer = table.send("A", {"type": "start_game"})
    assert status == 200, answer
    return warlog, table, rng


def maybe_undo(warlog: Warlog, table: AppTable, rng: random.Random, last_seat: str) -> None:
    """Now and then the last seat takes its action back (the other seat approving when it must), and redoes it."""
    if rng.random() > 0.05 or table.view(last_seat)["status"] == "ended":
        return
    game_id, at = table.game_id, "2026-01-01T00:00:00.000Z"
    answer = warlog.undo(game_id, last_seat, at)
    if answer.status == 202:
        warlog.answer_undo(game_id, "B" if last_seat == "A" else "A", True, at)
    if rng.random() < 0.5:
        warlog.redo(game_id, last_seat, at)


@PLAY
@given(seed=st.integers(0, 2**31), moves=st.integers(1, 260), dice_mode=st.sampled_from(["server", "table"]))
def test_rebuilding_a_game_from_its_stored_events_gives_the_live_state(seed, moves, dice_mode):
    warlog, table, rng = new_game(seed, dice_mode)
    driver = Driver(table, rng)
    for _ in range(moves):
        if table.view("A")["status"] == "ended":
            break
        seat, _ = driver.move()
        maybe_undo(warlog, table, rng, seat)

    live = warlog.read(table.game_id)
    stored = list(warlog.repository.event_store.get(table.game_id))
    folded = project_aggregate(None, stored)
    at_head = warlog.repository.get(table.game_id, version=live.version)
    assert folded.version == at_head.version == live.version
    assert folded.state == live.state
    assert at_head.state == live.state
    assert state_view(folded.state, folded.version, "A") == state_view(live.state, live.version, "A")
    assert (folded.done, folded.redo_stack, folded.undone) == (live.done, live.redo_stack, live.undone)


@PLAY
@given(seed=st.integers(0, 2**31), dice_mode=st.sampled_from(["server", "table"]))
def test_no_sequence_of_offered_actions_leaves_the_game_with_nobody_able_to_act(seed, dice_mode):
    _, table, rng = new_game(seed, dice_mode)
    driver = Driver(table, rng)
    for _ in range(3000):
        if table.view("A")["status"] == "ended":
            break
        driver.move()  # asserts that somebody is offered an action, and that the one it picks is accepted
    assert table.view("A")["status"] == "ended"
