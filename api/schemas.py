"""Request and response models: the boundary translates types once."""
from __future__ import annotations

import dataclasses
import functools
import inspect
import json
import re
from collections.abc import Iterable, Iterator
from typing import Annotated, Any, Literal, get_type_hints

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
)
from pydantic.json_schema import models_json_schema

from warlog.api.sentences import UNIT_ID, Context, invalid
from warlog.domain import commands as cmd
from warlog.domain import dice
from warlog.domain.commands import adapter
from warlog.domain.rules import registry
from warlog.domain.rulings import Malformed

Seat = Literal["A", "B"]


class Body(BaseModel):
    """A request body's object as JSON Schema reads it: no field it does not define, no "5" for 5 nor 1 for true
    (pydantic's lax mode would take both), and 5.0 for 5 (JSON has one number type: 5.0 is JSON Schema's
    integer 5; 5.5 is none)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    @field_validator("*", mode="before")
    @classmethod
    def integral(cls, value: Any) -> Any:
        return int(value) if isinstance(value, float) and value.is_integer() else value


class Player(Body):
    seat: Seat
    name: str = Field(min_length=1, max_length=100)


Name = Annotated[str, Field(min_length=1, max_length=40)]  # an objective's or an action's: distinct in their list


def each_seat_once() -> dict[str, Any]:
    """`players` in JSON Schema: two of them, one seating A and one B, in either order."""
    return {"allOf": [{"contains": {"type": "object", "required": ["seat"], "properties": {"seat": {"const": seat}}}}
                      for seat in ("A", "B")]}


class Options(Body):
    # MSN.CLK.1 as `loses_on_a_clock` judges it, in the document too: losing on time is asked for with a clock
    model_config = ConfigDict(json_schema_extra={
        "if": {"properties": {"clock_loses": {"const": True}}, "required": ["clock_loses"]},
        "then": {"properties": {"clock_minutes": {"type": "integer"}}, "required": ["clock_minutes"]}})

    battle_rounds: int = Field(5, ge=1, le=20)
    reserves_from_round: int = Field(2, ge=1, le=20)
    spectator_delay_s: int = Field(0, ge=0, le=3600)
    objectives: list[Name] = Field(default_factory=list, max_length=12, json_schema_extra={"uniqueItems": True},
                                   description="the objective markers' names: reference scores them in each Command "
                                               "phase (EXT.OBJ.1), alternating and heresy at the end of each "
                                               "battle round from round 2 (MSN.OBJ.1)")
    actions: list[Name] = Field(default_factory=list, max_length=12, json_schema_extra={"uniqueItems": True},
                                description="reference: the actions a unit may start instead of shooting (RS.CMD.3); "
                                            "none named: Secure objective, Sabotage, Recover intel")
    clock_minutes: int | None = Field(None, ge=1, le=600, description=(
        "MSN.CLK.1: a chess clock giving each seat this many minutes; `state.clock` then shows each seat's time "
        "used and left. Absent: no clock (GET /summary still says the time each seat used)"))
    clock_loses: bool = Field(False, description="MSN.CLK.1: a seat whose time has run out loses at the end of "
                                                 "its current action (needs `clock_minutes`)")
    one_reaction_per_round: bool = Field(False, description=(
        "heresy: a unit makes at most one reaction (HH.REACT.1, HH.RES.4) a battle round; no seed states such a "
        "cap, so without it a unit may react to every enemy move that ends within 12\" of it"))

    def as_created(self) -> dict[str, Any]:
        """The options as `GameCreated` logs them: the clock's and the reaction cap only where asked for, so a
        game without them logs what it logged before there were any."""
        created = self.model_dump()
        for name in ("clock_minutes", "clock_loses", "one_reaction_per_round"):
            if not created[name]:
                del created[name]
        return created

    @field_validator("clock_loses")
    @classmethod
    def loses_on_a_clock(cls, loses: bool, info: ValidationInfo) -> bool:
        """MSN.CLK.1: a seat can run out of time only on a clock: asked for without one it would do nothing."""
        if loses and info.data.get("clock_minutes") is None:
            raise ValueError("a seat can lose on time only with a chess clock: give each seat its minutes too")
        return loses

    @field_validator("objectives", "actions")
    @classmethod
    def distinct_names(cls, names: list[str]) -> list[str]:
        if len(set(names)) != len(names) or any(not 1 <= len(n) <= 40 for n in names):
            raise ValueError("names are distinct, 1..40 characters each")
        return names


def known_ruleset(name: str) -> str:
    """A ruleset name is judged against the registry when the request comes, so one registered at run time
    (an installed package's, a test's) is accepted at once; an unknown one is 422 naming the known ones."""
    if name not in registry.names():
        raise ValueError(f"unknown ruleset {name!r}; known: {', '.join(registry.names())}")
    return name


def ruleset_enum(schema: dict[str, Any]) -> None:
    """The document lists the rulesets known when it is built (FastAPI builds it once, on the first read)."""
    schema["enum"] = list(registry.names())
    schema["description"] = "the ruleset the game is played by: " + "; ".join(
        f"`{name}`, {ruleset.title}: {ruleset.summary}" for name, ruleset in registry.RULESETS.items())


RulesetName = Annotated[str, AfterValidator(known_ruleset)]


class GameCreate(Body):
    ruleset: RulesetName = Field(json_schema_extra=ruleset_enum)
    players: list[Player] = Field(min_length=2, max_length=2, json_schema_extra=each_seat_once())
    dice: Literal["server", "table"] = "server"
    options: Options = Field(default_factory=Options)

    @field_validator("players")
    @classmethod
    def one_player_per_seat(cls, players: list[Player]) -> list[Player]:
        if sorted(p.seat for p in players) != ["A", "B"]:
            raise ValueError("one player for seat A and one for seat B")
        return players


def digits_only(value: Any) -> Any:
    """A URL's integer as JSON Schema's `integer` reads it: ASCII digits only. Pydantic's lax int would also take
    " 6", "+6", "6.0", "6_0" or "6" and a NEL ("6\\x85"), which the document calls no integer."""
    if isinstance(value, str) and not re.fullmatch(r"[0-9]{1,30}", value):  # longer: past every maximum
        raise ValueError("must be a whole number written with the digits 0-9 only")
    return value


UrlInt = BeforeValidator(digits_only)  # Annotated[int, UrlInt, Path(...)] for an integer in a path or query


def dice_expression(value: str) -> str:
    try:
        return str(dice.parse(value))
    except dice.DiceSpecError as error:
        raise ValueError(str(error)) from None


class Armour(Body):
    """Older editions' vehicle armour values, facing by facing (CONTRACT.md "Roster import")."""
    front: int = Field(ge=1, le=20)
    side: int = Field(ge=1, le=20)
    rear: int = Field(ge=1, le=20)


