"""What a seat asks for: plain frozen dataclasses. Parsing a request lives in api/; the one validator of each
command class (`adapter`) is here, for the boundary and for a stored command played again (`domain.rerun`)."""
from __future__ import annotations

from dataclasses import MISSING, dataclass, field, fields
from functools import cache
from typing import Annotated, Any, ClassVar, Literal

from pydantic import Field, TypeAdapter
from pydantic import (
    StrictInt as Face,  # a die's face is a JSON integer: not true, not 1.0, not "1" (only a type hint here)
)

from warlog.domain.army import STATUSES
from warlog.domain.dice import PATTERN

Status = Literal[tuple(sorted(STATUSES))]  # type: ignore[valid-type]


@dataclass(frozen=True)
class Command:
    """Every command knows its `type` name, the one clients send."""

    type = "command"
    __pydantic_config__: ClassVar[dict[str, str]] = {"extra": "forbid"}  # read by the boundary's parser: a field no command has is 422


@dataclass(frozen=True)
class AddEntropy(Command):
    entropy: Annotated[str, Field(pattern="^(?:[0-9a-fA-F]{2}){0,128}$")]  # hex, whole bytes, as the ruleset checks it
    dice: Any = None  # no dice here: refused (SVC.DICE.SERVER, or 422 at the table)
    type = "add_entropy"


@dataclass(frozen=True)
class StartGame(Command):
    dice: Any = None  # no dice here: refused (SVC.DICE.SERVER, or 422 at the table)
    type = "start_game"


@dataclass(frozen=True)
class RollOff(Command):
    dice: dict[str, Face] | None = None
    type = "roll_off"


@dataclass(frozen=True)
class ChooseOrder(Command):
    first: Literal["A", "B"]  # the seat that goes first, as the ruleset checks it
    dice: Any = None  # no dice here: refused (SVC.DICE.SERVER, or 422 at the table)
    type = "choose_order"


@dataclass(frozen=True)
class ConfirmCount(Command):
    exclude: dict[str, str] = field(default_factory=dict)
    include: dict[str, str] = field(default_factory=dict)
    dice: Any = None  # no dice here: refused (SVC.DICE.SERVER, or 422 at the table)
    type = "confirm_count"


@dataclass(frozen=True)
class Select(Command):
    unit: str
    act: bool = True
    targets: tuple[str, ...] = ()
    distance: Any = None                         # charges: inches the players measured (a JSON number)
    move: str | None = None                      # reference: normal | advance | fall_back | remain_stationary
    escape: str | None = None                    # reference fall back: ordered | desperate (RS.MOV.4)
    shooting: str | None = None                  # reference: normal | assault | close_quarters | indirect
    weapons: tuple[str, ...] | None = None       # alternating overwatch: the ranged weapon of each firing model (AA.OW.1)
    embark: str | None = None                    # reference: the transport it embarks in after its move
    fight: str | None = None                     # reference: normal | overrun (RS.FGT.2)
    pile_in: Any = None                          # reference Overrun fight: inches of its extra pile-in
    dice: Any = None  # no dice here: refused (SVC.DICE.SERVER, or 422 at the table)
    type = "select"


@dataclass(frozen=True)
class Pass(Command):
    dice: Any = None  # no dice here: refused (SVC.DICE.SERVER, or 422 at the table)
    type = "pass"


@dataclass(frozen=True)
class DeclareDone(Command):
    dice: Any = None  # no dice here: refused (SVC.DICE.SERVER, or 422 at the table)
    type = "declare_done"


@dataclass(frozen=True)
class EndPhase(Command):
    control: dict[str, tuple[str, ...]] | None = None  # reference Command phase: units within range of each objective
    dice: Any = None  # no dice here: refused (SVC.DICE.SERVER, or 422 at the table)
    type = "end_phase"


@dataclass(frozen=True)
class UseStratagem(Command):
    """Reference: spend CP on a stratagem targeting a unit of one's own (EXT.CP.1). Its effect on the unit lasts
    its stated `duration` (end_of_phase, end_of_turn, end_of_battle_round, start_of_next_turn; CORE.PER.1), or
    the phase (CORE.PER.2); Command Re-roll has none."""

    name: str
    unit: str
    duration: str | None = None  # its effect's stated duration (CORE.PER.1); none stated: the phase (CORE.PER.2)
    dice: Any = None  # no dice here: refused (SVC.DICE.SERVER, or 422 at the table)
    type = "use_stratagem"


