"""Heresy's reactions driven alone as a part (domain/rules/parts.py), as tests/unit/test_ruleset_parts.py drives the
first ones: `Reactions` built with a fake of `ReactionRules` (the step, the dice, the statuses, a snap shot's attack
kept as calls), its `react` run on that file's fake table, which applies what it emits with its own appliers."""
from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from tests.support.client import unit
from tests.unit.test_ruleset_parts import Recorded, Table, mustered
from warlog.domain.rules.basics import Step
from warlog.domain.rules.heresy.commands import React
from warlog.domain.rules.heresy.common import reaction_window
from warlog.domain.rules.heresy.reactions import Reactions
from warlog.domain.rulings import Refused
from warlog.domain.state import GameState, HeresyStep, HeresyTurn, Unit, Window

MOVE = Step("movement", "move", "phase", "HH.MOV.0", "HH.MOV.1", active="A")


class Reacting(Recorded):
    """`ReactionRules`: seat A's Move sub-phase; what the part asks its ruleset to do, kept in `calls`."""

    def step(self, state: GameState) -> Step | None:
        return MOVE

    def request_roll(self, t: Any, seat: str, purpose: str, spec: str, rule: str, unit: str, **context: object) -> None:
        self.calls.append(("roll", seat, purpose, spec, rule, unit))

    def change_status(self, t: Any, uid: str, status: str, value: bool, rule: str, **extra: Any) -> None:
        self.calls.append(("status", uid, status, value, rule))

    @staticmethod
    def checked_facing(target: Unit, facing: str | None) -> str | None:
        return facing

    def start_attack(self, t: Any, uid: str, arms: Any, target: str, models: int, phase: str,
                     facing: str | None = None, snap_shots: bool = False, within_half_range: bool = False,
                     then: Any = None) -> None:
        self.calls.append(("attack", uid, arms.name, target, models, phase, facing, snap_shots, then))


def reacting(army_a: list[dict[str, Any]], army_b: list[dict[str, Any]],
             last_moved: str | None = None) -> tuple[Reactions, Reacting, Table]:
    state = mustered("heresy", army_a, army_b)
    state = replace(state, status="in_progress", battle_round=1, phase="movement", sub_phase="move",
                    active_seat="A", step=HeresyStep(last_moved=last_moved))
    rules = Reacting()
    reactions = Reactions(rules)
    return reactions, rules, Table(state, reactions)


def test_reactions_alone_offer_a_move_ended_near_then_take_the_reaction_move_and_close_its_window():
    reactions, rules, t = reacting([unit("squad", 5)], [unit("foes", 5), unit("guards", 5, statuses=("pinned",))])
    assert not reactions.close_dead_window(t) and reactions.awaiting_reaction(t.state) is None
    reactions.after_move(t, "A", "squad", True, 2, ["foes", "guards"])  # HH.MOV.2: the Pinned one is offered none
    assert rules.calls == [("status", "squad", "suppressed", True, "HH.MOV.3"),
                           ("roll", "A", "dangerous_terrain", "2D6", "HH.MOV.4", "squad")]
    assert t.events == [("ReactionOffered", {"kind": "move", "unit": "foes", "against": "squad", "seat": "B",
                                             "up_to": 4}, "HH.REACT.1")]  # up to its Initiative
    assert reaction_window(t.state) == Window(kind="move", unit="foes", against="squad", seat="B")  # its applier
    assert reactions.awaiting_reaction(t.state) == {"seat": "B", "action": "react", "reaction": "move", "unit": "foes",
                                                    "against": "squad", "rule": "HH.REACT.1"}
    assert reactions.react_actions(t.state, "A") == []
    offered = reactions.react_actions(t.state, "B")
    assert [(a.type, a.rule, a.schema["properties"].get("distance", {}).get("maximum")) for a in offered] == \
        [("react", "HH.REACT.1", 4), ("react", "HH.REACT.1", 2), ("react", "HH.REACT.1", None)]  # open, difficult, decline
    for seat, command, rule, text in (
            ("A", React(unit="squad", direction="toward", distance=1), "HH.REACT.1",
             "no reaction on your own turn: reactions are made in the opponent's turn"),
            ("B", React(unit="foes", move="rush", direction="toward", distance=1), "HH.MOV.5",
             "a unit never rushes in a reaction"),
            ("B", React(unit="foes", direction="away", distance=5), "HH.REACT.1",
             "a reaction moves at most the unit's Initiative, 4\""),
            ("B", React(unit="foes", direction="away", distance=3, difficult=True), "HH.MOV.4",
             "a reaction moves at most the unit's Initiative less 2\" through difficult terrain, 2\"")):
        with pytest.raises(Refused) as refused:
            reactions.react(t, seat, command)  # type: ignore[arg-type]
        assert (refused.value.rule, str(refused.value)) == (rule, text)
    assert len(t.events) == 1
    reactions.react(t, "B", React(unit="foes", direction="away", distance=3, dangerous=1,  # type: ignore[arg-type]
                                  coherency_lost=True))
    (kind, data, rule) = t.events[-1]
    assert (kind, rule, data["unit"], data["distance"], data["up_to"], data["dangerous"], data["coherency_lost"],
            data["attested_by"]) == ("ReactionMade", "HH.REACT.1", "foes", "3", 4, 1, True, "B")
    assert rules.calls[2:] == [("status", "foes", "suppressed", True, "HH.MOV.3"),
                               ("roll", "B", "dangerous_terrain", "1D6", "HH.MOV.4", "foes")]
    turn = HeresyTurn.of(t.state.units["foes"].turn)
    assert reaction_window(t.state) is None and turn.reacted and turn.reacted_to == ("squad",)  # its appliers


