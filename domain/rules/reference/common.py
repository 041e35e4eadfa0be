"""What every phase of `reference` reads: engagement, the battlefield, attached units.

The questions are asked of the typed state's units (the second part); the first part asks the same of the bridge's
dict view, for the readers not yet on the typed state (shooting.py, heresy/shooting.py's `members`)."""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any

from warlog.domain.rules.ruleset import alive
from warlog.domain.state import GameState, ReferenceTurn, Reroll, Unit, freeze

ENGAGED = ("engaged", "locked_in_combat")
STRATAGEMS = {  # EXT.CP.1: core stratagems and their CP; only Command Re-roll changes what the service rolls
    "Command Re-roll": 1, "Counter-offensive": 2, "Epic Challenge": 1, "Insane Bravery": 1, "Grenade": 1,
    "Tank Shock": 1, "Rapid Ingress": 1, "Fire Overwatch": 1, "Go to Ground": 1, "Smokescreen": 1,
    "Heroic Intervention": 1,
}
REROLLABLE = ("charge", "advance", "battle_shock")  # EXT.CP.1 rolls whose result still waits to be used


def engaged(unit: dict[str, Any]) -> bool:
    return bool(unit.get("engaged_with")) or any(status in unit["statuses"] for status in ENGAGED)


def on_battlefield(unit: dict[str, Any]) -> bool:
    """CORE.OFF.1: neither in reserves nor embarked, and not destroyed."""
    return alive(unit) and not unit.get("in_reserves") and not unit.get("embarked_in")


def weapon_keywords(weapon: dict[str, Any]) -> set[str]:
    return {k.upper().strip("[] ") for k in weapon.get("keywords", [])}


def leader_of(units: dict[str, dict[str, Any]], uid: str) -> str | None:
    """The leader attached to this bodyguard, while both stand."""
    if not alive(units[uid]):
        return None
    return next((lid for lid, u in units.items() if u.get("leader_of") == uid and alive(u)), None)


def attached_to(units: dict[str, dict[str, Any]], uid: str) -> str | None:
    """The bodyguard a standing leader is attached to, while it stands: the two are one unit (CORE.STR.1)."""
    bodyguard: str | None = units[uid].get("leader_of")
    if bodyguard and bodyguard in units and alive(units[bodyguard]) and alive(units[uid]):
        return bodyguard
    return None


def members(units: dict[str, dict[str, Any]], uid: str) -> list[str]:
    """The unit and its attached leader: selected, moved and tested together."""
    leader = leader_of(units, uid)
    return [uid, leader] if leader else [uid]


