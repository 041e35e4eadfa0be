"""The round's objectives (MSN.OBJ.1, domain/rules/objectives.py) as a part driven alone, as
tests/unit/test_ruleset_parts.py drives the others: `Objectives` built with a fake of `ObjectiveRules` (the round's
layout), its scoring run on that file's fake table, which applies what the part emits with its own applier."""
from __future__ import annotations

from dataclasses import replace
from typing import Any
from uuid import UUID

import pytest

from tests.support.client import unit, vehicle
from tests.unit.test_ruleset_parts import AT, Table
from warlog.domain.application import Warlog
from warlog.domain.rules.alternating import Alternating
from warlog.domain.rules.basics import Step
from warlog.domain.rules.heresy import Heresy
from warlog.domain.rules.objectives import Objectives
from warlog.domain.rulings import Refused
from warlog.domain.state import GameState, PerSeat

MARKERS = ["alpha", "bravo", "charlie", "delta"]
LAYOUT = [Step("movement", "move_units", "go", "AA.MOV.1"), Step("fight", "fight", "go", "AA.FGT.1"),
          Step("morale", "morale", "go", "AA.MOR.1")]


class Round:
    """`ObjectiveRules`: the battle round is these steps (its last ends the round); how often it was asked."""

    def __init__(self, layout: list[Step]) -> None:
        self.layout, self.asked = layout, 0

    def round_layout(self, state: GameState) -> list[Step]:
        self.asked += 1
        return self.layout


def at_round_end(battle_round: int, markers: list[str] | None = MARKERS, edition: int | None = None
                 ) -> tuple[Objectives, Round, Table]:
    """An alternating game with these markers, its armies mustered, at the last step of `battle_round`."""
    warlog = Warlog(env={"PERSISTENCE_MODULE": "eventsourcing.popo"})
    options: dict[str, Any] = {"objectives": markers} if markers else {}
    game_id = UUID(warlog.create_game("alternating", {"A": "Alice", "B": "Bob"}, "table", options, AT)["game_id"])
    warlog.muster(game_id, "A", [unit("squad", 5), vehicle("rhino"), unit("scouts", 3, statuses=("falling_back",)),
                                 unit("reserve", 5, in_reserves=True)], AT)
    warlog.muster(game_id, "B", [unit("boyz", 3), unit("mob", 6)], AT)
    state = warlog.game(game_id).state
    state = replace(state, status="in_progress", battle_round=battle_round, pos=len(LAYOUT) - 1,
                    edition=edition if edition is not None else state.edition)
    rules = Round(LAYOUT)
    objectives = Objectives(rules)
    return objectives, rules, Table(state, objectives)


def test_objectives_alone_score_a_round_from_the_second_at_its_last_step_and_only_in_a_game_that_has_them():
    objectives, rules, t = at_round_end(2)
    assert objectives.scores_round(t.state) and objectives.ends_round(t.state, LAYOUT[-1])
    assert rules.asked == 1  # the round's last step is its ruleset's to say
    assert not objectives.ends_round(t.state, None)
    assert not objectives.ends_round(replace(t.state, pos=1), LAYOUT[1])
    first, _, t1 = at_round_end(1)
    assert not first.scores_round(t1.state) and not first.ends_round(t1.state, LAYOUT[-1])
    none, _, t0 = at_round_end(2, markers=None)
    assert not none.scores_round(t0.state)
    older, _, t_old = at_round_end(2, edition=1)  # created before MSN.OBJ.1: goes on as it began
    assert not older.scores_round(t_old.state)


def test_objectives_alone_offer_the_round_end_naming_the_units_on_the_battlefield_near_each_marker():
    objectives, _, t = at_round_end(2)
    offer = objectives.round_end_action(t.state, "the battle round")
    assert (offer.type, offer.rule) == ("end_phase", "MSN.OBJ.1")
    assert offer.summary.startswith("end the battle round, naming the units within 3\" of each objective")
    control = offer.schema["properties"]["control"]
    assert list(control["properties"]) == MARKERS
    named = control["properties"]["alpha"]["items"]
    assert "reserve" not in str(named) and all(uid in str(named) for uid in ("squad", "rhino", "scouts", "boyz"))


def test_objectives_alone_judge_claims_only_where_the_round_ends_and_only_of_the_games_markers_and_units():
    objectives, _, t = at_round_end(2)
    objectives.check_round_end(t.state, LAYOUT[1], None)  # no claims: nothing to judge, anywhere
    with pytest.raises(Refused) as refused:
        objectives.check_round_end(replace(t.state, pos=1), LAYOUT[1], {"alpha": ["squad"]})
    assert refused.value.rule == "MSN.OBJ.1"
    for claims in ({"echo": ["squad"]}, {"alpha": ["nobody"]}):
        with pytest.raises(Refused) as refused:
            objectives.check_round_end(t.state, LAYOUT[-1], claims)
        assert refused.value.rule == "MSN.OBJ.1"
    objectives.check_round_end(t.state, LAYOUT[-1], {"alpha": ["squad", "boyz"]})
    assert t.events == []


def test_objectives_alone_count_models_per_marker_and_score_5_vp_each_at_most_15_kept_by_their_applier():
    objectives, _, t = at_round_end(2)
    claims = {"alpha": ["squad", "boyz"], "bravo": ["rhino", "scouts", "mob"], "charlie": ["boyz", "boyz"],
              "delta": ["mob"]}
    objectives.score_round(t, "B", claims)
    [(held, data, rule), *scored] = t.events
    assert (held, rule, data["battle_round"], data["attested_by"]) == ("ObjectivesHeld", "MSN.OBJ.1", 2, "B")
    counted = data["objectives"]
    assert counted["alpha"] == {"models": {"A": 5, "B": 3}, "units": ["squad", "boyz"], "uncounted": {},
                                "controlled_by": "A"}
    assert counted["bravo"]["models"] == {"A": 0, "B": 6} and counted["bravo"]["controlled_by"] == "B"
    assert counted["bravo"]["uncounted"] == {"rhino": "a vehicle", "scouts": "falling back"}
    assert counted["charlie"]["units"] == ["boyz"] and counted["charlie"]["controlled_by"] == "B"  # named once
    assert scored == [("VictoryPointsScored", {"seat": "A", "objectives": ["alpha"], "vp": 5, "total": 5}, "MSN.OBJ.1"),
                      ("VictoryPointsScored", {"seat": "B", "objectives": ["bravo", "charlie", "delta"], "vp": 15,
                                               "total": 15}, "MSN.OBJ.1")]
    assert t.state.vp == PerSeat(5, 15)
    t.events.clear()
    objectives.score_round(t, "A", {"alpha": ["squad"], "bravo": ["squad"], "charlie": ["squad"], "delta": ["squad"]})
    [_, a, b] = t.events
    assert a[1] == {"seat": "A", "objectives": MARKERS, "vp": 15, "total": 20}  # four held, 15 at most
    assert b[1] == {"seat": "B", "objectives": [], "vp": 0, "total": 15}
    assert t.state.vp == PerSeat(20, 15)


def test_alternating_and_heresy_hold_objectives_as_a_part_that_applies_vp_scored_not_as_a_base():
    for ruleset in (Alternating, Heresy):
        assert Objectives in ruleset.parts and not issubclass(ruleset, Objectives)
        assert ruleset.applied_by["VictoryPointsScored"] is Objectives
        assert "VictoryPointsScored" not in ruleset.appliers  # neither it nor the core marks it
