"""The common roster tree (roster -> forces -> selections -> profiles -> characteristics) to the contract's
Unit list for one ruleset. Everything it cannot map is listed with its path, never dropped; it never copies
a roster's rules text into what it answers (only names and numbers).

Nested units, one rule for every file: a unit bought inside another selection stands as its own unit. A
nested unit is a selection of type "unit" with a statline under it (a retinue under its character: HH 2nd's
Deathwing Companion Detachment under Corswain), or a selection other than a model whose statlines are all
vehicles, bought inside a unit that fields a model that is no vehicle (a squad's dedicated transport: HH 1st
and 2nd's Rhino under a Tactical Squad; not a Land Raider's own hull, nor one vehicle of a squadron). Each is
taken out of the unit it was bought in (its models, weapons, transport and points are its own, never the
holder's); a transport carries the unit it was bought in when it fits, and a retinue is listed as bought
under its holder."""
from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from warlog.api.rosters import costs
from warlog.api.rosters import read as values
from warlog.api.rosters.read import Missing, profile_kind
from warlog.domain.rulings import Malformed
from warlog.domain.words import plural

Node = dict[str, Any]


@dataclass
class Context:
    ruleset: str
    reads_older_ap: bool = False  # the ruleset's rules read AP on the older 1-6 scale (its RosterReading)
    older_ap: bool = False  # the roster writes AP on the older 1-6 scale (Horus Heresy)
    unmapped: list[dict[str, str]] = field(default_factory=list)
    counters: dict[str, int] = field(default_factory=dict)

    def note(self, path: str, what: str) -> None:
        self.unmapped.append({"path": path, "what": what})

    def unit_id(self, name: str) -> str:
        slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:60] or "unit"
        self.counters[slug] = self.counters.get(slug, 0) + 1
        return f"{slug}-{self.counters[slug]}"


@dataclass
class Found:
    """One unit as found in the tree, before it becomes the contract's shape."""
    selection: Node
    path: str
    nested_in: Found | None = None  # HH 1st: a dedicated transport bought inside the squad it carries
    unit: dict[str, Any] = field(default_factory=dict)
    model_paths: list[str] = field(default_factory=list)


def listed(node: Node, key: str) -> list[Node]:
    items = node.get(key)
    return [item for item in items if isinstance(item, dict)] if isinstance(items, list) else []


def profiles(selection: Node, path: str) -> Iterator[tuple[Node, str, str]]:
    for index, profile in enumerate(listed(selection, "profiles")):
        yield profile, f"{path}/profiles/{index}", profile_kind(profile)


def statlines(selection: Node, path: str) -> list[tuple[Node, str]]:
    return [(p, where) for p, where, kind in profiles(selection, path) if kind in ("statline", "vehicle")]


def is_vehicle_statline(profile: Node) -> bool:
    return profile_kind(profile) == "vehicle"


# -- walking the tree -----------------------------------------------------------------------------------

def units_of(tree: Node, ctx: Context) -> list[Found]:
    roster = tree.get("roster")
    if not isinstance(roster, dict):
        raise Missing("roster", 'not a roster: no "roster" object')
    forces = listed(roster, "forces")
    if not forces:
        raise Malformed("This roster is empty: it holds no force, so no unit; warlog reads the units a "
                        "roster's forces hold", field="roster/forces")
    found: list[Found] = []
    stack = [(force, f"roster/forces/{i}") for i, force in enumerate(forces)]
    while stack:  # forces hold sub-forces (HH 3rd, AoS regiments); in document order
        force, path = stack.pop(0)
        for profile, where, _ in profiles(force, path):
            ctx.note(where, f"a force-level profile ({values.type_name(profile)}) is not part of any unit")
        if listed(force, "rules"):
            count = len(listed(force, "rules"))
            ctx.note(f"{path}/rules", f"{plural(count, 'army rule')} {'is' if count == 1 else 'are'} named in the "
                                      "roster, not applied")
        for index, selection in enumerate(listed(force, "selections")):
            where = f"{path}/selections/{index}"
            if has_statline(selection, where):
                found.append(Found(selection, where))
            else:
                ctx.note(where, no_statline(selection))
        stack[0:0] = [(sub, f"{path}/forces/{i}") for i, sub in enumerate(listed(force, "forces"))]
    return found


