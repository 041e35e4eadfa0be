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

from collections.abc import Mapping
from typing import Any

from warlog.domain.state.game import GameState
from warlog.domain.state.values import ABSENT, field_plan


class StateView(dict[str, Any]):
    """The state's JSON as a dict, with the `GameState` it shows (`typed`)."""

    __slots__ = ("typed",)

    def __init__(self, typed: GameState) -> None:
        super().__init__(typed.to_json())
        self.typed = typed

    @classmethod
    def of(cls, state: Mapping[str, Any] | GameState) -> StateView:
        """The view of a state given as JSON (a past state's, `Warlog.state_at`), or the view it is."""
        if isinstance(state, StateView):
            return state
        if isinstance(state, GameState):
            return cls(state)
        view = cls.__new__(cls)
        dict.__init__(view, state)
        view.typed = GameState.from_json(state)
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
    """The state a dict applier left in the view (which stays the view of it)."""
    view.typed = GameState.from_json(view)
    return view.typed


def sync(view: StateView, new: GameState) -> None:
    """Bring the view up to `new` in place, writing only the fields (and units) that are not the old state's."""
    old = view.typed
    if new is old:
        return
    for f in field_plan(GameState):
        before, after = getattr(old, f.name), getattr(new, f.name)
        if after is before:
            continue
        if f.name == "units":
            _sync_units(view, before, after)
        elif (after is None and f.optional) or (f.tristate and after is ABSENT):
            view.pop(f.name, None)
        else:
            _merge(view, f.name, f.codec.dump(after))
    view.typed = new


def _sync_units(view: StateView, before: Mapping[str, Any], after: Mapping[str, Any]) -> None:
    units: dict[str, Any] = view["units"]
    if list(before) != list(after):  # mustered or replaced: the order is the new one's
        fresh = {uid: units[uid] if uid in before and before[uid] is unit else unit.to_json()
                 for uid, unit in after.items()}
        units.clear()
        units.update(fresh)
        return
    for uid, unit in after.items():
        if unit is not before[uid]:
            _merge(units, uid, unit.to_json())


def _merge(into: dict[str, Any], key: str, value: Any) -> None:
    """`into[key] = value`, keeping the dicts already there (and their keys' places) where both are dicts."""
    old = into.get(key)
    if isinstance(old, dict) and isinstance(value, dict):
        for gone in [k for k in old if k not in value]:
            del old[gone]
        for k, v in value.items():
            _merge(old, k, v)
    elif isinstance(old, list) and isinstance(value, list):
        old[:] = value
    elif key not in into or old != value or type(old) is not type(value):
        into[key] = value
