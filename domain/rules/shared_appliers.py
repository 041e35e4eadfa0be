"""Appliers of one shape, shared by the rulesets: an event that changes one field of the record the current step
keeps for what is under way (`ReferenceStep`'s `record`: reference's fight). Each call makes the typed applier of
one event type, returning the next `GameState`, marked with `evolves` as a method written out would be."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from typing_extensions import TypedDict

from warlog.domain import events as ev
from warlog.domain.rules.basics import Applier, evolves
from warlog.domain.state import GameState, Record, ReferenceStep
from warlog.domain.state.values import replace


class NamesUnit(TypedDict):
    """An event's payload that names the unit it is about (`adds_unit`, `drops_unit` read no more of it)."""

    unit: str


def _changed(state: GameState, record: str, change: Callable[[Record], Record]) -> GameState:
    """The state with the step's `record` (one under way) changed."""
    step = ReferenceStep.of(state.step)
    value = getattr(step, record)
    if not isinstance(value, Record):
        raise ValueError(f"no {record} is under way")
    changes: dict[str, Any] = {record: change(value)}  # the field named when the applier is made
    return replace(state, step=replace(step, **changes))


def sets_field(event_type: str, record: str, field: str, value: bool | None) -> Applier:
    """The event sets the step's `record.field` to `value`."""
    def apply(ruleset: object, state: GameState, data: Mapping[str, object], entry: ev.Entry) -> GameState:
        return _changed(state, record, lambda held: replace(held, **{field: value}))
    return evolves(event_type)(apply)


def adds_unit(event_type: str, record: str, field: str) -> Applier:
    """The event's unit joins the list the step's `record.field` holds."""
    def apply(ruleset: object, state: GameState, data: NamesUnit, entry: ev.Entry) -> GameState:
        return _changed(state, record, lambda held: replace(held, **{field: (*getattr(held, field), data["unit"])}))
    return evolves(event_type)(apply)


def drops_unit(event_type: str, record: str, field: str) -> Applier:
    """The event's unit leaves the list the step's `record.field` holds (its first place there)."""
    def apply(ruleset: object, state: GameState, data: NamesUnit, entry: ev.Entry) -> GameState:
        def drop(held: Record) -> Record:
            units: tuple[str, ...] = getattr(held, field)
            at = units.index(data["unit"])
            return replace(held, **{field: units[:at] + units[at + 1:]})
        return _changed(state, record, drop)
    return evolves(event_type)(apply)
