"""Roster import: the files players already have (BattleScribe .ros/.rosz, New Recruit JSON) as the
contract's Unit list. An adapter at the edge: the domain never sees XML.

    convert(raw, "reference") -> {"format": "rosz", "ruleset": "reference", "units": [Unit, …],
                                  "unmapped": [{"path": "roster/forces/0/selections/3/profiles/2", "what": "…"}]}

`sniff` unwraps the encoding, `xml_reader`/`json_reader` give one tree of selections, `mapping` (with
`read`, one profile at a time) turns that tree into units for the chosen ruleset.
"""
from __future__ import annotations

import re
from typing import Any

from pydantic import ValidationError

from warlog.api.rosters import mapping, sniff
from warlog.api.schemas import ArmyIn, dumped
from warlog.domain import army
from warlog.domain.rules.registry import find_ruleset
from warlog.domain.rulings import Malformed

RULESETS = ("reference", "alternating", "heresy")


def ruleset_for(game_system: str) -> str | None:
    """The ruleset a roster's game system plays as: 40k 10th/11th reference, 8th/9th alternating, HH heresy."""
    name = game_system.lower()
    if "horus heresy" in name or "30,000" in name or "30k" in name:
        return "heresy"
    if "kill team" in name:
        return None
    if re.search(r"\b(10th|11th)\b", name):
        return "reference"
    if re.search(r"\b(8th|9th)\b", name):
        return "alternating"
    return None


def is_roster(raw: bytes, content_type: str | None) -> bool:
    """A body `/armies` reads as a roster file: a zip (whatever the Content-Type), XML, or JSON whose top
    level is a "roster" object (a JSON army is `{"units": …}`)."""
    kind = sniff.encoding(raw)
    if kind in ("rosz", "ros"):
        return True
    return kind == "json" and re.match(rb'\s*\{\s*"roster"\s*:', raw[:200].lstrip(b"\xef\xbb\xbf")) is not None


def convert(raw: bytes, ruleset: str | None = None) -> dict[str, Any]:
    """The roster in `raw` as units for `ruleset` (default: the one its game system plays as), checked as
    a JSON army is; a broken file, or one missing what the ruleset needs, is Malformed naming the path."""
    if ruleset is not None and ruleset not in RULESETS:
        raise Malformed(f"unknown ruleset {ruleset!r}; known: {', '.join(RULESETS)}", field="ruleset")
    encoding, tree = sniff.read(raw)
    roster = tree.get("roster") if isinstance(tree, dict) else None
    if not isinstance(roster, dict):
        raise Malformed('not a roster: no "roster" object', field="roster")
    system = mapping.values.text(roster.get("gameSystemName"))
    native = ruleset_for(system)
    chosen = ruleset or native or "reference"
    units, unmapped, paths = mapping.to_units(tree, chosen, older_ap=native == "heresy")
    if native is None:
        unmapped.insert(0, {"path": "roster", "what": f"the game system ({system[:60] or 'not named'}) is none of "
                                                      f"the rulesets: its units are given as read, checked as "
                                                      f"{chosen} units"})
    if not units:
        raise Malformed("the roster holds no unit with a statline", field="roster/forces")
    check(units, paths, chosen)
    return {"format": encoding, "ruleset": chosen, "units": units, "unmapped": unmapped}


def check(units: list[dict[str, Any]], paths: list[str], ruleset: str) -> None:
    """The same checks a JSON army gets (the Unit schema, the army's links, the ruleset's hook), their
    field put back as the roster path of the unit at fault."""
    try:
        validated = [dumped(u) for u in ArmyIn.model_validate({"units": units}).units]
        army.validate_army("A", validated, {})
        find_ruleset(ruleset).check_army(validated)
    except ValidationError as error:
        first = error.errors()[0]
        raise at_roster(".".join(str(p) for p in first["loc"]), first["msg"], paths) from None
    except Malformed as error:
        raise at_roster(error.field or "", error.detail, paths) from None
    units[:] = validated


def at_roster(where: str, message: str, paths: list[str]) -> Malformed:
    match = re.match(r"units\.(\d+)\.?(.*)", where)
    if not match or int(match.group(1)) >= len(paths):
        return Malformed(f"{where}: {message}", field="roster")
    path = paths[int(match.group(1))]
    return Malformed(f"{path}: {message} (as a unit: {match.group(2) or 'the unit'})", field=path)
