"""What a seat asks for: plain frozen dataclasses. Parsing a request lives in api/; the validators of a command
class (`adapter`) and of a ruleset's commands as one discriminated union (`union`) are here, for the boundary
and for a stored command played again (`domain.rerun`).

This module holds the commands every ruleset knows (`COMMANDS`) and the shared bases a ruleset extends: `Select`,
which each ruleset's own select subclasses with its own fields, and `EndPhase`, the turn-by-turn rulesets'. A
ruleset's own commands live in its package (`rules/<name>/commands.py`) and join the union of its games through
the registry (`rules/registry.py`), so no ruleset's fields sit on another's model.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import MISSING, dataclass, field, fields
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal, Union

from pydantic import BeforeValidator, Discriminator, Field, Tag, TypeAdapter
from pydantic import (
    StrictInt as Face,  # a die's face is a JSON integer: not true, not 1.0, not "1" (only a type hint here)
)

from warlog.domain.army import STATUSES
from warlog.domain.dice import PATTERN

if TYPE_CHECKING:
    Status = str  # mypy reads a status as text; pydantic reads the Literal below
else:
    Status = Literal[tuple(sorted(STATUSES))]  # domain.army's statuses, as JSON Schema's enum


ENTROPY = "^(?:[0-9a-fA-F]{2}){0,128}$"  # add_entropy's: hex digits in pairs, at most 128 bytes


@dataclass(frozen=True)
class Command:
    """Every command knows its `type` name, the one clients send (a class attribute, not a field: the union
    tells the classes apart by it, `union`). A command with no field of its own (`StartGame`, `Concede`) is its
    base's dataclass under its own type: it needs no `@dataclass` of its own."""

    type: ClassVar[str] = "command"
    # the fields as_data records first, by name in order, one this class lacks at null (`Select`: stored logs;
    # heresy's `Move`: its own field after `unit`, where it stood before its base held the rest)
    recorded: ClassVar[tuple[str, ...]] = ()
    # fields the class gained after logs recorded it: recorded only where they differ from their default, so a
    # stored request is recorded (and its digest hashed) as it was
    later: ClassVar[tuple[str, ...]] = ()
    __pydantic_config__: ClassVar[dict[str, str]] = {"extra": "forbid"}  # read by the boundary's parser: a field no command has is 422


@dataclass(frozen=True)
class Diceless(Command):
    """A command that carries no dice: `dice` sent with it is refused (SVC.DICE.SERVER, or 422 at the table), so
    the field is read, and kept last (keyword-only) so that a subclass's own fields come first."""

    dice: Any = field(default=None, kw_only=True)


@dataclass(frozen=True)
class UnitCommand(Diceless):
    """A command about one unit, named by its id: the first field of every command that extends this one."""

    unit: str


@dataclass(frozen=True)
class AddEntropy(Diceless):
    entropy: Annotated[str, Field(pattern=ENTROPY)]  # hex, whole bytes, as the ruleset checks it
    type = "add_entropy"


class StartGame(Diceless):
    type = "start_game"


@dataclass(frozen=True)
class RollOff(Command):
    dice: dict[str, Face] | None = None
    type = "roll_off"


@dataclass(frozen=True)
class ChooseOrder(Diceless):
    first: Literal["A", "B"]  # the seat that goes first, as the ruleset checks it
    type = "choose_order"


@dataclass(frozen=True)
class Select(UnitCommand):
    """A unit chosen to act now. Each ruleset's select extends this one with its own fields (alternating's
    overwatch weapons, reference's move, shooting and fight modes); heresy's is this one."""

    act: bool = True
    targets: tuple[str, ...] = ()
    distance: Any = None                         # inches the players measured (a JSON number): charges, moves
    type = "select"
    # Until issue 23 every ruleset shared one Select of these fields, and every stored select records all of
    # them (its request digest is hashed into the chain): a ruleset's select is recorded so still, a field it
    # lacks at null (as_data), and read back without them (`from_record`).
    recorded: ClassVar[tuple[str, ...]] = ("unit", "act", "targets", "distance", "move", "escape", "shooting",
                                           "weapons", "embark", "fight", "pile_in", "dice")


@dataclass(frozen=True)
class EndPhase(Diceless):
    """The turn-by-turn rulesets' (rules/igougo.py): the active seat ends the phase."""

    control: dict[str, tuple[str, ...]] | None = None  # units within range of each objective, where it scores them:
    # reference's Command phase (EXT.OBJ.1), the end of a battle round in alternating and heresy (MSN.OBJ.1)
    type = "end_phase"


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


