"""`heresy`'s own commands (HH.*): units entering from reserves, the Movement phase's moves, reactions,
a routed unit's fall back, and the shooting and striking the service rolls on the heresy tables. Its select
is the shared one (`commands.Select`: its fields are what every select has). They join its games' union
through the registry (`Heresy.commands`)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from warlog.domain import commands as cmd


@dataclass(frozen=True)
class Enter(cmd.UnitCommand):
    """Heresy: bring a unit that passed its reserve roll into play from your deployment zone's table edge
    (HH.RES.2), saying how many models could not be placed; it may rush as it enters (HH.MOV.5)."""

    from_edge: bool = False                      # attested: the first model is placed on that table edge
    removed: int = 0                             # models that could not enter in coherency (HH.RES.2)
    rush: bool = False
    distance: Any = None                         # a rush: inches moved (at most M + I)
    near: tuple[str, ...] = ()                   # a rush: enemy units within 12" of it at the end (HH.REACT.1)
    difficult: bool = False                      # a rush: its path crossed difficult terrain: -2" (HH.MOV.4)
    dangerous: int = 0                           # a rush: models through dangerous terrain, one test each (HH.MOV.4)
    coherency_lost: bool = False                 # a rush: attested, it genuinely cannot keep coherency (HH.MOV.3)
    clear: bool = True                           # attested: none ends within 1" of an enemy, off the table... (HH.MOV.3)
    type = "enter"
    later = ("difficult", "dangerous", "coherency_lost", "clear")


@dataclass(frozen=True)
class Moving(cmd.UnitCommand):
    """Heresy: what a unit's own move in the Move sub-phase attests (HH.MOV.3, HH.MOV.4, HH.REACT.1), a move and a
    disembark alike. A subclass's own field is recorded second, after `unit` (`recorded`), as stored requests
    hold it."""

    distance: Any = None                         # inches moved, within the allowance the actions show
    difficult: bool = False                      # its path crossed difficult terrain: -2" (HH.MOV.4)
    dangerous: int = 0                           # models that moved through dangerous terrain: one test each
    coherency_lost: bool = False                 # attested: it genuinely cannot keep coherency (HH.MOV.3)
    near: tuple[str, ...] = ()                   # enemy units within 12" of it at the end (HH.REACT.1)
    clear: bool = True                           # attested: none ends within 1" of an enemy, off the table... (HH.MOV.3)
    later = ("clear",)


@dataclass(frozen=True)
class Move(Moving):
    """Heresy: one unit's move in the Move sub-phase (HH.MOV.1-5): normal, rush or stationary."""

    move: str = "normal"                         # normal | rush | stationary
    type = "move"
    recorded = ("unit", "move")


@dataclass(frozen=True)
class Disembark(Moving):
    """Heresy: a unit embarked in a transport gets out in the Move sub-phase (HH.EMB.1): each model placed within
    2" of the transport (attested), then a normal move less 2" (`distance`, at most M - 2)."""

    placed: bool = False                         # attested: each model is placed within 2" of the transport
    type = "disembark"
    recorded = ("unit", "placed")


@dataclass(frozen=True)
class React(cmd.Diceless):
    """Heresy: the opponent's answer to a reaction window: a reaction move (HH.REACT.1), snap shots at a
    unit entering play (HH.RES.4), or `act: false` to decline; or a reaction move the opponent claims itself
    (`against`: the enemy unit whose move ended within 12" of its unit)."""

    unit: str | None = None
    act: bool = True
    move: str = "normal"                         # a reaction is never a rush (HH.MOV.5)
    direction: str | None = None                 # toward | away (from the enemy unit that moved)
    distance: Any = None                         # inches, at most the unit's Initiative
    against: str | None = None                   # a reaction claimed: the enemy unit whose move it answers
    difficult: bool = False                      # its path crossed difficult terrain: -2" (HH.MOV.4)
    dangerous: int = 0                           # models that moved through dangerous terrain: one test each
    coherency_lost: bool = False                 # attested: it genuinely cannot keep coherency (HH.MOV.3)
    clear: bool = True                           # attested: none ends within 1" of an enemy, off the table... (HH.MOV.3)
    weapons: tuple[str, ...] = ()                # snap shots: the weapons fired
    facing: str | None = None                    # snap shots at a vehicle: the armour facing hit (attested)
    type = "react"
    later = ("against", "difficult", "dangerous", "coherency_lost", "clear")


@dataclass(frozen=True)
class FallBack(cmd.UnitCommand):
    """Heresy: a routed unit's fall back, its distance rolled by the service (HH.ROUT.2); the players attest
    whether a model reached its deployment zone's table edge (HH.ROUT.3)."""

    reached_edge: bool = False
    near: tuple[str, ...] = ()                   # enemy units within 12" of it at the end (HH.REACT.1)
    difficult: bool = False                      # its path crossed difficult terrain: 2" less (HH.MOV.4)
    dangerous: int = 0                           # models through dangerous terrain, one test each (HH.MOV.4)
    coherency_lost: bool = False                 # attested, it genuinely cannot keep coherency (HH.MOV.3)
    clear: bool = True                           # attested: none ends within 1" of an enemy, off the table... (HH.MOV.3)
    type = "fall_back"
    later = ("difficult", "dangerous", "coherency_lost", "clear")


@dataclass(frozen=True)
class Shoot(cmd.UnitCommand):
    """Heresy: one ranged weapon of a unit selected to shoot, fired at one of the units it named; the service
    rolls it on the heresy tables (hits, wounds or armour penetration, saves)."""

    weapon: str
    target: str
    models: int | None = None                    # models firing it (default: every model alive)
    within_half_range: bool | None = None        # attested: RAPID FIRE doubles its shots
    facing: str | None = None                    # a vehicle target: the armour facing hit (attested)
    type = "shoot"


@dataclass(frozen=True)
class Strike(cmd.UnitCommand):
    """Heresy: in a fight, the awaited unit strikes its foe with one melee weapon, every model of the Initiative
    step using it; the service rolls it on the heresy tables (WS against WS, S against T, saves)."""

    weapon: str
    type = "strike"


COMMANDS: tuple[type[cmd.Command], ...] = (cmd.Select, cmd.EndPhase, Enter, Move, Disembark, React, FallBack, Shoot,
                                           Strike)
