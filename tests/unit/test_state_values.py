"""The typed state (domain/state/) reads every state the rulesets make and writes it back as it was: every
internal state of every game at every version of both golden stores (and the snapshots they hold) goes through
`GameState.from_json(...).to_json()` unchanged, key for key and type for type (the digests of restored states
and snapshots sort keys, so a key's place is compared only where the typed values keep it: everywhere but the
top level, the step, a unit and its turn, whose keys some events add later)."""
from __future__ import annotations

import copy
import gzip
import json
import pickle
from dataclasses import FrozenInstanceError, replace
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
from fastapi.testclient import TestClient

from tests.conftest import settings_for
from warlog.api.app import create_app
from warlog.domain import army, chain
from warlog.domain.state import (
    ABSENT,
    STATUS_NAMES,
    AlternatingStep,
    AlternatingTurn,
    Frozen,
    GameState,
    HeresyTurn,
    Options,
    OtherStep,
    PerSeat,
    ReferenceStep,
    ReferenceTurn,
    Unit,
    freeze,
    parts_of,
    thaw,
)

GOLDEN = Path(__file__).parents[1] / "golden"
STORES = ("legacy", "pre-typed-core")


class Walked:
    """One store's games, walked once: the state after each event, each snapshot's, the armies mustered."""

    def __init__(self) -> None:
        self.states: list[tuple[str, int, dict[str, Any]]] = []  # (game id, version, state)
        self.snapshots: list[tuple[str, int, dict[str, Any]]] = []
        self.musters: list[tuple[str, str, list[dict[str, Any]]]] = []  # (ruleset, seat, the units as sent)
        self.finals: dict[str, tuple[int, dict[str, Any]]] = {}  # game id -> (version, game_at's state)


def walk(folder: Path, tmp: Path) -> Walked:
    (tmp / "warlog.db").write_bytes(gzip.decompress((folder / "warlog.db.gz").read_bytes()))
    app = create_app(settings_for(tmp))
    walked = Walked()
    with TestClient(app):
        for game in json.loads((folder / "games.json").read_text()):
            game_id = UUID(game["game_id"])
            warlog = app.state.shards.of(game_id)
            aggregate = None
            for event in warlog.repository.event_store.get(game_id):
                aggregate = event.mutate(aggregate)
                walked.states.append((game["game_id"], aggregate.version, aggregate.state.to_json()))
                if event.entry["type"] == "ArmyMustered":
                    data = event.entry["data"]
                    walked.musters.append((aggregate.state.ruleset, data["seat"], data["units"]))
            for snapshot in warlog.snapshots.get(game_id) if warlog.snapshots is not None else ():
                walked.snapshots.append((game["game_id"], snapshot.originator_version, snapshot.state["state"]))
            assert aggregate is not None
            final = warlog.game_at(game_id, aggregate.version).state.to_json()
            walked.finals[game["game_id"]] = (aggregate.version, final)
    return walked


@pytest.fixture(scope="module")
def stores(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Walked]:
    return {name: walk(GOLDEN / name, tmp_path_factory.mktemp(name)) for name in STORES}


def free_order(path: tuple[str, ...]) -> bool:
    """The dicts whose later keys the typed values write in their own order (`GameState`, a step, a unit, a
    turn): their key sets are compared, not their orders."""
    return path in ((), ("step",)) or (len(path) == 2 and path[0] == "units") or path[-1:] == ("turn",)


def difference(before: Any, after: Any, path: tuple[str, ...] = ()) -> str | None:
    """Where `after` differs from `before`: a value, a JSON type (bool is no int, a list no tuple), a key
    present or absent, or (where the order is kept) a key's place."""
    where = ".".join(path) or "the state"
    if type(before) is not type(after):
        return f"{where}: {type(before).__name__} {before!r:.60} became {type(after).__name__} {after!r:.60}"
    if isinstance(before, dict):
        if (set(before) != set(after)) if free_order(path) else (list(before) != list(after)):
            return f"{where}: keys {list(before)} became {list(after)}"
        return next((found for key in before if (found := difference(before[key], after[key], (*path, key)))), None)
    if isinstance(before, list):
        if len(before) != len(after):
            return f"{where}: {len(before)} items became {len(after)}"
        return next((found for i, (x, y) in enumerate(zip(before, after))
                     if (found := difference(x, y, (*path, str(i))))), None)
    return None if before == after else f"{where}: {before!r:.60} became {after!r:.60}"


