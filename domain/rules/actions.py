"""Legal actions as data (CONTRACT.md "Legal actions"): what a seat may send now.

Each ruleset answers `actions(state, seat)` with `Action`s, each carrying a JSON
Schema (2020-12, the contract's small subset) of the whole command body whose
enums are this moment's real choices. The same answer judges a command:
`Game.execute` refuses a command that no offered schema admits, so what the
service offers and what it accepts cannot drift apart.

What a seat is offered reads in the players' words (CONTRACT.md "In the players'
words", choices with titles): `domain.rules.titles.titled` gives each action its
button's `title`, each field its label and each choice of a unit, weapon, seat or
objective its `oneOf` of `choice`s named from the state; a choice only its own
code can name (a die of the roll just made, a model line of the target) is built
titled where it is offered, with `choice`.
"""
from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias

import jsonschema_rs
import orjson
from jsonschema import Draft202012Validator
from jsonschema.protocols import Validator
from jsonschema.validators import extend

from warlog.domain import dice

Schema = dict[str, Any]
# a JSON value as a schema judges it (a command's body as sent)
JSON: TypeAlias = str | int | float | bool | Mapping[str, "JSON"] | Sequence["JSON"] | None


@dataclass(frozen=True)
class Action:
    type: str
    rule: str
    summary: str
    schema: Schema
    title: str = ""  # the button: "Shoot" (`titles.titled` gives it where the state is read)

    def as_dict(self) -> dict[str, Any]:
        return {"type": self.type, "rule": self.rule, "title": self.title, "summary": self.summary,
                "schema": self.schema}


def body(type_: str, required: Iterable[str] = (), **properties: Schema | None) -> Schema:
    """The schema of a whole command body: `type` fixed, the given fields and no others."""
    fields = {name: schema for name, schema in properties.items() if schema is not None}
    return {"type": "object", "additionalProperties": False, "required": ["type", *required],
            "properties": {"type": {"const": type_}, **fields}}


def action(type_: str, rule: str, summary: str, required: Iterable[str] = (), **properties: Schema | None) -> Action:
    return Action(type_, rule, summary, body(type_, required, **properties))


def one_of(values: Iterable[object], title: str | None = None) -> Schema:
    schema: Schema = {"enum": list(values)}
    if title:
        schema["title"] = title
    return schema


def choice(options: Iterable[tuple[object, str]], format_: str | None = None, title: str | None = None,
           description: str | None = None) -> Schema:
    """A choice with titles: `{"oneOf": [{"const": value, "title": what a player reads}, ...]}` in place of an
    enum (each value once, so exactly one entry admits it), `format` what it names (`unit`, `weapon`, `seat`,
    `objective`, `model_line`, `die`)."""
    schema: Schema = {"oneOf": [{"const": value, "title": text} for value, text in dict(options).items()]}
    if format_:
        schema["format"] = format_
    if title:
        schema["title"] = title
    return _described(schema, description)


def choices_of(schema: Schema) -> list[Any]:
    """The values a choice admits, whether an enum or a oneOf of consts."""
    if "oneOf" in schema:
        return [entry["const"] for entry in schema["oneOf"]]
    return list(schema.get("enum", ()))


def const(value: object) -> Schema:
    return {"const": value}


def boolean(description: str | None = None) -> Schema:
    return _described({"type": "boolean"}, description)


def number(minimum: int, maximum: int, description: str | None = None) -> Schema:
    """A measured number (inches): any JSON number in range; the event records it as a string."""
    return _described({"type": "number", "minimum": minimum, "maximum": maximum}, description)


def integer(minimum: int, maximum: int, description: str | None = None) -> Schema:
    return _described({"type": "integer", "minimum": minimum, "maximum": maximum}, description)


def text(max_length: int, description: str | None = None) -> Schema:
    return _described({"type": "string", "minLength": 1, "maxLength": max_length}, description)


