"""Charges and overwatch (AA.CHG.1, AA.OW.1): declared with targets and the measured distance, answered
with overwatch in full, then rolled."""
from __future__ import annotations

from collections import Counter
from dataclasses import replace
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from typing_extensions import TypedDict

from warlog.domain import army, dice
from warlog.domain import events as ev
from warlog.domain.rules import actions as act
from warlog.domain.rules.actions import Action
from warlog.domain.rules.alternating import events as own
from warlog.domain.rules.alternating.commands import AlternatingSelect, ResolveCharge
from warlog.domain.rules.alternating.common import MAX_CHARGE, _chunks, on_table, overwatch_block, overwatch_shots
from warlog.domain.rules.basics import Awaiting, awaited_unit, evolves
from warlog.domain.rules.ruleset import Ruleset, alive, handles
from warlog.domain.rulings import Malformed, Refused
from warlog.domain.state import AlternatingCharge, AlternatingStep, GameState
from warlog.domain.words import awaited, unit_named, whose

if TYPE_CHECKING:
    from warlog.domain.game import Table


class ShotsAsked(TypedDict):
    """The context of an `overwatch_shots` roll request (`_overwatch`): whom and with what, and a random profile's
    dice a model and modifier."""

    against: str
    weapon: str
    per_model: int
    modifier: int


class ChargeAsked(TypedDict):
    """The context of a `charge` roll request: the targets and the distance the players measured."""

    targets: list[str]
    distance: str