@dataclass(frozen=True)
class CommandReroll(Command):
    """Reference: an attack paused after a hit, wound, save, damage or hazard roll; spend 1 CP on Command Re-roll
    to re-roll one of its rolls, named by the index (from 0) of its die in the batch as rolled (EXT.CP.1,
    CORE.DICE.2). The new face replaces the old before modifiers; the attack then goes on."""

    die: int
    dice: Any = None  # no dice here: refused (SVC.DICE.SERVER, or 422 at the table)
    type = "command_reroll"


@dataclass(frozen=True)
class KeepDice(Command):
    """Reference: an attack paused for a Command Re-roll; keep the roll as it is and go on (EXT.CP.1)."""

    dice: Any = None  # no dice here: refused (SVC.DICE.SERVER, or 422 at the table)
    type = "keep_dice"


@dataclass(frozen=True)
class Allocate(Command):
    """Reference: the defender chooses which of the tied model groups of its unit saves next, by the line's index
    in the target (wounded models first, CHARACTER groups last; RS.ATK.3)."""

    line: int
    dice: Any = None  # no dice here: refused (SVC.DICE.SERVER, or 422 at the table)
    type = "allocate"


@dataclass(frozen=True)
class Split(Command):
    """Reference, in set-up: split a mustered unit into two (CORE.SPL.1); `models` of them (taken from its last
    model lines first) form the new unit, whose id is the unit's with `-2` appended. Each part's starting strength
    is its own (CORE.STR.1); neither part can be split again."""

    unit: str
    models: int
    dice: Any = None  # no dice here: refused (SVC.DICE.SERVER, or 422 at the table)
    type = "split"


@dataclass(frozen=True)
class StartAction(Command):
    """Reference, Shooting phase: instead of shooting, a unit starts a named action (the game's `options.actions`)
    that completes at the end of the turn; never a battle-shocked unit (RS.CMD.3), nor one that Advanced or Fell
    Back (RS.MOV.3, RS.MOV.4). The unit cannot charge this turn."""

    unit: str
    action: str
    dice: Any = None  # no dice here: refused (SVC.DICE.SERVER, or 422 at the table)
    type = "start_action"


@dataclass(frozen=True)
class Revive(Command):
    """Reference: a rule returns destroyed models to their unit (CORE.REV.1), set up as the table attests."""

    unit: str
    models: int = 1
    reason: str = ""
    dice: Any = None  # no dice here: refused (SVC.DICE.SERVER, or 422 at the table)
    type = "revive"


@dataclass(frozen=True)
class ChargeMove(Command):
    """Reference: after the charge roll, the charge targets and the inches to the farthest (RS.CHG.2)."""

    unit: str
    targets: tuple[str, ...] = ()
    distance: Any = None
    dice: Any = None  # no dice here: refused (SVC.DICE.SERVER, or 422 at the table)
    type = "charge_move"


@dataclass(frozen=True)
class PileIn(Command):
    """Reference: a unit piles in up to 3" before the fighting (RS.FGT.1)."""

    unit: str
    distance: Any = None
    dice: Any = None  # no dice here: refused (SVC.DICE.SERVER, or 422 at the table)
    type = "pile_in"


@dataclass(frozen=True)
class EndFight(Command):
    """Reference: the unit fighting has made its attacks (RS.FGT.3)."""

    unit: str
    dice: Any = None  # no dice here: refused (SVC.DICE.SERVER, or 422 at the table)
    type = "end_fight"


@dataclass(frozen=True)
class Consolidate(Command):
    """Reference: a unit that was eligible to fight consolidates up to 3" in one mode (RS.FGT.4)."""

    unit: str
    mode: str
    distance: Any = None
    targets: tuple[str, ...] = ()
    objective: str | None = None
    dice: Any = None  # no dice here: refused (SVC.DICE.SERVER, or 422 at the table)
    type = "consolidate"


@dataclass(frozen=True)
class ResolveCharge(Command):
    """Alternating: the charger, once overwatch is fired and its casualties recorded, rolls the charge."""

    dice: Any = None  # no dice here: refused (SVC.DICE.SERVER, or 422 at the table)
    type = "resolve_charge"


@dataclass(frozen=True)
class Roll(Command):
    dice: tuple[Face, ...] | None = None
    type = "roll"


@dataclass(frozen=True)
class FreeRoll(Command):
    spec: Annotated[str, Field(json_schema_extra={"pattern": PATTERN, "description": "a dice expression: 2, D6, "
                                                                                      "D3+1, 2D6"})]
    purpose: Annotated[str, Field(min_length=1, max_length=200)]  # as the ruleset checks it
    dice: tuple[Face, ...] | None = None
    type = "free_roll"


