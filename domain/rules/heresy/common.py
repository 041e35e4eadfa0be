"""What every heresy sub-phase reads of a unit: where it is, how far it may move, what stops it.

Each question is asked once, here, by both the legal actions (what is offered) and the handlers (what is
refused), so the two cannot drift apart. A "block" answers `(rule, reason)` or None.
"""
from __future__ import annotations

from typing import Any

from warlog.domain import army
from warlog.domain.rules.ruleset import alive, other
from warlog.domain.rulings import Malformed, NotFound, Refused
from warlog.domain.state import GameState, HeresyStep, HeresyTurn, Unit, Window

LOCKED = "locked_in_combat"
DIFFICULT_PENALTY = 2      # HH.MOV.4: difficult terrain reduces the move by 2"
REACTION_RANGE = 12        # HH.REACT.1: an enemy unit ending its move within 12"
RESERVES_ON = 3            # HH.RES.1: a D6, arriving on 3+
DANGEROUS_FAILS_ON = 1     # HH.MOV.4 convention: a D6 per model, failed on a 1
KIND_RULE = {"move": "HH.REACT.1", "snap_shots": "HH.RES.4"}  # the rule of each kind of reaction window
Block = tuple[str, str] | None


def on_battlefield(unit: dict[str, Any]) -> bool:
    """Neither destroyed, in reserves nor embarked."""
    return alive(unit) and not unit.get("in_reserves") and not unit.get("embarked_in")


def movement(unit: dict[str, Any]) -> int:
    """A unit moves as its slowest model: the lowest Movement among its models (unknown counts as 0)."""
    return min((line.get("M") or 0) for line in unit["models"])


def initiative(unit: dict[str, Any]) -> int:
    """The lowest Initiative among its models (unknown counts as 0)."""
    return min((line.get("I") or 0) for line in unit["models"])


def allowance(unit: dict[str, Any], rush: bool, difficult: bool) -> int:
    """HH.MOV.1/HH.MOV.5/HH.MOV.4: M, or M + I when rushing, less 2" through difficult terrain."""
    base = movement(unit) + (initiative(unit) if rush else 0)
    return max(0, base - (DIFFICULT_PENALTY if difficult else 0))


def enemies_on_battlefield(state: dict[str, Any], seat: str) -> list[str]:
    return [uid for uid, unit in state["units"].items() if unit["owner"] != seat and on_battlefield(unit)]


def named_enemies(state: dict[str, Any], seat: str, named: Any, field: str) -> list[str]:
    """The enemy units a command names (each once), every one on the battlefield (attested near, or targeted)."""
    names = list(dict.fromkeys(named))
    enemies = enemies_on_battlefield(state, seat)
    for uid in names:
        if uid not in state["units"]:
            raise NotFound(f"no unit {uid!r} in this game", field=field)
        if uid not in enemies:
            raise Malformed(f"{uid} is not an enemy unit on the battlefield", field=field)
    return names


def movement_block(unit: dict[str, Any]) -> Block:
    """HH.MOV.2's list, for any move a unit might make (a normal move, a rush, a reaction)."""
    statuses = unit["statuses"]
    if "pinned" in statuses:
        return ("HH.MOV.2", "it is Pinned")
    if "routed" in statuses:
        return ("HH.MOV.2", "it is Routed: it moves in the Rout sub-phase")
    if LOCKED in statuses:
        return ("HH.MOV.2", "it is Locked in Combat")
    if any(line.get("M") == 0 for line in unit["models"]):
        return ("HH.MOV.2", "one of its models has Movement 0")
    return None


def rushed_block(unit: dict[str, Any], doing: str) -> Block:
    """HH.MOV.5 and HH.RES.3: a unit that rushed this turn neither shoots nor charges."""
    turn = unit["turn"]
    if turn.get("rushed") and turn.get("arrived"):
        return ("HH.RES.3", f"it rushed when entering play: it cannot {doing} this turn")
    if turn.get("rushed"):
        return ("HH.MOV.5", f"it rushed this turn: it cannot {doing}")
    return None