class ModelLine(Body):
    """A model line of a unit: `count` identical models."""

    name: str = Field(min_length=1, max_length=200)
    count: int = Field(1, ge=1, le=500)
    M: int | None = Field(None, ge=0, le=100)
    T: int | None = Field(None, ge=1, le=30)
    Sv: int | None = Field(None, ge=1, le=7)
    InSv: int | None = Field(None, ge=1, le=7)
    W: int = Field(1, ge=1, le=100)
    Ld: int | None = Field(None, ge=1, le=12)
    OC: int | None = Field(None, ge=0, le=20)
    BS: int | None = Field(None, ge=1, le=10)
    WS: int | None = Field(None, ge=1, le=10)
    I: int | None = Field(None, ge=1, le=10)  # noqa: E741 -- the profile's Initiative, named as the wire names it
    A: int | None = Field(None, ge=0, le=20)
    hull_points: int | None = Field(None, ge=1, le=100)
    armour: Armour | None = Field(None, description="older editions' vehicles: front, side and rear armour")


class Weapon(Body):
    name: str = Field(min_length=1, max_length=200)
    type: Literal["ranged", "melee"]
    range: int | None = Field(None, ge=0, le=1000)
    A: str = Field("1", pattern=dice.PATTERN)
    skill: int | None = Field(None, ge=1, le=10)
    S: int | None = Field(None, ge=1, le=30)
    AP: int | None = Field(None, ge=-10, le=10)
    D: str = Field("1", pattern=dice.PATTERN)
    kind: Literal["rapid_fire", "heavy", "assault", "pistol", "salvo"] | None = None
    keywords: list[str] = Field(default_factory=list)

    _check_a = field_validator("A", "D")(dice_expression)


class Transport(Body):
    capacity: int = Field(ge=0, le=1000)
    fire_points: int = Field(0, ge=0, le=100)


Status = cmd.Status  # domain.army's statuses, judged with the body


