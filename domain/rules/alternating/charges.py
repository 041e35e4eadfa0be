"""Charges and overwatch (AA.CHG.1, AA.OW.1): declared with targets and the measured distance, answered
with overwatch in full, then rolled."""
from __future__ import annotations

from collections import Counter
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Protocol, cast

from typing_extensions import TypedDict, Unpack

from warlog.domain import army, dice, rolls
from warlog.domain import events as ev
from warlog.domain.rules import actions as act
from warlog.domain.rules import editions
from warlog.domain.rules.actions import Action
from warlog.domain.rules.alternating import events as own
from warlog.domain.rules.alternating.commands import AlternatingSelect, ResolveCharge
from warlog.domain.rules.alternating.common import MAX_CHARGE, _chunks, on_table, overwatch_block, overwatch_shots
from warlog.domain.rules.basics import Awaiting, awaited_unit, evolves
from warlog.domain.rules.flow import StatusNote
from warlog.domain.rules.ruleset import Part, alive, handles
from warlog.domain.rulings import Malformed, Refused
from warlog.domain.state import AlternatingCharge, AlternatingStep, GameState
from warlog.domain.state.values import replace
from warlog.domain.words import awaited, owns, unit_named, unit_title, whose

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


ROLLS = frozenset({"overwatch_shots", "overwatch", "charge"})  # the roll purposes the charges ask and read


class ChargeRules(Protocol):
    """What the charges call back in their ruleset: what the game waits for, the rolls they ask, the statuses a
    charge made gives."""

    def awaiting(self, state: GameState) -> Awaiting:
        """What the game waits for now."""

    def request_roll(self, t: Table, seat: str, purpose: str, spec: str, rule: str, unit: str,
                     **context: object) -> None:
        """A roll for `unit`: rolled now with server dice, else awaited from `seat`; its outcome comes back to
        `on_roll`."""

    def change_status(self, t: Table, uid: str, status: str, value: bool, rule: str,
                      **extra: Unpack[StatusNote]) -> None:
        """`uid` gains (or loses) `status`, if it has not (has) it."""


