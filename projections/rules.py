"""The rule catalogue (a copy of RULES.md's table, made by ops/make_rules_catalogue.py)."""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

CATALOGUE = Path(__file__).with_name("rules_catalogue.json")


@lru_cache(maxsize=1)
def catalogue() -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] = json.loads(CATALOGUE.read_text(encoding="utf-8"))  # JSON: rule ID -> row
    return found


def rule_view(rule_id: str | None) -> dict[str, Any] | None:
    """The rule with its summary and the seed file it comes from; unknown IDs say so."""
    if rule_id is None:
        return None
    found = catalogue().get(rule_id)
    if found is None:
        return {"id": rule_id, "summary": None, "section": None, "seed_file": None}
    return {"id": rule_id, **found}
