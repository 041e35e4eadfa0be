"""The one list of rulesets: their names, titles and one-line descriptions come from here to the API (the body
of POST /games, the OpenAPI document), the CLI, the pages and the docs.

A ruleset is a `Ruleset` subclass that registers itself (`@register`). The built-in ones live in this package;
another can live in its own installed package and be found through the `warlog.rulesets` entry-point group
(its entry point names the module, or the class, that registers it), or be registered at run time (a test's)
and unregistered again. A ruleset's own command classes (`Ruleset.commands`, beyond those of domain/commands.py)
join the table the boundary parses commands by (`commands.COMMANDS`) while it is registered.
"""
from __future__ import annotations

import importlib
from importlib.metadata import entry_points
from typing import TYPE_CHECKING

from warlog.domain import commands as cmd

if TYPE_CHECKING:
    from warlog.domain.rules.ruleset import Ruleset

BUILT_IN = ("alternating", "reference", "heresy")  # modules of this package, each registering the ruleset it names
ENTRY_POINTS = "warlog.rulesets"
RULESETS: dict[str, Ruleset] = {}
CORE_COMMANDS = frozenset(cmd.COMMANDS.values())  # domain/commands.py's own: never taken out by an unregister
_loaded = False


def register(ruleset_class: type[Ruleset]) -> type[Ruleset]:
    """Add a ruleset (and its own command classes) under its `name`; the built-in ones are loaded first, so
    they stay first in `names()`. A command type another class already has is refused: it would change how
    every other game's commands are read."""
    if ruleset_class.name not in BUILT_IN:
        load()
    clashes = [c.type for c in ruleset_class.commands if cmd.COMMANDS.get(c.type, c) is not c]
    if clashes:
        raise ValueError(f"ruleset {ruleset_class.name!r}: the command type(s) {', '.join(clashes)} already exist")
    RULESETS[ruleset_class.name] = ruleset_class()
    cmd.COMMANDS.update({c.type: c for c in ruleset_class.commands})
    return ruleset_class


def unregister(name: str) -> None:
    """Take a ruleset registered at run time (or by an installed package) out again, with the command classes
    no other registered ruleset declares. The built-in ones stay."""
    if name in BUILT_IN:
        raise ValueError(f"{name!r} is a built-in ruleset")
    ruleset = RULESETS.pop(name)
    kept = CORE_COMMANDS | {c for other in RULESETS.values() for c in other.commands}
    for command_class in ruleset.commands:
        if command_class not in kept and cmd.COMMANDS.get(command_class.type) is command_class:
            del cmd.COMMANDS[command_class.type]


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
        name = found.__dict__.get("name") if isinstance(found, type) else None
        if name and name not in RULESETS:
            register(found)


def names() -> tuple[str, ...]:
    """Every ruleset a game may be created with, the built-in ones first."""
    load()
    return tuple(RULESETS)


def find_ruleset(name: str) -> Ruleset:
    load()
    try:
        return RULESETS[name]
    except KeyError:
        raise KeyError(f"unknown ruleset {name!r}; known: {', '.join(RULESETS)}") from None