@pytest.mark.parametrize("store", STORES)
def test_every_state_of_every_game_reads_and_writes_back_as_it_was(stores, store):
    walked = stores[store]
    assert len(walked.states) > 2500 and walked.snapshots  # the whole store, with its snapshots
    rulesets = set()
    for game_id, version, state in walked.states + walked.snapshots:
        written = GameState.from_json(state).to_json()
        found = difference(state, written)
        assert found is None, (store, game_id, version, found)
        assert chain.digest(written) == chain.digest(state)  # what restore events and snapshots are checked by
        rulesets.add(state["ruleset"])
    assert rulesets == {"alternating", "reference", "heresy"}


@pytest.mark.parametrize("store", STORES)
def test_the_walk_reads_the_states_the_application_answers(stores, store):
    walked = stores[store]
    last = {game_id: (version, state) for game_id, version, state in walked.states}
    for game_id, (version, state) in walked.finals.items():
        assert last[game_id] == (version, state)


def legacy_unit_state(seat: str, unit: dict[str, Any]) -> dict[str, Any]:
    """A mustered unit as the dict-state code wrote it (domain/army.py's `new_unit_state` until the typed core)."""
    count = sum(line.get("count", 1) for line in unit["models"])
    return {**unit, "owner": seat, "models_alive": count, "starting_strength": count, "wounds_lost": 0,
            "statuses": sorted(set(unit.get("statuses", []))), "arriving": False, "selected": False, "turn": {}}


@pytest.mark.parametrize("store", STORES)
def test_a_mustered_unit_is_the_unit_the_army_event_makes(stores, store):
    """`Unit.mustered` is what the ArmyMustered applier built when the state was a dict (`legacy_unit_state`)."""
    turns = {"alternating": AlternatingTurn, "reference": ReferenceTurn, "heresy": HeresyTurn}
    assert stores[store].musters
    for ruleset, seat, units in stores[store].musters:
        for sent in units:
            made = Unit.mustered(seat, sent, parts_of(ruleset).turn)
            assert type(made.turn) is turns[ruleset]
            assert difference(legacy_unit_state(seat, sent), made.to_json(), ("units", sent["id"])) is None


# -- the values themselves ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def reference_state(stores) -> dict[str, Any]:
    """A reference game's state in progress, with units that have fought."""
    return next(state for _, _, state in reversed(stores["pre-typed-core"].states)
                if state["ruleset"] == "reference" and state["status"] == "in_progress" and state["step"])


def test_the_values_are_frozen(reference_state):
    state = GameState.from_json(reference_state)
    unit = next(iter(state.units.values()))
    for value, name in ((state, "status"), (unit, "models_alive"), (unit.models[0], "count"), (state.cp, "A")):
        with pytest.raises(FrozenInstanceError):
            setattr(value, name, 0)
    with pytest.raises(TypeError):
        state.units["x"] = unit  # type: ignore[index]  # a Frozen map has no item assignment: what is tested
    assert copy.deepcopy(state) is state and pickle.loads(pickle.dumps(state)) == state
    assert hash(state) == hash(GameState.from_json(reference_state))


def test_a_value_per_seat():
    cp = PerSeat(1, 2)
    assert (cp.A, cp.B, cp["A"], cp["B"]) == (1, 2, 1, 2)
    assert cp.replace("B", 5) == PerSeat(1, 5) and cp == PerSeat(1, 2)
    with pytest.raises(KeyError):
        cp.replace("spectator", 0)
    with pytest.raises(KeyError):
        cp["spectator"]


def test_a_key_the_state_sometimes_lacks_stays_absent_until_it_is_set(reference_state):
    data = copy.deepcopy(reference_state)
    uid, unit = next(iter(data["units"].items()))
    del unit["wounds_lost"]
    data.pop("vp", None)
    state = GameState.from_json(data)
    assert state.units[uid].wounds_lost is None and state.vp is None
    assert "wounds_lost" not in state.to_json()["units"][uid] and "vp" not in state.to_json()
    hurt = state.with_unit(uid, state.units[uid].with_casualties(0, 1))
    assert hurt.to_json()["units"][uid]["wounds_lost"] == 1
    assert replace(state, vp=PerSeat(0, 3)).to_json()["vp"] == {"A": 0, "B": 3}