@dataclass(frozen=True)
class Concede(Command):
    dice: Any = None  # no dice here: refused (SVC.DICE.SERVER, or 422 at the table)
    type = "concede"


@dataclass(frozen=True)
class RecordCasualties(Command):
    """Attested: models of a unit removed as casualties (or wounds lost by a lone model)."""

    unit: str
    models: int = 0
    wounds: int = 0
    rule: str | None = None
    dice: Any = None  # no dice here: refused (SVC.DICE.SERVER, or 422 at the table)
    type = "record_casualties"


@dataclass(frozen=True)
class SetStatus(Command):
    """Attested: a status gained or lost for a reason the table resolved. Reference: with a `duration` the status
    is an effect that ends by itself at that boundary (CORE.PER.1), in reserves or embarked too."""

    unit: str
    status: Status  # domain.army's statuses, as the ruleset checks them
    value: bool = True
    reason: str = ""
    rule: str | None = None
    duration: str | None = None  # reference: end_of_phase | end_of_turn | end_of_battle_round | start_of_next_turn
    dice: Any = None  # no dice here: refused (SVC.DICE.SERVER, or 422 at the table)
    type = "set_status"


@dataclass(frozen=True)
class VehicleHit(Command):
    """A glancing or penetrating hit on a vehicle costing hull points (AA.VEH.2)."""

    unit: str
    hit: Literal["glancing", "penetrating"] = "glancing"  # as the ruleset checks them
    hull_points: Annotated[int, Field(ge=1)] = 1
    dice: Any = None  # no dice here: refused (SVC.DICE.SERVER, or 422 at the table)
    type = "vehicle_hit"


@dataclass(frozen=True)
class BlastHit(Command):
    """A Blast marker's hit on a vehicle; the players attest where the centre hole lies (AA.VEH.1)."""

    unit: str
    strength: int
    centre_over_hull: bool
    dice: Any = None  # no dice here: refused (SVC.DICE.SERVER, or 422 at the table)
    type = "blast_hit"


@dataclass(frozen=True)
class OngoingReserves(Command):
    """Attested: a unit leaves the battlefield into Ongoing Reserves; it arrives at the next Move Units (AA.RES.1)."""

    unit: str
    reason: str = ""
    dice: Any = None  # no dice here: refused (SVC.DICE.SERVER, or 422 at the table)
    type = "ongoing_reserves"


@dataclass(frozen=True)
class Attack(Command):
    """Reference: one weapon's attacks from a selected unit at one target, rolled through RS.ATK.1-4."""

    unit: str
    weapon: str
    target: str
    models: int | None = None     # attacking models (default: every model alive)
    within_half_range: bool | None = None  # attested: RAPID FIRE and MELTA read it
    precision: bool | None = None  # PRECISION weapons: send the critical hits' wounds to a CHARACTER
    dice: Any = None  # no dice here: refused (SVC.DICE.SERVER, or 422 at the table)
    type = "attack"


COMMANDS: dict[str, type[Command]] = {
    cls.type: cls
    for cls in (AddEntropy, StartGame, RollOff, ChooseOrder, ConfirmCount, Select, Pass,
                DeclareDone, EndPhase, Roll, FreeRoll, Concede, RecordCasualties, SetStatus,
                VehicleHit, BlastHit, Attack, OngoingReserves, ResolveCharge,
                UseStratagem, ChargeMove, PileIn, EndFight, Consolidate, Revive, CommandReroll, KeepDice, Allocate, Split, StartAction)
}


@cache
def adapter(command_class: type) -> TypeAdapter:
    """One TypeAdapter per command class: building one generates its schema (about 5 ms here)."""
    return TypeAdapter(command_class)


def as_data(command: Command) -> dict[str, Any]:
    """The command as recorded for the audit (JSON-able)."""
    data = {f.name: _plain(getattr(command, f.name)) for f in fields(command)}
    data["type"] = command.type
    return data


def _plain(value: Any) -> Any:
    """As JSON gives it back, at every depth (a tuple inside a dict, e.g. end_phase's control, is a list): the
    stored request compares equal to the same command played again (`domain.rerun`)."""
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def sent(command: Command) -> dict[str, Any]:
    """The body as the seat sent it, which the legal actions' schemas judge. The boundary's parser keeps
    it on the command (`keep_sent`); a command built in code sent its fields that differ from the defaults."""
    kept = getattr(command, "_sent", None)
    if kept is not None:
        return kept
    body: dict[str, Any] = {"type": command.type}
    for f in fields(command):
        value = getattr(command, f.name)
        default = f.default_factory() if f.default_factory is not MISSING else f.default  # type: ignore[misc]
        if (f.default is MISSING and f.default_factory is MISSING) or value != default:
            body[f.name] = list(value) if isinstance(value, tuple) else value
    return body


