"""Each part a ruleset is composed of (domain/rules/parts.py), driven alone: built with a fake of what it reads of
its ruleset (its Protocol), its handler run on a fake table that applies what it emits with the part's own
appliers, no ruleset class and no application in the loop (the state it starts from is a real game's, mustered)."""
from __future__ import annotations

from dataclasses import replace
from typing import Any
from uuid import UUID

import pytest

from tests.support.client import unit, vehicle
from warlog.domain.application import Warlog
from warlog.domain.commands import SetStatus
from warlog.domain.rules.alternating.commands import OngoingReserves, VehicleHit
from warlog.domain.rules.alternating.records import TableRecords
from warlog.domain.rules.basics import Step
from warlog.domain.rules.heresy.commands import Disembark
from warlog.domain.rules.heresy.embark import Embarking
from warlog.domain.rules.parts import Part
from warlog.domain.rules.reference.commands import Split, StartAction
from warlog.domain.rules.reference.effects import Persisting
from warlog.domain.rules.reference.engagement import Engagement
from warlog.domain.rules.reference.mortal import FEEL_NO_PAIN, MortalWounds
from warlog.domain.rules.reference.split import Splitting
from warlog.domain.rules.reference.unit_actions import DEFAULT_ACTIONS, UnitActions
from warlog.domain.rulings import Malformed, Refused
from warlog.domain.state import GameState, HeresyStep, ReferenceStep, ReferenceTurn

AT = "2026-01-01T00:00:00.000Z"


def mustered(ruleset: str, army_a: list[dict[str, Any]], army_b: list[dict[str, Any]]) -> GameState:
    """A table-dice game's state in set-up, both armies mustered."""
    warlog = Warlog(env={"PERSISTENCE_MODULE": "eventsourcing.popo"})
    game_id = UUID(warlog.create_game(ruleset, {"A": "Alice", "B": "Bob"}, "table", {}, AT)["game_id"])
    warlog.muster(game_id, "A", army_a, AT)
    warlog.muster(game_id, "B", army_b, AT)
    return warlog.game(game_id).state


class Table:
    """What a part's handler reads and does: `state`, and `emit`, which logs the event and applies it with the
    part's own applier for its kind (a kind the part does not apply leaves the state as it was)."""

    def __init__(self, state: GameState, part: Part[Any]) -> None:
        self.state, self.part = state, part
        self.events: list[tuple[str, dict[str, Any], str]] = []

    def emit(self, kind: str, data: Any, rule: str | None, by: str | None = None) -> dict[str, Any]:
        entry = {"type": kind, "data": dict(data), "rule": rule, "seq": len(self.events) + 1}
        self.events.append((kind, dict(data), rule or ""))
        applier = type(self.part).appliers.get(kind)
        if applier is not None:
            self.state = applier(self.part, self.state, entry["data"], entry)
        return entry


# -- reference: Splitting (CORE.SPL.1) -------------------------------------------------------------------------

def test_splitting_alone_offers_a_split_emits_it_and_its_applier_makes_two_units():
    state = mustered("reference", [unit("squad", 5), unit("hero", 1)], [unit("foes", 5)])
    splitting = Splitting(object())  # it reads nothing of its ruleset
    offered = splitting.setup_actions(state, "A")
    assert [(a.type, a.schema["properties"]["unit"]["const"]) for a in offered] == [("split", "squad")]  # not one model
    t = Table(state, splitting)
    splitting.split(t, "A", Split(unit="squad", models=2))  # type: ignore[arg-type]
    [(kind, data, rule)] = t.events
    assert (kind, rule, data["new_unit"], data["moved"], data["kept"]) == ("UnitSplit", "CORE.SPL.1", "squad-2", [2], [3])
    squad, part = t.state.units["squad"], t.state.units["squad-2"]
    assert (squad.models_alive, squad.starting_strength, squad.split_into) == (3, 3, "squad-2")
    assert (part.name, part.owner, part.models_alive, part.starting_strength, part.split_from) == \
        ("Squad (2)", "A", 2, 2, "squad")
    with pytest.raises(Refused) as refused:  # CORE.SPL.1: neither part is split again
        splitting.split(t, "A", Split(unit="squad-2", models=1))  # type: ignore[arg-type]
    assert refused.value.rule == "CORE.SPL.1" and len(t.events) == 1
    assert splitting.setup_actions(t.state, "A") == []


