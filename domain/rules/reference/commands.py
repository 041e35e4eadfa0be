"""`reference`'s own commands (RS.*, CORE.*, EXT.*): its select with its move, shooting and fight modes,
stratagems and the choices inside an attack, the charge and the fight, split units, actions and revived
models. They join its games' union through the registry (`Reference.commands`)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import Field

from warlog.domain import commands as cmd


@dataclass(frozen=True)
class ReferenceSelect(cmd.Select):
    """Reference: a unit selected to move, shoot, charge or fight in the phase, in one of its modes."""

    move: Annotated[str | None, Field(description="its move: normal | advance | fall_back | remain_stationary")] = None
    escape: Annotated[str | None, Field(description="a fall back: ordered | desperate (RS.MOV.4)")] = None
    shooting: Annotated[str | None, Field(description="its shooting: normal | assault | close_quarters | indirect")] = None
    embark: Annotated[str | None, Field(description="the transport it embarks in after its move")] = None
    fight: Annotated[str | None, Field(description="its fight: normal | overrun (RS.FGT.2)")] = None
    pile_in: Any = None                          # an Overrun fight: inches of its extra pile-in (api/schemas.py MEASURED)
    type = "select"


@dataclass(frozen=True)
class UseStratagem(cmd.Diceless):
    """Reference: spend CP on a stratagem targeting a unit of one's own (EXT.CP.1). Its effect on the unit lasts
    its stated `duration` (end_of_phase, end_of_turn, end_of_battle_round, start_of_next_turn; CORE.PER.1), or
    the phase (CORE.PER.2); Command Re-roll has none."""

    name: str
    unit: str
    duration: str | None = None  # its effect's stated duration (CORE.PER.1); none stated: the phase (CORE.PER.2)
    type = "use_stratagem"


@dataclass(frozen=True)
class CommandReroll(cmd.Diceless):
    """Reference: an attack paused after a hit, wound, save, damage or hazard roll; spend 1 CP on Command Re-roll
    to re-roll one of its rolls, named by the index (from 0) of its die in the batch as rolled (EXT.CP.1,
    CORE.DICE.2). The new face replaces the old before modifiers; the attack then goes on."""

    die: int
    type = "command_reroll"


class KeepDice(cmd.Diceless):
    """Reference: an attack paused for a Command Re-roll; keep the roll as it is and go on (EXT.CP.1)."""

    type = "keep_dice"


@dataclass(frozen=True)
class Allocate(cmd.Diceless):
    """Reference: the defender chooses which of the tied model groups of its unit saves next, by the line's index
    in the target (wounded models first, CHARACTER groups last; RS.ATK.3)."""

    line: int
    type = "allocate"


@dataclass(frozen=True)
class Split(cmd.UnitCommand):
    """Reference, in set-up: split a mustered unit into two (CORE.SPL.1); `models` of them (taken from its last
    model lines first) form the new unit, whose id is the unit's with `-2` appended. Each part's starting strength
    is its own (CORE.STR.1); neither part can be split again."""

    models: int
    type = "split"


@dataclass(frozen=True)
class StartAction(cmd.UnitCommand):
    """Reference, Shooting phase: instead of shooting, a unit starts a named action (the game's `options.actions`)
    that completes at the end of the turn; never a battle-shocked unit (RS.CMD.3), nor one that Advanced or Fell
    Back (RS.MOV.3, RS.MOV.4). The unit cannot charge this turn."""

    action: str
    type = "start_action"


@dataclass(frozen=True)
class Revive(cmd.UnitCommand):
    """Reference: a rule returns destroyed models to their unit (CORE.REV.1), set up as the table attests."""

    models: int = 1
    reason: str = ""
    type = "revive"


@dataclass(frozen=True)
class ChargeMove(cmd.UnitCommand):
    """Reference: after the charge roll, the charge targets and the inches to the farthest (RS.CHG.2)."""

    targets: tuple[str, ...] = ()
    distance: Any = None
    type = "charge_move"


@dataclass(frozen=True)
class PileIn(cmd.UnitCommand):
    """Reference: a unit piles in up to 3" before the fighting (RS.FGT.1)."""

    distance: Any = None
    type = "pile_in"


class EndFight(cmd.UnitCommand):
    """Reference: the unit fighting has made its attacks (RS.FGT.3)."""

    type = "end_fight"


@dataclass(frozen=True)
class Consolidate(cmd.UnitCommand):
    """Reference: a unit that was eligible to fight consolidates up to 3" in one mode (RS.FGT.4)."""

    mode: str
    distance: Any = None
    targets: tuple[str, ...] = ()
    objective: str | None = None
    type = "consolidate"


@dataclass(frozen=True)
class Attack(cmd.UnitCommand):
    """Reference: one weapon's attacks from a selected unit, rolled through RS.ATK.1-4: at one `target` (with
    `models` of it), or with `targets` each model's weapon at its own target, one entry a model (RS.SHO.2: three
    boltguns at one unit and two at another), each target's attack resolved in turn."""

    weapon: str
    target: str | None = None     # the one target (required unless `targets` is sent)
    models: int | None = None     # attacking models (default: every model alive)
    within_half_range: bool | None = None  # attested: RAPID FIRE and MELTA read it
    precision: bool | None = None  # PRECISION weapons: send the critical hits' wounds to a CHARACTER
    targets: tuple[str, ...] | None = None  # each attacking model's target, one entry a model (RS.SHO.2)
    within_half_range_of: tuple[str, ...] | None = None  # with `targets`: those within half range (attested)
    type = "attack"
    later = ("targets", "within_half_range_of")


COMMANDS: tuple[type[cmd.Command], ...] = (ReferenceSelect, cmd.EndPhase, UseStratagem, CommandReroll, KeepDice,
                                           Allocate, Split, StartAction, Revive, ChargeMove, PileIn, EndFight,
                                           Consolidate, Attack)