def keep_sent(command: Command, body: dict[str, Any]) -> Command:
    object.__setattr__(command, "_sent", body)  # not a field: equality, as_data and the audit never see it
    return command


# -- heresy (HH.*): the Movement phase's own commands ----------------------------------------------------


@dataclass(frozen=True)
class Enter(Command):
    """Heresy: bring a unit that passed its reserve roll into play from your deployment zone's table edge
    (HH.RES.2), saying how many models could not be placed; it may rush as it enters (HH.MOV.5)."""

    unit: str
    from_edge: bool = False                      # attested: the first model is placed on that table edge
    removed: int = 0                             # models that could not enter in coherency (HH.RES.2)
    rush: bool = False
    distance: Any = None                         # a rush: inches moved (at most M + I)
    near: tuple[str, ...] = ()                   # a rush: enemy units within 12" of it at the end (HH.REACT.1)
    dice: Any = None  # no dice here: refused (SVC.DICE.SERVER, or 422 at the table)
    type = "enter"


@dataclass(frozen=True)
class Move(Command):
    """Heresy: one unit's move in the Move sub-phase (HH.MOV.1-5): normal, rush or stationary."""

    unit: str
    move: str = "normal"                         # normal | rush | stationary
    distance: Any = None                         # inches moved, within the allowance the actions show
    difficult: bool = False                      # its path crossed difficult terrain: -2" (HH.MOV.4)
    dangerous: int = 0                           # models that moved through dangerous terrain: one test each
    coherency_lost: bool = False                 # attested: it genuinely cannot keep coherency (HH.MOV.3)
    near: tuple[str, ...] = ()                   # enemy units within 12" of it at the end (HH.REACT.1)
    dice: Any = None  # no dice here: refused (SVC.DICE.SERVER, or 422 at the table)
    type = "move"


@dataclass(frozen=True)
class React(Command):
    """Heresy: the opponent's answer to a reaction window: a reaction move (HH.REACT.1), snap shots at a
    unit entering play (HH.RES.4), or `act: false` to decline."""

    unit: str | None = None
    act: bool = True
    move: str = "normal"                         # a reaction is never a rush (HH.MOV.5)
    direction: str | None = None                 # toward | away (from the enemy unit that moved)
    distance: Any = None                         # inches, at most the unit's Initiative
    weapons: tuple[str, ...] = ()                # snap shots: the weapons fired
    facing: str | None = None                    # snap shots at a vehicle: the armour facing hit (attested)
    dice: Any = None  # no dice here: refused (SVC.DICE.SERVER, or 422 at the table)
    type = "react"


@dataclass(frozen=True)
class FallBack(Command):
    """Heresy: a routed unit's fall back, its distance rolled by the service (HH.ROUT.2); the players attest
    whether a model reached its deployment zone's table edge (HH.ROUT.3)."""

    unit: str
    reached_edge: bool = False
    near: tuple[str, ...] = ()                   # enemy units within 12" of it at the end (HH.REACT.1)
    dice: Any = None  # no dice here: refused (SVC.DICE.SERVER, or 422 at the table)
    type = "fall_back"


@dataclass(frozen=True)
class Shoot(Command):
    """Heresy: one ranged weapon of a unit selected to shoot, fired at one of the units it named; the service
    rolls it on the heresy tables (hits, wounds or armour penetration, saves)."""

    unit: str
    weapon: str
    target: str
    models: int | None = None                    # models firing it (default: every model alive)
    within_half_range: bool | None = None        # attested: RAPID FIRE doubles its shots
    facing: str | None = None                    # a vehicle target: the armour facing hit (attested)
    dice: Any = None  # no dice here: refused (SVC.DICE.SERVER, or 422 at the table)
    type = "shoot"


@dataclass(frozen=True)
class Strike(Command):
    """Heresy: in a fight, the awaited unit strikes its foe with one melee weapon, every model of the Initiative
    step using it; the service rolls it on the heresy tables (WS against WS, S against T, saves)."""

    unit: str
    weapon: str
    dice: Any = None  # no dice here: refused (SVC.DICE.SERVER, or 422 at the table)
    type = "strike"


COMMANDS.update({cls.type: cls for cls in (Enter, Move, React, FallBack, Shoot, Strike)})
