"""Choices with titles (CONTRACT.md "In the players' words"): what a seat is offered, in the players' words.

`titled(state, seat, actions)` is what `Game.actions` and `Game.records` answer: each action with its button's
`title`, each field of its schema with its label (`title`), and each choice of a unit, target, weapon, seat or
objective a `oneOf` of `{"const": id, "title": name}` with its `format`, the names read from the state
(`domain.words`: "Assault Squad (8 of 10)", an enemy unit with its owner: "Bob's Boyz (12 of 20)"). A choice is
known by the field that holds it (`unit`, `target`, `weapons`, `first`, ...: the commands' own field names), and
a map keyed by unit id or objective has each key titled by the unit or marker it names. Other enums (a kind of
move, a status) become a `oneOf` titled by their words. The titled schema admits exactly what the bare one did:
a `oneOf` of distinct consts is the enum of those consts.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from warlog.domain.rules import actions as act
from warlog.domain.rules.actions import Action, Schema
from warlog.domain.state import GameState, Weapon
from warlog.domain.state.values import replace
from warlog.domain.words import humane, objective_title, player_name, status_called, unit_title, weapon_title

# a command's field -> what its choice names (`format`)
FORMATS = {"unit": "unit", "target": "unit", "targets": "unit", "embark": "unit", "near": "unit", "against": "unit",
           "weapon": "weapon", "weapons": "weapon", "first": "seat", "objective": "objective",
           "line": "model_line", "die": "die", "within_half_range_of": "unit"}

# a field's label (its `title`), by (command type, field) first, then by field
LABELS: dict[str | tuple[str, str], str] = {
    "type": "Command", "unit": "Unit", "target": "Target", "targets": "Units charged", "embark": "Transport",
    "near": "Enemy units near", "weapon": "Weapon", "weapons": "Weapons", "first": "Who goes first",
    "objective": "Objective", "line": "Model group to save next", "die": "Die to re-roll", "dice": "Dice rolled",
    "distance": "Distance moved (inches)", "models": "Models", "wounds": "Wounds lost", "status": "Status",
    "value": "Gained", "reason": "Reason", "duration": "Lasts", "move": "Kind of move", "act": "Acts",
    "escape": "Way out", "shooting": "Kind of shooting", "fight": "Kind of fight", "mode": "Way to consolidate",
    "name": "Stratagem", "action": "Action to start", "direction": "Direction", "facing": "Armour facing hit",
    "hit": "Kind of hit", "hull_points": "Hull points lost", "strength": "Strength", "rush": "Rush",
    "centre_over_hull": "Marker's centre over the hull", "precision": "Precision",
    "within_half_range": "Within half range", "pile_in": "Pile in (inches)", "reached_edge": "Reached the edge",
    "against": "Enemy unit that moved", "difficult": "Through difficult terrain",
    "dangerous": "Models through dangerous terrain", "coherency_lost": "Out of coherency",
    "clear": "Every model ends clear (1\" from enemies, on the table, off impassable terrain)",
    "exclude": "Counted units to leave out", "include": "Units to count as well", "control": "Units near each objective",
    ("enter", "from_edge"): "Enters from your table edge", ("enter", "removed"): "Models removed as casualties",
    ("disembark", "placed"): "Placed within 2\" of the transport",
    ("select", "unit"): "Unit to select", ("attack", "unit"): "Unit attacking", ("attack", "target"): "Unit to attack",
    ("attack", "targets"): "Each model's target", ("attack", "within_half_range_of"): "Targets within half range",
    ("attack", "models"): "Models attacking", ("strike", "unit"): "Unit striking",
    ("record_casualties", "unit"): "Unit that lost models", ("record_casualties", "models"): "Models removed",
    ("revive", "models"): "Models returned", ("split", "models"): "Models to split off", ("revive", "unit"): "Unit to return models to",
    ("set_status", "unit"): "Unit", ("use_stratagem", "unit"): "Unit it is used on",
    ("charge_move", "distance"): "Charge move (inches)", ("consolidate", "distance"): "Consolidation (inches)",
    ("pile_in", "distance"): "Pile-in move (inches)", ("resolve_charge", "distance"): "Distance to the target (inches)",
    ("react", "unit"): "Unit reacting", ("roll_off", "dice"): "Each player's D6",
}

# an action's button, by its command type (a `select` by the phase it selects in)
BUTTONS = {"start_game": "Start the game", "roll": "Roll", "roll_off": "Roll off", "choose_order": "Choose who goes first",
           "end_phase": "End the phase", "record_casualties": "Record casualties", "set_status": "Record a status",
           "vehicle_hit": "Record a vehicle hit", "blast_hit": "Record a Blast hit",
           "ongoing_reserves": "Into Ongoing Reserves", "resolve_charge": "Roll the charge", "pass": "Pass",
           "declare_done": "Done this sub-phase", "confirm_count": "Confirm the count", "allocate": "Save with",
           "keep_dice": "Keep the dice", "command_reroll": "Command Re-roll", "revive": "Return models",
           "pile_in": "Pile in", "end_fight": "Done fighting", "consolidate": "Consolidate",
           "start_action": "Start an action", "use_stratagem": "Use a stratagem", "attack": "Attack",
           "strike": "Strike", "move": "Move", "enter": "Enter from reserves", "fall_back": "Fall back",
           "react": "React", "charge_move": "Charge move", "shoot": "Shoot", "split": "Split the unit"}
SELECTS = {"movement": "Move", "move": "Move", "reserves": "Enter from reserves", "shooting": "Shoot",
           "charge": "Charge", "assault": "Charge", "fight": "Fight", "command": "Select", "fleeing": "Resolve fleeing",
           "move_fleeing": "Resolve fleeing", "move_units": "Move", "shoot": "Shoot", "charges": "Charge"}


def titled(state: GameState, seat: str, offered: Iterable[Action]) -> list[Action]:
    """The actions as a player reads them: a button's title, each field's label, choices named. The same offer
    in the same words as the last time this seat of this game was offered it is answered as it was then
    (`_Offers`: a write that changes neither, a free roll, a record, costs no second naming)."""
    actions = list(offered)
    return OFFERS.titled(state, seat, actions, lambda: [
        replace(a, title=a.title or button(state, a), schema=_object(state, seat, a.type, a.schema)) for a in actions])


class _Offers:
    """The titled offers last made per game, seat and kinds of action, with what their words were read from: the
    untitled actions (compared whole), every unit's title for the seat, each unit's weapons, the players' names,
    the objectives and what a button reads (the phase, the roll awaited). Any of them different: named again."""

    def __init__(self, size: int = 1024) -> None:
        self.size = size
        self._kept: dict[tuple[str, str, tuple[str, ...]], tuple[object, list[Action]]] = {}

    def titled(self, state: GameState, seat: str, actions: list[Action], name: Callable[[], list[Action]]
               ) -> list[Action]:
        key = (state.game_id, seat, tuple(a.type for a in actions))
        read_from = (actions, UNIT_TITLES.of(state, seat), tuple((uid, u.weapons) for uid, u in state.units.items()),
                     state.players, state.options.objectives, state.phase, state.sub_phase,
                     state.rolls[0].spec if state.rolls else None)
        kept = self._kept.get(key)
        if kept is not None and kept[0] == read_from:
            return kept[1]
        made = name()
        if len(self._kept) >= self.size:
            self._kept.clear()
        self._kept[key] = (read_from, made)
        return made


OFFERS = _Offers()


def button(state: GameState, action: Action) -> str:
    properties = action.schema.get("properties", {})
    held = properties.get("act") == {"const": False}
    if action.type == "select" and action.rule == "AA.OW.1":
        return "Hold fire" if held else "Fire overwatch"
    if action.type == "select":
        verb = SELECTS.get(state.sub_phase or "", SELECTS.get(state.phase or "", "Select"))
        return f"{verb}: hold" if held else verb
    if action.type == "roll" and state.rolls:
        return f"Roll {state.rolls[0].spec}"
    if action.type == "react" and held:
        return "Decline the reaction"
    if action.type == "end_phase" and action.rule == "MSN.OBJ.1":  # the round's last, scoring the objectives
        return "End the battle round"
    return BUTTONS.get(action.type) or humane(action.type).capitalize()


def label(type_: str, name: str) -> str:
    return LABELS.get((type_, name)) or LABELS.get(name) or humane(name).capitalize()


def _object(state: GameState, seat: str, type_: str, schema: Schema) -> Schema:
    """A command body (or an object field): each property labelled, its choices named."""
    properties = schema.get("properties", {})
    namer = _keys_namer(state, seat, properties)
    titled_properties = {}
    for name, sub in properties.items():
        sub = _field(state, seat, type_, name, sub, _unit_of(properties))
        title = namer(name) if namer else label(type_, name)
        if sub.get("title") and sub["title"] != title and "description" not in sub:
            sub["description"] = sub["title"]  # a site's own words for it say more than the label
        titled_properties[name] = {**sub, "title": title}
    return {**schema, "properties": titled_properties} if "properties" in schema else dict(schema)


def _field(state: GameState, seat: str, type_: str, name: str, schema: Schema, unit: str | None) -> Schema:
    schema = dict(schema)
    format_ = FORMATS.get(name)
    if format_ is None and schema.get("enum") and all(isinstance(v, str) and v in state.units for v in schema["enum"]):
        format_ = "unit"  # a map's values naming units (the units near each objective)
    if schema.get("type") == "object":
        return _object(state, seat, type_, schema)
    if schema.get("type") == "array" and isinstance(schema.get("items"), dict):
        items = _field(state, seat, type_, name, schema["items"], unit)
        items.pop("title", None)
        return {**schema, "items": items}
    if "enum" in schema:
        values = schema.pop("enum")
        names = _namer(state, seat, format_, unit) if format_ else _status_words if name == "status" else _words
        kept = {k: v for k, v in schema.items() if k in ("title", "description")}
        return act.choice(((value, names(value)) for value in values), format_, **kept)
    if "const" in schema and format_:
        schema["format"] = format_
    return schema


def _words(value: object) -> str:
    """A plain enum's value in words: 'remain_stationary' -> 'Remain stationary'."""
    text = humane(str(value)) if isinstance(value, str) else str(value).lower()
    return text[:1].upper() + text[1:]


