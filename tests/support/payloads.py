"""Holding an event's data to its kind's payload type (domain/events.py): strict (a bool is no int, a string
no number), every key it requires there, no key it does not name."""
from __future__ import annotations

import gzip
import json
from functools import cache
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter

from warlog.domain.rules.registry import find_ruleset


@cache
def adapter(payload: type) -> TypeAdapter[Any]:
    return TypeAdapter(payload)


def check_payload(ruleset: str, kind: str, data: dict[str, Any]) -> None:
    payload = find_ruleset(ruleset).event_payloads.get(kind)
    assert payload is not None, f"{ruleset} logs a {kind} whose payload no type names (domain/events.py)"
    unknown = set(data) - set(payload.__annotations__)
    assert not unknown, f"{kind}: keys its payload type does not name: {sorted(unknown)}"
    adapter(payload).validate_python(data, strict=True)


GOLDEN = Path(__file__).parent.parent / "golden"


def exported(folder: str) -> list[dict[str, Any]]:
    """The NDJSON export of a golden store (tests/golden/<folder>), each event's data as the JSON it logged."""
    with gzip.open(GOLDEN / folder / "export.ndjson.gz", "rt", encoding="utf-8") as lines:
        rows = [json.loads(line) for line in lines]
    for row in rows:
        if isinstance(row["data"], str):  # the legacy export writes each event's data as a JSON string
            row["data"] = json.loads(row["data"])
    return rows


# what the players'-words issue (24) added to every unit of GET /state since the golden recordings were made:
# a state compared as the recording read it leaves these out (tests/e2e/test_datasheets.py holds them)
ROLL_WORDS = ("needed", "outcomes", "successes", "text")
DATASHEET = ("keywords", "abilities", "models", "weapons", "leader_of", "led_by", "status_details",
             "points",  # issue 25: what a destroyed unit scores (MSN.END.1)
             "engaged_with")  # issue 25: whom it is engaged with (tests/e2e/test_heresy_audit_fixes_c.py)


RESULT_WORDS = frozenset({"draw", "by", "score", "rule", "how"})


def assert_as_recorded(now: dict[str, Any], then: dict[str, Any], where: object) -> None:
    """GET /state as today's code answers it, against what a golden recording read at the same seq."""
    if then.get("status") == 500:  # the recording's code failed on a new round's first event (Ruleset.step)
        assert now.get("version") and now["battle_round"] > 1, (where, now)  # now a state, between two rounds
        return
    units = {uid: {k: v for k, v in unit.items() if k not in DATASHEET} for uid, unit in now["units"].items()}
    now = {**now, "units": units, **{key: untitled(now[key]) for key in ("actions", "records") if key in now}}
    if isinstance(now.get("last_roll"), dict) and isinstance(then.get("last_roll"), dict):
        # issue 24 (rolls that say what they mean): `last_roll` gained needed/outcomes/successes/text since the
        # recordings; the keys a recorded one lacks are left out (tests/e2e/test_roll_words.py holds them)
        now["last_roll"] = {k: v for k, v in now["last_roll"].items() if k in then["last_roll"] or k not in ROLL_WORDS}
    if isinstance(now.get("result"), dict) and isinstance(then.get("result"), dict):
        # issue 25 (results, RULES.md MSN): a result gained draw/by/score/rule since the recordings, read for an old
        # game from what its GameEnded logged; the keys a recorded one has are held to it (test_results.py the rest)
        assert set(now["result"]) == set(then["result"]) | RESULT_WORDS, (where, now["result"])
        now["result"] = {k: v for k, v in now["result"].items() if k in then["result"]}
    if "objectives" in now and "objectives" not in then:
        # issue 25 (MSN.OBJ.1): the state lists the game's objective markers by id and name since the recordings,
        # the markers its options name, in order (tests/e2e/test_msn_objectives.py holds the names)
        assert [marker["id"] for marker in now.pop("objectives")] == now["options"]["objectives"], where
    now = without_sentences(now, then, where)
    if now != then:
        diff = {k: (now.get(k), then.get(k)) for k in set(now) | set(then) if now.get(k) != then.get(k)}
        raise AssertionError((where, diff))



