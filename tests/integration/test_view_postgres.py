"""CONTRACT.md "One request a tap" on PostgreSQL's default write mode ("deferred": judged on the loop, the append
awaited there): a write's `view` is still the state its seat's GET /state reads right after, a write judged again
after a lost race included (its view is of the winner's log, not of the game it first judged on)."""
from __future__ import annotations

from uuid import UUID

import pytest

from tests.integration.test_deferred_writes import ROLL, race, served  # noqa: F401  (served: the fixture)


@pytest.mark.postgres
def test_a_deferred_writes_view_is_the_state_read_after_it_even_after_a_lost_race(served):  # noqa: F811
    _, game, appends, winner = served
    interlopers = race(appends, winner, UUID(game.id), 1)
    answer = game.send("A", ROLL)
    assert answer.status_code == 200, answer.text
    assert len(interlopers) == 1
    view = answer.json()["view"]
    assert view == game.state("A") and view["version"] == answer.json()["version"]
    assert view["version"] == interlopers[0]["version"] + 1  # judged again on the winner's log


@pytest.mark.postgres
def test_undo_its_answers_and_redo_answer_their_views_when_writes_are_deferred(served):  # noqa: F811
    game = served[1]
    game.cmd("A", "free_roll", spec="D6", purpose="scatter")
    for seat, path in (("A", "undo"), ("B", "undo/reject"), ("A", "undo"), ("A", "undo/withdraw"), ("A", "undo"),
                       ("B", "undo/approve"), ("A", "redo")):
        response = game.post(seat, path)
        assert response.status_code in (200, 202), (path, response.text)
        assert response.json()["view"] == game.state(seat), path
