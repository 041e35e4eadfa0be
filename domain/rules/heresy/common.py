"""What every heresy sub-phase reads of a unit: where it is, how far it may move, what stops it.

Each question is asked once, here, by both the legal actions (what is offered) and the handlers (what is
refused), so the two cannot drift apart. A "block" answers `(rule, reason)` or None.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Protocol

from typing_extensions import Unpack

from warlog.domain import dice
from warlog.domain.rules import actions as act
from warlog.domain.rules import editions
from warlog.domain.rules.basics import Lasts, Step
from warlog.domain.rules.flow import CasualtyNote, StatusNote
from warlog.domain.rules.ruleset import alive, other
from warlog.domain.rulings import Malformed, NotFound, Refused
from warlog.domain.state import GameState, HeresyStep, HeresyTurn, Unit, Window
from warlog.domain.state.values import replace
from warlog.domain.words import unit_named, who_does

if TYPE_CHECKING:
    from warlog.domain.game import Table

# how long each status lasts in this ruleset (GET /state's datasheets say it beside the status)
STATUS_ENDS: Mapping[str, Lasts] = {
    "stationary": Lasts("until the end of its turn", "HH.MOV.1"),
    "routed": Lasts("until it passes its Leadership test at its table edge", "HH.ROUT.3"),
    "locked_in_combat": Lasts("until its fight ends: its foe destroyed, or one side falling back", "HH.MOV.2"),
}

LOCKED = "locked_in_combat"
DIFFICULT_PENALTY = 2      # HH.MOV.4: difficult terrain reduces the move by 2"
REACTION_RANGE = 12        # HH.REACT.1: an enemy unit ending its move within 12"
RESERVES_ON = 3            # HH.RES.1: a D6, arriving on 3+
DANGEROUS_FAILS_ON = 1     # HH.MOV.4 convention: a D6 per model, failed on a 1
KIND_RULE = {"move": "HH.REACT.1", "snap_shots": "HH.RES.4"}  # the rule of each kind of reaction window
Block = tuple[str, str] | None
CLEAR = ("attested: no model ends within 1\" of an enemy model, on impassable terrain, on another model or off the "
         "table")


class TableRules(Protocol):
    """What a sub-phase that is a part of `Heresy` (rules/parts.py) calls back in it to act at the table: the
    step being played, the dice asked for, the losses and statuses recorded."""

    def step(self, state: GameState) -> Step | None:
        """The step being played; None outside play."""

    def request_roll(self, t: Table, seat: str, purpose: str, spec: str, rule: str, unit: str,
                     **context: object) -> None:
        """A roll asked for (rolled by the service, or awaited from the table)."""

    def casualties(self, t: Table, uid: str, models: int, wounds: int, rule: str,
                   **extra: Unpack[CasualtyNote]) -> None:
        """The models and wounds `uid` lost, recorded (with what follows a unit destroyed)."""

    def change_status(self, t: Table, uid: str, status: str, value: bool, rule: str,
                      **extra: Unpack[StatusNote]) -> None:
        """`uid` gains (or loses) `status`, if it has not (has) it."""


class MoveRules(TableRules, Protocol):
    """What a sub-phase whose units move (the Move, a fall back in the Rout) calls back in `Heresy` besides the
    table's (`TableRules`): what any move sets going after it."""

    def after_move(self, t: Table, seat: str, uid: str, coherency_lost: bool, dangerous: int,
                   near: list[str]) -> None:
        """Suppressed for coherency lost, the dangerous terrain tests, the reactions offered (heresy's Reactions)."""


def on_battlefield(unit: Unit) -> bool:
    """Neither destroyed, in reserves nor embarked."""
    return alive(unit) and not unit.in_reserves and not unit.embarked_in


def movement(unit: Unit) -> int:
    """A unit moves as its slowest model: the lowest Movement among its models (unknown counts as 0)."""
    return min((line.M or 0) for line in unit.models)


def initiative(unit: Unit) -> int:
    """The lowest Initiative among its models (unknown counts as 0)."""
    return min((line.I or 0) for line in unit.models)


def allowance(unit: Unit, rush: bool, difficult: bool) -> int:
    """HH.MOV.1/HH.MOV.5/HH.MOV.4: M, or M + I when rushing, less 2" through difficult terrain."""
    base = movement(unit) + (initiative(unit) if rush else 0)
    return max(0, base - (DIFFICULT_PENALTY if difficult else 0))


def enemies_on_battlefield(state: GameState, seat: str) -> list[str]:
    return [uid for uid, unit in state.units.items() if unit.owner != seat and on_battlefield(unit)]


def named_enemies(state: GameState, seat: str, named: Iterable[str], field: str) -> list[str]:
    """The enemy units a command names (each once), every one on the battlefield (attested near, or targeted)."""
    names = list(dict.fromkeys(named))
    enemies = enemies_on_battlefield(state, seat)
    for uid in names:
        if uid not in state.units:
            raise NotFound(f"no unit {uid!r} in this game", field=field)
        if uid not in enemies:
            raise Malformed(f"{unit_named(state, uid, seat)} is not an enemy unit on the battlefield", field=field)
    return names


def movement_block(unit: Unit) -> Block:
    """HH.MOV.2's list, for any move a unit might make (a normal move, a rush, a reaction)."""
    statuses = unit.statuses
    if "pinned" in statuses:
        return ("HH.MOV.2", "it is Pinned")
    if "routed" in statuses:
        return ("HH.MOV.2", "it is Routed: it moves in the Rout sub-phase")
    if LOCKED in statuses:
        return ("HH.MOV.2", "it is Locked in Combat")
    if any(line.M == 0 for line in unit.models):
        return ("HH.MOV.2", "one of its models has Movement 0")
    return None


