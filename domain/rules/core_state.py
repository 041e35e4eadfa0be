"""How the events every ruleset shares change the state: the appliers of the core events (creation, muster,
the round and its steps, rolls, casualties, statuses, the end). Each returns the next `GameState`."""
from __future__ import annotations

from typing_extensions import TypedDict, Unpack

from warlog.domain import events as ev
from warlog.domain.attacks.lines import with_lines
from warlog.domain.rules import results
from warlog.domain.rules.basics import evolves, last_roll
from warlog.domain.rules.flow import Flow
from warlog.domain.state import (
    Frozen,
    GameState,
    Options,
    PerSeat,
    Result,
    RollOff,
    RollRequest,
    RoundHead,
    StepState,
    Unit,
)
from warlog.domain.state.values import replace

ZERO, NO = PerSeat(0, 0), PerSeat(False, False)


def _step_of(state: GameState) -> StepState:
    if state.step is None:
        raise ValueError("no step has started")
    return state.step


def _unselected(unit: Unit) -> Unit:
    return replace(unit, selected=False) if unit.selected else unit


def _fresh_turn(unit: Unit) -> Unit:
    return unit.with_fresh_turn() if unit.turn != type(unit.turn)() else unit


class UnitChanges(TypedDict, total=False):
    """What the core's appliers change of a unit in place (`_unit_set`): fields of `Unit`."""

    arriving: bool
    embarked_in: str | None
    models_alive: int


