"""Holding an event's data to its kind's payload type (domain/events.py): strict (a bool is no int, a string
no number), every key it requires there, no key it does not name."""
from __future__ import annotations

from functools import cache
from typing import Any

from pydantic import TypeAdapter

from warlog.domain.rules.registry import find_ruleset


@cache
def adapter(payload: type) -> TypeAdapter[Any]:
    return TypeAdapter(payload)


def check_payload(ruleset: str, kind: str, data: dict[str, Any]) -> None:
    payload = find_ruleset(ruleset).event_payloads.get(kind)
    assert payload is not None, f"{ruleset} logs a {kind} whose payload no type names (domain/events.py)"
    unknown = set(data) - set(payload.__annotations__)
    assert not unknown, f"{kind}: keys its payload type does not name: {sorted(unknown)}"
    adapter(payload).validate_python(data, strict=True)