class Unit(Body):
    id: str = Field(min_length=1, max_length=100, pattern=UNIT_ID)
    name: str = Field(min_length=1, max_length=200)
    keywords: list[str] = Field(default_factory=list)
    abilities: list[str] = Field(default_factory=list)
    models: list[ModelLine] = Field(min_length=1, max_length=100)
    weapons: list[Weapon] = Field(default_factory=list, max_length=200)
    transport: Transport | None = None
    embarked_in: str | None = None
    in_reserves: bool = False
    leader_of: str | None = None
    statuses: list[Status] = Field(default_factory=list)
    engaged_with: list[str] = Field(default_factory=list, max_length=50)  # enemy units it starts engaged with
    points: int | None = Field(None, ge=0, le=100_000, description="what the army list says the unit costs (null or "
                                                                    "absent where it says nothing; MSN.END.1)")

    @field_validator("keywords")
    @classmethod
    def upper_case(cls, keywords: list[str]) -> list[str]:
        return [k.upper() for k in keywords]


class Army(Body):
    """A seat's army: POST /armies's JSON body (CONTRACT.md "Games and tokens")."""

    units: list[Unit] = Field(min_length=1, max_length=500)


ArmyIn = Army  # the name api/rosters reads it by


def parse_command(body: Any, ruleset: str) -> cmd.Command:
    """JSON -> a command of the game's ruleset, read by that ruleset's union in one parse. A body it refuses is
    judged as the wire takes it (`wire_commands`: each type with the fields every ruleset gives it): unknown
    types and malformed fields are 422 naming the field; a type, or a field, that only another ruleset takes is
    well formed, and this game's rules refuse it (409), as they always have."""
    if not isinstance(body, dict):
        raise Malformed('Send a command as a JSON object whose "type" names it (GET /state offers what this seat '
                        "may send now)")
    if not isinstance(body.get("type"), str):
        raise Malformed(f"A command needs `type`, the command's name, as text ({', '.join(sorted(wire_commands()))})",
                        field="/type")
    try:
        return cmd.keep_sent(registry.union(ruleset).validate_python(body), body)
    except ValidationError:
        return cmd.keep_sent(as_the_wire_takes(body, ruleset), body)


def as_the_wire_takes(body: dict[str, Any], ruleset: str) -> cmd.Command:
    """A body the ruleset's union refused, read by the wire's class of its type (422 as that class says); a
    field of it that this ruleset's class lacks (another ruleset's select's) is left out of the command and
    kept in what was sent, which no action this game offers admits."""
    type_ = body["type"]
    wire = wire_commands().get(type_)
    if wire is None:
        raise Malformed(f"There is no command {json.dumps(type_, ensure_ascii=False)}: `type` must be one of: "
                        f"{', '.join(sorted(wire_commands()))}", field="/type")
    fields = {k: v for k, v in body.items() if k != "type"}
    own = registry.table(ruleset).get(type_)
    try:
        command: cmd.Command = adapter(wire).validate_python(fields)
    except ValidationError as error:
        raise invalid(error, fields, command_context(type_, wire)) from None
    if own is None or own is wire:
        return command  # a command of another ruleset: none of this game's (409)
    names = {f.name for f in dataclasses.fields(own)}
    mine = {k: v for k, v in fields.items() if k in names}
    try:
        judged: cmd.Command = adapter(own).validate_python(mine)
    except ValidationError as error:
        raise invalid(error, mine, command_context(type_, own)) from None
    return judged


_contexts: dict[tuple[str, type], Context] = {}


def command_context(type_: str, command_class: type) -> Context:
    """What the sentences of a refused command read: its schema as the document gives it (`command_schema`), made
    once a class."""
    found = _contexts.get((type_, command_class))
    if found is None:
        found = _contexts[(type_, command_class)] = Context("This command", f"a `{type_}` command",
                                                            command_schema(type_, command_class))
    return found


@functools.lru_cache(maxsize=16)
def body_context(model: type[BaseModel], whole: str, kind: str) -> Context:
    """What the sentences of a refused body of `model` read: the model's JSON schema."""
    return Context(whole, kind, model.model_json_schema())


_wire: dict[int, dict[str, type[cmd.Command]]] = {}


def wire_commands() -> dict[str, type[cmd.Command]]:
    """Every command type some registered ruleset takes, by type, as the wire takes it: its one class, or for a
    type several rulesets extend (select) one class with every field any of theirs has (`merged`). Built again
    when the registry changes."""
    registry.load()
    generation = registry.generation()
    found = _wire.get(generation)
    if found is None:
        _wire.clear()
        found = _wire[generation] = {type_: classes[0] if len(classes) == 1 else merged(type_, classes)
                                     for type_, classes in sorted(registry.known().items())}
    return found