def subset(values: Iterable[str], min_items: int = 1, description: str | None = None) -> Schema:
    """Some of `values`, each at most once."""
    values = list(values)
    return _described({"type": "array", "items": {"enum": values}, "uniqueItems": True,
                       "minItems": min_items, "maxItems": len(values)}, description)


def keyed(ids: Iterable[str], value: Schema, description: str | None = None) -> Schema:
    """A map keyed by unit id: an object whose properties are those ids."""
    return _described({"type": "object", "additionalProperties": False,
                       "properties": {uid: value for uid in ids}}, description)


def table_dice(expr: dice.DiceExpr) -> Schema:
    """The faces of one roll entered at the table, in the order rolled."""
    return {"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": expr.sides},
            "minItems": expr.count, "maxItems": expr.count,
            "description": f"{dice.needs_text(expr)}, faces in the order rolled"}


def _described(schema: Schema, description: str | None) -> Schema:
    if description:
        schema["description"] = description
    return schema


# JSON has one number type; the service reads an integer as a number written without a fraction (never a
# boolean, never 1.0) and a number as any JSON number but a boolean: the checker says the same
_TYPES = Draft202012Validator.TYPE_CHECKER.redefine_many({
    "integer": lambda _, value: type(value) is int,
    "number": lambda _, value: type(value) in (int, float),
})
_Validator: type[Validator] = extend(Draft202012Validator, type_checker=_TYPES)  # type: ignore[no-untyped-call]  # the stubs leave extend untyped


@functools.lru_cache(maxsize=1024)
def _validator(key: bytes) -> Validator:
    """jsonschema's validator of one distinct schema (`key`: its JSON, keys sorted), for the commands `admits` leaves
    to it (those holding a float): built the first time one is judged, kept for the next."""
    return _Validator(json.loads(key))


@functools.lru_cache(maxsize=2048)  # ~15 KiB each: at most the 4,096 jsonschema validators' ~36 MB this replaced
def _compiled(key: bytes) -> jsonschema_rs.Draft202012Validator:
    """One validator per distinct schema, for jsonschema-rs (a hundredth of jsonschema's time to judge a command:
    jsonschema makes a validator of its own for every keyword it descends into), built the first time it is asked
    for (the same offer recurs every time a game comes back to the same moment) and the schema checked then, once
    (a malformed offer is a bug: said where it is built). Formats name what an offer's values are (`unit`,
    `weapon`); they are not checked, as jsonschema does not check them either."""
    schema = orjson.loads(key)
    _Validator.check_schema(schema)
    return jsonschema_rs.Draft202012Validator(schema, validate_formats=False)


SAFE_INTEGER = 2**53  # an integer jsonschema-rs is sure to read as the same number


def _plain(value: object) -> bool:
    """JSON holding no float and no integer past SAFE_INTEGER: where the standard's types are this module's."""
    if isinstance(value, dict):
        return all(_plain(item) for item in value.values())
    if isinstance(value, list):
        return all(_plain(item) for item in value)
    if isinstance(value, float):
        return False
    return not isinstance(value, int) or -SAFE_INTEGER < value < SAFE_INTEGER


def admits(schema: Schema, command: Mapping[str, JSON]) -> bool:
    """Is `command` an instance of `schema`, integers read as this module reads them (`_TYPES`)? jsonschema-rs
    judges it; its standard reading of "integer" also admits 1.0, so a command holding a float (or an integer
    too large to be sure of) is judged by jsonschema, with `_TYPES`, instead. What the standard refuses, `_TYPES`
    refuses too."""
    key = orjson.dumps(schema, option=orjson.OPT_SORT_KEYS)
    if not _plain(command):
        valid: bool = _validator(key).is_valid(command)
        return valid
    return _compiled(key).is_valid(command)


def offered(actions: Iterable[Action], command: Mapping[str, JSON]) -> bool:
    """Is the command an instance of one of the offered schemas?"""
    return any(a.type == command.get("type") and admits(a.schema, command) for a in actions)
