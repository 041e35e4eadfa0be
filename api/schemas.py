"""Request and response models: the boundary translates types once."""
from __future__ import annotations

import json
import math
import re
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, ValidationError, field_validator

from warlog.api.errors import Problem
from warlog.domain import commands as cmd
from warlog.domain.commands import adapter
from warlog.domain import dice
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
    battle_rounds: int = Field(5, ge=1, le=20)
    reserves_from_round: int = Field(2, ge=1, le=20)
    spectator_delay_s: int = Field(0, ge=0, le=3600)
    objectives: list[Name] = Field(default_factory=list, max_length=12, json_schema_extra={"uniqueItems": True},
                                   description="reference: the objective markers' names (EXT.OBJ.1)")
    actions: list[Name] = Field(default_factory=list, max_length=12, json_schema_extra={"uniqueItems": True},
                                description="reference: the actions a unit may start instead of shooting (RS.CMD.3); "
                                            "none named: Secure objective, Sabotage, Recover intel")

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


class GamePublic(BaseModel):
    game_id: str
    version: int
    tokens: dict[str, str]
    dice_commitment: str | None


def digits_only(value: Any) -> Any:
    """A URL's integer as JSON Schema's `integer` reads it: ASCII digits only. Pydantic's lax int would also take
    " 6", "+6", "6.0", "6_0" or "6" and a NEL ("6\\x85"), which the document calls no integer."""
    if isinstance(value, str) and not re.fullmatch(r"[0-9]{1,30}", value):  # longer: past every maximum
        raise ValueError("a number written with the digits 0-9 only")
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


class Model(Body):
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
    I: int | None = Field(None, ge=1, le=10)
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
    id: str = Field(min_length=1, max_length=100, pattern=r"^[A-Za-z0-9_.:-]+$")
    name: str = Field(min_length=1, max_length=200)
    keywords: list[str] = Field(default_factory=list)
    abilities: list[str] = Field(default_factory=list)
    models: list[Model] = Field(min_length=1, max_length=100)
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


class ArmyIn(Body):
    units: list[Unit] = Field(min_length=1, max_length=500)


class ActionOffered(BaseModel):
    """CONTRACT.md "Legal actions": one command this seat may send now."""

    type: str = Field(description="the command type")
    rule: str = Field(description="the RULES.md rule it follows")
    summary: str = Field(description="one line a player reads")
    body_schema: dict[str, Any] = Field(alias="schema", description=(
        "a JSON Schema (2020-12) of the whole command body, in the contract's subset: type, properties, "
        "required, additionalProperties, const, enum, minimum, maximum, minLength, maxLength, items, minItems, "
        "maxItems, uniqueItems, title, description. Any instance is accepted if sent at once by this seat; an "
        "`integer` is a JSON number written without a fraction, a `number` any JSON number (a measured distance, "
        "recorded as a string)"))


class StatePublic(BaseModel):
    """GET /state: the current-phase projection (CONTRACT.md "Reading"), documented here, served as built."""

    model_config = ConfigDict(extra="allow")
    game_id: str
    ruleset: str
    version: int
    status: Literal["setup", "in_progress", "ended"]
    battle_round: int
    active_seat: Seat | None
    phase: str | None
    sub_phase: str | None
    awaiting: dict[str, Any] = Field(description="who must act and how: `seat` (null: either, or both) and "
                                                 "`action`, the type of an offered action whenever it names a seat")
    pass_points: dict[str, int]
    declared_done: dict[str, bool]
    cp: dict[str, int]
    vp: dict[str, int] | None = Field(None, description="victory points scored so far, per seat, where the ruleset "
                                                         "keeps them (reference: EXT.VP.1); absent otherwise")
    units: dict[str, dict[str, Any]]
    actions: list[ActionOffered] = Field(default_factory=list, description=(
        "with a seat token, what that seat may send now that moves the game on; a command that is no instance "
        "of one of these schemas is refused. Empty for a spectator, a past state (`?at=`) and while an undo "
        "request waits"))
    anytime: list[str] = Field(default_factory=list, description=(
        "the command types (and undo, redo, approve, reject) open now besides `actions`, judged by their own "
        "rules: free_roll, record_casualties, set_status, concede, add_entropy in set-up, the ruleset's "
        "record-only commands"))
    records: list[ActionOffered] = Field(default_factory=list, description=(
        "forms for the record-only commands of `anytime` (casualties, statuses, the ruleset's own), so a client "
        "need not know their shapes; they are judged by their own rules, not by these schemas"))


