"""BattleScribe `.ros` XML into the tree New Recruit's JSON has: containers become lists, attributes keys,
element text `$text`. Parsed with defusedxml: no DTDs, no entity expansion, no external fetches.

Every layout the roster schema has had reads as the current one (2.03, New Recruit):
- 2.01 and before: a profile names its type in `profileTypeName=` (now `typeName=`) and a characteristic
  holds its value in `value=` (now the element's text);
- 1.15 and before: a force files its selections by category (`force → categories → category →
  selections`); they are read as the force's own selections, in document order, each keeping its `type=`
  and taking the category it is filed under as one of its own (its keyword);
- before 1.15: the forces are `catalogueLinks` and the selections sit at the roster's top, each naming its
  force and category (`catalogueLinkId`, `categoryId`): they are filed as 1.15 files them (`linked`).
The BSData schemas repository's roster migrations (1.15, 2.01, 2.02) are what these follow."""
from __future__ import annotations

from typing import Any
from xml.etree.ElementTree import Element, ParseError

import defusedxml.ElementTree as SafeTree
from defusedxml import DefusedXmlException

from warlog.api.json_body import MAX_DEPTH
from warlog.domain.rulings import Malformed

NAMESPACE = "http://www.battlescribe.net/schema/rosterSchema"
CONTAINERS = frozenset({"forces", "selections", "profiles", "characteristics", "categories", "costs", "rules",
                        "costLimits", "associations", "incomingAssociations", "attributes", "publications",
                        "infoLinks", "modifiers", "conditions", "tags", "extraAssociations", "catalogueLinks"})


def local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def tree(element: Element, depth: int = 0) -> dict[str, Any]:
    if depth > MAX_DEPTH:  # as deep as a JSON body may be; deeper would exhaust the stack, not the roster
        raise Malformed(f"the XML is nested too deep (more than {MAX_DEPTH} levels)", field="roster")
    node: dict[str, Any] = dict(element.attrib)
    for child in element:
        name = local(child.tag)
        if name in CONTAINERS:
            node[name] = [tree(item, depth + 2) for item in child]
        elif len(child):
            node[name] = tree(child, depth + 1)
        else:
            node[name] = (child.text or "").strip()
    text = (element.text or "").strip()
    if not len(element) and text:
        node["$text"] = text
    return older_layouts(node, local(element.tag))


def older_layouts(node: dict[str, Any], name: str) -> dict[str, Any]:
    """An element of an older layout as the current layout writes it (see the module's docstring)."""
    if name == "profile" and "typeName" not in node and "profileTypeName" in node:
        node["typeName"] = node["profileTypeName"]
    elif name == "characteristic" and "$text" not in node and isinstance(node.get("value"), str):
        node["$text"] = node["value"].strip()
    elif name == "roster" and "forces" not in node and isinstance(node.get("catalogueLinks"), list):
        linked(node)
    elif name == "force":
        filed = []
        for category in [c for c in node.get("categories") or [] if isinstance(c, dict)]:
            for item in [s for s in category.get("selections") or [] if isinstance(s, dict)]:
                item.setdefault("categories", []).append({"name": category.get("name", "")})  # its keyword
                filed.append(item)
        if filed:
            node["selections"] = list(node.get("selections") or []) + filed
            for category in node["categories"]:
                category.pop("selections", None)
    return node


def linked(roster: dict[str, Any]) -> None:
    """Before 1.15: the roster's forces are its `catalogueLinks` (sub-forces their own links), its selections
    sit at the roster's top, each naming its force (`catalogueLinkId`) and its category (`categoryId`); they
    are filed as 1.15 files them (`force → categories → category → selections`), then read as 1.15's."""
    selections = [s for s in roster.pop("selections", None) or [] if isinstance(s, dict)]

    def force(link: dict[str, Any]) -> dict[str, Any]:
        for category in [c for c in link.get("categories") or [] if isinstance(c, dict)]:
            category["selections"] = [s for s in selections if s.get("catalogueLinkId") == link.get("id")
                                      and s.get("categoryId") == category.get("categoryId")]
        link["forces"] = [force(sub) for sub in link.pop("catalogueLinks", None) or [] if isinstance(sub, dict)]
        return older_layouts(link, "force")

    roster["forces"] = [force(link) for link in roster.pop("catalogueLinks") if isinstance(link, dict)]


def read(raw: bytes) -> dict[str, Any]:
    try:
        root = SafeTree.fromstring(raw, forbid_dtd=True)
    except DefusedXmlException:
        raise Malformed("The XML is refused: it declares a DTD or an entity, which no roster holds",
                        field="roster") from None
    except (ParseError, ValueError) as error:
        raise Malformed(f"the XML is broken: {error}", field="roster") from None
    if local(root.tag) != "roster":
        raise Malformed(f"not a roster: the XML's root is <{local(root.tag)}>, a roster's is <roster>",
                        field="roster")
    return {"roster": tree(root)}
