"""The words every ruleset's parts share: the seats, the step of a round, the marks that route commands to
handlers and events to appliers, and a few questions about a unit (rules/flow.py re-exports them)."""
from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, NotRequired, Required, TypeVar, cast

from typing_extensions import TypedDict

from warlog.domain import events as ev
from warlog.domain.rulings import Malformed, Refused
from warlog.domain.state import GameState, LastRoll, Unit

Data = dict[str, Any]  # an event's data or entry as logged, untyped (a plugin's appliers may use it; ours take ev.X, ev.Entry)


class Awaiting(TypedDict, total=False):
    """Who must act now and how (GET /state's `awaiting`, CONTRACT.md "Reading"): the seat (None: either, or
    both still to) and the action, then what a ruleset's prompt adds."""

    seat: Required[str | None]
    action: Required[str]
    unit: str | None  # the unit the prompt is about
    rule: str  # the rule that prompts it
    reaction: str  # heresy: a reaction window's kind
    against: str  # heresy: the enemy unit a reaction answers
    roll: dict[str, Any]  # the roll awaited (its purpose, unit, spec, rule)
    choice: dict[str, Any]  # reference: a paused attack's choice
# An applier: (the ruleset, the state before the event (None before GameCreated), the event's data as its kind's
# payload type (domain/events.py), the whole entry) -> the next state.
Applier = Callable[..., GameState]
A = TypeVar("A", bound=Applier)

SEATS = ("A", "B")


@dataclass(frozen=True, slots=True)
class Lasts:
    """How long a status lasts in a ruleset (its table `status_ends`, one entry a status): `until` as a player
    reads it ("until it passes a battle-shock test in its Command phase"), and the rule that ends it."""

    until: str
    rule: str


PLAYERS_CLEAR = Lasts("until a player clears it", "CORE.DESC.1")  # a status the rules never end themselves


HEX = re.compile(r"^[0-9a-fA-F]{0,256}$")


def other(seat: str) -> str:
    return "B" if seat == "A" else "A"


def held_by(holder: str | None, seat: str, rule: str, refusal: str) -> None:
    """Refuse a seat's command when the choice is another seat's (`refusal` says whose)."""
    if holder != seat:
        raise Refused(refusal, rule=rule)


def awaited_unit(awaiting: Awaiting) -> str:
    """The unit an awaited prompt is about (one that names a unit: an overwatch, a charge roll)."""
    unit = awaiting.get("unit")
    if unit is None:
        raise ValueError(f"the awaited {awaiting['action']} names no unit")
    return unit


F = TypeVar("F", bound=Callable[..., Any])


def handles(command_type: str) -> Callable[[F], F]:
    """Marks a ruleset's (or a part's) method as the handler of one command type (`Ruleset.__init_subclass__`
    collects them, rules/parts.py)."""
    def mark(fn: F) -> F:
        fn._handles = command_type  # type: ignore[attr-defined]  # a mark read back by __init_subclass__
        return fn
    return mark


def evolves(*event_types: str) -> Callable[[A], A]:
    """Marks a ruleset's (or a part's) method as the applier of one event type (or of several that change the
    state alike): it returns the next state (`Ruleset.__init_subclass__` collects them, rules/parts.py)."""
    def mark(fn: A) -> A:
        fn._evolves = event_types  # type: ignore[attr-defined]  # a mark read back by __init_subclass__
        return fn
    return mark


@dataclass(frozen=True)

class Step:
    """One sub-phase (or a phase without sub-phases) and how it is played."""

    phase: str
    name: str | None
    kind: str                     # "count" | "alternate" | "fleeing" | "phase"
    rule: str                     # the rule that starts and orders it (cited by StepStarted)
    play_rule: str = ""           # the rule its selections follow (cited by refusals)
    order_rule: str = ""          # the rule behind its roll-off and choice of order
    pass_points: bool = False
    declare_done: bool = True
    active: str | None = None     # the active seat in IGOUGO turns


def inches(value: object, field: str, maximum: int) -> str:
    """A distance the players measured (CORE.DIST.1): a JSON number in 0..maximum, recorded as a string."""
    if type(value) not in (int, float) or not 0 <= cast(float, value) <= maximum:  # type(): a boolean is no distance
        raise Malformed(f"{field} is the inches measured, a number from 0 to {maximum}", field=field)
    if value == 0:
        return "0"  # not "-0" for a -0.0
    text = format(Decimal(repr(value)).normalize(), "f") if isinstance(value, float) else str(value)
    return text if "." not in text else text.rstrip("0").rstrip(".")


class Rolled(TypedDict):
    """What `last_roll` reads of a roll's payload, `ev.DiceRolled`, `ev.RollOff` or a ruleset's roll event (a
    roll-off's names no total, seat or unit; a roll logged before rolls said what they mean has no reading)."""

    purpose: str
    faces: list[int]
    total: NotRequired[int | None]
    seat: NotRequired[str | None]
    unit: NotRequired[str | None]
    needed: NotRequired[int | None]
    outcomes: NotRequired[list[str]]
    successes: NotRequired[int | None]
    text: NotRequired[str]


def last_roll(data: ev.DiceRolled | ev.RollOff, entry: ev.Entry) -> LastRoll:
    """`data`: a roll's payload."""
    roll = cast(Rolled, data)  # the keys both kinds have, and those only a DiceRolled has, read where present
    outcomes = roll.get("outcomes")
    return LastRoll(seq=entry["seq"], purpose=roll["purpose"], faces=tuple(roll["faces"]), total=roll.get("total"),
                    seat=entry["by"] or roll.get("seat"), unit=roll.get("unit"), needed=roll.get("needed"),
                    outcomes=None if outcomes is None else tuple(outcomes), successes=roll.get("successes"),
                    text=roll.get("text"))


def alive(unit: Unit) -> bool:
    return unit.models_alive > 0


def seat_units(state: GameState, seat: str) -> Iterator[tuple[str, Unit]]:
    return ((uid, u) for uid, u in state.units.items() if u.owner == seat)