class ActionPublic(BaseModel):
    version: int
    events: list[dict[str, Any]]


MAX_DEPTH = 64  # an army is 5 levels deep, a roster file some 20; 1,000 would overflow the stack
# an escaped lone surrogate ("\\ud800") decodes to no text at all, and U+0000 ("\\u0000"), which C strings,
# PostgreSQL text and many logs cut short, is no text a player means to send
NOT_TEXT = re.compile("[\x00\ud800-\udfff]")


def not_text(text: str) -> str | None:
    """What in `text` is no text (a lone surrogate, U+0000), said for a player; None when it is all text."""
    found = NOT_TEXT.search(text) if "\x00" in text or not text.isascii() else None
    if found is None:
        return None
    if found.group() == "\x00":
        return "a NUL character (\\u0000) is not text"
    return "a lone surrogate escape (\\ud800..\\udfff) is not text; send the character itself, in UTF-8"


def unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """json's object_pairs_hook: a key given twice is refused, not silently the last one."""
    body = dict(pairs)
    if len(body) != len(pairs):
        seen: set[str] = set()
        twice = next(key for key, _ in pairs if key in seen or seen.add(key))
        raise Malformed(f"the key {twice!r} appears twice in one object",  # repr: no lone surrogate in the answer
                        field=None if not_text(twice) else twice)
    return body


def no_constant(name: str) -> Any:
    """json's parse_constant: NaN and Infinity are Python's extension, not JSON."""
    raise Malformed(f"{name} is not JSON; send a number")


def finite(text: str) -> float:
    """json's parse_float: a number too large for a float (1e400) would be stored as Infinity."""
    value = float(text)
    if not math.isfinite(value):
        raise Malformed(f"the number {text[:40]} is too large")
    return value


def dotted(path: tuple[Any, ...]) -> str | None:
    return ".".join(str(p) for p in path) or None


def check_text(value: Any) -> None:
    """Depth and text, walked without recursion: every string (and key) must be text that encodes as UTF-8
    and holds no U+0000 (422 naming the field)."""
    stack = [(value, ())]
    while stack:
        node, path = stack.pop()
        if isinstance(node, str):
            if (wrong := not_text(node)) is not None:
                raise Malformed(f"{dotted(path) or 'the body'}: {wrong}", field=dotted(path))
        elif isinstance(node, (dict, list)):
            if len(path) >= MAX_DEPTH:
                raise Malformed(f"the body is nested too deep (more than {MAX_DEPTH} levels)",
                                field=dotted(path[:8]))
            items = node.items() if isinstance(node, dict) else enumerate(node)
            for key, item in items:
                if isinstance(key, str) and (wrong := not_text(key)) is not None:
                    raise Malformed(f"{dotted(path) or 'the body'}: a key holds what is not text ({wrong})",
                                    field=dotted(path))
                stack.append((item, (*path, key)))


STRINGS = re.compile(rb'"(?:[^"\\]|\\.)*"')
NOT_BRACKETS = bytes(set(range(256)) - set(b"[]{}"))


def too_deep(raw: bytes) -> bool:
    """Nested past MAX_DEPTH, told from the bytes: the decoder is never let near the interpreter's recursion
    limit, where a finalizer that happens to run (a garbage collection) would fail as an unraisable error."""
    if raw.count(b"[") + raw.count(b"{") <= MAX_DEPTH:
        return False
    depth = 0
    for byte in STRINGS.sub(b"", raw).translate(None, NOT_BRACKETS):  # brackets outside strings, in order
        depth += 1 if byte in b"[{" else -1
        if depth > MAX_DEPTH:
            return True
    return False


class NotUtf8(Problem):
    """A JSON body in another encoding than UTF-8: 415, as RFC 8259 allows JSON only in UTF-8 (a byte order
    mark in front of UTF-8 is let pass, as it allows too)."""

    def __init__(self, detail: str) -> None:
        super().__init__(415, f"a JSON body is UTF-8 (RFC 8259): {detail}; send it encoded as UTF-8")