def test_splitting_alone_refuses_another_seats_unit_and_a_split_once_the_game_has_started():
    state = mustered("reference", [unit("squad", 5)], [unit("foes", 5)])
    splitting = Splitting(object())
    with pytest.raises(Refused) as refused:
        splitting.split(Table(state, splitting), "A", Split(unit="foes", models=2))  # type: ignore[arg-type]
    assert refused.value.rule == "CORE.SPL.1"
    started = Table(replace(state, status="in_progress"), splitting)
    with pytest.raises(Refused) as refused:
        splitting.split(started, "A", Split(unit="squad", models=2))  # type: ignore[arg-type]
    assert refused.value.rule == "CORE.SPL.1" and started.events == []


# -- reference: UnitActions (RS.CMD.3, RS.MOV.3, RS.MOV.4) -----------------------------------------------------

class ShootingPhase:
    """`ActionRules`: seat A's Shooting phase is being played."""

    @staticmethod
    def step(state: GameState) -> Step | None:
        return Step("shooting", None, "phase", "RS.SHO.1", "RS.SHO.1", active="A")


def test_unit_actions_alone_start_an_action_then_complete_or_fail_it_when_the_turn_ends():
    state = mustered("reference", [unit("squad", 5), unit("scouts", 5), unit("shaken", 5, statuses=("battle_shocked",))],
                     [unit("foes", 5)])
    state = replace(state, status="in_progress", battle_round=1, phase="shooting", active_seat="A",
                    step=ReferenceStep())
    actions = UnitActions(ShootingPhase())
    [offer] = actions.start_action_actions(state, "A", ["squad", "scouts", "shaken"])
    assert offer.schema["properties"]["unit"]["enum"] == ["squad", "scouts"]  # RS.CMD.3: never the battle-shocked
    assert offer.schema["properties"]["action"]["enum"] == list(DEFAULT_ACTIONS)
    t = Table(state, actions)
    actions.start_action(t, "A", StartAction(unit="squad", action="Sabotage"))  # type: ignore[arg-type]
    actions.start_action(t, "A", StartAction(unit="scouts", action="Recover intel"))  # type: ignore[arg-type]
    assert [(kind, data["unit"], data["action"]) for kind, data, _ in t.events] == \
        [("ActionStarted", "squad", "Sabotage"), ("ActionStarted", "scouts", "Recover intel")]
    squad = t.state.units["squad"]
    assert squad.selected and ReferenceTurn.of(squad.turn).action == "Sabotage"
    with pytest.raises(Refused) as refused:  # selected for the phase: it does not start another
        actions.start_action(t, "A", StartAction(unit="squad", action="Sabotage"))  # type: ignore[arg-type]
    assert refused.value.rule == "RS.SHO.1" and len(t.events) == 2
    t.state = t.state.with_unit("scouts", t.state.units["scouts"].with_status("battle_shocked"))
    t.events.clear()
    actions.complete_actions(t, "A")
    assert [(kind, data["unit"]) for kind, data, _ in t.events] == [("ActionCompleted", "squad"), ("ActionFailed", "scouts")]
    assert t.events[1][1]["reason"] == "the unit is battle-shocked (RS.CMD.3)"
    squad, scouts = ReferenceTurn.of(t.state.units["squad"].turn), ReferenceTurn.of(t.state.units["scouts"].turn)
    assert (squad.action, squad.action_done, scouts.action, scouts.action_done) == (None, "Sabotage", None, None)


def test_unit_actions_alone_refuse_an_action_the_game_does_not_name():
    state = replace(mustered("reference", [unit("squad", 5)], [unit("foes", 5)]), status="in_progress",
                    phase="shooting", active_seat="A", step=ReferenceStep())
    actions = UnitActions(ShootingPhase())
    t = Table(state, actions)
    with pytest.raises(Refused) as refused:
        actions.start_action(t, "A", StartAction(unit="squad", action="Dig"))  # type: ignore[arg-type]
    assert refused.value.rule == "RS.SHO.1" and "'Dig'" in refused.value.detail and t.events == []


