"""BattleScribe `.ros` XML into the tree New Recruit's JSON has: containers become lists, attributes keys,
element text `$text`. Parsed with defusedxml: no DTDs, no entity expansion, no external fetches."""
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
                        "infoLinks", "modifiers", "conditions", "tags", "extraAssociations"})


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
    return node


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
