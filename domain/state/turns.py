"""A unit's `turn`: what it has done this turn (battle round, for the alternating ruleset), one set of flags a
ruleset. Each flag's key is absent until the unit does it (None here), so a fresh turn is `{}`; the round's
start (`BattleRoundStarted`, reference's `TurnStarted`) gives every unit a fresh one (`Unit.with_fresh_turn`).

A ruleset reads its own flags through its class: `ReferenceTurn.of(unit.turn).charged`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar, Self

from warlog.domain.state.values import ABSENT, JSON, JSONV, Absent, Codec, Frozen, Record, record, replace, tuple_of


@dataclass(frozen=True, slots=True, kw_only=True)
class Turn(Record):
    """The flags of a ruleset this module does not know are kept as JSON (`OtherTurn`)."""

    @classmethod
    def of(cls, turn: Turn) -> Self:
        """This ruleset's flags: the turn of a unit of a game of this ruleset (else TypeError)."""
        if not isinstance(turn, cls):
            raise TypeError(f"a {type(turn).__name__} is no {cls.__name__}")
        return turn


@dataclass(frozen=True, slots=True, kw_only=True)
class AlternatingTurn(Turn):
    """AA: what the unit did this battle round (goes.py `_selected`; combats.py)."""

    OPTIONAL: ClassVar[frozenset[str]] = frozenset(
        {"moved", "shot", "held_fire", "ran", "charged", "held_charge", "fled", "fought"})

    moved: bool | None = None
    shot: bool | None = None
    held_fire: bool | None = None
    ran: bool | None = None
    charged: bool | None = None
    held_charge: bool | None = None
    fled: bool | None = None
    fought: bool | None = None

    def marked(self, flag: str) -> AlternatingTurn:
        """The turn with `flag` (one of its flags' names: UnitSelected's, CombatFought's) set."""
        if flag not in self.OPTIONAL:
            raise ValueError(f"{flag!r} is no flag of an alternating turn")
        return replace(self, **{flag: True})


@dataclass(frozen=True, slots=True, kw_only=True)
class Reroll(Record):
    """Reference, EXT.CP.1: the unit's last roll that a Command Re-roll may still re-roll. `context` is what
    the roll was read against (`ld`, `strength`; `M` for an advance): JSON, as the roll's own context is."""

    CODECS: ClassVar[dict[str, Codec]] = {"context": JSONV}

    purpose: str
    spec: str
    context: JSON


@dataclass(frozen=True, slots=True, kw_only=True)
class ReferenceTurn(Turn):
    """Reference: what the unit did in its player's turn (movement, shooting, charge, fight, actions)."""

    CODECS: ClassVar[dict[str, Codec]] = {"used": tuple_of(), "reroll": record(Reroll)}
    OPTIONAL: ClassVar[frozenset[str]] = frozenset(
        {"move", "advanced", "fell_back", "max_move", "shooting", "used", "melee_models", "declared_charge",
         "charged", "fights_first", "fighting", "action", "action_done", "reroll"})

    move: str | None = None  # the move it made: normal, advance, fall_back, remain_stationary, ingress
    advanced: bool | None = None
    fell_back: bool | None = None
    max_move: int | None = None
    shooting: str | None = None  # the kind of shooting it was selected for (close_quarters, ...)
    used: tuple[str, ...] | None = None  # the weapons it has attacked with
    melee_models: int | None = None  # models that fought in melee while the unit shot (RS.SHO)
    declared_charge: bool | None = None
    charged: bool | None = None
    fights_first: bool | None = None
    fighting: bool | None = None
    action: str | None = None  # RS.CMD.3: the action started
    action_done: str | None = None
    reroll: Reroll | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class HeresyTurn(Turn):
    """Heresy: what the unit did in its player's turn. `fall_back` holds null once the unit has fallen back
    (`FellBack`), so its absence is ABSENT."""

    CODECS: ClassVar[dict[str, Codec]] = {"fired": tuple_of(), "targets": tuple_of(), "reacted_to": tuple_of()}
    OPTIONAL: ClassVar[frozenset[str]] = frozenset(
        {"moved", "rushed", "arrived", "reacted", "fell_back", "shot", "targets", "fired", "charged", "reacted_to"})

    moved: str | None = None  # the move it made (HH.MOV)
    rushed: bool | None = None
    arrived: bool | None = None  # HH.RES.3: came on from reserve this turn
    reacted: bool | None = None
    fall_back: str | Absent | None = ABSENT  # the distance it must fall back; null once it has
    fell_back: str | None = None  # the distance it fell back
    shot: bool | None = None
    targets: tuple[str, ...] | None = None
    fired: tuple[str, ...] | None = None  # the weapons it has fired
    charged: bool | None = None
    reacted_to: tuple[str, ...] | None = None  # HH.REACT.1: the enemy units whose moves it was offered a reaction to


@dataclass(frozen=True, slots=True, kw_only=True)
class OtherTurn(Turn):
    """The turn of a ruleset this module does not know (a plugin's): its flags as JSON."""

    EXTRA: ClassVar[str | None] = "flags"

    flags: Frozen[str, JSON] = field(default_factory=Frozen)
