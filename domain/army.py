"""Units, models, starting strength and strength bands (CORE.STR.*).

A unit is kept as the contract's JSON shape (validated at the boundary) plus a
few counters the game maintains: `models_alive`, `starting_strength`,
`wounds_lost` and the per-turn `turn` record.
"""
from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from warlog.domain.rulings import Malformed
from warlog.domain.state import Unit
from warlog.domain.state import Weapon as UnitWeapon

STATUSES = frozenset({
    "battle_shocked", "falling_back", "regrouped", "pinned", "gone_to_ground",
    "immobilised", "routed", "suppressed", "locked_in_combat", "engaged",
    "no_weapons_left", "stationary",
})


# The questions below of `unit: Mapping[str, Any]` and `units: list[dict[str, Any]]` read an army's JSON as it is
# sent, before it is read as `Unit`s (the JSON boundary: `validate_army` and the rulesets' `check_army` judge it);
# the typed state's units are asked the same further down.


ID_LENGTH = 100  # a unit id's longest (the boundary's Unit.id): a renamed id stays one
LINKS = ("embarked_in", "leader_of")  # the fields that name another unit of the same army


def distinct_ids(units: list[dict[str, Any]], others: Collection[str]) -> tuple[list[dict[str, Any]], dict[str, str]]:
    """The army with every id the other army already uses renamed (a mirror match: two lists from one builder),
    its own links to a renamed unit following it, and the renaming ({old id: new id}, empty when none). The same
    army beside the same other army is renamed the same way every time: `x` becomes `x-b`, then `x-b2`, `x-b3`...
    whichever is the first used by neither army (nor by an id renamed before it in this army's order)."""
    taken = set(others) | {unit["id"] for unit in units}
    renamed: dict[str, str] = {}
    for unit in units:
        uid = unit["id"]
        if uid not in others or uid in renamed:
            continue
        for n in range(1, len(taken) + 2):
            suffix = "-b" if n == 1 else f"-b{n}"
            candidate = uid[:ID_LENGTH - len(suffix)] + suffix
            if candidate not in taken:
                break
        renamed[uid] = candidate
        taken.add(candidate)
    return (_with_ids(units, renamed) if renamed else units), renamed


def as_sent(units: list[dict[str, Any]], renamed: Mapping[str, str]) -> list[dict[str, Any]]:
    """The army as its seat sent it, before `distinct_ids` renamed it (what a muster is played again from)."""
    return _with_ids(units, {new: old for old, new in renamed.items()})


def _with_ids(units: list[dict[str, Any]], ids: Mapping[str, str]) -> list[dict[str, Any]]:
    """The army with each unit's id, and each link naming a unit of it, changed as `ids` maps them."""
    return [{**unit, "id": ids.get(unit["id"], unit["id"]),
             **{link: ids.get(unit[link], unit[link]) for link in LINKS if unit.get(link) is not None}}
            for unit in units]


def model_count(unit: Mapping[str, Any]) -> int:
    """The models of a unit's lines, as sent (the JSON boundary)."""
    return sum(line.get("count", 1) for line in unit["models"])


def called(units: list[dict[str, Any]], uid: str) -> str:
    """A unit of an army as sent, as its player knows it in a refusal (CONTRACT.md "In the players' words"): by its
    name ("Tactical Squad"); with its id where another unit of the army has the same name ("Boyz (id 'boyz-2')"),
    and by its id alone, quoted, where the army has no unit of that id."""
    names = [unit.get("name") for unit in units if unit["id"] == uid]
    if not names or not names[0]:
        return repr(uid)
    shared = sum(1 for unit in units if unit.get("name") == names[0]) > 1
    return f"{names[0]} (id {uid!r})" if shared else str(names[0])


