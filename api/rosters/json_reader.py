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
        raise Malformed('not a roster: a roster JSON file has a top-level "roster" object', field="roster")
    return body
