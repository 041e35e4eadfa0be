"""The one list of rulesets: their names, titles and one-line descriptions come from here to the API (the body
of POST /games, the OpenAPI document), the CLI, the pages and the docs.

A ruleset is a `Ruleset` subclass that registers itself (`@register`). The built-in ones live in this package;
another can live in its own installed package and be found through the `warlog.rulesets` entry-point group
(its entry point names the module, or the class, that registers it), or be registered at run time (a test's)
and unregistered again.

A ruleset's commands are domain/commands.py's (`COMMANDS`, every ruleset's) and its own (`Ruleset.commands`,
in its package): `table` is that list by type, `union` the one validator a body sent to one of its games is
read by. `known` is every type some registered ruleset takes, each with its classes: one, or, for a type that
domain/commands.py gives a shared base (`SHARED`: select), each ruleset's extension of it. `generation` counts
the changes, so that what is built from the registry (the OpenAPI document) is built again when it moves.
"""
from __future__ import annotations

import importlib
import threading
from importlib.metadata import entry_points
from typing import TYPE_CHECKING, Any

from pydantic import TypeAdapter

from warlog.domain import commands as cmd

if TYPE_CHECKING:
    from warlog.domain.rules.ruleset import Ruleset

BUILT_IN = ("alternating", "reference", "heresy")  # modules of this package, each registering the ruleset it names
ENTRY_POINTS = "warlog.rulesets"
RULESETS: dict[str, Ruleset] = {}
_loaded = False
_loading = False  # the thread holding `_lock` is loading them now
_lock = threading.RLock()
_generation = 0
_tables: dict[str, dict[str, type[cmd.Command]]] = {}


def register(ruleset_class: type[Ruleset]) -> type[Ruleset]:
    """Add a ruleset under its `name`; the built-in ones are loaded first, so they stay first in `names()`. A
    command type that the core or another ruleset has as another class is refused (one type means one thing
    on the wire: one schema in the document), unless both classes extend the shared base of that type."""
    if ruleset_class.name not in BUILT_IN:
        load()
    clashes = _clashes(ruleset_class)
    if clashes:
        raise ValueError(f"ruleset {ruleset_class.name!r}: the command type(s) {', '.join(clashes)} already exist")
    RULESETS[ruleset_class.name] = ruleset_class()
    _changed()
    return ruleset_class


def _clashes(ruleset_class: type[Ruleset]) -> list[str]:
    others = [cmd.COMMANDS] + [_table(ruleset) for name, ruleset in list(RULESETS.items()) if name != ruleset_class.name]
    own: dict[str, type[cmd.Command]] = {}
    found: list[str] = []
    for command_class in ruleset_class.commands:
        base = cmd.SHARED.get(command_class.type)
        theirs = [other[command_class.type] for other in others if command_class.type in other]
        if own.setdefault(command_class.type, command_class) is not command_class or any(
                other is not command_class and not (base and issubclass(command_class, base) and issubclass(other, base))
                for other in theirs):
            found.append(command_class.type)
    return list(dict.fromkeys(found))


def unregister(name: str) -> None:
    """Take a ruleset registered at run time (or by an installed package) out again. The built-in ones stay."""
    if name in BUILT_IN:
        raise ValueError(f"{name!r} is a built-in ruleset")
    del RULESETS[name]
    _changed()


def _changed() -> None:
    global _generation
    _generation += 1
    _tables.clear()


def generation() -> int:
    """How many times the registry has changed: a cache of what is built from it keys on this."""
    return _generation


def load() -> None:
    """Import the built-in rulesets and those of installed packages (each registers itself), once. Requests that
    come together to a fresh process wait for the one loading them: none sees the list half made. (A ruleset of
    an installed package registers from within the load: its own `load()` returns at once.)"""
    global _loaded, _loading
    if _loaded:
        return
    with _lock:
        if _loaded or _loading:
            return
        _loading = True
        try:
            for module in BUILT_IN:
                importlib.import_module(f"warlog.domain.rules.{module}")
            for point in entry_points(group=ENTRY_POINTS):
                found = point.load()
                name = found.__dict__.get("name") if isinstance(found, type) else None
                if name and name not in RULESETS:
                    register(found)
            _loaded = True
        finally:
            _loading = False


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


def table(name: str) -> dict[str, type[cmd.Command]]:
    """The command classes a game of this ruleset reads, by type: every ruleset's, then its own."""
    found = _tables.get(name)
    if found is None:
        found = _tables[name] = _table(find_ruleset(name))
    return found


def _table(ruleset: Ruleset) -> dict[str, type[cmd.Command]]:
    return {**cmd.COMMANDS, **{c.type: c for c in ruleset.commands}}


def union(name: str) -> TypeAdapter[cmd.Command]:
    """The one validator of a body sent to a game of this ruleset (a discriminated union on `type`)."""
    return cmd.union(table(name).values())


def known() -> dict[str, tuple[type[cmd.Command], ...]]:
    """Every command type a registered ruleset takes, with its classes (each once, the core's first)."""
    load()
    classes: dict[str, dict[type[cmd.Command], Any]] = {}
    for name in RULESETS:
        for type_, command_class in table(name).items():
            classes.setdefault(type_, {})[command_class] = None
    return {type_: tuple(found) for type_, found in classes.items()}