# -- reference: Persisting (CORE.PER.1, CORE.PER.2) --------------------------------------------------------------

class Statuses:
    """`EffectRules`: the statuses the part asks its ruleset to change, kept."""

    def __init__(self) -> None:
        self.changed: list[tuple[Any, ...]] = []

    def change_status(self, t: Any, uid: str, status: str, value: bool, rule: str, **extra: Any) -> None:
        self.changed.append((uid, status, value, rule, extra.get("reason")))


def test_persisting_alone_starts_effects_and_ends_each_at_its_boundary_taking_its_status_with_it():
    state = mustered("reference", [unit("squad", 5), unit("scouts", 5)], [unit("foes", 5)])
    state = replace(state, status="in_progress", battle_round=1, pos=3, phase="shooting", active_seat="A")
    rules = Statuses()
    effects = Persisting(rules)
    t = Table(state, effects)
    pinned = SetStatus(unit="squad", status="pinned", duration="end_of_turn", reason="shell shock")
    until = effects.stated(pinned)
    effects.status_given(t, "A", pinned, until)  # after the ruleset recorded the status itself
    effects.start_effect(t, "scouts", "Smokescreen", "A", None)  # no duration stated: the phase (CORE.PER.2)
    effects.start_effect(t, "foes", "Counter-offensive", "B", "start_of_next_turn")
    assert [(kind, data["unit"], data["until"], data["stated"], rule) for kind, data, rule in t.events] == \
        [("EffectStarted", "squad", "end_of_turn", True, "CORE.PER.1"),
         ("EffectStarted", "scouts", "end_of_phase", False, "CORE.PER.2"),
         ("EffectStarted", "foes", "start_of_next_turn", True, "CORE.PER.1")]
    assert [(e.effect, e.status, e.seq) for e in t.state.units["squad"].effects or ()] == [("status pinned", "pinned", 1)]
    t.state = t.state.with_unit("squad", t.state.units["squad"].with_status("pinned"))
    t.events.clear()
    effects.expire_effects(t, Step("charge", None, "phase", "RS.CHG.1", "RS.CHG.1", active="A"))  # the phase ends
    assert [(kind, data["unit"], data["started_seq"]) for kind, data, _ in t.events] == [("EffectEnded", "scouts", 2)]
    assert not t.state.units["scouts"].effects and rules.changed == []
    t.events.clear()
    effects.expire_effects(t, Step("command", None, "phase", "RS.CMD.1", "RS.CMD.1", active="B"))  # B's turn starts
    assert [(kind, data["unit"], rule) for kind, data, rule in t.events] == \
        [("EffectEnded", "squad", "CORE.PER.1"), ("EffectEnded", "foes", "CORE.PER.1")]
    assert rules.changed == [("squad", "pinned", False, "CORE.PER.1", "the Pinned status ended: the end of the turn has come")]
    assert all(not u.effects for u in t.state.units.values())


def test_persisting_alone_judges_a_duration_and_a_status_lost_takes_its_effect():
    state = replace(mustered("reference", [unit("squad", 5)], [unit("foes", 5)]), status="in_progress",
                    battle_round=1, pos=1, phase="movement", active_seat="A")
    effects = Persisting(Statuses())
    with pytest.raises(Malformed) as malformed:  # a duration goes with a status gained
        effects.stated(SetStatus(unit="squad", status="pinned", value=False, duration="end_of_turn"))
    assert malformed.value.field == "duration"
    with pytest.raises(Malformed):
        effects.stated(SetStatus(unit="squad", status="pinned", duration="forever"))
    assert effects.stated(SetStatus(unit="squad", status="pinned")) is None  # a fact until recorded lost
    t = Table(state, effects)
    effects.start_effect(t, "squad", "status pinned", "A", "end_of_battle_round", status="pinned")
    effects.start_effect(t, "squad", "Go to ground", "A", "end_of_turn")
    left = Persisting.status_lost(t.state, {"unit": "squad", "status": "pinned"})
    assert [e.effect for e in left.units["squad"].effects or ()] == ["Go to ground"]


