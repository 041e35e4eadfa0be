"""The one exclusion of tests/e2e/test_schemathesis.py: schema-valid requests the service rightly refuses.

Loaded by `st run` (SCHEMATHESIS_HOOKS). Every check runs; this drops only a positive_data_acceptance failure
(ST202, "schema-valid request rejected") whose refusal no request schema can foresee, because it depends on
what the service already holds or on the contents of a file:

- 412: `If-Match` is a precondition on the game's current version (RFC 9110 §13.1.1; CONTRACT.md: "412:
  If-Match names a version that is not the game's current version"). Any text is a well-formed If-Match, so
  the document admits any; whether it names the current version is the game's state, as a 409 is, which the
  tool already expects.
- 422 naming `Idempotency-Key`: a key reused on another endpoint, or with another body, is 422 by the contract
  (as the IETF Idempotency-Key draft says), and whether it was used before is the service's memory, not the
  request's shape. The tool draws the same short keys ("0", "00") for every operation.
- 422 for a roster file sent as application/octet-stream that is no roster: "a file that is not a roster, or
  is broken, is 422 naming the path" (CONTRACT.md "Roster import"), and a file format (a zip holding one
  BattleScribe .ros) is no JSON Schema; the tool sends a PNG, or random bytes.
- 422 for an army whose units name each other wrongly, or need what the game's ruleset reads (domain/army.py
  validate_army, a ruleset's check_army): a unit id twice in the army; `embarked_in` or
  `leader_of` naming no unit of the army, or one that cannot carry or be led; more models aboard than the
  capacity; no Ld where the ruleset tests it. A JSON Schema states each unit's shape, not how units refer to
  one another, nor which game they join.
- 422 naming `dice` at a table-dice game: how many dice a roll needs and how many sides they have is its dice
  expression's (another field's text) and the game's dice mode ("missing dice in table-dice mode, a die face
  outside 1..sides" are the contract's 422s). With server dice any dice are refused 409, as the tool expects.

Anything else it keeps, so that a 412 or 422 for another reason still fails the run.
"""
from __future__ import annotations

import re
from typing import Any

import schemathesis
from schemathesis.openapi.checks import RejectedPositiveData

ROSTER_TYPE = "application/octet-stream"
ARMY_RELATIONS = re.compile(r"/units/[0-9]+/(id|embarked_in|leader_of|transport/capacity|models/0/Ld)")


def problem(response: Any) -> dict[str, Any]:
    try:
        body = response.json()
    except Exception:  # not JSON: nothing to drop
        return {}
    return body if isinstance(body, dict) else {}


def why_refused_rightly(failure: Any, case: Any, response: Any) -> str | None:
    """The reason a schema-valid request is rightly refused, when it is one of the three above; else None."""
    if not isinstance(failure, RejectedPositiveData):
        return None
    answer = problem(response)
    if response.status_code == 412 and answer.get("status") == 412:
        return "If-Match names another version than the game's"
    if response.status_code != 422 or answer.get("status") != 422:
        return None
    if answer.get("field") == "Idempotency-Key":
        return "an Idempotency-Key used before"
    if (case.media_type or "").split(";")[0].strip().lower() == ROSTER_TYPE:  # the file, or a path in it
        return "a file that is no roster"
    if case.path.endswith("/commands") and str(answer.get("field")).startswith("/dice"):
        return "table dice that do not fit the roll they are for"
    if case.path.endswith("/armies") and ARMY_RELATIONS.fullmatch(str(answer.get("field"))):
        return "units that name each other wrongly, or lack what the ruleset reads"
    return None


@schemathesis.hook
def filter_failure(context: Any, failure: Any, case: Any, response: Any) -> bool:
    return why_refused_rightly(failure, case, response) is None  # st's summary counts what it dropped
