"""What every typed state value is built from: a read-only map, a value per seat, JSON kept as JSON, and the one
converter (`Record`) that reads a value from the state's JSON and writes it back exactly as it was read.

The state's JSON is what undo's restore events and snapshots store (and digest, sorting keys: `chain.canonical`,
`integrity._canonical`), so `to_json(from_json(d)) == d` holds key for key: a key the state sometimes lacks is
a field that says so (`OPTIONAL`: absent when None; a field whose default is `ABSENT`: absent when ABSENT, for a
key that may also hold null), and a value keeps its JSON type (`PLAIN` fields hold the JSON scalar as read).
"""
from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable, ItemsView, Iterable, Iterator, KeysView, Mapping, ValuesView
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, ClassVar, Final, Generic, NoReturn, Self, TypeAlias, TypeVar, overload

K = TypeVar("K")
V = TypeVar("V")
T = TypeVar("T")

SEAT_NAMES = ("A", "B")


class Absent(enum.Enum):
    """A key the JSON does not hold, for a field whose key may also hold null (`step.charge`: absent before a
    charge is declared, null once it has ended)."""

    ABSENT = "absent"

    def __repr__(self) -> str:
        return "ABSENT"


ABSENT: Final = Absent.ABSENT


class Frozen(Mapping[K, V]):
    """A read-only map that keeps its keys' order (the JSON object's, which the state's readers iterate in),
    hashable, and copied as itself (`copy.deepcopy` of a game costs nothing for its frozen values)."""

    __slots__ = ("_hash", "_items")

    def __init__(self, items: Mapping[K, V] | Iterable[tuple[K, V]] = ()) -> None:
        self._items: dict[K, V] = dict(items)
        self._hash: int | None = None

    def __getitem__(self, key: K) -> V:
        return self._items[key]

    def __iter__(self) -> Iterator[K]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    # the dict's own views and lookups (read-only: a view cannot change the dict), not Mapping's generic ones,
    # which look every key up again: the state's readers walk its units on every GET /state and view
    def __contains__(self, key: object) -> bool:
        return key in self._items

    @overload
    def get(self, key: K, /) -> V | None: ...

    @overload
    def get(self, key: K, default: V | T, /) -> V | T: ...

    def get(self, key: K, default: object = None, /) -> object:
        return self._items.get(key, default)

    def keys(self) -> KeysView[K]:
        return self._items.keys()

    def values(self) -> ValuesView[V]:
        return self._items.values()

    def items(self) -> ItemsView[K, V]:
        return self._items.items()

    def __repr__(self) -> str:
        return f"Frozen({self._items!r})"

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(frozenset(self._items.items()))
        return self._hash

    def __eq__(self, other: object) -> bool:
        return dict(self._items) == dict(other) if isinstance(other, Mapping) else NotImplemented

    def __copy__(self) -> Self:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Self:
        return self

    def __reduce__(self) -> tuple[type[Frozen[K, V]], tuple[dict[K, V]]]:
        return Frozen, (self._items,)

    @classmethod
    def _owning(cls, items: dict[K, V]) -> Frozen[K, V]:
        """A map over `items`, which the caller hands over (made for it, kept by no one else): not copied."""
        made: Frozen[K, V] = cls.__new__(cls)
        made._items, made._hash = items, None
        return made

    def set(self, key: K, value: V) -> Frozen[K, V]:
        """This map with `key` set to `value` (a new key goes last, as in a dict)."""
        return Frozen({**self._items, key: value})

    def without(self, key: K) -> Frozen[K, V]:
        return Frozen({k: v for k, v in self._items.items() if k != key})


# JSON as a frozen value: a part of the state that stays JSON (a roll's context, a paused attack), read-only
JSON: TypeAlias = bool | int | float | str | tuple["JSON", ...] | Frozen[str, "JSON"] | None


_SCALARS = frozenset({bool, int, float, str, type(None)})