# -- reference: MortalWounds (EXT.FNP, RS.MOV.4, EXT.WPN.HAZARDOUS) ---------------------------------------------

class Wounding:
    """`MortalRules`: the rolls asked, the damage dealt and what followed the wounds, kept."""

    def __init__(self) -> None:
        self.rolls: list[dict[str, Any]] = []
        self.dealt: list[tuple[Any, ...]] = []
        self.after: list[tuple[str, dict[str, object]]] = []

    def request_roll(self, t: Any, seat: str, purpose: str, spec: str, rule: str, unit: str, **context: Any) -> None:
        self.rolls.append({"seat": seat, "purpose": purpose, "spec": spec, "rule": rule, "unit": unit,
                           "context": context})

    def damage(self, t: Any, attack: Any, amounts: list[int], mortal: bool = False, rule: str = "RS.ATK.4") -> None:
        self.dealt.append((attack["target"], amounts, mortal, rule))

    def after_mortal_wounds(self, t: Any, uid: str, then: dict[str, object]) -> None:
        self.after.append((uid, then))


def test_mortal_wounds_alone_ask_feel_no_pain_first_then_deal_the_wounds_not_ignored():
    state = mustered("reference", [unit("squad", 5)], [unit("grots", 5, abilities=("FEEL NO PAIN 5+",))])
    rules = Wounding()
    mortal = MortalWounds(rules)
    t = Table(state, mortal)
    mortal.mortal_wounds(t, "grots", 3, "RS.MOV.4", escaped="B", shocked=False)
    [request] = rules.rolls
    assert (request["purpose"], request["spec"], request["rule"], request["seat"]) == (FEEL_NO_PAIN, "3D6", "EXT.FNP", "B")
    assert (request["context"]["fnp"], request["context"]["party"]) == (5, ["grots"])
    assert t.events == [] and rules.dealt == [] and rules.after == []  # the wounds wait for the dice
    mortal.fnp_mortal_rolled(t, request, {"faces": [5, 2, 6], "total": 13})  # type: ignore[arg-type]
    [(kind, data, rule)] = t.events
    assert (kind, rule, data["ignored"], data["lost"], data["cause"]) == ("MortalWoundsIgnored", "EXT.FNP", 2, 1, "RS.MOV.4")
    assert rules.dealt == [("grots", [1], True, "RS.MOV.4")]
    assert rules.after == [("grots", {"escaped": "B", "shocked": False})]


def test_mortal_wounds_alone_deal_a_hazard_at_once_where_no_feel_no_pain_stands_against_it():
    state = mustered("reference", [unit("hero", 1, keywords=("INFANTRY", "CHARACTER"))], [unit("foes", 5)])
    rules = Wounding()
    mortal = MortalWounds(rules)
    t = Table(state, mortal)
    assert not mortal.hazard_suffered(t, "hero", {"models_destroyed": 1, "mortal_wounds": 0})  # the ruleset's to deal
    assert rules.dealt == [] and rules.after == []
    assert mortal.hazard_suffered(t, "hero", {"models_destroyed": 0, "mortal_wounds": 3})
    assert rules.rolls == [] and t.events == []
    assert rules.dealt == [("hero", [1], True, "EXT.WPN.HAZARDOUS")]  # RS.ATK.3: its one model of W 1, no more
    assert rules.after == [("hero", {})]


# -- reference: Engagement (RS.CHG.3, RS.MOV.4, RS.FGT.4, CORE.STR.2, SVC.SETUP) ---------------------------------