class Charges(Part[ChargeRules]):
    """A part of `Alternating`: `resolve_charge` and its events are handled and applied by it; the goes (its part
    `Goes`, through `Alternating`) ask it whom a charge may name (`charge_targets`), to judge (`check_charge`) and
    declare (`declare`) one, to offer and judge the overwatch answering it (`overwatch_actions`, `overwatch`);
    `Alternating` asks it what a charge under way waits for (`charge_awaiting`), to run one on (`run_on`), and hands
    it the rolls it asked (`ROLLS`: `roll_reading`, `on_roll`)."""

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

    def check_charge(self, state: GameState, seat: str, targets: list[str], distance: str | None) -> None:
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

    def declare(self, t: Table, seat: str, uid: str, act: bool, targets: list[str], distance: str | None) -> None:
        """AA.CHG.1: the charge of the unit selected, answered by the targets able to fire overwatch."""
        if not act or distance is None:  # a declared charge gives its distance (_check_charge)
            return
        state = t.state
        answer = [target for target in targets if overwatch_block(state, state.units[target]) is None]
        t.emit("ChargeDeclared", ev.ChargeDeclared(unit=uid, seat=seat, targets=targets, distance=distance,
                                  overwatch_by=answer), "AA.CHG.1")

    def overwatch(self, t: Table, seat: str, command: AlternatingSelect, awaiting: Awaiting) -> None:
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
            raise Malformed(f"weapons: one name for each firing model, 1 to {unit.models_alive} of them",
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
            self.rules.request_roll(t, seat, purpose, spec, "AA.OW.1", uid, against=against, weapon=name, **extra)

    def _overwatch_shots(self, t: Table, seat: str, uid: str, context: ShotsAsked, faces: list[int]) -> None:
        """AA.OW.1 on a random profile: each model fires what it rolled, one fewer, never fewer than one."""
        k = context["per_model"]
        per_model = [max(1, sum(faces[i:i + k]) + context["modifier"] - 1) for i in range(0, len(faces), k)]
        hits = _chunks(sum(per_model), dice.MAX_DICE)
        t.emit("OverwatchShotsRolled", own.OverwatchShotsRolled(unit=uid, against=context["against"], weapon=context["weapon"],
                                        shots_per_model=per_model, shots=sum(per_model),
                                        volleys=len(hits)), "AA.OW.1")
        for count in hits:
            self.rules.request_roll(t, seat, "overwatch", str(dice.DiceExpr(count, 6)), "AA.OW.1", uid,
                              against=context["against"], weapon=context["weapon"])

    def overwatch_actions(self, state: GameState, awaiting: Awaiting) -> list[Action]:
        uid, against = awaited_unit(awaiting), awaiting["against"]
        unit = state.units[uid]
        names = list(dict.fromkeys(w.name for w in army.unit_ranged_weapons(unit)))
        weapons = {"type": "array", "items": {"enum": names}, "minItems": 1, "maxItems": unit.models_alive,
                   "description": "each firing model's ranged weapon, one name per model"}
        return [act.action("select", "AA.OW.1", f"fire overwatch with {unit_named(state, uid)} at the charging "
                           f"{unit_named(state, against, unit.owner)}",
                           ["unit", *(["weapons"] if len(names) > 1 else [])], unit=act.const(uid),
                           act=act.const(True), weapons=weapons),
                act.action("select", "AA.OW.1", f"hold {owns(unit_named(state, uid))} overwatch", ["unit", "act"],
                           unit=act.const(uid), act=act.const(False))]

    def _charge_outcome(self, t: Table, uid: str, context: ChargeAsked, total: int) -> None:
        """2D6 against the distance the players measured (the charge range of the edition the seed builds on)."""
        distance, targets = context["distance"], context["targets"]
        success = Decimal(total) >= Decimal(distance) and alive(t.state.units[uid])
        t.emit("ChargeResolved", ev.ChargeResolved(unit=uid, targets=targets, distance=distance, total=total,
                                  success=success), "AA.CHG.1")
        units = t.state.units
        standing = [target for target in targets if alive(units[target])]
        if success and standing:  # the charger by name with its owner's since edition 4 (AA.CHG.1/named)
            named = unit_title(t.state, uid, counts=False) if editions.fixed(t.state, "AA.CHG.1/named") else uid
            for member in [uid, *standing]:
                self.rules.change_status(t, member, "locked_in_combat", True, "AA.CHG.1", reason=f"charge by {named}")
            t.emit("CombatJoined", own.CombatJoined(units=[uid, *standing], reason=f"charge by {named}"), "AA.CHG.1")

    def charge_awaiting(self, state: GameState) -> Awaiting | None:
        """What a charge under way waits for: the overwatch of the next target to answer it (AA.OW.1), then its
        roll once the overwatch fired was resolved (AA.CHG.1); None: nothing of a charge."""
        charge = AlternatingStep.of(state.step).declared
        if charge and charge.pending:
            target = charge.pending[0]
            return {"seat": state.units[target].owner, "action": "select", "reaction": "overwatch",
                    "unit": target, "against": charge.unit, "rule": "AA.OW.1"}
        if charge and self.charge_waits(charge):
            return {"seat": charge.seat, "action": "resolve_charge", "unit": charge.unit, "rule": "AA.CHG.1"}
        return None

    def run_on(self, t: Table) -> bool:
        """A declared charge runs on once nobody answers it: ended if its charger is gone, a target's overwatch
        held if it cannot fire, rolled once no volley is left; False: nothing to do (or the players' turn)."""
        state = t.state
        charge = AlternatingStep.of(state.step).declared
        if charge is None:
            return False
        if not alive(state.units[charge.unit]):  # destroyed by overwatch: nothing left to charge
            t.emit("ChargeResolved", ev.ChargeResolved(unit=charge.unit, targets=list(charge.targets),
                                      distance=charge.distance, total=None, success=False,
                                      reason="the charging unit was destroyed"), "AA.CHG.1")
            return True
        if charge.pending:
            target = charge.pending[0]
            reason = overwatch_block(state, state.units[target])
            if reason is None:
                return False
            t.emit("OverwatchHeld", own.OverwatchHeld(unit=target, against=charge.unit, reason=reason), "AA.OW.1")
            return True
        if charge.volleys or self.charge_waits(charge):
            return False
        self.rules.request_roll(t, charge.seat, "charge", "2D6", "AA.CHG.1", charge.unit,
                                targets=list(charge.targets), distance=charge.distance)
        return True

    @staticmethod
    def roll_reading(request: ev.RollRequested) -> rolls.Reading | None:
        """What a roll of `ROLLS` must reach: a charge 2D6 against the inches measured (AA.CHG.1); overwatch
        shots, read as rolled; None for the hits, which the players read."""
        if request["purpose"] == "charge":
            return rolls.charge(request["context"]["distance"])
        if request["purpose"] == "overwatch_shots":
            return rolls.Reading("Overwatch shots")
        return None

    def on_roll(self, t: Table, request: ev.RollRequested, roll: ev.DiceRolled) -> None:
        """A roll of `ROLLS` it asked, as asked (its context)."""
        uid, context, purpose = request["unit"], request["context"], request["purpose"]
        if purpose == "overwatch_shots":
            self._overwatch_shots(t, request["seat"], uid, cast(ShotsAsked, context), roll["faces"])
        elif purpose == "overwatch":  # hits are read by the players (snap shots, unchanged by the seed)
            said = rolls.free(roll["faces"], roll["spec"], "overwatch", roll["total"])
            t.emit("OverwatchResolved", own.OverwatchResolved(unit=uid, against=context["against"], weapon=context["weapon"],
                                         shots=len(roll["faces"]), faces=roll["faces"], **said), "AA.OW.1")
        elif purpose == "charge":
            self._charge_outcome(t, uid, cast(ChargeAsked, context), roll["total"])  # as `run_on` asked
        else:
            raise ValueError(f"not a roll of the charges: {purpose}")

    @handles("resolve_charge")
    def resolve_charge(self, t: Table, seat: str, command: ResolveCharge) -> None:
        """AA.CHG.1: the overwatch fired at a charge is resolved in full (its casualties recorded) first."""
        awaiting = self.rules.awaiting(t.state)
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