def without_sentences(now: dict[str, Any], then: dict[str, Any], where: object) -> dict[str, Any]:
    """GET /state without the sentences it gained since the recordings (what the game waits for, where it is, what
    the last roll was for: tests/e2e/test_state_in_words.py holds their words; each unit's strength in words:
    tests/e2e/test_unit_words.py), each a sentence where it is taken out; a recording that holds one is held to
    it."""
    now = dict(now)
    if "phase_title" not in then:
        assert now["phase_title"] is None or now["phase_title"].endswith(("phase", "phase)")), (where, now)
        del now["phase_title"]
    awaiting, recorded = now.get("awaiting"), then.get("awaiting")
    if isinstance(awaiting, dict) and isinstance(recorded, dict) and "text" not in recorded:
        assert awaiting["text"].startswith("The game ") and "_" not in awaiting["text"], (where, awaiting)
        now["awaiting"] = {k: v for k, v in awaiting.items() if k != "text"}
    roll, recorded = now.get("last_roll"), then.get("last_roll")
    if isinstance(roll, dict) and isinstance(recorded, dict) and "purpose_title" not in recorded:
        assert roll["purpose_title"] and "_" not in roll["purpose_title"], (where, roll)
        now["last_roll"] = {k: v for k, v in roll.items() if k != "purpose_title"}
    units, recorded_units = now.get("units"), then.get("units")
    if isinstance(units, dict) and isinstance(recorded_units, dict):  # each unit's strength as said (CORE.STR.2)
        now["units"] = {uid: _strength_untitled(unit, recorded_units.get(uid), where) for uid, unit in units.items()}
    return now


def _strength_untitled(unit: dict[str, Any], recorded: object, where: object) -> dict[str, Any]:
    """A unit without the `strength_title` it gained since the recordings, which says its `strength` in words, and
    its effects without the `until_title` they gained (how long each lasts, in words: "until the end of the
    phase"; tests/e2e/test_reference_effects.py holds the words)."""
    if not isinstance(recorded, dict):
        return unit
    if "strength_title" not in recorded and "strength_title" in unit:
        said = unit["strength_title"]
        assert said and "_" not in said and ("strength" in said or said == unit["strength"]), (where, unit)
        unit = {k: v for k, v in unit.items() if k != "strength_title"}
    effects, recorded_effects = unit.get("effects") or [], recorded.get("effects") or []
    if effects and not any("until_title" in effect for effect in recorded_effects):
        for effect in effects:
            said = effect["until_title"]
            assert said.startswith("until ") and "_" not in said, (where, effect)
        unit = {**unit, "effects": [{k: v for k, v in e.items() if k != "until_title"} for e in effects]}
    return unit


# what issue 24 ("Choices with titles") added to every offered action since the golden recordings were made: an
# action's `title` (its button), each field's `title` (its label) and a choice's `format`, and each choice as a
# `oneOf` of {const, title} where an enum of the consts was. The recordings are compared with these taken back
# out, so everything else an offer says (its types, rules, summaries, fields, ranges, the choices' values in
# order) is still held to what they read; tests/e2e/test_titled_choices.py holds the titles.
def untitled(actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{**{k: v for k, v in action.items() if k != "title"}, "schema": _bare(action["schema"])}
            for action in actions]


def _bare(schema: Any) -> Any:
    if not isinstance(schema, dict):
        return schema
    bare = {k: v for k, v in schema.items() if k not in ("title", "format", "oneOf")}
    if "oneOf" in schema:
        bare["enum"] = [entry["const"] for entry in schema["oneOf"]]
    if "properties" in schema:
        bare["properties"] = {name: _bare(sub) for name, sub in schema["properties"].items()}
    if "items" in schema:
        bare["items"] = _bare(schema["items"])
    return bare
