"""Parts: what a ruleset is composed of besides its own classes (STYLE.md "The next shape": plugins, not
subclasses).

A part is a class of its own, never a base of the ruleset. The ruleset names its parts (`parts = (Splitting,
UnitActions)`); each is built once with the ruleset instance that holds it (`self.rules`, typed by the part as a
small Protocol of what it calls back), and its `@handles` / `@evolves` methods join the ruleset's dispatch tables,
run with the part as `self`. A hook the interpreter asks of a ruleset (`setup_actions`, `records`,
`casualties`, ...) a part never answers by overriding: the ruleset answers it and calls its part
(`self.part(Splitting).setup_actions(state, seat)`), so the ruleset's class says what it is made of and a part
is driven alone by a fake of its Protocol (tests/unit/test_parts.py).

Which mark wins: the ruleset's own `@handles` / `@evolves` marks (its class and every base, the shared core's
included) come first; a part's mark for a command or event kind the ruleset marks itself is left out (the
ruleset wraps the part: its handler calls the part's method). Two parts marking the same command or event kind
is a `TypeError` when the ruleset's class is created: no order among parts decides it.

The tables are built once: which part answers which kind when the class is created (`joined`), the bound
methods when the ruleset is instantiated (`bound`, once per ruleset: the registry makes one of each), so a
command or a replayed event costs one dictionary look-up, as before.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import MethodType
from typing import Any, ClassVar, Generic, TypeVar

Marks = dict[str, Callable[..., Any]]  # a command type (or event kind) -> the function marked for it, unbound
# what a part reads its ruleset as (a Protocol): contravariant, so that `type[Part[Reference]]` admits a part only where
# the ruleset satisfies that part's Protocol, and a ruleset's `parts` annotated so is checked by mypy
R = TypeVar("R", contravariant=True)


def collect(cls: type) -> tuple[Marks, Marks]:
    """The `@handles` and `@evolves` marks of a class and its bases, the most derived class's winning."""
    handlers: Marks = {}
    appliers: Marks = {}
    for klass in reversed(cls.__mro__):
        for value in vars(klass).values():
            if hasattr(value, "_handles"):
                handlers[value._handles] = value
            for kind in getattr(value, "_evolves", ()):
                appliers[kind] = value
    return handlers, appliers


class Part(Generic[R]):
    """One part of a ruleset: built with the ruleset that holds it (`rules`, of the type the part reads it as);
    its marks are collected per class, as a ruleset's are."""

    handlers: ClassVar[Marks] = {}  # each subclass gets its own (__init_subclass__)
    appliers: ClassVar[Marks] = {}

    def __init__(self, rules: R) -> None:
        self.rules = rules

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        cls.handlers, cls.appliers = collect(cls)


TABLES = {"handlers": "handle", "appliers": "apply"}  # a table's name -> the verb a clash is said with


def joined(ruleset: str, own: Marks, parts: Sequence[type[Part[Any]]], table: str) -> dict[str, type[Part[Any]]]:
    """Which part answers each command type (`table` "handlers") or event kind ("appliers") the ruleset's own
    marks leave to its parts; two parts marking one is a `TypeError`."""
    if len(set(parts)) != len(parts):
        raise TypeError(f"ruleset {ruleset}: a part is named twice in its parts")
    found: dict[str, type[Part[Any]]] = {}
    for part in parts:
        for key in getattr(part, table):
            if key in own:
                continue
            if key in found:
                raise TypeError(f"ruleset {ruleset}: its parts {found[key].__name__} and {part.__name__} both "
                                f"{TABLES[table]} {key!r}")
            found[key] = part
    return found


def bound(rules: object, own: Marks, by_part: Mapping[str, type[Part[Any]]], held: Mapping[type[Part[Any]], Part[Any]],
          table: str) -> Marks:
    """One dispatch table of bound methods: the ruleset's own marks bound to it, the rest to the part that
    answers them."""
    methods: Marks = {key: MethodType(fn, rules) for key, fn in own.items()}
    for key, part in by_part.items():
        methods[key] = MethodType(getattr(part, table)[key], held[part])
    return methods
