"""Persisting effects (CORE.PER.1, CORE.PER.2): what a stratagem or a recorded status gives a unit for a while.

An effect starts with `EffectStarted` (the unit, what it is, the seat that gave it, when, and until when) and ends
with `EffectEnded` at its boundary; GET /state shows each unit's effects with their expiry, and the audit of an
`EffectEnded` links to the `EffectStarted` it closes.

Conventions where RULES.md is silent:
- Durations (`until`): `end_of_phase`, `end_of_turn`, `end_of_battle_round`, `start_of_next_turn` ("until the start
  of your next turn": the next turn of the seat that gave it). A stated duration is CORE.PER.1's; a stratagem used
  on a unit with none stated lasts until the end of the phase (CORE.PER.2). Command Re-roll gives no effect.
- `set_status` with a `duration` gives the status as an effect: the status is lost when the effect ends (unless
  it was lost before). `set_status` without one records a fact that lasts until it is recorded lost.
- CORE.PER.1: effects end only at their boundary: a unit that goes into reserves or embarks keeps them (the
  service never ends an effect because the unit left the battlefield).
- Boundaries are read as each step begins: the end of a phase when the next step starts, the end of a turn and the
  start of a seat's turn when its Command phase starts, the end of a battle round when the next round starts.

`Persisting` is a part of `Reference` (rules/parts.py): its effects' events are applied by it; `Reference` calls it
by name as each step begins (`expire_effects`), for its records (`effect_records`), around its `set_status` and
after a `StatusLost` (`status_lost`), and the stratagems start their effects through it (`start_effect`).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from warlog.domain import army
from warlog.domain import commands as cmd
from warlog.domain import events as ev
from warlog.domain.rules import actions as act
from warlog.domain.rules import editions
from warlog.domain.rules.actions import Action
from warlog.domain.rules.basics import evolves
from warlog.domain.rules.flow import StatusNote
from warlog.domain.rules.reference import events as own
from warlog.domain.rules.reference.texts import effect_name
from warlog.domain.rules.ruleset import Part, Step, alive
from warlog.domain.rulings import Malformed
from warlog.domain.state import Effect, GameState
from warlog.domain.state.values import replace
from warlog.domain.words import lasting, player_name

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from warlog.domain.game import Table

DURATIONS = {"end_of_phase": "until the end of the phase", "end_of_turn": "until the end of the turn",
             "end_of_battle_round": "until the end of the battle round",
             "start_of_next_turn": "until the start of your next turn"}  # the titles shown to the player who gives it
# the boundaries as a game created before edition 4 stores them (`ended`), byte for byte, whatever the titles say now
ENDED_BEFORE = {"end_of_phase": "the end of the phase", "end_of_turn": "the end of the turn",
                "end_of_battle_round": "the end of the battle round",
                "start_of_next_turn": "the start of the giving seat's next turn"}


def duration_of(value: str | None, field: str = "duration") -> str | None:
    if value is not None and value not in DURATIONS:
        raise Malformed(f"{field} is one of {', '.join(DURATIONS)}", field=field)
    return value


def ended(state: GameState, effect: Effect) -> str:
    """The boundary an effect ended at, as its `EffectEnded` reason says it: "the start of Alice's next turn" (the
    player who gave it, CORE.PER.1's fix of edition 4), "the giving seat's" in a game created before."""
    if editions.fixed(state, "CORE.PER.1"):
        return lasting(effect.until, player_name(state, effect.by))
    return ENDED_BEFORE[effect.until]


def said_ended(state: GameState, effect: Effect) -> str:
    """The effect a status was lost with, as its `StatusLost` reason names it: "the falling back status" (CORE.PER.1's
    fix of edition 6), its field's name ("status falling_back") in a game created before."""
    return effect_name(effect.effect) if editions.fixed(state, "CORE.PER.1/named") else effect.effect


class EffectRules(Protocol):
    """What the effects part asks of its ruleset: a status given as an effect is lost when the effect ends."""

    def change_status(self, t: Table, uid: str, status: str, value: bool, rule: str,
                      **extra: Unpack[StatusNote]) -> None:
        """Record the unit's status gained or lost (nothing when it already is so)."""


class Persisting(Part[EffectRules]):
    """A part of `Reference`: what a stratagem or a recorded status gives a unit for a while."""

    def start_effect(self, t: Table, uid: str, name: str, seat: str, until: str | None, status: str | None = None,
                     reason: str | None = None) -> None:
        state = t.state
        data = own.EffectStarted(unit=uid, effect=name, status=status, by=seat, until=until or "end_of_phase",
                                 stated=until is not None, battle_round=state.battle_round, phase=state.phase,
                                 active_seat=state.active_seat)
        if reason is not None:
            data["reason"] = reason
        t.emit("EffectStarted", data, "CORE.PER.1" if until is not None else "CORE.PER.2")

    def expire_effects(self, t: Table, step: Step) -> None:
        """End every effect whose boundary this step's start passes (CORE.PER.1/2)."""
        turn_starts = step.phase == "command" and step.kind == "phase"
        round_starts = t.state.pos == 0
        for uid in list(t.state.units):
            for effect in t.state.units[uid].effects or ():  # as the effects ended before this unit's left it
                until = effect.until
                ends = until == "end_of_phase" or (until == "end_of_turn" and (turn_starts or round_starts)) or \
                    (until == "end_of_battle_round" and round_starts) or \
                    (until == "start_of_next_turn" and turn_starts and step.active == effect.by)
                if ends:
                    self.end_effect(t, uid, effect, ended(t.state, effect) + " has come")

    def end_effect(self, t: Table, uid: str, effect: Effect, reason: str) -> None:
        t.emit("EffectEnded", own.EffectEnded(unit=uid, effect=effect.effect, until=effect.until,
                                              started_seq=effect.seq, reason=reason),
               "CORE.PER.1" if effect.stated else "CORE.PER.2")
        status, unit = effect.status, t.state.units[uid]
        if status and status in unit.statuses and alive(unit):
            self.rules.change_status(t, uid, status, False, "CORE.PER.1" if effect.stated else "CORE.PER.2",
                                     reason=f"{said_ended(t.state, effect)} ended: {reason}")

    # -- set_status with a duration ------------------------------------------------------

    @staticmethod
    def stated(command: cmd.SetStatus) -> str | None:
        """`set_status`'s duration, judged before the status is recorded (`Reference.set_status`): one of
        `DURATIONS`, and only with a status gained; None: a fact that lasts until it is recorded lost."""
        until = duration_of(command.duration)
        if until is not None and not command.value:
            raise Malformed("a duration goes with a status gained (value true)", field="duration")
        return until

    def status_given(self, t: Table, seat: str, command: cmd.SetStatus, until: str | None) -> None:
        """After `set_status` recorded it: a status gained for a stated time (`until`, as `stated` judged it) is
        an effect that ends by itself."""
        if until is not None:
            self.start_effect(t, command.unit, f"status {command.status}", seat, until, status=command.status,
                              reason=command.reason)

    def effect_records(self, state: GameState, seat: str) -> list[Action]:
        standing = [uid for uid, unit in state.units.items() if alive(unit)]
        if not standing or state.status != "in_progress":
            return []
        return [act.action("set_status", "CORE.PER.1", "record a status gained for a stated time (it ends by "
                           "itself)", ["unit", "status", "value", "duration"], unit=act.one_of(standing),
                           status=act.one_of(sorted(army.STATUSES)), value=act.const(True),
                           duration=act.choice(DURATIONS.items()), reason=act.text(200, "why"))]

    # -- appliers ------------------------------------------------------------------------

    @evolves("EffectStarted")
    def _effect_started(self, state: GameState, data: own.EffectStarted, entry: ev.Entry) -> GameState:
        uid = data["unit"]
        unit = state.units[uid]
        effect = Effect.from_json({"effect": data["effect"], "status": data["status"], "by": data["by"],
                                   "until": data["until"], "stated": data["stated"], "seq": entry["seq"],
                                   "battle_round": data["battle_round"], "phase": data["phase"]})
        return state.with_unit(uid, replace(unit, effects=(*(unit.effects or ()), effect)))

    @staticmethod
    def status_lost(state: GameState, data: ev.StatusLost) -> GameState:
        """After `StatusLost` is applied (`Reference._status_lost`): a status lost before its effect's end takes
        the effect with it."""
        uid = data["unit"]
        unit = state.units[uid]
        if not unit.effects:
            return state
        return state.with_unit(uid, replace(unit, effects=tuple(e for e in unit.effects if e.status != data["status"])))

    @evolves("EffectEnded")
    def _effect_ended(self, state: GameState, data: own.EffectEnded, entry: ev.Entry) -> GameState:
        uid = data["unit"]
        unit = state.units[uid]
        kept = tuple(e for e in unit.effects or () if e.seq != data["started_seq"])
        return state.with_unit(uid, replace(unit, effects=kept))
