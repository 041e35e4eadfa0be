"""The bridge while the rulesets move onto the typed state: the game's state as the dict its unconverted parts
read (`StateView`), kept the same dict object from event to event so that a reader holding a part of it across
an `emit` sees it change, as it did when the state was that dict.

`Game.state` is the `GameState`; `Game.view` the dict view of it, made once (`to_json`) and then brought up to
date in place: after a typed applier by the parts of the state it replaced (`sync`: the values a new state
shares with the old are the same objects, so what changed is found by identity), after a dict applier by
reading the changed dict back (`GameState.from_json`). A ruleset that reads the typed state says so
(`typed_state = True`); until then its handlers, hooks and appliers see the view.
"""
from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from warlog.domain.state.game import GameState
from warlog.domain.state.turns import Turn
from warlog.domain.state.units import Unit
from warlog.domain.state.values import ABSENT, Frozen, field_plan


class StateView(dict[str, Any]):
    """The state's JSON as a dict, with the `GameState` it shows (`typed`) and that state's JSON as written, kept
    apart (`written`: what a dict applier's changes are found against, dict by dict, without writing the state
    again; None for a past state's view, which no applier changes)."""

    __slots__ = ("typed", "written")

    def __init__(self, typed: GameState) -> None:
        super().__init__(typed.to_json())
        self.typed = typed
        self.written: dict[str, Any] | None = typed.to_json()

    @classmethod
    def of(cls, state: Mapping[str, Any] | GameState) -> StateView:
        """The view of a state given as JSON (a past state's, `Warlog.state_at`), or the view it is."""
        if isinstance(state, StateView):
            return state
        if isinstance(state, GameState):
            return cls(state)
        view = cls.__new__(cls)
        dict.__init__(view, state)
        view.typed, view.written = GameState.from_json(state), None
        return view

    def seen_by(self, ruleset: Any) -> Any:
        """The state as `ruleset` reads it: typed (`typed_state`), or this view."""
        return self.typed if ruleset.typed_state else self

    def __deepcopy__(self, memo: dict[int, Any]) -> StateView:
        return StateView(self.typed)

    def __reduce__(self) -> Any:
        return StateView, (self.typed,)


def typed_of(state: Mapping[str, Any] | GameState) -> GameState:
    """The typed state a reader was given: a `GameState`, the view of one, or (a test's, a past state's) JSON."""
    if isinstance(state, GameState):
        return state
    if isinstance(state, StateView):
        return state.typed
    return GameState.from_json(state)


def read_back(view: StateView) -> GameState:
    """The state a dict applier left in the view (which stays the view of it): the fields (and units) whose JSON
    is not the state's as written are read again, the others kept as they were (an event changes a field or
    two, and reading a whole state costs some twenty times writing it)."""
    old = view.typed
    if view.written is None:
        view.written = old.to_json()
    written = view.written
    changes: dict[str, Any] = {}
    for f in field_plan(GameState):
        name = f.name
        if name == "units":
            units = _read_units(view["units"], written["units"], old.units, old.parts.turn)
            if units is not None:
                changes["units"] = units
            continue
        now = view.get(name, ABSENT)
        if _same(now, written.get(name, ABSENT)):
            continue
        if now is ABSENT:
            changes[name] = None  # a key taken away: an optional field's None
        elif name == "step":
            changes[name] = old.parts.step.from_json(now) if now else None
        else:
            changes[name] = f.codec.load(now)
        written[name] = copy.deepcopy(now)
    view.typed = replace(old, **changes) if changes else old
    return view.typed


def _same(now: Any, written: Any) -> bool:
    """Whether a field's JSON is as written: equal, of the same type and, a map, with its keys in the same order
    (the order a map is read in is its JSON's; an applier that rebuilds one may reorder it)."""
    if type(now) is not type(written) or now != written:
        return False
    return not isinstance(now, dict) or list(now) == list(written)


def _read_units(units: dict[str, Any], written: dict[str, Any], before: Frozen[str, Unit],
                turn: type[Turn]) -> Frozen[str, Unit] | None:
    """The units as the view holds them (None: as they were), each read again only if its JSON changed."""
    changed = list(units) != list(written)
    read: dict[str, Unit] = {}
    for uid, data in units.items():
        unit = before.get(uid)
        if unit is None:
            unit, changed = Unit.from_json(data, turn), True
            written[uid] = unit.to_json()
        elif data != written[uid]:
            unit, changed = _reread_unit(unit, data, written[uid], turn), True
            written[uid] = unit.to_json()
        read[uid] = unit
    if not changed:
        return None
    for gone in [uid for uid in written if uid not in units]:
        del written[gone]
    if list(written) != list(units):
        written_again = {uid: written[uid] for uid in units}
        written.clear()
        written.update(written_again)
    return Frozen(read)


def _reread_unit(unit: Unit, data: dict[str, Any], written: dict[str, Any], turn: type[Turn]) -> Unit:
    """`unit` with the fields whose JSON changed read again (a dict applier sets a flag or a counter)."""
    if data.keys() != written.keys():
        return Unit.from_json(data, turn)
    changes: dict[str, Any] = {}
    for f in field_plan(Unit):
        now = data.get(f.name, ABSENT)
        if _same(now, written.get(f.name, ABSENT)):
            continue
        changes[f.name] = turn.from_json(now) if f.name == "turn" else f.codec.load(now)
    return replace(unit, **changes) if changes else unit


def sync(view: StateView, new: GameState) -> None:
    """Bring the view up to `new` in place, writing only the fields (and units) that are not the old state's."""
    old = view.typed
    if new is old:
        return
    written = view.written
    for f in field_plan(GameState):
        before, after = getattr(old, f.name), getattr(new, f.name)
        if after is before:
            continue
        if f.name == "units":
            _sync_units(view, before, after)
        elif (after is None and f.optional) or (f.tristate and after is ABSENT):
            view.pop(f.name, None)
            if written is not None:
                written.pop(f.name, None)
        else:
            _merge(view, f.name, f.codec.dump(after))
            if written is not None:
                written[f.name] = f.codec.dump(after)
    view.typed = new


def _sync_units(view: StateView, before: Mapping[str, Unit], after: Mapping[str, Unit]) -> None:
    units: dict[str, Any] = view["units"]
    written = view.written["units"] if view.written is not None else {}
    if list(before) != list(after):  # mustered or replaced: the order is the new one's
        fresh = {uid: units[uid] if uid in before and before[uid] is unit else unit.to_json()
                 for uid, unit in after.items()}
        units.clear()
        units.update(fresh)
        if view.written is not None:
            view.written["units"] = {uid: unit.to_json() for uid, unit in after.items()}
        return
    for uid, unit in after.items():
        if unit is not before[uid]:
            _merge(units, uid, unit.to_json())
            written[uid] = unit.to_json()


def _merge(into: dict[str, Any], key: str, value: Any) -> None:
    """`into[key] = value`, keeping the dicts already there where both are dicts (their keys then in `value`'s
    order, which is the order the typed state reads and writes them in)."""
    old = into.get(key)
    if isinstance(old, dict) and isinstance(value, dict):
        for gone in [k for k in old if k not in value]:
            del old[gone]
        for k, v in value.items():
            _merge(old, k, v)
        if list(old) != list(value):
            items = [(k, old[k]) for k in value]
            old.clear()
            old.update(items)
    elif isinstance(old, list) and isinstance(value, list):
        if old != value:
            old[:] = value
    elif key not in into or old != value or type(old) is not type(value):
        into[key] = value