def merged(type_: str, classes: tuple[type[cmd.Command], ...]) -> type[cmd.Command]:
    """One class of every field these classes (each ruleset's extension of one shared base) have, in the order
    the base records them (`recorded`) and then as they come: a field only some of them require is optional
    here, so that what it lacks is judged by the game's own class."""
    base = cmd.SHARED.get(type_, classes[0])
    found: dict[str, tuple[type[cmd.Command], dataclasses.Field[Any]]] = {}
    for command_class in classes:
        for f in dataclasses.fields(command_class):
            found.setdefault(f.name, (command_class, f))
    shared = {f.name for f in dataclasses.fields(base)}
    order = [name for name in base.recorded if name in found] + [name for name in found if name not in base.recorded]
    specs = []
    for name in order:
        owner, f = found[name]
        required = f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
        default = dataclasses.field(default=None) if required and name not in shared else \
            dataclasses.field(default=f.default, default_factory=f.default_factory)
        specs.append((name, get_type_hints(owner, include_extras=True)[name], default))
    wide = dataclasses.make_dataclass(base.__name__, specs, bases=(cmd.Command,), frozen=True, kw_only=True,
                                      namespace={"type": type_, "recorded": base.recorded, "__doc__": base.__doc__,
                                                 "takers": takers(type_, classes)})
    return wide


def takers(type_: str, classes: tuple[type[cmd.Command], ...]) -> dict[str, list[str]]:
    """For each field of a type several rulesets extend: the rulesets whose class of it has the field."""
    out: dict[str, list[str]] = {}
    for name in registry.names():
        command_class = registry.table(name).get(type_)
        if command_class in classes:
            for f in dataclasses.fields(command_class):
                out.setdefault(f.name, []).append(name)
    return out


def parse_army(body: Any) -> list[dict[str, Any]]:
    if not isinstance(body, dict):
        raise Malformed('Send the army as a JSON object {"units": [Unit, …]}, or as a roster file')
    try:
        army = Army.model_validate(body)
    except ValidationError as error:
        raise invalid(error, body, body_context(Army, "The army", "an army")) from None
    return [dumped(unit) for unit in army.units]


def dumped(unit: Unit) -> dict[str, Any]:
    """A Unit as the army's event stores it: `points` only where the army states them, so an army without
    them is stored as it was before the field existed."""
    return unit.model_dump(exclude=None if unit.points is not None else {"points"})


TEXT = "^[^\\u0000]*$"  # check_text's rule in a JSON Schema: no U+0000 (a lone surrogate is no JSON Schema string)


def as_text(node: Any) -> Any:
    """A request schema with check_text's rule written into it: every free string (and every key of a map)
    holds no U+0000. Strings already held to an enum, a const or a pattern are left as they are."""
    if isinstance(node, list):
        return [as_text(value) for value in node]
    if not isinstance(node, dict):
        return node
    out = {key: as_text(value) for key, value in node.items()}
    declared = out.get("type")
    types: list[Any] = declared if isinstance(declared, list) else [declared]
    if "string" in types and not {"enum", "const", "pattern", "format"} & set(out):
        out["pattern"] = TEXT
    if "object" in types and isinstance(out.get("additionalProperties"), dict) and "propertyNames" not in out:
        out["propertyNames"] = {"pattern": TEXT}
    return out


COMPONENTS = "#/components/schemas/"


def ref(name: str) -> dict[str, str]:
    """A reference to one of the document's components."""
    return {"$ref": COMPONENTS + name}


def request_body(name: str, example: Any = None, **more: Any) -> dict[str, Any]:
    """`openapi_extra` for a route that reads its own body: a JSON body of the component `name` (the service
    reads and judges it itself, so FastAPI knows no model of it), and `more` media types beside it."""
    json_body: dict[str, Any] = {"schema": ref(name)}
    if example is not None:
        json_body["example"] = example
    return {"requestBody": {"required": True, "content": {"application/json": json_body, **more}}}


def models_components(models: Iterable[type[BaseModel]]) -> dict[str, Any]:
    """The JSON schemas of these models and of every model they hold, one component each, referring to one
    another as components. A request model's (a `Body`'s) has check_text's rule written in (`as_text`): what a
    request may hold is what the service judges, and an answer that holds one holds what was judged."""
    _, document = models_json_schema([(model, "validation") for model in models], ref_template=COMPONENTS + "{model}")
    judged = {cls.__name__ for cls in subclasses(Body)}
    return {name: as_text(schema) if name in judged else schema
            for name, schema in document.get("$defs", {}).items()}


def subclasses(cls: type) -> Iterator[type]:
    sub: type
    for sub in cls.__subclasses__():
        yield sub
        yield from subclasses(sub)


REQUESTS: tuple[type[BaseModel], ...] = (GameCreate, Army)  # the JSON bodies of games and armies (/qr: its own)


