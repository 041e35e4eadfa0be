"""The Command phase (RS.CMD.*), stratagems and Command Re-roll (EXT.CP.1), objectives and scoring
(EXT.OBJ.1, EXT.VP.1).

`CommandPhase` is a part of `Reference` (rules/parts.py): `use_stratagem` is dispatched to it and its `TurnStarted`,
`CommandPointGained`, `StratagemUsed`, `BattleShockTested` and `VictoryPointsScored` are applied by it (the attack
choices' Command Re-roll emits a `StratagemUsed` too, choices.py); `Reference` asks it by name as a turn begins
(`begin_turn`), for the stratagems open (`stratagem_actions`, `stratagem_targets`), for scoring at the end of the
Command phase (`scoring_now`, `control_schema`, `score`) and for the winner, and hands it the battle-shock roll it
asked for (`battle_shock_tested`) and a Desperate Escape's test the part `Movement` asks of it (`battle_shock_roll`). A
stratagem's effect persists through the ruleset (`CommandRules.start_effect`: its part `Persisting`).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from warlog.domain import army
from warlog.domain import events as ev
from warlog.domain.attacks.lines import line_standing
from warlog.domain.rules import actions as act
from warlog.domain.rules import editions, objectives
from warlog.domain.rules.actions import Action
from warlog.domain.rules.basics import evolves, seat_units
from warlog.domain.rules.flow import StatusNote
from warlog.domain.rules.reference import events as own
from warlog.domain.rules.reference.commands import UseStratagem
from warlog.domain.rules.reference.common import (
    STRATAGEMS,
    attached_to,
    battle_shocked,
    members_of,
    objective_control,
    remember_roll,
    turn_of,
)
from warlog.domain.rules.reference.effects import DURATIONS, duration_of
from warlog.domain.rules.ruleset import SEATS, Part, Step, alive, handles
from warlog.domain.rulings import Malformed, Refused
from warlog.domain.state import Frozen, GameState, ReferenceStep, ReferenceTurn, Unit, thaw
from warlog.domain.state.values import replace
from warlog.domain.words import unit_named

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from warlog.domain.game import Table

NO_VP = objectives.NO_VP


class CommandRules(Protocol):
    """What the command phase asks of its ruleset: whose turn a step is, the rolls (battle-shock, a Command
    Re-roll's), a unit's status changed (battle-shocked) and a stratagem's effect started."""

    def turn_seat(self, step: Step) -> str:
        """The seat whose turn the step is part of."""

    def request_roll(self, t: Table, seat: str, purpose: str, spec: str, rule: str, unit: str,
                     **context: object) -> None:
        """A roll the rules call for, for `unit`: rolled now with server dice, else awaited from `seat`."""

    def change_status(self, t: Table, uid: str, status: str, value: bool, rule: str,
                      **extra: Unpack[StatusNote]) -> None:
        """Record the unit's status gained or lost (nothing when it already is so)."""

    def start_effect(self, t: Table, uid: str, name: str, seat: str, until: str | None) -> None:
        """The stratagem's effect on the unit, for its duration (CORE.PER.1/2)."""


class CommandPhase(Part[CommandRules]):
    """A part of `Reference`: the start of each player's turn, CP spent at any time on stratagems, and the
    objectives scored."""

    def begin_turn(self, t: Table, step: Step) -> None:
        state, active = t.state, self.rules.turn_seat(step)
        expired = sorted(uid for uid, unit in state.units.items() if turn_of(unit) != ReferenceTurn())
        # CORE.PER.2: what lasted "until the end of the turn" (Advanced, Fell Back, Fights First, charged) ends
        t.emit("TurnStarted", own.TurnStarted(seat=active, battle_round=state.battle_round, expired=expired),
               "CORE.PER.2")
        for seat in SEATS:  # RS.CMD.1: both players gain 1 CP
            t.emit("CommandPointGained", own.CommandPointGained(seat=seat, cp=t.state.cp[seat] + 1), "RS.CMD.1")
        for uid, _ in list(seat_units(t.state, active)):  # RS.CMD.2, CORE.OFF.1: reserves test too
            units = t.state.units  # as the tests before this one left them
            if not alive(units[uid]) or attached_to(units, uid):
                continue  # a leader tests with its bodyguard, as one unit
            band = army.strength_of(units, uid)
            shocked = any("battle_shocked" in units[m].statuses for m in members_of(units, uid))
            if shocked or band in ("half", "below_half"):
                self.battle_shock_roll(t, active, uid, band)

    def battle_shock_roll(self, t: Table, seat: str, uid: str, band: str, rule: str = "RS.CMD.2",
                          **context: object) -> None:
        ld = best_leadership(t.state, uid)
        self.rules.request_roll(t, seat, "battle_shock", "2D6", rule, uid, ld=ld, strength=band, **context)

    def battle_shock_tested(self, t: Table, request: ev.RollRequested, roll: ev.DiceRolled) -> None:
        uid, context = request["unit"], request["context"]
        passed = roll["total"] >= context["ld"]
        t.emit("BattleShockTested", own.BattleShockTested(
            unit=uid, total=roll["total"], ld=context["ld"], passed=passed, strength=context["strength"],
            rerolled=bool(context.get("rerolled")), rerollable=not context.get("rerolled"),
            rules=["RS.CMD.2", "CORE.LD.1"]), "RS.CMD.2")
        for member in members_of(t.state.units, uid):
            self.rules.change_status(t, member, "battle_shocked", not passed, "RS.CMD.2",
                                     reason="failed a battle-shock test" if not passed else "passed a battle-shock test")

    # -- stratagems (EXT.CP.1) -----------------------------------------------------------

    @staticmethod
    def rerollable(state: GameState, seat: str) -> list[str]:
        """Units of this seat standing with a roll just made that Command Re-roll may roll again; never a
        battle-shocked unit (RS.CMD.3), unless the roll is the battle-shock test that has just made it so."""
        return [uid for uid, unit in seat_units(state, seat)
                if alive(unit) and _may_reroll(unit, battle_shocked(state, uid))]

    @staticmethod
    def stratagem_targets(state: GameState, seat: str) -> list[str]:
        """EXT.CP.1: a unit of one's own still in play, never a battle-shocked one (RS.CMD.3), a leader or its
        bodyguard alike (CORE.DESC.1)."""
        return [uid for uid, unit in seat_units(state, seat) if alive(unit) and not battle_shocked(state, uid)]

    def stratagem_actions(self, state: GameState, seat: str) -> list[Action]:
        cp, used = state.cp[seat], _used(state, seat)
        offered = []
        rerollable = self.rerollable(state, seat)
        if cp >= STRATAGEMS["Command Re-roll"] and "Command Re-roll" not in used and rerollable and not state.rolls:
            offered.append(act.action("use_stratagem", "EXT.CP.1", "Command Re-roll (1 CP): re-roll the roll just made",
                                      ["name", "unit"], name=act.const("Command Re-roll"), unit=act.one_of(rerollable)))
        names = [name for name, cost in STRATAGEMS.items()
                 if name != "Command Re-roll" and cost <= cp and name not in used]
        targets = self.stratagem_targets(state, seat)
        if names and targets:
            offered.append(act.action("use_stratagem", "EXT.CP.1", "use a stratagem on one of your units (its "
                                      "effect is resolved at the table; it lasts its duration, or the phase)",
                                      ["name", "unit"], name=act.choice((n, f"{n} ({STRATAGEMS[n]} CP)") for n in names),
                                      unit=act.one_of(targets),
                                      duration=act.choice(DURATIONS.items(), description="its stated duration "
                                                          "(CORE.PER.1)")))
        return offered

    @handles("use_stratagem")
    def use_stratagem(self, t: Table, seat: str, command: UseStratagem) -> None:
        state = t.state
        cost = STRATAGEMS.get(command.name)
        if cost is None:
            raise Refused(f"no stratagem {command.name!r}; known: {', '.join(STRATAGEMS)}", rule="EXT.CP.1")
        if state.cp[seat] < cost:
            raise Refused(f"{command.name} costs {cost} CP; you have {state.cp[seat]}", rule="EXT.CP.1")
        if command.name in _used(state, seat):
            raise Refused(f"you already used {command.name} this phase (the limit counts per player, CORE.OWN.1)",
                          rule="EXT.CP.1")
        if state.rolls:
            raise Refused("a roll is awaited first", rule=state.rolls[0].rule)
        unit, named = state.units[command.unit], unit_named(state, command.unit, seat)
        if unit.owner != seat or not alive(unit):
            raise Refused(f"a stratagem targets a unit of your own still in play, not {named}", rule="EXT.CP.1")
        reroll = turn_of(unit).reroll
        if command.name == "Command Re-roll":
            if command.unit not in self.rerollable(state, seat) or reroll is None:
                if reroll and battle_shocked(state, command.unit):
                    raise Refused(f"{named} is battle-shocked: stratagems cannot target it", rule="RS.CMD.3")
                raise Refused(f"{named} has no roll just made that can be re-rolled", rule="EXT.CP.1")
        elif command.unit not in self.stratagem_targets(state, seat):
            raise Refused(f"{named} is battle-shocked: stratagems cannot target it", rule="RS.CMD.3")
        until = duration_of(command.duration)
        if command.name == "Command Re-roll" and until is not None:
            raise Malformed("Command Re-roll gives no lasting effect: send no duration", field="duration")
        t.emit("StratagemUsed", own.StratagemUsed(seat=seat, name=command.name, unit=command.unit, cp=cost,
                                                  cp_left=state.cp[seat] - cost, rules=["EXT.CP.1", "CORE.OWN.1"]),
               "EXT.CP.1")
        if command.name != "Command Re-roll":  # its effect on the unit, for its duration (CORE.PER.1/2)
            self.rules.start_effect(t, command.unit, command.name, seat, until)
        elif reroll is not None:  # CORE.DICE.2: the whole roll again, never a second time
            self.rules.request_roll(t, seat, reroll.purpose, reroll.spec, "CORE.DICE.2", command.unit,
                                    **{**thaw(reroll.context), "rerolled": True})

    # -- objectives and scoring (EXT.OBJ.1, EXT.VP.1) -----------------------------------

    def scoring_now(self, state: GameState, step: Step) -> bool:
        return step.phase == "command" and state.battle_round >= 2 and bool(state.options.objectives)

    def control_schema(self, state: GameState) -> dict[str, Any]:
        return objectives.near_schema(state)

    def score(self, t: Table, seat: str, claims: Mapping[str, Sequence[str]]) -> None:
        state = t.state
        objectives.check_claims(state, claims, "EXT.OBJ.1")
        control = objective_control(state, claims)
        held = [marker for marker, result in control.items() if result["controlled_by"] == seat]
        t.emit("ObjectivesControlled", own.ObjectivesControlled(seat=seat, objectives=control, attested_by=seat),
               "EXT.OBJ.1")
        objectives.score(t, seat, held, "EXT.VP.1")

    def winner(self, state: GameState) -> str | None:
        """EXT.VP.1: more VP after the last battle round wins; equal VP is a draw."""
        vp = state.vp or NO_VP
        return None if vp.A == vp.B else "A" if vp.A > vp.B else "B"

    # -- appliers ------------------------------------------------------------------------

    @evolves("TurnStarted")
    def _turn_started(self, state: GameState, data: own.TurnStarted, entry: ev.Entry) -> GameState:
        return state.with_units(_fresh)

    @evolves("CommandPointGained")
    def _cp(self, state: GameState, data: own.CommandPointGained, entry: ev.Entry) -> GameState:
        return replace(state, cp=state.cp.replace(data["seat"], data["cp"]))

    @evolves("StratagemUsed")
    def _stratagem(self, state: GameState, data: own.StratagemUsed, entry: ev.Entry) -> GameState:
        seat, uid = data["seat"], data["unit"]
        step = ReferenceStep.of(state.step)
        used = step.stratagems or Frozen()
        step = replace(step, stratagems=used.set(seat, (*used.get(seat, ()), data["name"])))
        if data["name"] == "Command Re-roll":
            unit = state.units[uid]
            state = state.with_unit(uid, replace(unit, turn=replace(turn_of(unit), reroll=None)))
            if "roll" in data:  # an attack roll's re-roll: the attack's pause ends (choices.py)
                step = replace(step, attack_pause=None)
        return replace(state, cp=state.cp.replace(seat, data["cp_left"]), step=step)

    @evolves("BattleShockTested")
    def _shock_tested(self, state: GameState, data: own.BattleShockTested, entry: ev.Entry) -> GameState:
        uid = data["unit"]
        context = {"ld": data["ld"], "strength": data["strength"]}
        return state.with_unit(uid, remember_roll(state.units[uid], data, "battle_shock", context))

    @evolves("VictoryPointsScored")
    def _scored(self, state: GameState, data: own.VictoryPointsScored, entry: ev.Entry) -> GameState:
        return replace(state, vp=(state.vp or NO_VP).replace(data["seat"], data["total"]))


def best_leadership(state: GameState, uid: str) -> int:
    """RS.CMD.2: the unit's best Leadership, the lowest Ld a 2D6 must reach among its model lines standing, its
    attached leader's included (CORE.STR.1). A game created before the fix (rules/editions.py) read the highest."""
    units = state.units
    members = members_of(units, uid)
    if not editions.fixed(state, "RS.CMD.2"):
        return max(army.unit_leadership(units[m]) for m in members)
    standing = [line.Ld for m in members for line, n in zip(units[m].models, line_standing(units[m])[0])
                if n and line.Ld]
    return min(standing, default=0)


def _used(state: GameState, seat: str) -> tuple[str, ...]:
    """The stratagems this seat has used in the phase (EXT.CP.1: each once)."""
    return (ReferenceStep.of(state.step).stratagems or Frozen()).get(seat, ())


def _may_reroll(unit: Unit, shocked: bool) -> bool:
    reroll = turn_of(unit).reroll
    return reroll is not None and (not shocked or reroll.purpose == "battle_shock")


def _fresh(unit: Unit) -> Unit:
    """CORE.PER.2: a new turn, none of its flags set."""
    return unit if unit.turn == ReferenceTurn() else unit.with_fresh_turn()