def test_reactions_alone_offer_snap_shots_at_an_arrival_fire_them_through_the_ruleset_and_close_a_dead_window():
    reactions, rules, t = reacting([unit("squad", 5)], [unit("foes", 5), unit("psykers", 5, ranged=False)])
    reactions.offer_snap_shots(t, "squad")
    assert t.events == [("ReactionOffered", {"kind": "snap_shots", "unit": None, "against": "squad", "seat": "B"},
                         "HH.RES.4")]
    assert reactions.snap_shooters(t.state, "squad") == ["foes"]  # HH.RES.4: with ranged weapons
    [fire, decline] = reactions.react_actions(t.state, "B")
    assert (fire.rule, fire.schema["properties"]["unit"]["const"], decline.schema["required"][-1]) == \
        ("HH.RES.4", "foes", "act")
    assert "the service rolls Boltgun on the heresy tables, hitting on 6s" in fire.summary
    with pytest.raises(Refused) as refused:
        reactions.react(t, "B", React(unit="foes", weapons=("Knife",)))  # type: ignore[arg-type]
    assert (refused.value.rule, str(refused.value)) == ("HH.RES.4", "Foes fires snap shots with some of: Boltgun")
    reactions.react(t, "B", React(unit="foes", weapons=("Boltgun",)))  # type: ignore[arg-type]
    (kind, data, rule) = t.events[-1]
    assert (kind, rule, data["weapons"], data["attested_by"]) == ("ReactionMade", "HH.RES.4", ["Boltgun"], "B")
    then = {"kind": "snap_shots", "unit": "foes", "against": "squad", "facing": None, "weapons": []}
    assert rules.calls == [("attack", "foes", "Boltgun", "squad", 5, "snap_shots", None, True, then)]
    reactions.next_snap_shot(t, then)  # type: ignore[arg-type]  # no weapon left: nothing more
    assert len(rules.calls) == 1 and reaction_window(t.state) is None
    reactions.offer_reaction(t, "psykers", against="squad")
    t.state = t.state.with_unit("psykers", replace(t.state.units["psykers"], statuses=("pinned",)))
    assert reactions.close_dead_window(t)  # Pinned since it was offered: nobody can answer it
    (kind, data, rule) = t.events[-1]
    assert (kind, rule, data["reason"]) == ("ReactionDeclined", "HH.MOV.2", "it is Pinned")
    assert reaction_window(t.state) is None and not reactions.close_dead_window(t)


def test_reactions_alone_let_the_reacting_seat_claim_a_reaction_to_the_latest_move_only():
    reactions, rules, t = reacting([unit("squad", 5), unit("scouts", 5)], [unit("foes", 5)], last_moved="squad")
    assert reactions.moved_this_sub_phase(t.state) == ["squad"]
    assert reactions.claim_actions(t.state, "A") == []
    offered = reactions.claim_actions(t.state, "B")
    assert [a.schema["properties"]["against"]["enum"] for a in offered] == [["squad"], ["squad"]]
    with pytest.raises(Refused) as refused:
        reactions.react(t, "B", React(unit="foes", against="scouts", direction="toward",  # type: ignore[arg-type]
                                      distance=2))
    assert (refused.value.rule, str(refused.value)) == \
        ("HH.REACT.1", "a reaction answers the latest enemy move, the move of Alice's Squad, not that of Alice's Scouts")
    reactions.react(t, "B", React(unit="foes", against="squad", direction="toward", distance=2))  # type: ignore[arg-type]
    assert [(kind, data.get("claimed"), data["attested_by"], rule) for kind, data, rule in t.events] == \
        [("ReactionOffered", True, "B", "HH.REACT.1"), ("ReactionMade", None, "B", "HH.REACT.1")]
    assert reaction_window(t.state) is None and rules.calls == []
    assert reactions.claim_block(t.state, "foes", "squad") == \
        ("HH.REACT.1", "it has already been offered a reaction to the move of Alice's Squad")
