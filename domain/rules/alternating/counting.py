"""The pass-point counts (AA.PP.1, AA.PP.2, AA.SPP.1): each seat confirms its own, with what only the
table can see left out (or, in shooting, brought in), and the result once both have confirmed."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from warlog.domain import events as ev
from warlog.domain.rules import actions as act
from warlog.domain.rules.actions import Action
from warlog.domain.rules.alternating import events as own
from warlog.domain.rules.alternating.commands import ConfirmCount
from warlog.domain.rules.alternating.common import (
    REASON,
    RESULT_RULE,
    movement_exclusion,
    shooting_exclusion,
    sub_phase,
)
from warlog.domain.rules.basics import evolves, seat_units
from warlog.domain.rules.ruleset import SEATS, Part, Step, alive, handles
from warlog.domain.rulings import Malformed, NotFound, Refused
from warlog.domain.state import AlternatingStep, Claims, Frozen, GameState, PerSeat
from warlog.domain.state.values import replace
from warlog.domain.words import not_yours, unit_named

if TYPE_CHECKING:
    from warlog.domain.game import Table


class CountRules(Protocol):
    """What the counts read of their ruleset: the step being played (which count, by which rule)."""

    def step(self, state: GameState) -> Step | None:
        """The step being played; None outside play."""


class Counting(Part[CountRules]):
    """A part of `Alternating`: `confirm_count` is dispatched to it, and its events applied by it; the goes (its
    part `Goes`, through `Alternating.count_action`) ask it `count_action`, the form a seat confirms its count
    with."""

    def count_action(self, state: GameState, seat: str, step: Step) -> Action:
        """AA.PP.1 / AA.SPP.1: exclude what the table sees of a counted unit; include (shooting only) a unit
        the service leaves out but that shoots with an ability."""
        exclusion = movement_exclusion if step.name == "movement_pass_points" else shooting_exclusion
        mine = [(uid, exclusion(state, unit)) for uid, unit in seat_units(state, seat) if alive(unit)]
        counted = [uid for uid, reason in mine if reason is None]
        left_out = [uid for uid, reason in mine if reason is not None]
        fields: dict[str, Any] = {}
        if counted:
            fields["exclude"] = act.keyed(counted, REASON, "counted units to leave out, each with its reason")
        if left_out and step.name == "shooting_pass_points":
            fields["include"] = act.keyed(left_out, REASON, "units the service leaves out to count, with why")
        return act.action("confirm_count", step.play_rule, "confirm your pass-point count", **fields)

    @handles("confirm_count")
    def confirm_count(self, t: Table, seat: str, command: ConfirmCount) -> None:
        state = t.state
        step = self.rules.step(state)
        if step is None or step.kind != "count" or AlternatingStep.of(state.step).calculated:
            raise Refused("no pass-point count is being confirmed now",
                          rule=(step.play_rule or step.rule) if step else "AA.PP.1")
        if AlternatingStep.of(state.step).confirmed[seat] is not None:
            raise Refused("you already confirmed your count", rule=step.play_rule)
        if command.include and step.name == "movement_pass_points":
            raise Refused("the movement count leaves out only what the log's statuses say; correct a status "
                          "with set_status instead", rule="AA.PP.1")
        exclusion = movement_exclusion if step.name == "movement_pass_points" else shooting_exclusion
        for field, claims in (("exclude", command.exclude), ("include", command.include)):
            for uid, reason in claims.items():
                if uid not in state.units:
                    raise NotFound(f"no unit {uid!r} in this game", field=field)
                unit, named = state.units[uid], unit_named(state, uid, seat)
                if unit.owner != seat:
                    raise Refused(f"{not_yours(state, uid, seat)}; each player confirms their own count",
                                  rule=step.play_rule)
                if not isinstance(reason, str) or not 1 <= len(reason) <= 200:
                    raise Malformed(f"{field}: give the reason for {named} (1..200 characters)", field=field)
                if not alive(unit):
                    raise Refused(f"{named} is destroyed and counts for nothing", rule=step.play_rule)
                service = exclusion(state, unit)
                if field == "exclude" and service is not None:
                    raise Refused(f"{named} is left out already ({service})", rule=step.play_rule)
                if field == "include" and service is None:
                    raise Refused(f"{named} is counted already", rule=step.play_rule)
        t.emit("CountConfirmed", own.CountConfirmed(seat=seat, sub_phase=step.name, exclude=dict(command.exclude),
                                  include=dict(command.include)), step.play_rule)
        state = t.state  # this seat's count confirmed
        if all(AlternatingStep.of(state.step).confirmed[s] is not None for s in SEATS):
            t.emit("PassPointsCalculated", self._count(state, step), RESULT_RULE[sub_phase(step)])

    def _count(self, state: GameState, step: Step) -> dict[str, Any]:
        """AA.PP.1/AA.PP.2 and AA.SPP.1: both counts, every exclusion with who attested it, the result."""
        exclusion = movement_exclusion if step.name == "movement_pass_points" else shooting_exclusion
        counts: dict[str, int] = {}
        counted: dict[str, list[str]] = {}
        excluded: list[dict[str, Any]] = []
        included: list[dict[str, Any]] = []
        confirmed = AlternatingStep.of(state.step).confirmed
        for seat in SEATS:
            claims = confirmed[seat]
            if claims is None:
                raise ValueError(f"seat {seat} has not confirmed its count")
            counted[seat] = []
            for uid, unit in seat_units(state, seat):
                if not alive(unit):
                    continue
                reason = exclusion(state, unit)
                if reason and uid in claims.include:
                    included.append({"unit": uid, "seat": seat, "by": seat, "reason": claims.include[uid],
                                     "service_reason": reason})
                    counted[seat].append(uid)
                elif reason:
                    excluded.append({"unit": uid, "seat": seat, "by": "service", "reason": reason})
                elif uid in claims.exclude:
                    excluded.append({"unit": uid, "seat": seat, "by": seat, "reason": claims.exclude[uid]})
                else:
                    counted[seat].append(uid)
            counts[seat] = len(counted[seat])
        points = {s: 0 for s in SEATS}
        if counts["A"] != counts["B"]:
            fewer = min(SEATS, key=lambda s: counts[s])
            points[fewer] = abs(counts["A"] - counts["B"])
        return {"sub_phase": step.name, "counts": counts, "counted": counted, "excluded": excluded,
                "included": included, "pass_points": points}

    @evolves("CountConfirmed")
    def _confirmed(self, state: GameState, data: own.CountConfirmed, entry: ev.Entry) -> GameState:
        step = AlternatingStep.of(state.step)
        claims = Claims(exclude=Frozen(data["exclude"]), include=Frozen(data["include"]))
        return replace(state, step=replace(step, confirmed=step.confirmed.replace(data["seat"], claims)))

    @evolves("PassPointsCalculated")
    def _calculated(self, state: GameState, data: own.PassPointsCalculated, entry: ev.Entry) -> GameState:
        points = data["pass_points"]
        state = replace(state, pass_points=PerSeat(points["A"], points["B"]),
                        step=replace(AlternatingStep.of(state.step), calculated=True))
        if data["sub_phase"] == "shooting_pass_points":
            state = replace(state, shooting_included=Frozen({item["unit"]: item["reason"] for item in data["included"]}))
        return state