def no_statline(selection: Node) -> str:
    """What a selection with no statline anywhere under it is: a unit or a model the file gives no profile
    for, or army configuration."""
    name = values.text(selection.get("name"))
    if selection.get("type") in ("unit", "model"):
        return f"a unit with no statline in this file: {name or 'unnamed'} (not mustered)"
    return (f"{selection.get('type', 'selection')} {name!r}: army configuration (detachment, battle size, "
            "warlord …), not a unit")


def has_statline(selection: Node, path: str) -> bool:
    if statlines(selection, path):
        return True
    return any(has_statline(child, f"{path}/selections/{i}")
               for i, child in enumerate(listed(selection, "selections")))


def nested_units(found: Found) -> list[Found]:
    """The units bought inside `found`, at any depth, and those bought inside them (see the module's rule)."""
    out: list[Found] = []

    def walk(node: Node, path: str) -> None:
        for index, child in enumerate(listed(node, "selections")):
            where = f"{path}/selections/{index}"
            if child.get("type") == "model":
                continue
            if is_nested_unit(found, child, where):
                inner = Found(child, where, nested_in=found)
                out.append(inner)
                out.extend(nested_units(inner))
            else:
                walk(child, where)

    walk(found.selection, found.path)
    return out


def statline_paths(selection: Node, path: str) -> Iterator[tuple[Node, str]]:
    yield from statlines(selection, path)
    for index, child in enumerate(listed(selection, "selections")):
        yield from statline_paths(child, f"{path}/selections/{index}")


def is_nested_unit(holder: Found, child: Node, where: str) -> bool:
    if child.get("type") == "unit":
        return has_statline(child, where)
    lines = statlines(child, where)
    if not lines or not all(is_vehicle_statline(p) for p, _ in lines):
        return False
    return any(not is_vehicle_statline(p) and not at.startswith(f"{where}/")
               for p, at in statline_paths(holder.selection, holder.path))


# -- one unit ---------------------------------------------------------------------------------------------

def model_lines(found: Found, skip: set[str], ctx: Context) -> list[tuple[Node, str, int, str]]:
    """(statline profile, its path, count, model name) for every model group of the unit."""
    own = statlines(found.selection, found.path)
    lines: list[tuple[Node, str, int, str]] = []

    def walk(selection: Node, path: str, inherited: list[tuple[Node, str]], multiplier: int) -> None:
        for index, child in enumerate(listed(selection, "selections")):
            where = f"{path}/selections/{index}"
            if where in skip:
                continue
            mine = statlines(child, where)
            count = values.number(child) * multiplier
            name = values.text(child.get("name"))
            if not mine and not inherited and child.get("type") == "model":
                mine = upgraded(child, where, skip)  # HH 1st: an Adept bought up to a Magos has the Magos's line
                name = values.text(mine[0][0].get("name")) if mine else name
            if mine or child.get("type") == "model":
                chosen = pick(mine or inherited, name, where, ctx)
                if chosen is None:
                    ctx.note(where, "a model with no statline on it or its unit: not mapped")
                    continue
                lines.append((*chosen, count, name))
            else:
                walk(child, where, inherited, multiplier)

    walk(found.selection, found.path, own, 1)
    if not lines:
        chosen = pick(own, values.text(found.selection.get("name")), found.path, ctx)
        if chosen is not None:
            lines.append((*chosen, values.number(found.selection), values.text(found.selection.get("name"))))
    return lines


