"""The rules' editions: a game keeps the rules it was created under.

A fix to a rule changes what a request makes. A game created before the fix goes on by the rules it began with
(its players agreed to them, and a rule never changes in the middle of a game), and `GET /verify` plays its stored
requests again by those same rules, so `commands_ok` stays what it was (domain/rerun.py). A new game records the
edition it is created under in its `GameCreated` (`edition`, in the hashed data); a game without the key was
created under edition 1.

Each fix that changes the events a request makes is one entry of `FIXES`, by the rule it fixes, with the
edition that brought it and what changed, in a sentence. A rule reads `fixed(state, rule)`: whether this game is
judged by the fix. A fix never changes how an event already logged is applied: replaying a log gives the same
state in every edition.
"""
from __future__ import annotations

from dataclasses import dataclass

from warlog.domain.state import GameState


@dataclass(frozen=True, slots=True)
class Fix:
    edition: int
    what: str


FIXES: dict[str, Fix] = {
    "MSN.END.1": Fix(2, "after the last battle round the seat with more VP, or else more destroyed, wins"),
    "MSN.END.2": Fix(2, "a seat with no unit left on the battlefield and none to come loses at the end of a phase"),
    "RS.FGT.2": Fix(2, "heresy: units still Locked in Combat with each other at the start of an Assault phase fight "
                       "again, and a unit stays locked while one enemy it is locked with stands"),
    "HH.ROUT.3": Fix(2, "heresy: a unit with no Leadership (a vehicle) takes no Leadership test: at its table edge "
                        "it stays as one that passed, and losing a fight it does not test"),
    "HH.EMB.1": Fix(2, "heresy: a unit embarked in a transport may disembark in its Move sub-phase"),
    "HH.MOV.2": Fix(2, "heresy: a Pinned or Routed unit cannot declare a charge (a charge is a move)"),
}

# the edition a game created now is judged by
CURRENT = max(fix.edition for fix in FIXES.values())


def fixed(state: GameState, rule: str) -> bool:
    """Whether this game is judged by the fix of `rule` (FIXES): it was created under the fix's edition or
    later."""
    return (state.edition or 1) >= FIXES[rule].edition


def created_under() -> dict[str, int]:
    """What a new game's `GameCreated` data records of its edition: nothing under edition 1 (as every game
    created before editions), else `edition`."""
    return {"edition": CURRENT} if CURRENT > 1 else {}