def selected_block(unit: Unit, rule: str, done: str) -> Block:
    """The last questions of a unit's move in the Move sub-phase: it is selected once a sub-phase (`rule`; `done`:
    what selecting it did), then HH.MOV.2's list (`movement_block`)."""
    if unit.selected:
        return (rule, f"it has already {done} this sub-phase")
    return movement_block(unit)


def rushed_block(unit: Unit, doing: str) -> Block:
    """HH.MOV.5 and HH.RES.3: a unit that rushed this turn neither shoots nor charges."""
    turn = HeresyTurn.of(unit.turn)
    if turn.rushed and turn.arrived:
        return ("HH.RES.3", f"it rushed when entering play: it cannot {doing} this turn")
    if turn.rushed:
        return ("HH.MOV.5", f"it rushed this turn: it cannot {doing}")
    return None


def heresy_step(state: GameState) -> HeresyStep:
    """The step under way, heresy's (TypeError before the first step starts)."""
    return HeresyStep.of(state.step)


def moved_last(state: GameState, uid: str) -> GameState:
    """HH.REACT.1 (edition 3): `uid`'s move is the latest of the step, the one a reaction may answer (applied by each
    event that ends a move: a move, a rush into play, a fall back)."""
    if not editions.fixed(state, "HH.REACT.1/latest"):
        return state
    return replace(state, step=replace(heresy_step(state), last_moved=uid))


def reaction_window(state: GameState) -> Window | None:
    """The reaction window open now, the first of those waiting (`reactions`), or None (none before a step)."""
    windows = state.step.windows if isinstance(state.step, HeresyStep) else None
    return windows[0] if windows else None


def refuse_while_reacting(state: GameState, seat: str) -> None:
    """While a reaction window is open, the opponent answers it before the active player goes on (the refusal
    said to `seat`)."""
    window = reaction_window(state)
    if window is not None:
        raise Refused(f"{who_does(state, window.seat, seat, 'answer')} the reaction to "
                      f"{unit_named(state, window.against, seat)} first",
                      rule=KIND_RULE[window.kind])


def refuse_blocked(state: GameState, seat: str, block: Block, uid: str, doing: str) -> None:
    """A unit's move judged: while a reaction window is open, the opponent answers it first
    (`refuse_while_reacting`); then what `block` says stops this move (its sub-phase's own question), said of the
    unit by name: "Scouts cannot move: it has already moved this sub-phase"."""
    refuse_while_reacting(state, seat)
    if block:
        raise Refused(f"{unit_named(state, uid, seat)} cannot {doing}: {block[1]}", rule=block[0])


def reaction_seat(state: GameState) -> str | None:
    """Reactions belong to the player whose turn it is not (HH.REACT.1)."""
    active = state.active_seat
    return other(active) if active else None


def clear_field() -> dict[str, object]:
    """HH.MOV.3, attested on every move: where no model may end it."""
    return {"const": True, "description": CLEAR}


def checked_clear(state: GameState, clear: object, fix: str = "HH.MOV.3") -> bool:
    """HH.MOV.3 (its fix, `fix` for a move it came to later: a disembarking's "HH.EMB.1/clear"): the player attests
    that no model ends the move within 1" of an enemy model, on impassable terrain, on another model or off the
    table; a move that cannot is made again. Whether the event records the attestation (not before the fix)."""
    if not editions.fixed(state, fix):
        return False
    if clear is not True:
        raise Refused("no model may end a move within 1\" of an enemy model, on impassable terrain, on another "
                      "model or off the table: place the models so, then send the move", rule="HH.MOV.3")
    return True


def checked_dangerous(unit: Unit, dangerous: object) -> int:
    """HH.MOV.4: how many models went through dangerous terrain, one test each (at most one roll's dice)."""
    most = min(unit.models_alive, dice.MAX_DICE)
    if type(dangerous) is not int or not 0 <= dangerous <= most:
        raise Malformed(f"dangerous: from 0 to {most} models", field="dangerous")
    return dangerous


def move_rule(state: GameState, rule: str, difficult: bool, dangerous: int) -> str:
    """The rule a move's event cites: HH.MOV.4 where terrain bore on it (its fix), else the move's own."""
    return "HH.MOV.4" if (difficult or dangerous) and editions.fixed(state, "HH.MOV.4") else rule


def attested_terrain(unit: Unit) -> dict[str, dict[str, object]]:
    """What a player attests of any move's path and end: the models that went through dangerous terrain (HH.MOV.4,
    a test each, at most one roll's dice) and coherency it genuinely cannot keep (HH.MOV.3)."""
    return {"dangerous": act.integer(0, min(unit.models_alive, dice.MAX_DICE), "models that moved through dangerous "
                                     f"terrain: each tests, removed on a {DANGEROUS_FAILS_ON}"),
            "coherency_lost": act.boolean("attested: the unit genuinely cannot end in coherency (it gains "
                                          "Suppressed)")}


def rush_terrain(unit: Unit, difficult: bool) -> dict[str, dict[str, object]]:
    """A rush entering play (HH.MOV.4's fix): difficult terrain, models through dangerous terrain, coherency."""
    return {"difficult": act.const(difficult), **attested_terrain(unit)}