def upgraded(model: Node, path: str, skip: set[str]) -> list[tuple[Node, str]]:
    """The statlines an upgrade bought on a model with none of its own gives it (the first upgrade that has one)."""
    for index, child in enumerate(listed(model, "selections")):
        where = f"{path}/selections/{index}"
        if where not in skip and child.get("type") != "model" and statlines(child, where):
            return statlines(child, where)
    return []


BRACKET = re.compile(r"\[(\d+)\]")



def bracket_of(candidate: tuple[dict[str, Any], str]) -> int:
    """The wound bracket a profile's name states ("[1] (7+ wounds)": 1); a name stating none sorts first."""
    found = BRACKET.search(values.text(candidate[0].get("name")))
    return int(found.group(1)) if found else 0

def pick(candidates: list[tuple[Node, str]], name: str, path: str, ctx: Context) -> tuple[Node, str] | None:
    """The statline of a model named `name`: the one of that name, else the first; degrading brackets
    (9th: one profile per bracket, "[1] (7+ wounds)") give the top one and the others are listed."""
    if not candidates:
        return None
    brackets = [c for c in candidates if BRACKET.search(values.text(c[0].get("name")))]
    if len(brackets) > 1:
        brackets.sort(key=bracket_of)
        for _profile, where in brackets[1:]:
            if not any(u["path"] == where for u in ctx.unmapped):
                ctx.note(where, "a lower degrading bracket: the unit musters with its top bracket's statline")
        return brackets[0]
    wanted = values.norm(name)
    for candidate in candidates:
        if values.norm(values.text(candidate[0].get("name"))) == wanted:
            return candidate
    for candidate in candidates:
        other = values.norm(values.text(candidate[0].get("name")))
        if other and (other in wanted or wanted in other):
            return candidate
    return candidates[0]


def subtree(selection: Node, path: str, skip: set[str]) -> Iterator[tuple[Node, str]]:
    yield selection, path
    for index, child in enumerate(listed(selection, "selections")):
        where = f"{path}/selections/{index}"
        if where not in skip:
            yield from subtree(child, where, skip)


@dataclass
class Gear:
    """What a unit holds beside its model lines, gathered from its selections as `build` walks them."""
    base: dict[str, str]  # the first model's characteristics: "User" strength and the melee attacks read them
    used: set[str]  # the statlines read as its model lines
    keywords: list[str]
    transport: dict[str, Any] | None
    abilities: list[str] = field(default_factory=list)
    weapons: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)
    insv: int | None = None


def build(found: Found, skip: set[str], ctx: Context) -> dict[str, Any]:
    """One unit in the contract's shape: its model lines, then what its selections hold (`read_node`)."""
    name = values.text(found.selection.get("name")) or "Unit"
    models, chosen, keywords = model_group(found, skip, name, ctx)
    gear = Gear(values.chars(chosen[0][0]) if chosen else {}, {where for _, where in chosen}, keywords,
                next((t for p, w in chosen if (t := values.transport_in_statline(p, w, ctx))), None))
    for node, node_path in subtree(found.selection, found.path, skip):
        read_node(node, node_path, node is found.selection, gear, ctx)
    return finished(name, found.path, models, gear, ctx)


def model_group(found: Found, skip: set[str], name: str,
                ctx: Context) -> tuple[list[dict[str, Any]], list[tuple[Node, str]], list[str]]:
    """(its model lines, merged; the statline of each and its path; its keywords, the models' own added)."""
    keywords = values.keywords(found.selection)
    models: list[dict[str, Any]] = []
    chosen: list[tuple[Node, str]] = []
    for profile, where, count, model_name in model_lines(found, skip, ctx):
        line, extra_keywords = values.model_line(profile, where, model_name or name, count, found.selection, ctx)
        keywords += [k for k in extra_keywords if k not in keywords]
        models.append(line)
        chosen.append((profile, where))
        found.model_paths.append(where)
    return merged(models), chosen, keywords