def reaction_window(state: dict[str, Any]) -> dict[str, Any] | None:
    """The reaction window open now, the first of those waiting (`reactions`), or None."""
    windows = state["step"].get("windows") or []
    window: dict[str, Any] | None = windows[0] if windows else None
    return window


def refuse_while_reacting(state: dict[str, Any]) -> None:
    """While a reaction window is open, the opponent answers it before the active player goes on."""
    window = reaction_window(state)
    if window is not None:
        raise Refused(f"seat {window['seat']} answers the reaction to {window['against']} first",
                      rule=KIND_RULE[window["kind"]])


def reaction_seat(state: dict[str, Any]) -> str | None:
    """Reactions belong to the player whose turn it is not (HH.REACT.1)."""
    active = state.get("active_seat")
    return other(active) if active else None


def is_vehicle(unit: dict[str, Any]) -> bool:
    return army.is_vehicle(unit)


# -- the same questions of the typed state (`GameState`, `Unit`): the dict versions above stay for shooting.py ---


def unit_on_battlefield(unit: Unit) -> bool:
    """`on_battlefield` of a typed unit: neither destroyed, in reserves nor embarked."""
    return alive(unit) and not unit.in_reserves and not unit.embarked_in


def unit_movement(unit: Unit) -> int:
    """`movement`: the lowest Movement among its models (unknown counts as 0)."""
    return min((line.M or 0) for line in unit.models)


def unit_initiative(unit: Unit) -> int:
    """`initiative`: the lowest Initiative among its models (unknown counts as 0)."""
    return min((line.I or 0) for line in unit.models)


def unit_allowance(unit: Unit, rush: bool, difficult: bool) -> int:
    """`allowance`: M, or M + I when rushing, less 2" through difficult terrain."""
    base = unit_movement(unit) + (unit_initiative(unit) if rush else 0)
    return max(0, base - (DIFFICULT_PENALTY if difficult else 0))


def enemies_of(state: GameState, seat: str) -> list[str]:
    """`enemies_on_battlefield`: the other seat's units on the battlefield."""
    return [uid for uid, unit in state.units.items() if unit.owner != seat and unit_on_battlefield(unit)]


def enemies_named(state: GameState, seat: str, named: Any, field: str) -> list[str]:
    """`named_enemies`: the enemy units a command names (each once), every one on the battlefield."""
    names = list(dict.fromkeys(named))
    enemies = enemies_of(state, seat)
    for uid in names:
        if uid not in state.units:
            raise NotFound(f"no unit {uid!r} in this game", field=field)
        if uid not in enemies:
            raise Malformed(f"{uid} is not an enemy unit on the battlefield", field=field)
    return names


def unit_movement_block(unit: Unit) -> Block:
    """`movement_block`: HH.MOV.2's list, for any move a unit might make (a normal move, a rush, a reaction)."""
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


def unit_rushed_block(unit: Unit, doing: str) -> Block:
    """`rushed_block`: HH.MOV.5 and HH.RES.3, a unit that rushed this turn neither shoots nor charges."""
    turn = HeresyTurn.of(unit.turn)
    if turn.rushed and turn.arrived:
        return ("HH.RES.3", f"it rushed when entering play: it cannot {doing} this turn")
    if turn.rushed:
        return ("HH.MOV.5", f"it rushed this turn: it cannot {doing}")
    return None


def heresy_step(state: GameState) -> HeresyStep:
    """The step under way, heresy's (TypeError before the first step starts)."""
    return HeresyStep.of(state.step)


def open_window(state: GameState) -> Window | None:
    """`reaction_window`: the reaction window open now, the first of those waiting, or None."""
    windows = heresy_step(state).windows
    return windows[0] if windows else None


def refuse_while_window(state: GameState) -> None:
    """`refuse_while_reacting`: while a reaction window is open, the opponent answers it first."""
    window = open_window(state)
    if window is not None:
        raise Refused(f"seat {window.seat} answers the reaction to {window.against} first",
                      rule=KIND_RULE[window.kind])


def reacting_seat(state: GameState) -> str | None:
    """`reaction_seat`: reactions belong to the player whose turn it is not (HH.REACT.1)."""
    active = state.active_seat
    return other(active) if active else None
