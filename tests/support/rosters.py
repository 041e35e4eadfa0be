"""Synthetic roster files, written by the tests themselves in all three encodings (New Recruit JSON,
BattleScribe .ros XML and .rosz), from one tree shaped like New Recruit's JSON."""
from __future__ import annotations

import io
import json
import zipfile
from typing import Any
from xml.sax.saxutils import escape, quoteattr

NAMESPACE = "http://www.battlescribe.net/schema/rosterSchema"
CONTAINER_ITEM = {"forces": "force", "selections": "selection", "profiles": "profile",
                  "characteristics": "characteristic", "categories": "category", "costs": "cost", "rules": "rule",
                  "associations": "association", "incomingAssociations": "association"}


def profile(name: str, type_name: str, **values: str) -> dict[str, Any]:
    return {"name": name, "typeName": type_name,
            "characteristics": [{"name": k.replace("_", " "), "$text": v} for k, v in values.items()]}


def selection(name: str, type_: str = "upgrade", number: int = 1, *, profiles=(), selections=(),
              categories=(), primary: str | None = None, rules=(), sid: str | None = None, **extra: Any
              ) -> dict[str, Any]:
    cats = [{"name": c, "primary": c == primary} for c in categories]
    return {"id": sid or name.lower().replace(" ", "-"), "name": name, "type": type_, "number": number,
            "profiles": list(profiles), "selections": list(selections), "categories": cats,
            "rules": [{"name": r} for r in rules], **extra}


def roster(game_system: str, *selections_: dict[str, Any], forces: list[dict[str, Any]] | None = None
           ) -> dict[str, Any]:
    return {"roster": {"name": "Test list", "gameSystemName": game_system,
                       "forces": forces or [{"name": "Army Roster", "selections": list(selections_)}]}}


def as_json(tree: dict[str, Any]) -> bytes:
    return json.dumps(tree).encode()


def _xml(tag: str, node: dict[str, Any]) -> str:
    attrs = " ".join(f"{k}={quoteattr(str(v).lower() if isinstance(v, bool) else str(v))}" for k, v in node.items()
                     if not isinstance(v, (list, dict)) and k != "$text")
    inner = "".join(f"<{k}>{''.join(_xml(CONTAINER_ITEM[k], item) for item in v)}</{k}>"
                    for k, v in node.items() if isinstance(v, list))
    text = escape(node.get("$text", ""))
    return f"<{tag}{' ' + attrs if attrs else ''}>{text}{inner}</{tag}>"


def as_ros(tree: dict[str, Any]) -> bytes:
    body = _xml("roster", tree["roster"]).replace("<roster", f'<roster xmlns="{NAMESPACE}"', 1)
    return ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' + body).encode()


def as_rosz(tree: dict[str, Any], name: str = "Test list.ros") -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(name, as_ros(tree))
    return buffer.getvalue()


def tenth_unit(name: str, *, models: list[tuple[str, int, dict[str, str]]], weapons=(), categories=("Infantry",),
               sid: str | None = None, abilities=(), type_: str = "unit", **extra: Any) -> dict[str, Any]:
    """A 10th-edition unit: one model selection per (name, count, statline overrides)."""
    statline = {"M": '6"', "T": "4", "SV": "3+", "W": "2", "LD": "6+", "OC": "1"}
    children = [selection(model, "model", count, profiles=[profile(model, "Unit", **{**statline, **over})])
                for model, count, over in models]
    return selection(name, type_, 1, profiles=list(abilities), selections=children + list(weapons),
                     categories=[*list(categories), name], primary=categories[0], sid=sid, **extra)


def ranged(name: str, count: int = 1, **over: str) -> dict[str, Any]:
    values = {"Range": '24"', "A": "2", "BS": "3+", "S": "4", "AP": "-1", "D": "1", "Keywords": "-", **over}
    return selection(name, "upgrade", count, profiles=[profile(name, "Ranged Weapons", **values)])


