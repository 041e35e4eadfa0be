"""New Recruit / ListForge JSON: already the common tree; checked to be a roster."""
from __future__ import annotations

from typing import Any

from api.schemas import parse_json
from domain.rulings import Malformed


def read(raw: bytes) -> dict[str, Any]:
    body = parse_json(raw)  # duplicate keys, depth, NaN and lone surrogates refused as for every JSON body
    if not isinstance(body, dict) or not isinstance(body.get("roster"), dict):
        raise Malformed('not a roster: a roster JSON file has a top-level "roster" object', field="roster")
    return body