def utf8(raw: bytes) -> str:
    """The body's text, or NotUtf8: UTF-16 and UTF-32 (with or without a byte order mark), or bytes that are
    no UTF-8 at all."""
    encoding = json.detect_encoding(raw)
    if encoding not in ("utf-8", "utf-8-sig"):
        raise NotUtf8(f"this one is {encoding.upper()}")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise NotUtf8(f"byte {error.start} is not UTF-8") from None


def parse_json(raw: bytes) -> Any:
    """The body as JSON that every later step can hash and store: UTF-8 (415 otherwise), no duplicate
    keys, no lone surrogates or U+0000, no NaN or infinite numbers, nested at most MAX_DEPTH deep (422
    otherwise, naming the field where there is one)."""
    text = utf8(raw)
    if too_deep(raw):
        raise Malformed(f"the body is nested too deep (more than {MAX_DEPTH} levels)")
    try:
        body = json.loads(text or "null", object_pairs_hook=unique_keys, parse_constant=no_constant,
                          parse_float=finite)
    except RecursionError:
        raise Malformed(f"the body is nested too deep (more than {MAX_DEPTH} levels)") from None
    except ValueError as error:  # JSONDecodeError
        raise Malformed(f"the body is not JSON: {error}") from None
    check_text(body)
    return body


def parse_command(body: Any) -> cmd.Command:
    """JSON -> a domain command; unknown types and wrong fields are 422 naming the field."""
    if not isinstance(body, dict) or not isinstance(body.get("type"), str):
        raise Malformed('the body must be a JSON object with a "type"', field="type")
    command_class = cmd.COMMANDS.get(body["type"])
    if command_class is None:
        raise Malformed(f"unknown command type {body['type']!r}; known: {', '.join(sorted(cmd.COMMANDS))}",
                        field="type")
    fields = {k: v for k, v in body.items() if k != "type"}
    try:
        return cmd.keep_sent(adapter(command_class).validate_python(fields), body)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise Malformed(f"{body['type']}: {where}: {first['msg']}", field=where or None) from None


def parse_army(body: Any) -> list[dict[str, Any]]:
    if not isinstance(body, dict):
        raise Malformed('send the army as a JSON object {"units": [Unit, …]}, or a roster file')
    try:
        army = ArmyIn.model_validate(body)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise Malformed(f"{where}: {first['msg']}", field=where or None) from None
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
    types = out.get("type") if isinstance(out.get("type"), list) else [out.get("type")]
    if "string" in types and not {"enum", "const", "pattern", "format"} & set(out):
        out["pattern"] = TEXT
    if "object" in types and isinstance(out.get("additionalProperties"), dict) and "propertyNames" not in out:
        out["propertyNames"] = {"pattern": TEXT}
    return out


def body_schema(model: type[BaseModel]) -> dict[str, Any]:
    """A request body's JSON schema for `openapi_extra`, nested models written in place: its own `$defs`
    would not resolve there, nor would references to components FastAPI never registered."""
    schema = model.model_json_schema()
    defs = schema.pop("$defs", {})

    def inline(node: Any) -> Any:
        if isinstance(node, dict):
            if "$ref" in node:
                return inline(defs[node["$ref"].rsplit("/", 1)[-1]])
            return {key: inline(value) for key, value in node.items()}
        if isinstance(node, list):
            return [inline(value) for value in node]
        return node
    return as_text(inline(schema))


NO_DICE = {"type": "null", "default": None, "title": "Dice", "description": (
    "this command carries no dice: any is refused (409 SVC.DICE.SERVER with server dice, 422 at the table)")}


def command_schemas() -> dict[str, Any]:
    """The OpenAPI description of every command body (a oneOf keyed by `type`)."""
    variants = []
    for name, command_class in sorted(cmd.COMMANDS.items()):
        schema = adapter(command_class).json_schema()
        schema.setdefault("properties", {})["type"] = {"const": name}
        schema["required"] = ["type", *schema.get("required", [])]
        written = command_class.__doc__ or ""  # a dataclass without a docstring is given its signature as one
        schema["description"] = name if written.startswith(f"{command_class.__name__}(") else written.strip() or name
        if schema["properties"].get("dice", {}).keys() <= {"default", "title"}:  # `dice: Any`: a command with none
            schema["properties"]["dice"] = NO_DICE
        variants.append(as_text(schema))
    return {"oneOf": variants}
