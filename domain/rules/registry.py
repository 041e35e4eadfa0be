"""The one list of rulesets: their names, titles and one-line descriptions come from here to the API (the body
of POST /games, the OpenAPI document), the CLI, the pages and the docs.

A ruleset is a `Ruleset` subclass that registers itself (`@register`). The built-in ones live in this package;
another can live in its own installed package and be found through the `warlog.rulesets` entry-point group
(its entry point names the module, or the class, that registers it), or be registered at run time (a test's).
"""
from __future__ import annotations

import importlib
from importlib.metadata import entry_points
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from warlog.domain.rules.flow import Ruleset

BUILT_IN = ("alternating", "reference", "heresy")  # modules of this package, each registering the ruleset it names
ENTRY_POINTS = "warlog.rulesets"
RULESETS: dict[str, "Ruleset"] = {}
_loaded = False


def register(ruleset_class: type["Ruleset"]) -> type["Ruleset"]:
    RULESETS[ruleset_class.name] = ruleset_class()
    return ruleset_class


def load() -> None:
    """Import the built-in rulesets and those of installed packages (each registers itself), once."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    for module in BUILT_IN:
        importlib.import_module(f"warlog.domain.rules.{module}")
    for point in entry_points(group=ENTRY_POINTS):
        found = point.load()
        if isinstance(found, type) and found.__dict__.get("name") and found.name not in RULESETS:
            register(found)


def names() -> tuple[str, ...]:
    """Every ruleset a game may be created with, the built-in ones first."""
    load()
    return tuple(RULESETS)


def find_ruleset(name: str) -> "Ruleset":
    load()
    try:
        return RULESETS[name]
    except KeyError:
        raise KeyError(f"unknown ruleset {name!r}; known: {', '.join(RULESETS)}") from None