NO_DICE = {"type": "null", "default": None, "title": "Dice", "description": (
    "this command carries no dice: any is refused (409 SVC.DICE.SERVER with server dice, 422 at the table)")}
# the dice a roll carries at a table-dice game (CONTRACT.md "Dice"); with server dice any is refused (409)
FACES = {"items": {"type": "integer", "minimum": 1, "maximum": 100}, "type": "array",
         "description": "table dice: the faces in the order rolled, each in 1..sides (how many, of what kind: the "
                        "roll's dice expression; 422 otherwise)"}
ROLL_OFF = {"type": "object", "additionalProperties": False, "required": ["A", "B"],
            "properties": {seat: {"type": "integer", "minimum": 1, "maximum": 6, "description": f"seat {seat}'s D6"}
                           for seat in ("A", "B")},
            "description": "table dice: each seat's D6 (CORE.DICE.3)"}
# a field the players measure at the table (CORE.DIST.1): inches, any JSON number, recorded as a string; the range
# of each moment is the offered action's (`actions`), and no rule reads more than 1000"
MEASURED = {"distance": "inches measured at the table (a number; each moment's range is in the offered action)",
            "pile_in": "an Overrun fight: inches of its extra pile-in (up to 3\")"}


def measured(name: str) -> dict[str, Any]:
    return {"anyOf": [{"type": "number", "minimum": 0, "maximum": 1000}, {"type": "null"}], "default": None,
            "title": name.replace("_", " ").title(), "description": MEASURED[name]}


def command_name(type_: str) -> str:
    """A command's component: its type in CamelCase (`free_roll` is FreeRoll), as clients name it."""
    return "".join(part.title() for part in type_.split("_"))


def command_schema(type_: str, command_class: type) -> dict[str, Any]:
    """One command body as the boundary parses it (domain/commands.py's dataclass), `type` fixed, its untyped
    fields typed: `dice` as that command takes them, or null; the measured distances as numbers."""
    schema = adapter(command_class).json_schema()
    properties = schema.setdefault("properties", {})
    properties["type"] = {"type": "string", "const": type_}
    schema["required"] = ["type", *schema.get("required", [])]
    schema["title"] = command_name(type_)
    written = command_class.__doc__ or ""  # a dataclass without a docstring is given its signature as one
    schema["description"] = type_ if written.startswith(f"{command_class.__name__}(") else written.strip() or type_
    for name, field_schema in properties.items():
        untyped = field_schema.keys() <= {"default", "title"}  # `Any` in the dataclass
        if name == "dice":
            properties[name] = NO_DICE if untyped else {**field_schema, "anyOf": [
                ROLL_OFF if option.get("type") == "object" else {**option, **FACES} if option.get("type") == "array"
                else option for option in field_schema["anyOf"]]}
        elif untyped and name in MEASURED:
            properties[name] = measured(name)
    say_who_takes(schema, getattr(command_class, "takers", None))
    texts: dict[str, Any] = as_text(schema)
    return texts


def say_who_takes(schema: dict[str, Any], takers: dict[str, list[str]] | None) -> None:
    """A type several rulesets extend (`merged`): each field that not all of them take says whose it is (a game
    of another ruleset refuses it: no action it offers has the field)."""
    if not takers:
        return
    everyone = list(dict.fromkeys(ruleset for rulesets in takers.values() for ruleset in rulesets))
    for name, field_schema in schema["properties"].items():
        whose = takers.get(name, everyone)
        if whose == everyone:
            continue
        said = field_schema.get("description")
        rulesets = ", ".join(f"`{ruleset}`" for ruleset in whose)
        field_schema["description"] = f"{rulesets} only{': ' + said if said else ''}"
    schema["description"] = (f"{inspect.cleandoc(schema['description'])} The fields are those of every ruleset's "
                             f"{schema['title']}; a field that names its ruleset is that ruleset's own.")


def command_components() -> dict[str, Any]:
    """Every command body as a component, and `Command`: one of them, told apart by `type` (a discriminator)."""
    wire = wire_commands()
    named = {type_: command_name(type_) for type_ in wire}
    components = {named[type_]: command_schema(type_, wire[type_]) for type_ in named}
    components["Command"] = {
        "title": "Command", "description": "A command body: `type` names the command, and the fields are that "
                                           "command's (CONTRACT.md \"Commands\"; GET /state offers what this seat "
                                           "may send now). A game reads it by its ruleset's commands: a type or a "
                                           "field only another ruleset takes is refused by its rules (409)",
        "oneOf": [ref(name) for name in named.values()],
        "discriminator": {"propertyName": "type", "mapping": {type_: COMPONENTS + name for type_, name in named.items()}}}
    return components