def melee(name: str, count: int = 1, **over: str) -> dict[str, Any]:
    values = {"Range": "Melee", "A": "4", "WS": "3+", "S": "5", "AP": "-2", "D": "D3+1", "Keywords": "-", **over}
    return selection(name, "upgrade", count, profiles=[profile(name, "Melee Weapons", **values)])


def tenth_list() -> dict[str, Any]:
    """A 10th-edition list: a squad with its sergeant, a captain leading it, a Rhino, a detachment."""
    squad = tenth_unit("Intercessor Squad", sid="squad1", models=[
        ("Intercessor Sergeant", 1, {"W": "2"}), ("Intercessor", 4, {})],
        weapons=[ranged("Bolt rifle", 5, Keywords="Assault, Heavy, [Sustained Hits 1]"),
                 melee("Power fist", 1, Keywords="Anti-Infantry 4+")],
        incomingAssociations=[{"type": "incoming", "from": "capt1", "name": "Leading"}])
    captain = tenth_unit("Captain", sid="capt1", type_="model", categories=("Character", "Infantry"),
                         models=[], abilities=[profile("Invulnerable Save", "Abilities", Description="4+"),
                                               profile("Iron Halo", "Abilities",
                                                       Description="this model has a Feel No Pain 5+")],
                         weapons=[melee("Relic blade", A="5", D="2")],
                         associations=[{"type": "outgoing", "to": "squad1", "name": "Leading"}])
    captain["profiles"].append(profile("Captain", "Unit", M='6"', T="4", SV="3+", W="5", LD="6+", OC="1"))
    rhino = selection("Rhino", "model", 1, categories=["Vehicle", "Transport", "Dedicated Transport"],
                      primary="Vehicle", profiles=[
                          profile("Rhino", "Unit", M='12"', T="9", SV="3+", W="10", LD="6+", OC="2"),
                          profile("Rhino", "Transport",
                                  Capacity="This model has a transport capacity of 12 Infantry models.")],
                      selections=[ranged("Storm bolter", Range='24"', A="2", BS="3+", S="4", AP="0", D="1",
                                         Keywords="Rapid Fire 2")])
    detachment = selection("Detachment", "upgrade", categories=["Configuration"], primary="Configuration")
    return roster("Warhammer 40,000 10th Edition", detachment, squad, captain, rhino)


def heresy_squad() -> dict[str, Any]:
    """A Horus Heresy squad with a sergeant and the Rhino bought inside it (HH 1st's nesting)."""
    marine = {"Unit_Type": "Infantry", "WS": "4", "BS": "4", "S": "4", "T": "4", "W": "1", "I": "4", "A": "1",
              "LD": "8", "Save": "3+"}
    rhino = selection("Rhino", "upgrade", profiles=[
        profile("Rhino", "Vehicle", BS="4", Front="11", Side="11", Rear="10", HP="3", Type="Vehicle (Transport)"),
        profile("Rhino (Transport)", "Transport", Capacity="10", Fire_Points="2", Access_Points="Sides")],
        selections=[selection("Twin-linked bolter", profiles=[
            profile("Twin-linked Boltgun", "Weapon", Range='24"', Strength="4", AP="5", Type="Rapid Fire, Twin-linked")])])
    squad = selection("Tactical Squad", "unit", selections=[
        selection("Legionary", "model", 9, profiles=[profile("Legionary", "Unit", **marine)]),
        selection("Sergeant", "model", 1, profiles=[profile("Sergeant", "Unit", **{**marine, "LD": "9", "A": "2"})],
                  selections=[selection("Power sword", profiles=[profile("Power Sword", "Weapon", Range="-",
                                                                          Strength="User", AP="3", Type="Melee")])]),
        rhino], categories=["Troops"], primary="Troops")
    return roster("(HH V2) Horus Heresy (2022)", squad)
