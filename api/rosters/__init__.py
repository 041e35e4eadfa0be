"""Roster import: the files players already have (BattleScribe .ros/.rosz, New Recruit JSON) as the
contract's Unit list. An adapter at the edge: the domain never sees XML.

    convert(raw, "reference") -> {"format": "rosz", "ruleset": "reference", "units": [Unit, …],
                                  "unmapped": [{"path": "roster/forces/0/selections/3/profiles/2", "what": "…"}]}

`sniff` unwraps the encoding, `xml_reader`/`json_reader` give one tree of selections, `mapping` (with
`read`, one profile at a time) turns that tree into units for the chosen ruleset.

The rulesets come from the registry: a ruleset reads roster files when it states how (`Ruleset.roster`, a
`RosterReading`: the game systems it plays, the scale its rules read AP on). One that states none (a plugin
that does not say) takes no roster file: its armies come as JSON units, and a roster for it is 422.
"""
from __future__ import annotations

import re
from typing import Any

from pydantic import ValidationError

from warlog.api.rosters import costs, mapping, sniff
from warlog.api.rosters import read as values
from warlog.api.schemas import ArmyIn, body_context, dumped
from warlog.api.sentences import AtParameter, invalid
from warlog.domain import army
from warlog.domain.rules import registry
from warlog.domain.rules.registry import find_ruleset
from warlog.domain.rules.rosters import RosterReading
from warlog.domain.rulings import Malformed

DEFAULT = "reference"  # a roster whose game system no ruleset plays is read as this ruleset's units


def readers() -> tuple[str, ...]:
    """The rulesets that read roster files, as the registry lists them, the default first."""
    names = [name for name in registry.names() if find_ruleset(name).roster is not None]
    return tuple(sorted(names, key=lambda name: name != DEFAULT))


def reading(ruleset: str) -> RosterReading:
    """How `ruleset` reads a roster; an unknown ruleset, or one that reads none, is 422 naming `ruleset`."""
    if ruleset not in registry.names():
        raise AtParameter(f"unknown ruleset {ruleset!r}; known: {', '.join(readers())}", field="ruleset")
    found = find_ruleset(ruleset).roster
    if found is None:
        raise AtParameter(no_reading(ruleset), field="ruleset")
    return found


def no_reading(ruleset: str) -> str:
    return (f"the {ruleset} ruleset reads no roster file (it states no roster reading): send its army as JSON "
            f"units; the rulesets that read one: {', '.join(readers())}")


def ruleset_for(game_system: str) -> str | None:
    """The ruleset a roster's game system plays as, the first in the registry that says it plays it (40k
    10th/11th reference, 8th/9th alternating, Horus Heresy heresy)."""
    for name in registry.names():
        found = find_ruleset(name).roster
        if found is not None and found.plays(game_system):
            return name
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
    if ruleset is not None:
        reading(ruleset)
    encoding, tree = sniff.read(raw)
    roster = tree.get("roster") if isinstance(tree, dict) else None
    if not isinstance(roster, dict):
        raise Malformed('not a roster: no "roster" object', field="roster")
    system = values.text(roster.get("gameSystemName"))
    native = ruleset_for(system)
    chosen = ruleset or native or DEFAULT
    written_older = native is not None and reading(native).systems_older_ap
    units, unmapped, paths = mapping.to_units(tree, chosen, reading(chosen).older_ap, older_ap=written_older)
    if native is None:
        unmapped.insert(0, {"path": "roster", "what": f"the game system ({system[:60] or 'not named'}) is none of "
                                                      f"the rulesets: its units are given as read, checked as "
                                                      f"{chosen} units"})
    if not units:
        raise Malformed(nothing_read(roster, system, native), field="roster/forces")
    check(units, paths, chosen)
    shown = [{**unit, "points": unit.get("points")} for unit in units]  # CONTRACT.md: null where the roster has none
    return {"format": encoding, "ruleset": chosen, "units": shown, "unmapped": unmapped,
            "summary": costs.summary(roster, units, unmapped)}


PLAYED = "Warhammer 40,000 (8th to 11th) and the Horus Heresy (1st to 3rd)"


def nothing_read(roster: dict[str, Any], system: str, native: str | None) -> str:
    """Why a roster gave no unit, in one sentence: it is empty, its game is one warlog does not play, or
    none of its selections has a statline."""
    name = values.text(roster.get("name"))[:60] or "unnamed"
    if not any(mapping.listed(force, "selections") or mapping.listed(force, "forces")
               for force in mapping.listed(roster, "forces")):
        return (f"This roster ({name}) is empty: its forces hold no selection; warlog reads the units a "
                f"roster's forces hold")
    if native is None:
        return (f"This roster is for {system[:60] or 'a game system it does not name'}, which warlog does not "
                f"play, and none of its selections has a statline warlog reads; warlog plays rosters of {PLAYED}")
    return (f"This roster ({name}, {system[:60]}) holds no unit with a statline warlog reads: every selection "
            f"is listed as army configuration or a unit with no profile")


def check(units: list[dict[str, Any]], paths: list[str], ruleset: str) -> None:
    """The same checks a JSON army gets (the Unit schema, the army's links, the ruleset's hook), their
    field put back as the roster path of the unit at fault."""
    try:
        validated = [dumped(u) for u in ArmyIn.model_validate({"units": units}).units]
        army.validate_army("A", validated)
        find_ruleset(ruleset).check_army(validated)
    except ValidationError as error:
        said = invalid(error, {"units": units}, body_context(ArmyIn, "The army", "an army"))
        raise at_roster((said.field or "").strip("/").replace("/", "."), said.detail, paths) from None
    except Malformed as error:
        raise at_roster(error.field or "", error.detail, paths) from None
    units[:] = validated


def at_roster(where: str, message: str, paths: list[str]) -> Malformed:
    match = re.match(r"units\.(\d+)\.?(.*)", where)
    if not match or int(match.group(1)) >= len(paths):
        return Malformed(f"In the roster's units ({where or 'all of them'}): {message}", field="roster")
    path = paths[int(match.group(1))]
    return Malformed(f"At {path} in the roster ({match.group(2) or 'the unit'}): {message}", field=path)