def validate_army(seat: str, units: list[dict[str, Any]]) -> None:
    """Cross-unit checks the field types cannot express; errors name the field (422). `units`: the army's JSON as
    sent (the JSON boundary).

    Fields are named as the request's JSON path, dotted like the schema's own
    errors (`units.2.embarked_in`).
    """
    seen: set[str] = set()
    by_id = {unit["id"]: unit for unit in units}
    led: dict[str, str] = {}
    for index, unit in enumerate(units):
        where = f"units.{index}"
        if unit["id"] in seen:
            raise Malformed(f"unit id {unit['id']!r} appears twice in this army", field=f"{where}.id")
        seen.add(unit["id"])
        _check_models(unit, where)
        for status in unit.get("statuses", []):
            if status not in STATUSES:
                raise Malformed(f"unknown status {status!r}; known: {', '.join(sorted(STATUSES))}",
                                field=f"{where}.statuses")
        for link in ("embarked_in", "leader_of"):
            target = unit.get(link)
            if target is None:
                continue
            if target == unit["id"]:
                raise Malformed(f"{link} names the unit itself", field=f"{where}.{link}")
            if target not in by_id:
                raise Malformed(f"{link} names {target!r}, which is not a unit of this army", field=f"{where}.{link}")
        transport_id = unit.get("embarked_in")
        if transport_id:
            transport = by_id[transport_id]
            if not transport.get("transport"):
                raise Malformed(f"{called(units, transport_id)} has no transport capacity",
                                field=f"{where}.embarked_in")
            if transport.get("embarked_in"):
                raise Malformed(f"{called(units, transport_id)} is itself embarked in "
                                f"{called(units, transport['embarked_in'])}", field=f"{where}.embarked_in")
        bodyguard = unit.get("leader_of")
        if bodyguard:
            # CORE.STR.1 counts one leader with one bodyguard as one attached unit
            if by_id[bodyguard].get("leader_of"):
                raise Malformed(f"{called(units, bodyguard)} leads a unit itself and cannot be led",
                                field=f"{where}.leader_of")
            if bodyguard in led:
                raise Malformed(f"{called(units, bodyguard)} is already led by {called(units, led[bodyguard])}",
                                field=f"{where}.leader_of")
            led[bodyguard] = unit["id"]
    for index, unit in enumerate(units):
        capacity = (unit.get("transport") or {}).get("capacity")
        if capacity is None:
            continue
        aboard = sum(model_count(u) for u in units if u.get("embarked_in") == unit["id"])
        if aboard > capacity:
            raise Malformed(f"{aboard} models embarked in {called(units, unit['id'])}, capacity {capacity}",
                            field=f"units.{index}.transport.capacity")


def check_engaged(units: list[dict[str, Any]], enemies: Collection[str] | None) -> None:
    """SVC.SETUP: each unit an army says one of its units starts engaged with (`engaged_with`) is an enemy unit:
    none of this army's, and one of `enemies` (the other army's unit ids) once that army is mustered (None: not yet,
    and `start_game` judges it then, `foreign_engagement`). 422 naming the field."""
    own = {unit["id"] for unit in units}
    for index, unit in enumerate(units):
        for place, foe in enumerate(unit.get("engaged_with") or ()):
            where = f"units.{index}.engaged_with.{place}"
            if foe in own:
                raise Malformed(f"{called(units, unit['id'])} cannot start engaged with {called(units, foe)}, a unit "
                                "of its own army (only with an enemy unit)", field=where)
            if enemies is not None and foe not in enemies:
                raise Malformed(f"{called(units, unit['id'])} cannot start engaged with {foe!r}: the other army has "
                                "no unit of that id", field=where)


def foreign_engagement(units: Mapping[str, Unit]) -> tuple[str, str] | None:
    """SVC.SETUP at `start_game`: the first unit whose `engaged_with` names no enemy unit (an army mustered before
    the other named a unit that army does not have), and the id it names; or None. `words.foreign_engagement` says
    it in the players' words."""
    for uid, unit in units.items():
        for foe in unit.engaged_with:
            if foe not in units or units[foe].owner == unit.owner:
                return uid, foe
    return None


