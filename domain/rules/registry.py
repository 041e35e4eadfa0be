"""RULESETS and find_ruleset(name): a ruleset is one module that registers itself."""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from warlog.domain.rules.flow import Ruleset

RULESETS: dict[str, "Ruleset"] = {}


def register(ruleset_class: type["Ruleset"]) -> type["Ruleset"]:
    RULESETS[ruleset_class.name] = ruleset_class()
    return ruleset_class


def find_ruleset(name: str) -> "Ruleset":
    if name not in RULESETS:  # not "if empty": importing one ruleset module directly registers only that one
        from warlog.domain.rules import alternating, heresy, reference  # noqa: F401  (they register)
    try:
        return RULESETS[name]
    except KeyError:
        raise KeyError(f"unknown ruleset {name!r}; known: {', '.join(sorted(RULESETS))}") from None