class CoreState(Flow):
    """A part of every `Ruleset` (rules/flow.py): the core events' appliers."""

    @evolves("GameCreated")
    def _created(self, state: GameState | None, data: ev.GameCreated, entry: ev.Entry) -> GameState:
        return GameState(
            game_id=data["game_id"], ruleset=data["ruleset"], players=Frozen(data["players"]), dice=data["dice"],
            options=Options.from_json(data["options"]), dice_commitment=data["dice_commitment"], status="setup",
            battle_round=0, phase=None, sub_phase=None, active_seat=None, pos=None,
            pass_points=ZERO, declared_done=NO, cp=ZERO, entropy=PerSeat("", ""), mustered=NO, units=Frozen(),
            step=None, rolls=(), combats=Frozen(), result=None, last_roll=None, destroyed=(),
            edition=data.get("edition"))

    @evolves("ArmyMustered")
    def _mustered(self, state: GameState, data: ev.ArmyMustered, entry: ev.Entry) -> GameState:
        seat, turn = data["seat"], state.parts.turn
        units = {uid: u for uid, u in state.units.items() if u.owner != seat}
        units.update((unit["id"], Unit.mustered(seat, unit, turn)) for unit in data["units"])
        return replace(state, units=Frozen(units), mustered=state.mustered.replace(seat, True))

    @evolves("EntropyAdded")
    def _entropy(self, state: GameState, data: ev.EntropyAdded, entry: ev.Entry) -> GameState:
        return replace(state, entropy=state.entropy.replace(data["seat"], data["entropy"]))

    @evolves("GameStarted")
    def _started(self, state: GameState, data: ev.GameStarted, entry: ev.Entry) -> GameState:
        strengths: dict[str, int] = data["starting_strength"]
        units = {uid: replace(u, starting_strength=strengths[uid]) if uid in strengths else u
                 for uid, u in state.units.items()}
        return replace(state, status="in_progress", units=Frozen(units))

    @evolves("BattleRoundStarted")
    def _round(self, state: GameState, data: ev.BattleRoundStarted, entry: ev.Entry) -> GameState:
        combats = Frozen({cid: replace(c, fought=False) if c.fought else c for cid, c in state.combats.items()})
        return replace(state.with_units(_fresh_turn), battle_round=data["battle_round"], combats=combats)

    @evolves("StepStarted")
    def _step(self, state: GameState, data: ev.StepStarted, entry: ev.Entry) -> GameState:
        # AA.PP.2: pass points are never carried over; only the step after a count uses them
        pass_points = state.pass_points if data.get("pass_points") else ZERO
        return replace(state.with_units(_unselected), pass_points=pass_points, phase=data["phase"],
                       sub_phase=data["sub_phase"], active_seat=data["active_seat"], pos=data["pos"],
                       declared_done=NO, step=state.parts.step(settled=data.get("settled", False)))

    @evolves("StepSkipped")
    def _skipped(self, state: GameState, data: ev.StepSkipped, entry: ev.Entry) -> GameState:
        return replace(state, step=replace(_step_of(state), skipped=True, settled=True))

    @evolves("RollOffNeeded")
    def _roll_off_needed(self, state: GameState, data: ev.RollOffNeeded, entry: ev.Entry) -> GameState:
        return replace(state, step=replace(_step_of(state), roll_off=RollOff(choice=data["choice"]), settled=True))

    @evolves("RollOff")
    def _roll_off(self, state: GameState, data: ev.RollOff, entry: ev.Entry) -> GameState:
        state = replace(state, last_roll=last_roll(data, entry))
        winner, step = data["winner"], state.step
        if winner is None or step is None or step.roll_off is None:
            return state
        first = step.first if step.roll_off.choice else winner
        return replace(state, step=replace(step, winner=winner, first=first))

    @evolves("OrderChosen")
    def _order(self, state: GameState, data: ev.OrderChosen, entry: ev.Entry) -> GameState:
        return replace(state, step=replace(_step_of(state), first=data["first"]))

    @evolves("FirstGoes")
    def _first_goes(self, state: GameState, data: ev.FirstGoes, entry: ev.Entry) -> GameState:
        return replace(state, step=replace(_step_of(state), first=data["seat"], settled=True))

    @evolves("DiceRolled")
    def _rolled(self, state: GameState, data: ev.DiceRolled, entry: ev.Entry) -> GameState:
        if not data.get("free"):  # a free roll changes nothing but the log (CONTRACT.md)
            state = replace(state, last_roll=last_roll(data, entry))
        else:  # kept aside for the overlay, which shows the table's latest roll; not part of GET /state
            state = replace(state, last_free_roll=last_roll(data, entry))
        return replace(state, rolls=state.rolls[1:]) if data.get("awaited") else state

    @evolves("RollRequested")
    def _requested(self, state: GameState, data: ev.RollRequested, entry: ev.Entry) -> GameState:
        return replace(state, rolls=(*state.rolls, RollRequest.from_json(data)))

    @evolves("CasualtiesRecorded")
    def _casualties(self, state: GameState, data: ev.CasualtiesRecorded, entry: ev.Entry) -> GameState:
        uid = data["unit"]
        unit = state.units[uid].with_casualties(data["models"], data["wounds"])
        if "lines" in data:  # the wounds recorded on a model, as the datasheet shows them (`line_standing`)
            unit = with_lines(unit, data["lines"])
        if "wounds_lost" in data:  # its wounded model's, as its model line shows them, not every wound added up
            unit = replace(unit, wounds_lost=data["wounds_lost"])
        return state.with_unit(uid, unit)

    @evolves("ReserveArriving")
    def _arriving(self, state: GameState, data: ev.ReserveArriving, entry: ev.Entry) -> GameState:
        # AA.RES.1, HH.RES.1: it comes on when selected
        return self._unit_set(state, data["unit"], arriving=True)

    @evolves("UnitDisembarked")
    def _disembarked(self, state: GameState, data: ev.UnitDisembarked, entry: ev.Entry) -> GameState:
        return self._unit_set(state, data["unit"], embarked_in=None)

    @evolves("UnitDestroyed")
    def _destroyed(self, state: GameState, data: ev.UnitDestroyed, entry: ev.Entry) -> GameState:
        uid = data["unit"]
        state = self._unit_set(state, uid, models_alive=0)
        return state if uid in state.destroyed else replace(state, destroyed=(*state.destroyed, uid))

    @evolves("StatusGained")
    def _gained(self, state: GameState, data: ev.StatusGained, entry: ev.Entry) -> GameState:
        uid = data["unit"]
        return state.with_unit(uid, state.units[uid].with_status(data["status"]))

    @evolves("StatusLost")
    def _lost(self, state: GameState, data: ev.StatusLost, entry: ev.Entry) -> GameState:
        uid = data["unit"]
        return state.with_unit(uid, state.units[uid].without_status(data["status"]))

    @evolves("BattleRoundEnded")
    def _round_head(self, state: GameState, data: ev.BattleRoundEnded, entry: ev.Entry) -> GameState:
        """The head each seat may keep: `verify?head=` later says whether the log still extends it."""
        head = RoundHead(battle_round=data["battle_round"], seq=entry["seq"] - 1, head_hash=data["head_hash"])
        return replace(state, round_heads=(*(state.round_heads or ()), head))

    @evolves("GameEnded")
    def _ended(self, state: GameState, data: ev.GameEnded, entry: ev.Entry) -> GameState:
        scored = self.scored_by(state)
        by = data.get("by") or results.by_of(data["reason"], scored)  # a result logged before it was whole
        score = data.get("score")
        winner = data["winner"]
        return replace(state, status="ended", rolls=(), result=Result(
            reason=data["reason"], winner=winner, draw=data.get("draw", winner is None),
            by=by, score=PerSeat(score["A"], score["B"]) if score else results.score(state, scored),
            rule=data.get("rule") or results.RULE_BY[results.by_of(data["reason"], scored)]))

    @staticmethod
    def _unit_set(state: GameState, uid: str, **changes: Unpack[UnitChanges]) -> GameState:
        return state.with_unit(uid, replace(state.units[uid], **changes))