def _status_words(value: object) -> str:
    """A status to record, as a unit's card says it (`status_called`): 'Locked in Combat', 'Falling back'."""
    text = status_called(str(value))
    return text[:1].upper() + text[1:]


def _unit_of(properties: dict[str, Schema]) -> str | None:
    """The unit the command is about, where the schema fixes it (whose weapons a `weapon` names)."""
    unit = properties.get("unit", {})
    if "const" in unit:
        return str(unit["const"])
    values = act.choices_of(unit)
    return str(values[0]) if len(values) == 1 else None


class _UnitTitles:
    """Every unit's title as one seat reads it, made once for a state (its actions name the same units many times
    over: each target list, each map of units near an objective), kept while the next call is about the same state
    and seat. A state is immutable, so the titles made for it stay true of it."""

    def __init__(self) -> None:
        self._kept: tuple[GameState, str, dict[str, str]] | None = None

    def of(self, state: GameState, seat: str) -> dict[str, str]:
        kept = self._kept
        if kept is None or kept[0] is not state or kept[1] != seat:
            titles = {uid: unit_title(state, uid, owner=unit.owner != seat) for uid, unit in state.units.items()}
            self._kept = kept = (state, seat, titles)
        return kept[2]


UNIT_TITLES = _UnitTitles()