def freeze(value: Any) -> JSON:
    """JSON (dicts, lists, scalars) as a frozen value (the JSON boundary: any JSON value, its kind asked here); a
    frozen one is returned as it is. (The exact types are
    asked first: a paused attack freezes a few hundred values on every event that pauses it.)"""
    kind = type(value)
    if kind in _SCALARS:
        return value  # type: ignore[no-any-return]  # a JSON scalar, as its type says
    if kind is dict or kind is Frozen:
        return Frozen._owning({key: freeze(item) for key, item in value.items()})
    if kind is list or kind is tuple:
        return tuple([freeze(item) for item in value])
    if isinstance(value, (dict, Frozen)):
        return Frozen._owning({key: freeze(item) for key, item in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple([freeze(item) for item in value])
    if value is None or isinstance(value, (bool, int, float, str)):
        return value  # a subclass of a JSON scalar's type
    raise TypeError(f"{type(value).__name__} is no JSON value")


def thaw(value: JSON) -> Any:
    """A frozen JSON value as plain JSON (dicts and lists), as `json` writes it."""
    if isinstance(value, Frozen):
        return {key: thaw(item) for key, item in value.items()}
    if isinstance(value, tuple):
        return [thaw(item) for item in value]
    return value


_COPIED: dict[type, tuple[tuple[str, ...], frozenset[str]] | None] = {}  # a dataclass's field names (in order,
# and as a set), or None where `replace` leaves it to
# `dataclasses.replace` (a `__post_init__` to run, a field `__init__` does not set)


def _replaced(value: T, /, **changes: Any) -> T:
    """`dataclasses.replace`, for the frozen values the state is made of: their fields copied onto a new value and
    `changes` set over them, without building keyword arguments for `__init__` (half the time; every event
    replaces a few). A dataclass with a `__post_init__`, or a field `__init__` does not set, is left to
    `dataclasses.replace`; a name no field has is a TypeError, as there."""
    kind = type(value)
    try:
        names = _COPIED[kind]
    except KeyError:
        declared = fields(kind)  # type: ignore[arg-type]  # a dataclass: `fields` refuses anything else
        plain = not hasattr(kind, "__post_init__") and all(f.init for f in declared)
        names = _COPIED[kind] = (tuple(f.name for f in declared), frozenset(f.name for f in declared)) if plain \
            else None
    if names is None:
        return dataclasses.replace(value, **changes)  # type: ignore[type-var]  # a dataclass, as above
    made = object.__new__(kind)
    setter = object.__setattr__
    ordered, named = names
    for name in ordered:
        setter(made, name, getattr(value, name))
    for name, changed in changes.items():
        if name not in named:
            raise TypeError(f"{kind.__name__} has no field {name!r}")
        setter(made, name, changed)
    return made


if TYPE_CHECKING:  # mypy reads `replace` as `dataclasses.replace`, whose keywords it checks against the value's fields
    from dataclasses import replace as replace
else:
    replace = _replaced


@dataclass(frozen=True, slots=True)
class PerSeat(Generic[T]):
    """One value for each seat (`pass_points`, `cp`, ...); JSON `{"A": .., "B": ..}`."""

    A: T
    B: T

    def __getitem__(self, seat: str) -> T:
        if seat == "A":
            return self.A
        if seat == "B":
            return self.B
        raise KeyError(seat)

    def replace(self, seat: str, value: T) -> PerSeat[T]:
        if seat not in SEAT_NAMES:
            raise KeyError(seat)
        return PerSeat(value, self.B) if seat == "A" else PerSeat(self.A, value)

    def items(self) -> tuple[tuple[str, T], tuple[str, T]]:
        return ("A", self.A), ("B", self.B)


# -- converting to and from the state's JSON --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Codec:
    """How one field is read from its JSON (`load`) and written back (`dump`)."""

    load: Callable[[Any], Any]
    dump: Callable[[Any], Any]


def _scalar(value: Any) -> Any:
    """A scalar field's JSON as held (the JSON boundary: a codec's `load`, whatever the state's JSON holds)."""
    if isinstance(value, (dict, list)):
        raise TypeError(f"a scalar field holds a {type(value).__name__}: give the field a codec")
    return value


def _same(value: T) -> T:
    return value


PLAIN = Codec(_scalar, _same)  # a JSON scalar (str, int, float, bool, null), held as read
JSONV = Codec(freeze, thaw)  # JSON kept as (frozen) JSON


def tuple_of(item: Codec = PLAIN) -> Codec:
    if item is PLAIN:  # scalars: written as they are held
        return Codec(lambda v: tuple(_scalar(x) for x in v), list)
    return Codec(lambda v: tuple(item.load(x) for x in v), lambda v: [item.dump(x) for x in v])


def map_of(item: Codec = PLAIN) -> Codec:
    if item is PLAIN:
        return Codec(lambda v: Frozen({k: _scalar(x) for k, x in v.items()}), dict)
    return Codec(lambda v: Frozen({k: item.load(x) for k, x in v.items()}),
                 lambda v: {k: item.dump(x) for k, x in v.items()})


def per_seat(item: Codec = PLAIN) -> Codec:
    def load(value: Mapping[str, object]) -> PerSeat[Any]:
        if sorted(value) != list(SEAT_NAMES):
            raise ValueError(f"a value per seat has the keys A and B, not {sorted(value)}")
        return PerSeat(item.load(value["A"]), item.load(value["B"]))

    return Codec(load, lambda v: {"A": item.dump(v.A), "B": item.dump(v.B)})


def nullable(item: Codec) -> Codec:
    """A key that is always there and may hold null."""
    return Codec(lambda v: None if v is None else item.load(v), lambda v: None if v is None else item.dump(v))


def record(cls: type[Record]) -> Codec:
    return Codec(cls.from_json, lambda v: v.to_json())


def read_by_owner(dump: Callable[[T], object], why: str) -> Codec:
    """A field its owner's `from_json` reads itself and passes in (its class depends on the ruleset: `why`)."""
    def load(value: object) -> NoReturn:
        raise TypeError(f"read by its owner: {why}")

    return Codec(load, dump)


@dataclass(frozen=True, slots=True, kw_only=True)
class Record:
    """A typed value of the state, read from its JSON and written back as it was.

    Fields are written in the order they are declared, each through its codec (`CODECS`, else `PLAIN`).
    A field named in `OPTIONAL` is absent from the JSON when it is None (its key never holds null); a field
    whose default is `ABSENT` is absent when ABSENT. A field named in `DEFAULTED` is read with its default
    when its key is missing (a contract field the boundary fills in: a unit built by hand in a test may
    leave it out); any other missing key, or a key no field names, is an error: the types are out of date.
    `EXTRA` names a field (a `Frozen[str, JSON]`) that keeps the keys no other field names, for the parts of
    rulesets this module does not know (a plugin's)."""

    CODECS: ClassVar[Mapping[str, Codec]] = {}
    OPTIONAL: ClassVar[frozenset[str]] = frozenset()
    DEFAULTED: ClassVar[frozenset[str]] = frozenset()
    EXTRA: ClassVar[str | None] = None

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> Self:
        return load_record(cls, data)

    def to_json(self) -> dict[str, Any]:
        return dump_record(self)

    def __copy__(self) -> Self:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Self:
        return self


R = TypeVar("R", bound=Record)


@dataclass(frozen=True, slots=True)
class _Field:
    name: str
    codec: Codec
    optional: bool  # absent when None
    tristate: bool  # absent when ABSENT (null is a value)
    defaulted: bool  # read with its default when missing


_PLANS: dict[type[Record], tuple[tuple[_Field, ...], frozenset[str]]] = {}


def _plan(cls: type[Record]) -> tuple[tuple[_Field, ...], frozenset[str]]:
    """The class's fields as the converter reads them, and their names (worked out once a class)."""
    plan = _PLANS.get(cls)
    if plan is None:
        known = tuple(_Field(f.name, cls.CODECS.get(f.name, PLAIN), f.name in cls.OPTIONAL, f.default is ABSENT,
                             f.name in cls.DEFAULTED)
                      for f in fields(cls) if f.name != cls.EXTRA)
        unnamed = (set(cls.CODECS) | cls.OPTIONAL | cls.DEFAULTED) - {f.name for f in known}
        if unnamed:
            raise TypeError(f"{cls.__name__} names fields it does not have: {sorted(unnamed)}")
        plan = _PLANS[cls] = known, frozenset(f.name for f in known)
    return plan


def field_plan(cls: type[Record]) -> tuple[_Field, ...]:
    """The class's fields in the order they are written, each with its codec and how its absence reads."""
    return _plan(cls)[0]


def load_record(cls: type[R], data: Mapping[str, object], **given: object) -> R:
    """`cls` read from `data`; `given` are fields the caller has read already (a unit's `turn`, whose type
    depends on the ruleset)."""
    values = dict(given)
    plan, names = _plan(cls)
    for f in plan:
        if f.name in given:
            continue
        if f.name in data:
            if data[f.name] is None and f.optional:
                raise ValueError(f"{cls.__name__}.{f.name}: null, where the state holds a value or no key")
            values[f.name] = f.codec.load(data[f.name])
        elif not (f.optional or f.tristate or f.defaulted):
            raise ValueError(f"{cls.__name__}: the key {f.name!r} is missing")
    unknown = [key for key in data if key not in names]
    if cls.EXTRA is not None:
        values[cls.EXTRA] = Frozen({key: freeze(data[key]) for key in unknown})
    elif unknown:
        raise ValueError(f"{cls.__name__}: keys no field names: {unknown}")
    return cls(**values)


def dump_record(value: Record) -> dict[str, Any]:
    cls = type(value)
    out: dict[str, Any] = {}
    for f in _plan(cls)[0]:
        item = getattr(value, f.name)
        if item is ABSENT or (item is None and f.optional):
            continue
        out[f.name] = item if f.codec is PLAIN else f.codec.dump(item)
    if cls.EXTRA is not None:
        out.update(thaw(getattr(value, cls.EXTRA)))
    return out