class Charges(Ruleset):
    """A part of `Alternating` (its methods read the others' through `self`)."""

    @staticmethod
    def charge_targets(state: GameState, seat: str) -> list[str]:
        """Enemy units a charge by `seat` may name: on the battlefield, not embarked (AA.CHG.1)."""
        return [uid for uid, unit in state.units.items()
                if unit.owner != seat and on_table(unit) and not unit.embarked_in]

    @staticmethod
    def charge_waits(charge: AlternatingCharge) -> bool:
        """AA.CHG.1: overwatch resolves in full first; once it was fired, the charger rolls when its casualties
        are recorded (`resolve_charge`)."""
        return not charge.pending and not charge.volleys and bool(charge.fired) and not charge.resumed

    def _check_charge(self, state: GameState, seat: str, targets: list[str], distance: str | None) -> None:
        if not targets:
            raise Malformed("a charge names its target units (targets)", field="targets")
        if distance is None:
            raise Malformed("a charge gives the distance the players measured to its target (distance)",
                            field="distance")
        chargeable = self.charge_targets(state, seat)
        for target in targets:
            if target not in chargeable:
                raise Refused(f"{unit_named(state, target, seat)} is not on the battlefield to be charged",
                              rule="AA.CHG.1")
        if Decimal(distance) > MAX_CHARGE:
            raise Refused(f"{distance}\" is beyond any 2D6 charge roll ({MAX_CHARGE}\")", rule="AA.CHG.1")

    def _selected_select_charges(self, t: Table, seat: str, uid: str, act: bool, targets: list[str],
                                 distance: str | None) -> None:
        if not act or distance is None:  # a declared charge gives its distance (_check_charge)
            return
        state = t.state
        answer = [target for target in targets if overwatch_block(state, state.units[target]) is None]
        t.emit("ChargeDeclared", ev.ChargeDeclared(unit=uid, seat=seat, targets=targets, distance=distance,
                                  overwatch_by=answer), "AA.CHG.1")

    def _overwatch(self, t: Table, seat: str, command: AlternatingSelect, awaiting: Awaiting) -> None:
        """AA.OW.1: the charged unit answers with overwatch (shots from each weapon's profile) or holds it."""
        state = t.state
        uid, against = awaited_unit(awaiting), awaiting["against"]
        named = unit_named(state, uid, seat)
        if command.unit != uid:
            raise Refused(f"the overwatch awaited is {named}'s, against the charge by "
                          f"{unit_named(state, against, seat)}", rule="AA.OW.1")
        if not command.act:
            t.emit("OverwatchHeld", own.OverwatchHeld(unit=uid, against=against, reason="held by its player"), "AA.OW.1")
            return
        unit = state.units[uid]
        ranged = {w.name: w for w in army.unit_ranged_weapons(unit)}
        if command.weapons is None and len(ranged) > 1:  # each model fires one weapon: which?
            raise Malformed(f"{named} has {len(ranged)} ranged weapons: name the one each firing model uses "
                            "(weapons, one name per model)", field="weapons")
        chosen = list(command.weapons) if command.weapons is not None else [next(iter(ranged))] * unit.models_alive
        unknown = [name for name in chosen if name not in ranged]
        if unknown:
            raise Malformed(f"{named} has no ranged weapon {unknown[0]!r}", field="weapons")
        if not 1 <= len(chosen) <= unit.models_alive:
            raise Malformed(f"weapons: one name for each firing model, 1..{unit.models_alive} of them",
                            field="weapons")
        fired: list[dict[str, Any]] = []
        rolls: list[tuple[str, str, str, dict[str, int]]] = []  # (weapon, purpose, spec, context)
        for name, models in Counter(chosen).items():
            weapon = ranged[name]
            per_model = overwatch_shots(weapon)
            expr = dice.parse(per_model)
            counted = expr.modifier * models if expr.is_constant else None  # a fixed profile: the shots, counted
            fired.append({"name": name, "kind": weapon.kind, "A": weapon.A, "shots_per_model": per_model,
                          "models": models, "shots": f"{models}x({per_model})" if counted is None else counted})
            if counted is not None:
                rolls += [(name, "overwatch", str(dice.DiceExpr(n, 6)), {}) for n in _chunks(counted, dice.MAX_DICE)]
            else:  # a random profile: each model rolls its shots first (`overwatch_shots`), then the hits
                profile = dice.parse(str(weapon.A))
                rolls += [(name, "overwatch_shots", str(dice.DiceExpr(n * profile.count, profile.sides)),
                           {"per_model": profile.count, "modifier": profile.modifier})
                          for n in _chunks(models, dice.MAX_DICE // profile.count)]
        # every roll still to come counts as a volley: the charge waits until none is left
        t.emit("OverwatchFired", own.OverwatchFired(unit=uid, against=against, weapons=fired, volleys=len(rolls)),
               "AA.OW.1")
        for name, purpose, spec, extra in rolls:
            self.request_roll(t, seat, purpose, spec, "AA.OW.1", uid, against=against, weapon=name, **extra)

    def _overwatch_shots(self, t: Table, seat: str, uid: str, context: ShotsAsked, faces: list[int]) -> None:
        """AA.OW.1 on a random profile: each model fires what it rolled, one fewer, never fewer than one."""
        k = context["per_model"]
        per_model = [max(1, sum(faces[i:i + k]) + context["modifier"] - 1) for i in range(0, len(faces), k)]
        hits = _chunks(sum(per_model), dice.MAX_DICE)
        t.emit("OverwatchShotsRolled", own.OverwatchShotsRolled(unit=uid, against=context["against"], weapon=context["weapon"],
                                        shots_per_model=per_model, shots=sum(per_model),
                                        volleys=len(hits)), "AA.OW.1")
        for count in hits:
            self.request_roll(t, seat, "overwatch", str(dice.DiceExpr(count, 6)), "AA.OW.1", uid,
                              against=context["against"], weapon=context["weapon"])

    def _overwatch_actions(self, state: GameState, awaiting: Awaiting) -> list[Action]:
        uid, against = awaited_unit(awaiting), awaiting["against"]
        unit = state.units[uid]
        names = list(dict.fromkeys(w.name for w in army.unit_ranged_weapons(unit)))
        weapons = {"type": "array", "items": {"enum": names}, "minItems": 1, "maxItems": unit.models_alive,
                   "description": "each firing model's ranged weapon, one name per model"}
        return [act.action("select", "AA.OW.1", f"fire overwatch with {unit_named(state, uid)} at the charging "
                           f"{unit_named(state, against, unit.owner)}",
                           ["unit", *(["weapons"] if len(names) > 1 else [])], unit=act.const(uid),
                           act=act.const(True), weapons=weapons),
                act.action("select", "AA.OW.1", f"hold {unit_named(state, uid)}'s overwatch", ["unit", "act"],
                           unit=act.const(uid), act=act.const(False))]

    def _charge_outcome(self, t: Table, uid: str, context: ChargeAsked, total: int) -> None:
        """2D6 against the distance the players measured (the charge range of the edition the seed builds on)."""
        distance, targets = context["distance"], context["targets"]
        success = Decimal(total) >= Decimal(distance) and alive(t.state.units[uid])
        t.emit("ChargeResolved", ev.ChargeResolved(unit=uid, targets=targets, distance=distance, total=total,
                                  success=success), "AA.CHG.1")
        units = t.state.units
        standing = [target for target in targets if alive(units[target])]
        if success and standing:
            for member in [uid, *standing]:
                self.change_status(t, member, "locked_in_combat", True, "AA.CHG.1", reason=f"charge by {uid}")
            t.emit("CombatJoined", own.CombatJoined(units=[uid, *standing], reason=f"charge by {uid}"), "AA.CHG.1")

    @handles("resolve_charge")
    def resolve_charge(self, t: Table, seat: str, command: ResolveCharge) -> None:
        """AA.CHG.1: the overwatch fired at a charge is resolved in full (its casualties recorded) first."""
        awaiting = self.awaiting(t.state)
        if awaiting["action"] != "resolve_charge":
            raise Refused(f"no charge waits to be rolled: {awaited(t.state, awaiting, seat)}", rule="AA.CHG.1")
        if awaiting["seat"] != seat:
            raise Refused(f"the charge is {whose(t.state, awaiting['seat'])} to roll", rule="AA.CHG.1")
        t.emit("ChargeRollCalled", own.ChargeRollCalled(unit=awaited_unit(awaiting), seat=seat), "AA.CHG.1")

    @evolves("ChargeDeclared")
    def _charge(self, state: GameState, data: ev.ChargeDeclared, entry: ev.Entry) -> GameState:
        charge = AlternatingCharge(unit=data["unit"], seat=data["seat"], targets=tuple(data["targets"]),
                                   distance=data["distance"], pending=tuple(data["overwatch_by"]), volleys=0)
        return replace(state, step=replace(AlternatingStep.of(state.step), charge=charge))

    @evolves("OverwatchFired")
    def _overwatch_fired(self, state: GameState, data: own.OverwatchFired, entry: ev.Entry) -> GameState:
        step, charge = _under_way(state)
        answered = replace(charge.without_pending(data["unit"]), volleys=data["volleys"], fired=True)
        return replace(state, step=replace(step, charge=answered))

    @evolves("OverwatchHeld")
    def _overwatch_held(self, state: GameState, data: own.OverwatchHeld, entry: ev.Entry) -> GameState:
        step, charge = _under_way(state)
        return replace(state, step=replace(step, charge=charge.without_pending(data["unit"])))

    @evolves("ChargeRollCalled")
    def _charge_roll_called(self, state: GameState, data: own.ChargeRollCalled, entry: ev.Entry) -> GameState:
        step, charge = _under_way(state)
        return replace(state, step=replace(step, charge=replace(charge, resumed=True)))

    @evolves("OverwatchShotsRolled")
    def _overwatch_shots_rolled(self, state: GameState, data: own.OverwatchShotsRolled, entry: ev.Entry) -> GameState:
        step, charge = _under_way(state)
        volleys = charge.volleys + data["volleys"] - 1  # this roll done, its hit rolls to come
        return replace(state, step=replace(step, charge=replace(charge, volleys=volleys)))

    @evolves("OverwatchResolved")
    def _overwatch_resolved(self, state: GameState, data: own.OverwatchResolved, entry: ev.Entry) -> GameState:
        step, charge = _under_way(state)
        return replace(state, step=replace(step, charge=replace(charge, volleys=charge.volleys - 1)))

    @evolves("ChargeResolved")
    def _charge_resolved(self, state: GameState, data: ev.ChargeResolved, entry: ev.Entry) -> GameState:
        return replace(state, step=replace(AlternatingStep.of(state.step), charge=None))


def _under_way(state: GameState) -> tuple[AlternatingStep, AlternatingCharge]:
    """The step and the charge under way in it (its overwatch, its roll)."""
    step = AlternatingStep.of(state.step)
    if step.declared is None:
        raise ValueError("no charge is under way")
    return step, step.declared