def _check_models(unit: Mapping[str, Any], where: str) -> None:
    """The counts the strength bands divide by must be possible ones (CORE.STR.1/2); `unit`: as sent (JSON)."""
    if not unit.get("models"):
        raise Malformed("a unit has at least one model line", field=f"{where}.models")
    for line_index, line in enumerate(unit["models"]):
        for name in ("count", "W", "hull_points"):
            value = line.get(name, 1)
            if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 1):
                raise Malformed(f"{name} must be a whole number of at least 1, not {value!r}",
                                field=f"{where}.models.{line_index}.{name}")


def strength_band(models: int, starting: int, wounds_lost: int = 0, wounds: int = 1) -> str:
    """CORE.STR.2, exclusive bands, first match wins; a one-model unit reads its wounds."""
    if models <= 0:
        return "destroyed"
    if starting == 1:
        models, starting = wounds - wounds_lost, wounds
    if 2 * models < starting:
        return "below_half"
    if 2 * models <= starting:
        return "half"
    if models < starting:
        return "below_starting"
    return "full"


def is_vehicle(unit: Mapping[str, Any]) -> bool:
    """Of a unit as sent (the JSON boundary)."""
    return "VEHICLE" in unit.get("keywords", [])


def has_ability(unit: Mapping[str, Any], ability: str) -> bool:
    """Of a unit as sent (the JSON boundary)."""
    return ability in unit.get("abilities", [])


def leadership(unit: Mapping[str, Any]) -> int:
    """Of a unit as sent, or as `ArmyMustered` logs it (the JSON boundary)."""
    return max(line.get("Ld") or 0 for line in unit["models"])


# -- the same questions of the typed state's units (`GameState.units`) ------------------------------------


def starting_strengths_of(units: Mapping[str, Unit]) -> dict[str, int]:
    """CORE.STR.1 of typed units."""
    strengths = {uid: unit.models_alive for uid, unit in units.items()}
    for uid, unit in units.items():
        bodyguard = unit.leader_of
        if bodyguard and bodyguard in strengths:
            combined = unit.models_alive + units[bodyguard].models_alive
            strengths[uid] = strengths[bodyguard] = combined
    return strengths


def partner_of(units: Mapping[str, Unit], uid: str) -> str | None:
    """The leader attached to the unit, or the bodyguard it leads (CORE.STR.1), standing or not."""
    partner = units[uid].leader_of or next((other for other, u in units.items() if u.leader_of == uid), None)
    return partner if partner is not None and partner in units else None


def attached_models_of(units: Mapping[str, Unit], uid: str) -> int:
    """Models alive in the unit together with its attached leader or bodyguard."""
    partner = partner_of(units, uid)
    return units[uid].models_alive + (units[partner].models_alive if partner is not None else 0)


def attached_strength_of(units: Mapping[str, Unit], uid: str) -> str:
    """CORE.STR.1, CORE.STR.2: the band of the one unit `uid` forms with its attached leader or bodyguard (a unit
    alone: its own), destroyed only once neither has a model left: the Captain alone is below half-strength."""
    unit = units[uid]
    alive = attached_models_of(units, uid)
    if alive <= 0:
        return "destroyed"
    return strength_band(alive, unit.starting_strength, unit.wounds_lost or 0, unit.total_wounds)


def strength_of(units: Mapping[str, Unit], uid: str) -> str:
    """CORE.STR.2: the unit's strength band, its attached leader or bodyguard counted with it."""
    unit = units[uid]
    if unit.models_alive <= 0:
        return "destroyed"
    return strength_band(attached_models_of(units, uid), unit.starting_strength, unit.wounds_lost or 0,
                         unit.total_wounds)


def unit_is_vehicle(unit: Unit) -> bool:
    return "VEHICLE" in unit.keywords


def unit_has_ability(unit: Unit, ability: str) -> bool:
    return ability in unit.abilities


def unit_leadership(unit: Unit) -> int:
    return max(line.Ld or 0 for line in unit.models)


def unit_ranged_weapons(unit: Unit) -> list[UnitWeapon]:
    return [w for w in unit.weapons if w.type == "ranged"]
