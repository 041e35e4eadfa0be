"""New Recruit / ListForge JSON: already the common tree; checked to be a roster."""
from __future__ import annotations

from typing import Any

from warlog.api.json_body import NotUtf8, parse_json
from warlog.domain.rulings import Malformed


def read(raw: bytes) -> dict[str, Any]:
    try:
        body = parse_json(raw)  # duplicate keys, depth, NaN, lone surrogates and U+0000 refused as for every JSON body
    except (Malformed, NotUtf8) as error:  # a broken file (or one not in UTF-8) is 422 naming the roster
        raise Malformed(error.detail, field=getattr(error, "field", None) or "roster") from None
    if not isinstance(body, dict) or not isinstance(body.get("roster"), dict):
        raise Malformed(f"This JSON is not a New Recruit roster ({what_json(body)}); warlog reads New Recruit "
                        f"or ListForge JSON (a top-level \"roster\" object), BattleScribe .ros or .rosz files, "
                        f"and an army as JSON units on POST /games/{{id}}/armies", field="roster")
    forces = body["roster"].get("forces")
    if isinstance(forces, dict):
        raise Malformed("This JSON is a BattleScribe roster put through a generic XML-to-JSON converter "
                        "(\"forces\" holds \"force\"), not New Recruit's JSON; warlog reads New Recruit or "
                        "ListForge JSON, or the .ros or .rosz file itself", field="roster/forces")
    return body


def what_json(body: object) -> str:
    """What a JSON body that is not a roster is, in a few words."""
    if isinstance(body, dict) and "units" in body:
        return "it is an army of JSON units: send it to POST /games/{id}/armies, not as a roster"
    if isinstance(body, dict):
        keys = ", ".join(sorted(str(k) for k in body)[:5]) or "none"
        return f"its top level is an object with the keys {keys}, and no \"roster\" object"
    return f"its top level is {'a list' if isinstance(body, list) else 'a ' + type(body).__name__}, not an object"