def test_engagement_alone_engages_both_sides_and_ends_it_by_a_fall_back_and_a_destruction():
    state = mustered("reference", [unit("squad", 5), unit("scouts", 5)], [unit("foes", 5)])
    state = replace(state, status="in_progress", battle_round=2, phase="charge", active_seat="A")
    rules = Statuses()
    engagement = Engagement(rules)
    t = Table(state, engagement)
    engagement.engage(t, ["squad"], ["foes"], "RS.CHG.3", "charge by squad")
    engagement.engage(t, ["scouts"], ["foes"], "RS.CHG.3", "charge by scouts")
    assert [(kind, data["units"], data["with"], rule) for kind, data, rule in t.events] == \
        [("UnitsEngaged", ["squad"], ["foes"], "RS.CHG.3"), ("UnitsEngaged", ["scouts"], ["foes"], "RS.CHG.3")]
    assert t.state.units["foes"].engaged_with == ("scouts", "squad") and t.state.units["squad"].engaged_with == ("foes",)
    assert [(uid, status, value) for uid, status, value, _, _ in rules.changed] == \
        [("squad", "engaged", True), ("foes", "engaged", True), ("scouts", "engaged", True), ("foes", "engaged", True)]
    t.events.clear()
    rules.changed.clear()
    engagement.disengage(t, "squad", "RS.MOV.4", "fell back")  # the foes stay engaged with the scouts
    assert [(kind, data["unit"], data["with"]) for kind, data, _ in t.events] == [("EngagementEnded", "squad", ["foes"])]
    assert (t.state.units["squad"].engaged_with, t.state.units["foes"].engaged_with) == ((), ("scouts",))
    assert rules.changed == [("squad", "engaged", False, "RS.MOV.4", "fell back"),
                             ("squad", "locked_in_combat", False, "RS.MOV.4", "fell back")]
    t.events.clear()
    rules.changed.clear()
    engagement.casualties(t, "squad", "RS.ATK.4")  # not destroyed, engaged with nobody: nothing ends
    t.state = t.state.with_unit("scouts", replace(t.state.units["scouts"], models_alive=0))
    engagement.casualties(t, "scouts", "RS.ATK.4")  # CORE.STR.2: the rule that destroyed it ends its engagement
    assert [(kind, data["unit"], rule) for kind, data, rule in t.events] == [("EngagementEnded", "scouts", "RS.ATK.4")]
    assert t.state.units["foes"].engaged_with == ()
    gone = "Alice's Scouts was destroyed"  # by name, as Bob knows it (RS.MOV.4/named, edition 4)
    assert rules.changed == [("foes", "engaged", False, "RS.ATK.4", gone),
                             ("foes", "locked_in_combat", False, "RS.ATK.4", gone)]


def test_engagement_alone_judges_and_completes_the_engagements_an_army_starts_with():
    state = mustered("reference", [unit("squad", 5, engaged_with=["foes"])], [unit("foes", 5), unit("far", 5)])
    Engagement.start_game(state)  # names an enemy unit: the game may start
    started = Engagement.started(state)
    assert started.units["foes"].engaged_with == ("squad",) and "engaged" in started.units["foes"].statuses
    assert "engaged" in started.units["squad"].statuses and started.units["far"].engaged_with == ()
    ghost = state.with_unit("squad", replace(state.units["squad"], engaged_with=("ghost",)))
    with pytest.raises(Refused) as refused:
        Engagement.start_game(ghost)
    assert refused.value.rule == "SVC.SETUP" and "'ghost'" in refused.value.detail


# -- alternating: TableRecords (AA.VEH.1, AA.VEH.2, AA.RES.1) -----------------------------------------------------

class Recorded:
    """`RecordRules`: the losses and statuses the part asks its ruleset to record, kept."""

    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []

    def casualties(self, t: Any, uid: str, models: int, wounds: int, rule: str, **extra: Any) -> None:
        self.calls.append(("casualties", uid, models, wounds, rule))

    def change_status(self, t: Any, uid: str, status: str, value: bool, rule: str, **extra: Any) -> None:
        self.calls.append(("status", uid, status, value, rule, extra))


