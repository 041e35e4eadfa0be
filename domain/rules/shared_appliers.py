"""Appliers of one shape, shared by the rulesets: an event that changes one field of the record the current step
keeps for what is under way (`state["step"][record]`: alternating's charge, reference's fight). Each call makes
the applier of one event type, marked with `applies` as a method written out would be."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from warlog.domain.rules.basics import applies

Applier = Callable[[object, dict[str, Any], dict[str, Any], dict[str, Any]], None]


def sets_field(event_type: str, record: str, field: str, value: bool | None) -> Applier:
    """The event sets `state["step"][record][field]` to `value`."""
    @applies(event_type)
    def apply(ruleset: object, state: dict[str, Any], data: dict[str, Any], entry: dict[str, Any]) -> None:
        state["step"][record][field] = value
    return apply


def adds_unit(event_type: str, record: str, field: str) -> Applier:
    """The event's unit joins the list `state["step"][record][field]`."""
    @applies(event_type)
    def apply(ruleset: object, state: dict[str, Any], data: dict[str, Any], entry: dict[str, Any]) -> None:
        state["step"][record][field].append(data["unit"])
    return apply


def drops_unit(event_type: str, record: str, field: str) -> Applier:
    """The event's unit leaves the list `state["step"][record][field]`."""
    @applies(event_type)
    def apply(ruleset: object, state: dict[str, Any], data: dict[str, Any], entry: dict[str, Any]) -> None:
        state["step"][record][field].remove(data["unit"])
    return apply