def read_node(node: Node, path: str, is_unit: bool, gear: Gear, ctx: Context) -> None:
    """One selection of the unit: a squadron's model brings its keywords, a rule its ability, and each
    profile not read as a model line what it is (`read_profile`)."""
    if not is_unit and node.get("type") == "model":  # a squadron's models carry its keywords
        gear.keywords += [k for k in values.keywords(node) if k not in gear.keywords]
    for rule in listed(node, "rules"):
        ability = values.ability_name(values.text(rule.get("name")))
        if ability and ability not in gear.abilities:
            gear.abilities.append(ability)
    for profile, where, kind in profiles(node, path):
        if where not in gear.used:
            read_profile(profile, where, kind, gear, ctx)


def read_profile(profile: Node, where: str, kind: str, gear: Gear, ctx: Context) -> None:
    """A weapon, a transport, an ability (an invulnerable save among them), or what is listed as not read."""
    if kind in ("ranged", "melee", "weapon"):
        for weapon in values.weapons(profile, where, kind, gear.base, ctx, ctx.older_ap):
            gear.weapons.setdefault((weapon["name"], weapon["type"]), weapon)
    elif kind == "transport":
        gear.transport = values.transport(profile, where, ctx) or gear.transport
    elif kind == "ability" and values.norm(values.text(profile.get("name"))) == "transport" \
            and values.transport_ability(profile):
        gear.transport = values.transport_ability(profile)
        capacity = gear.transport["capacity"] if gear.transport else None
        ctx.note(where, f"transport capacity {capacity} read from the ability's text; which "
                        "models may embark is not checked")
    elif kind == "ability":
        ability, save = values.ability(profile)
        gear.insv = save or gear.insv
        if ability and ability not in gear.abilities:
            gear.abilities.append(ability)
    elif kind in ("statline", "vehicle"):
        if not any(u["path"] == where for u in ctx.unmapped):
            ctx.note(where, "a statline of a model the unit does not field")
    elif kind == "wound track":
        ctx.note(where, "a wound-track bracket: the unit musters with its top bracket's statline")
    else:
        ctx.note(where, f"a {values.type_name(profile)!r} profile is not read by the {ctx.ruleset} ruleset")


def finished(name: str, path: str, models: list[dict[str, Any]], gear: Gear, ctx: Context) -> dict[str, Any]:
    """The unit as the contract shapes it: weapon rules the roster names as rules are no abilities, an
    invulnerable save reaches every model line without one, and a transport is a TRANSPORT."""
    keywords = gear.keywords
    weapon_rules = {k.split(" ")[0] for w in gear.weapons.values() for k in w["keywords"]}
    abilities = [a for a in gear.abilities if a.upper().split(" ")[0].split("-")[0] not in weapon_rules
                 and a.upper() not in weapon_rules]  # the roster names weapon rules (Pistol, Blast) as rules
    if gear.insv is not None:
        for line in models:
            if line.get("InSv") is None:
                line["InSv"] = gear.insv
    if "TRANSPORT" in keywords and gear.transport is None:
        ctx.note(path, "a TRANSPORT with no capacity stated in the roster: mustered without one")
    if gear.transport is not None and "TRANSPORT" not in keywords:
        keywords.append("TRANSPORT")
    return {"name": name[:200], "keywords": keywords, "abilities": abilities, "models": models[:100],
            "weapons": list(gear.weapons.values())[:200], "transport": gear.transport, "embarked_in": None,
            "in_reserves": False, "leader_of": None, "statuses": [], "engaged_with": []}