def test_table_records_alone_offer_their_forms_and_record_a_glancing_hit_through_their_ruleset():
    state = mustered("alternating", [vehicle("rhino", hull_points=3), unit("squad", 5)], [unit("foes", 5)])
    rules = Recorded()
    records = TableRecords(rules)
    offered = records.records(state, "A")
    assert [(a.type, a.rule) for a in offered] == [("vehicle_hit", "AA.VEH.2"), ("blast_hit", "AA.VEH.1"),
                                                   ("ongoing_reserves", "AA.RES.1")]
    assert offered[0].schema["properties"]["unit"]["enum"] == ["rhino"]  # only vehicles take hull points
    t = Table(state, records)
    records.vehicle_hit(t, "A", VehicleHit(unit="rhino", hit="glancing", hull_points=3))  # type: ignore[arg-type]
    [(kind, data, rule)] = t.events
    assert (kind, rule, data["outcome"], data["hull_points_left"]) == ("VehicleHit", "AA.VEH.2", "immobilised", 1)
    assert rules.calls == [("casualties", "rhino", 0, 2, "AA.VEH.2"),  # AA.VEH.2: a glancing hit leaves one
                           ("status", "rhino", "immobilised", True, "AA.VEH.2", {"reason": "glancing hit"})]


def test_table_records_alone_refuse_another_seats_unit_into_ongoing_reserves():
    state = mustered("alternating", [unit("squad", 5)], [unit("foes", 5)])
    records = TableRecords(Recorded())
    t = Table(state, records)
    with pytest.raises(Refused) as refused:
        records.ongoing_reserves(t, "A", OngoingReserves(unit="foes"))  # type: ignore[arg-type]
    assert refused.value.rule == "AA.RES.1" and t.events == []
    records.ongoing_reserves(t, "A", OngoingReserves(unit="squad", reason="fled"))  # type: ignore[arg-type]
    assert t.events == [("OngoingReservesEntered", {"unit": "squad", "reason": "fled", "attested_by": "A"},
                         "AA.RES.1")]


# -- heresy: Embarking (HH.EMB.1) ------------------------------------------------------------------------------

class MoveSubPhase:
    """`EmbarkRules`: seat A's Move sub-phase, and the moves made, kept (what the ruleset sets going after any)."""

    def __init__(self) -> None:
        self.moves: list[tuple[Any, ...]] = []

    @staticmethod
    def step(state: GameState) -> Step | None:
        return Step("movement", "move", "phase", "HH.MOV.0", "HH.MOV.1", active="A")

    def after_move(self, t: Any, seat: str, uid: str, coherency_lost: bool, dangerous: int, near: list[str]) -> None:
        self.moves.append((seat, uid, coherency_lost, dangerous, near))


def test_embarking_alone_offers_a_way_out_and_moves_the_unit_out_through_its_ruleset():
    state = mustered("heresy", [vehicle("rhino", capacity=10), unit("squad", 5, embarked_in="rhino")],
                     [unit("foes", 5)])
    state = replace(state, status="in_progress", battle_round=1, phase="movement", sub_phase="move",
                    active_seat="A", step=HeresyStep())
    rules = MoveSubPhase()
    embarking = Embarking(rules)
    offered = embarking.disembark_actions(state, "A")
    assert [(a.type, a.schema["properties"]["distance"]["maximum"]) for a in offered] == \
        [("disembark", 4), ("disembark", 2)]  # HH.EMB.1: M 6 less 2", and less 2" more through difficult terrain
    t = Table(state, embarking)
    with pytest.raises(Refused) as refused:
        embarking.disembark(t, "A", Disembark(unit="squad", placed=True, distance=5))  # type: ignore[arg-type]
    assert refused.value.rule == "HH.EMB.1" and t.events == [] and rules.moves == []
    embarking.disembark(t, "A", Disembark(unit="squad", placed=True, distance=3, near=("foes",)))  # type: ignore[arg-type]
    assert [(kind, data["unit"], rule) for kind, data, rule in t.events] == \
        [("UnitDisembarked", "squad", "HH.EMB.1"), ("UnitMoved", "squad", "HH.EMB.1")]
    assert (t.events[1][1]["distance"], t.events[1][1]["allowance"]) == ("3", 4)
    assert rules.moves == [("A", "squad", False, 0, ["foes"])]
    assert embarking.disembark_block(state, "foes") is not None  # not embarked, and not seat A's