def test_what_the_boundary_fills_in_is_read_with_its_default_when_a_test_leaves_it_out():
    """An army or options built by hand (a domain test, no POST body) lack keys the contract defaults: they are
    read with the contract's defaults, as the boundary would have filled them in (and written so)."""
    unit = Unit.mustered("A", {"id": "a", "name": "A", "models": [{"name": "M", "count": 2}],
                               "weapons": [{"name": "Knife", "type": "melee", "S": 4}]})
    assert (unit.engaged_with, unit.models[0].armour, unit.weapons[0].keywords, unit.weapons[0].D) == ((), None, (), "1")
    assert unit.to_json()["weapons"][0]["range"] is None and unit.model_count == 2
    assert Options.from_json({}).to_json() == {"battle_rounds": 5, "reserves_from_round": 2, "spectator_delay_s": 0}


def test_a_charge_is_absent_then_null_then_a_charge():
    """`step.charge` may be absent, null or a charge: three states, each written back as it was."""
    core = {"roll_off": None, "winner": None, "first": "A", "last": None, "confirmed": {"A": None, "B": None},
            "calculated": False, "skipped": False, "settled": True}
    charge = {"unit": "a-1", "seat": "A", "targets": ["b-1"], "distance": "7", "pending": [], "volleys": 0}
    for step in (core, {**core, "charge": None}, {**core, "charge": charge}):
        assert AlternatingStep.from_json(step).to_json() == step
    assert AlternatingStep.from_json(core).charge is ABSENT
    assert AlternatingStep.from_json({**core, "charge": None}).charge is None
    assert ReferenceStep.of(ReferenceStep.from_json(core)).charge is ABSENT
    with pytest.raises(TypeError):
        ReferenceStep.of(AlternatingStep.from_json(core))
    turn = HeresyTurn.from_json({"fall_back": None, "moved": "normal"})
    assert (turn.fall_back, HeresyTurn().fall_back, turn.to_json()) == (None, ABSENT, {"moved": "normal",
                                                                                      "fall_back": None})


def test_a_ruleset_the_state_does_not_know_keeps_its_parts_as_json(reference_state):
    data = {**copy.deepcopy(reference_state), "ruleset": "duel"}
    data["step"] = {**data["step"], "thrown": True, "score": {"A": [1, 2]}}
    state = GameState.from_json(data)
    assert isinstance(state.step, OtherStep) and state.step.parts["thrown"] is True
    assert state.to_json() == data


def test_the_types_say_so_when_the_state_holds_what_they_do_not_know(reference_state):
    for change in ({"units": {**reference_state["units"], "x": {**next(iter(reference_state["units"].values())),
                                                                 "new_key": 1}}},
                   {"vp": None}, {"step": {**reference_state["step"], "new_part": {}}}):
        with pytest.raises(ValueError):
            GameState.from_json({**reference_state, **change})


def test_units_change_through_named_updates(reference_state):
    state = GameState.from_json(reference_state)
    unit = next(u for u in state.units.values() if u.starting_strength > 1 and u.models_alive > 1)
    hurt = unit.with_casualties(1, 1)
    assert (hurt.models_alive, hurt.wounds_lost) == (unit.models_alive - 1, (unit.wounds_lost or 0) + 1)
    one = replace(unit, starting_strength=1, models_alive=1, wounds_lost=0)
    assert one.with_casualties(0, one.total_wounds).models_alive == 0  # a one-model unit out of wounds is destroyed
    shocked = unit.with_status("battle_shocked").with_status("pinned")
    assert list(shocked.statuses) == sorted([*unit.statuses, "battle_shocked", "pinned"])
    assert shocked.without_status("pinned").without_status("battle_shocked").statuses == unit.statuses
    fresh = state.with_units(Unit.with_fresh_turn)
    assert all(u.turn == ReferenceTurn() and u.to_json()["turn"] == {} for u in fresh.units.values())


def test_json_parts_are_frozen_and_thaw_back():
    value = {"a": [1, 2.5, {"b": None, "c": [True, "x"]}]}
    frozen = freeze(value)
    assert isinstance(frozen, Frozen) and frozen["a"] == (1, 2.5, Frozen({"b": None, "c": (True, "x")}))
    assert thaw(frozen) == value and type(thaw(frozen)["a"]) is list


def test_the_statuses_are_the_armys():
    assert frozenset(army.STATUSES) == STATUS_NAMES