class Concede(Diceless):
    type = "concede"


@dataclass(frozen=True)
class RecordCasualties(UnitCommand):
    """Attested: models of a unit removed as casualties (or wounds lost by a lone model)."""

    models: int = 0
    wounds: int = 0
    rule: str | None = None
    type = "record_casualties"


@dataclass(frozen=True)
class SetStatus(UnitCommand):
    """Attested: a status gained or lost for a reason the table resolved. Reference: with a `duration` the status
    is an effect that ends by itself at that boundary (CORE.PER.1), in reserves or embarked too."""

    status: Status  # domain.army's statuses, as the ruleset checks them
    value: bool = True
    reason: str = ""
    rule: str | None = None
    duration: str | None = None  # reference: end_of_phase | end_of_turn | end_of_battle_round | start_of_next_turn
    type = "set_status"


SHARED: dict[str, type[Command]] = {Select.type: Select}  # a type several rulesets each extend (registry)
COMMANDS: dict[str, type[Command]] = {  # the commands every ruleset knows (rules/core.py handles them)
    cls.type: cls
    for cls in (AddEntropy, StartGame, RollOff, ChooseOrder, Roll, FreeRoll, Concede, RecordCasualties, SetStatus)
}
_adapters: dict[type[Command], TypeAdapter[Any]] = {}
_unions: dict[tuple[type[Command], ...], TypeAdapter[Command]] = {}


def adapter(command_class: type[Command]) -> TypeAdapter[Any]:
    """One TypeAdapter per command class: building one generates its schema (about 5 ms here). It reads the
    fields without `type`."""
    found = _adapters.get(command_class)
    if found is None:
        found = _adapters[command_class] = TypeAdapter(command_class)
    return found


def _tag(value: object) -> str | None:
    """The discriminator: a body's `type` (JSON as sent, before it is parsed) or a command's."""
    return value.get("type") if isinstance(value, dict) else getattr(value, "type", None)


def _untyped(value: object) -> object:
    """The body (JSON as sent, before it is parsed) without its `type`, which chose the class and is none of its
    fields."""
    return {k: v for k, v in value.items() if k != "type"} if isinstance(value, dict) else value


def union(classes: Iterable[type[Command]]) -> TypeAdapter[Command]:
    """The commands of one ruleset as one discriminated union on `type`: a body (with its `type`) is read by
    the class its type names, in one parse; an error's `loc` is (type, field, ...). Cached per class list."""
    key = tuple(classes)
    found = _unions.get(key)
    if found is None:
        members = tuple(Annotated[cls, BeforeValidator(_untyped), Tag(cls.type)] for cls in key)
        form: Any = Annotated[Union[members], Discriminator(_tag)]  # noqa: UP007 -- members known at run time only
        found = _unions[key] = TypeAdapter[Command](form)
    return found


def from_record(command_class: type[Command], data: Mapping[str, object]) -> Command:
    """A command as `as_data` recorded it (a stored request's `command`), read again by its class: the fields it
    records but lacks (`recorded`) are left out where they hold their null."""
    own = {f.name for f in fields(command_class)}
    kept = {k: v for k, v in data.items()
            if k != "type" and (k in own or k not in command_class.recorded or v is not None)}
    command: Command = adapter(command_class).validate_python(kept)
    return command


def as_data(command: Command) -> dict[str, Any]:
    """The command as recorded for the audit (JSON-able): its fields, and those its class records but lacks at
    null, in the recorded order."""
    own = {f.name: _plain(getattr(command, f.name)) for f in fields(command)
           if f.name not in command.later or getattr(command, f.name) != f.default}
    data = {name: own.pop(name, None) for name in command.recorded}
    data.update(own)
    data["type"] = command.type
    return data


def _plain(value: object) -> object:
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
    kept: dict[str, Any] | None = getattr(command, "_sent", None)
    if kept is not None:
        return kept
    body: dict[str, Any] = {"type": command.type}
    for f in fields(command):
        value = getattr(command, f.name)
        default = f.default_factory() if f.default_factory is not MISSING else f.default
        if (f.default is MISSING and f.default_factory is MISSING) or value != default:
            body[f.name] = list(value) if isinstance(value, tuple) else value
    return body


def keep_sent(command: Command, body: dict[str, object]) -> Command:
    object.__setattr__(command, "_sent", body)  # not a field: equality, as_data and the audit never see it
    return command