def merged(models: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Model groups with the same name and statline are one line (profiles repeat per model group)."""
    out: list[dict[str, Any]] = []
    for line in models:
        same = next((o for o in out if {k: v for k, v in o.items() if k != "count"}
                     == {k: v for k, v in line.items() if k != "count"}), None)
        if same is not None:
            same["count"] += line["count"]
        else:
            out.append(line)
    return out


# -- the army ---------------------------------------------------------------------------------------------

def to_units(tree: Node, ruleset: str, reads_older_ap: bool,
             older_ap: bool) -> tuple[list[dict[str, Any]], list[dict[str, str]], list[str]]:
    """(units, unmapped, each unit's roster path)."""
    ctx = Context(ruleset, reads_older_ap, older_ap)
    found = units_of(tree, ctx)
    everything: list[Found] = []
    for unit in found:
        inner = nested_units(unit)
        everything.append(unit)
        everything.extend(inner)
    skip_of = {id(u): {t.path for t in everything if t.nested_in is u} for u in everything}
    by_selection: dict[str, Found] = {}
    for unit in everything:
        unit.unit = {"id": ctx.unit_id(values.text(unit.selection.get("name"))),
                     **build(unit, skip_of[id(unit)], ctx),
                     "points": costs.unit_points(unit.selection, unit.path, skip_of[id(unit)])}
        if not unit.unit["models"]:
            ctx.note(unit.path, f"a unit with no statline in this file: {values.text(unit.selection.get('name'))} "
                                "(its models have none: not mustered)")
        sid = unit.selection.get("id")
        if isinstance(sid, str):
            by_selection[sid] = unit
    everything = [u for u in everything if u.unit["models"]]
    embark(everything, ctx)
    attach_leaders(everything, by_selection, ctx)
    return [u.unit for u in everything], ctx.unmapped, [u.path for u in everything]


def embark(units: list[Found], ctx: Context) -> None:
    """A transport bought inside a unit carries it when it fits; a retinue is listed as bought under its holder."""
    for unit in units:
        squad = unit.nested_in
        if squad is None or not squad.unit.get("models"):
            continue
        if unit.selection.get("type") == "unit" and not unit.unit.get("transport"):
            ctx.note(unit.path, f"{unit.unit['name']} was bought under {squad.unit['name']}: it stands as its "
                                "own unit (not attached)")
            continue
        capacity = (unit.unit.get("transport") or {}).get("capacity")
        aboard = sum(line["count"] for line in squad.unit["models"])
        if capacity is None:
            ctx.note(unit.path, f"{squad.unit['id']} bought this vehicle but it states no transport capacity: "
                                "not embarked")
            continue
        if aboard > capacity:
            ctx.note(unit.path, f"{squad.unit['id']} ({aboard} models) does not fit in its transport "
                                f"(capacity {capacity}): not embarked")
            continue
        squad.unit["embarked_in"] = unit.unit["id"]


def attach_leaders(units: list[Found], by_selection: dict[str, Found], ctx: Context) -> None:
    """New Recruit: a leader's outgoing "Leading" association, and its bodyguard's incoming one."""
    led: set[str] = set()
    for unit in units:
        for index, link in enumerate(listed(unit.selection, "incomingAssociations")):
            leader = by_selection.get(str(link.get("from")))
            if leader is None or leader is unit:
                ctx.note(f"{unit.path}/incomingAssociations/{index}", "an association with no unit at its "
                                                                      "other end")
                continue
            if leader.unit.get("leader_of") or unit.unit["id"] in led or unit.unit.get("leader_of"):
                ctx.note(f"{unit.path}/incomingAssociations/{index}", "a second leader for one unit: not attached")
                continue
            leader.unit["leader_of"] = unit.unit["id"]
            led.add(unit.unit["id"])
    for unit in units:
        for index, link in enumerate(listed(unit.selection, "associations")):
            bodyguard = by_selection.get(str(link.get("to")))
            if unit.unit.get("leader_of"):
                continue  # attached through its bodyguard's incoming association
            if bodyguard is None or bodyguard is unit or bodyguard.unit["id"] in led or bodyguard.unit.get("leader_of"):
                ctx.note(f"{unit.path}/associations/{index}", "an association whose unit is not in this roster "
                                                              "or already led: not attached")
                continue
            unit.unit["leader_of"] = bodyguard.unit["id"]
            led.add(bodyguard.unit["id"])