def foes(state: dict[str, Any], seat: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """The enemy units on the battlefield that can be named (targeted, charged): an attached leader is not one
    of them, its bodyguard names the unit they form (CORE.STR.1)."""
    units = state["units"]
    return ((uid, u) for uid, u in units.items()
            if u["owner"] != seat and on_battlefield(u) and not attached_to(units, uid))


def not_a_unit_alone(units: dict[str, dict[str, Any]], uids: Iterable[str]) -> tuple[str, str] | None:
    """(rule, why) when one of these is a leader attached to a standing bodyguard: it is named as that unit."""
    for uid in uids:
        bodyguard = attached_to(units, uid) if uid in units else None
        if bodyguard:
            return ("CORE.STR.1", f"{uid} is attached to {bodyguard}: they are one unit; name {bodyguard} "
                                  "(wounds go to the leader last, RS.ATK.3)")
    return None


def is_monster_or_vehicle(unit: dict[str, Any]) -> bool:
    return bool({"MONSTER", "VEHICLE"} & set(unit.get("keywords", [])))


# -- the same questions of the typed state's units (`GameState.units`) ------------------------------------


def is_on_battlefield(unit: Unit) -> bool:
    """`on_battlefield` (CORE.OFF.1) of a typed unit."""
    return alive(unit) and not unit.in_reserves and not unit.embarked_in


def is_engaged(unit: Unit) -> bool:
    """`engaged` of a typed unit."""
    return bool(unit.engaged_with) or any(status in unit.statuses for status in ENGAGED)


def leader_in(units: Mapping[str, Unit], uid: str) -> str | None:
    """The leader attached to this bodyguard, while both stand (`leader_of`)."""
    if not alive(units[uid]):
        return None
    return next((lid for lid, u in units.items() if u.leader_of == uid and alive(u)), None)


def bodyguard_of(units: Mapping[str, Unit], uid: str) -> str | None:
    """The bodyguard a standing leader is attached to, while it stands (`attached_to`, CORE.STR.1)."""
    bodyguard = units[uid].leader_of
    if bodyguard and bodyguard in units and alive(units[bodyguard]) and alive(units[uid]):
        return bodyguard
    return None


def members_of(units: Mapping[str, Unit], uid: str) -> list[str]:
    """`members`: the unit and its attached leader, selected, moved and tested together."""
    leader = leader_in(units, uid)
    return [uid, leader] if leader else [uid]


def enemies(state: GameState, seat: str) -> Iterator[tuple[str, Unit]]:
    """`foes`: the enemy units on the battlefield that can be named (an attached leader is named as its
    bodyguard's unit, CORE.STR.1)."""
    units = state.units
    return ((uid, u) for uid, u in units.items()
            if u.owner != seat and is_on_battlefield(u) and not bodyguard_of(units, uid))


def named_alone(units: Mapping[str, Unit], uids: Iterable[str]) -> tuple[str, str] | None:
    """`not_a_unit_alone`: (rule, why) when one of these is a leader attached to a standing bodyguard."""
    for uid in uids:
        bodyguard = bodyguard_of(units, uid) if uid in units else None
        if bodyguard:
            return ("CORE.STR.1", f"{uid} is attached to {bodyguard}: they are one unit; name {bodyguard} "
                                  "(wounds go to the leader last, RS.ATK.3)")
    return None


def monster_or_vehicle(unit: Unit) -> bool:
    """`is_monster_or_vehicle` of a typed unit."""
    return bool({"MONSTER", "VEHICLE"} & set(unit.keywords))


def every_monster_or_vehicle(units: Mapping[str, Unit], uid: str) -> bool:
    """RS.MOV.4's x3: every model of the (attached) unit is MONSTER or VEHICLE."""
    return all(monster_or_vehicle(units[m]) for m in members_of(units, uid))


def control_of(state: GameState, claims: Mapping[str, Sequence[str]]) -> dict[str, Any]:
    """`objective_control` (EXT.OBJ.1) of the typed state: each marker goes to the seat whose models within range
    (attested) sum the higher OC; battle-shocked models count OC 0."""
    units = state.units
    result = {}
    for marker, near in claims.items():
        oc = {"A": 0, "B": 0}
        for uid in near:
            unit = units[uid]
            if is_on_battlefield(unit) and "battle_shocked" not in unit.statuses:
                oc[unit.owner] += unit.models_alive * (unit.models[0].OC or 0)
        result[marker] = {"oc": oc, "units": list(near),
                          "controlled_by": None if oc["A"] == oc["B"] else max(oc, key=oc.__getitem__)}
    return result


def turn_of(unit: Unit) -> ReferenceTurn:
    """The unit's reference turn flags."""
    return ReferenceTurn.of(unit.turn)


def with_turns(state: GameState, uids: Iterable[str], change: Callable[[ReferenceTurn], ReferenceTurn]) -> GameState:
    """The state with these units' turn flags changed alike (a charge made, Fights First gained, ...)."""
    for uid in uids:
        unit = state.units[uid]
        state = state.with_unit(uid, replace(unit, turn=change(turn_of(unit))))
    return state


def kept_for_reroll(unit: Unit, data: Mapping[str, Any], purpose: str, context: Mapping[str, Any]) -> Unit:
    """`remember_roll`: the unit with the roll just made kept for a Command Re-roll (EXT.CP.1), or none kept."""
    assert purpose in REROLLABLE
    if data.get("rerollable"):
        reroll = Reroll(purpose=purpose, spec="2D6" if purpose != "advance" else "D6", context=freeze(dict(context)))
        return replace(unit, turn=replace(turn_of(unit), reroll=reroll))
    return replace(unit, turn=replace(turn_of(unit), reroll=None))