def _namer(state: GameState, seat: str, format_: str, unit: str | None) -> Callable[[Any], str]:  # the namer takes a JSON value (a const)
    if format_ == "unit":
        titles = UNIT_TITLES.of(state, seat)
        return lambda uid: titles.get(uid) or unit_title(state, uid)
    if format_ == "seat":
        return lambda other: player_name(state, other)
    if format_ == "objective":
        return lambda name: objective_title(state.options.objectives or (), name)
    if format_ == "weapon":
        return lambda name: _weapon_title(state, seat, unit, name)
    return _words


def _weapon_title(state: GameState, seat: str, unit: str | None, name: str) -> str:
    """The weapon by name with its profile, read off the unit that wields it (else any of the seat's units)."""
    units = [state.units[unit]] if unit is not None and unit in state.units else [u for u in state.units.values() if u.owner == seat]
    found: Weapon | None = next((w for u in units for w in u.weapons if w.name == name), None)
    return weapon_title(found) if found is not None else f"{name} (weapon)"


def _keys_namer(state: GameState, seat: str, properties: dict[str, Schema]) -> Callable[[str], str] | None:
    """A map keyed by unit id, objective or seat: each key titled by what it names."""
    keys = set(properties)
    if not keys or "type" in keys:
        return None
    if keys <= set(state.units):
        return _namer(state, seat, "unit", None)
    if keys <= set(state.options.objectives or ()):
        return _namer(state, seat, "objective", None)
    if keys <= set(state.players):
        return _namer(state, seat, "seat", None)
    return None
