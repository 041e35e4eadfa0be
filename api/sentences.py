"""Refusals in the players' words (CONTRACT.md "In the players' words"): a detail as a sentence, a body's place
as a JSON pointer, and a pydantic ValidationError said as what to fix, read from the body's own JSON schema (its
fields' titles, descriptions and choices): no type names, no pydantic messages."""
from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import ValidationError

from warlog.domain import dice
from warlog.domain.commands import ENTROPY
from warlog.domain.rulings import Malformed

NAMED = re.compile(r"^([A-Za-z_][\w.]*): ")  # a detail that begins with the name of its field ("spec: …")
CODE = re.compile(r"^([a-z]+_[a-z_]+)\b")  # or with a command's or a field's name (start_game, free_roll)
QUOTED = re.compile(r"^'([^'\s`]+)'")  # or with a unit's id, quoted ('scouts' has no transport capacity)


def sentence(text: str) -> str:
    """A detail as a sentence: a field's or a command's name in front in backquotes ("`spec`: …", "`start_game`
    belongs to set-up"), else a capital first letter, and a full stop at the end."""
    text = NAMED.sub(lambda found: f"`{found.group(1)}`: ", text.strip(), count=1)
    text = CODE.sub(lambda found: f"`{found.group(1)}`", text, count=1)
    text = QUOTED.sub(lambda found: f"`{found.group(1)}`", text, count=1)
    if text and text[0].islower():
        text = text[0].upper() + text[1:]
    return text if not text or text.endswith((".", "?", "!")) else text + "."


HEADER = re.compile(r"^[A-Z][A-Za-z]*(-[A-Z][A-Za-z]*)+$")  # Idempotency-Key, Known-Head: a header at fault


def escaped(segment: Any) -> str:
    return str(segment).replace("~", "~0").replace("/", "~1")


def pointer(path: Sequence[Any]) -> str:
    """A body's place as a JSON pointer (RFC 6901): ("units", 0, "name") is /units/0/name."""
    return "".join("/" + escaped(segment) for segment in path)


def field_pointer(field: str | None) -> str | None:
    """A ruling's `field` as the answer's: the domain names a body's field by its dotted path ("units.0.Ld"), the
    roster reader a roster's by its slashed one ("roster/forces/0"); both become JSON pointers. A header's name
    (Idempotency-Key), and a pointer already, stay as they are."""
    if not field or field.startswith("/") or HEADER.match(field):
        return field or None
    return "/" + field if "/" in field else pointer(field.split("."))


class AtParameter(Malformed):
    """422 at a query parameter (`field` is its name, never made a pointer): a roster's `ruleset`."""


KINDS = {"int": "a whole number", "float": "a number", "decimal": "a number", "string": "text", "str": "text",
         "bool": "true or false", "list": "a list", "tuple": "a list", "set": "a list", "frozenset": "a list",
         "dict": "an object", "model": "an object", "dataclass": "an object", "typed": "an object",
         "finite": "a finite number", "bytes": "text"}  # what a pydantic error type's first word expects
BOUNDS = {"greater_than_equal": ("ge", "at least"), "less_than_equal": ("le", "at most"),
          "greater_than": ("gt", "more than"), "less_than": ("lt", "less than")}
MISSING = ("missing", "missing_argument")
UNKNOWN = ("extra_forbidden", "unexpected_keyword_argument")


@dataclasses.dataclass(frozen=True)
class Context:
    """What a body is, for the sentences about it: `whole` begins a sentence about the body itself ("This command
    needs …"), `kind` names it after "is not part of" ("a `move` command"); `schema` is its JSON schema, whose
    properties' titles, descriptions and choices the sentences read."""

    whole: str
    kind: str
    schema: Mapping[str, Any] = dataclasses.field(default_factory=dict)


def invalid(error: ValidationError | Sequence[Mapping[str, Any]], body: Any, context: Context) -> Malformed:
    """A body pydantic refused, as a Malformed (422) whose detail says in sentences what to fix (up to three
    fields) and whose `field` is the JSON pointer of the first field at fault."""
    errors: list[Mapping[str, Any]] = list(error.errors(include_url=False) if isinstance(error, ValidationError)
                                           else error)
    placed = [(own_path(e.get("loc", ()), body, str(e.get("type", ""))), e) for e in map(at_the_tag, errors)]
    deeper = {tuple(path[:n]) for path, _ in placed for n in range(len(path))}
    # a union says what each of its members expected: where one member got further (into a list's items), the
    # members that refused the value whole ("not an object") are left out
    kept = [(path, e) for path, e in placed if not (tuple(path) in deeper and is_kind_error(e))] or placed
    by_place: dict[str, list[tuple[list[Any], Mapping[str, Any]]]] = {}
    for path, e in kept:  # one sentence a field, and one for every field its owner lacks ("needs `a` and `b`")
        missing = str(e.get("type", "")) in MISSING and bool(path)
        by_place.setdefault(pointer(path[:-1]) + " needs" if missing else pointer(path), []).append((path, e))
    sentences = [said(found, context, body) for found in list(by_place.values())[:3]]
    first = pointer(kept[0][0]) if kept else ""
    return Malformed(" ".join(sentences) or sentence(f"{context.whole} is not well formed"), field=first or None)


def at_the_tag(error: Mapping[str, Any]) -> Mapping[str, Any]:
    """A tagged union's refusal of its tag, placed at the tag's own field (`kind` of the step, not the step) with
    the tag sent as its input; a tag missing is that field missing."""
    kind, ctx = str(error.get("type", "")), error.get("ctx") or {}
    if kind not in ("union_tag_invalid", "union_tag_not_found") or "discriminator" not in ctx:
        return error
    tag = str(ctx["discriminator"]).strip("'\"")
    loc = (*tuple(error.get("loc", ())), tag)
    if kind == "union_tag_not_found":
        return {**error, "type": "missing", "loc": loc}
    return {**error, "loc": loc, "input": ctx.get("tag")}


def is_kind_error(error: Mapping[str, Any]) -> bool:
    kind = str(error.get("type", ""))
    return kind.endswith("_type") or kind == "none_required"


def own_path(loc: Sequence[Any], body: Any, kind: str) -> list[Any]:
    """The body's own path to an error: pydantic's `loc` without what it inserts that is no key of the body (a
    tagged union's tag, a union member's name such as `list[int]`)."""
    path: list[Any] = []
    node = body
    for n, segment in enumerate(loc):
        inside = isinstance(node, dict) and isinstance(segment, str) and segment in node
        if inside or (isinstance(node, list) and isinstance(segment, int) and 0 <= segment < len(node)):
            node = node[segment]
        elif n == len(loc) - 1 and isinstance(node, dict) and kind in MISSING:
            node = None
        else:
            continue
        path.append(segment)
    return path


def said(found: list[tuple[list[Any], Mapping[str, Any]]], context: Context, body: Any) -> str:
    """One field's errors as one sentence (`body`: the body they are about)."""
    path, error = found[0]
    kind = str(error.get("type", ""))
    prop = schema_at(context.schema, path, body)
    subject = named(path) or context.whole
    label = label_of(prop, path[-1]) if path else ""  # the body itself is named by `context`
    value, ctx = error.get("input"), error.get("ctx") or {}
    if kind in MISSING and path:
        owner = named(path[:-1], listed=False) or context.whole
        if len(found) > 1:
            names = [f"`{p[-1]}`" for p, _ in found]
            return sentence(f"{owner} needs {', '.join(names[:-1])} and {names[-1]}")
        return sentence(f"{owner} needs `{path[-1]}`{': ' + label if label else ''}")
    if kind in UNKNOWN and path:
        owner_schema = schema_at(context.schema, path[:-1], body)
        taken = [f"`{name}`" for name in owner_schema.get("properties", {}) if name != "type"]
        takes = f"; it takes {', '.join(taken[:-1])} and {taken[-1]}" if len(taken) > 1 else \
            f"; it takes {taken[0]}" if taken else ""
        return sentence(f"`{path[-1]}` is not part of {named(path[:-1], listed=False) or context.kind}{takes}")
    kinds = [KINDS.get(str(e.get("type", "")).split("_")[0]) for _, e in found if is_kind_error(e)]
    if kinds and all(kinds) and len(kinds) == len(found):
        expected = " or ".join(dict.fromkeys(k for k in kinds if k))
        about = f" ({label})" if label and len(label) <= 40 else ""
        return sentence(f"{subject}{about} must be {expected}, {shown(value)}")
    if kind == "none_required":
        return sentence(f"{subject} is not sent here: leave it out")
    if kind in ("literal_error", "enum", "union_tag_invalid"):
        listed = str(ctx.get("expected", ctx.get("expected_tags", "")))
        tags = [part.strip(" '\"") for part in re.split(r",| or ", listed) if part.strip(" '\"")]
        choices = tags if kind == "union_tag_invalid" else choices_of(prop) or tags
        return sentence(f"{subject} must be one of: {', '.join(map(str, choices))} ({shown(value)})")
    if kind in BOUNDS:
        low, high = prop.get("minimum"), prop.get("maximum")
        if low is not None and high is not None:
            return sentence(f"{subject} must be from {low} to {high}, {shown(value)}")
        key, words = BOUNDS[kind]
        return sentence(f"{subject} must be {words} {ctx.get(key)}, {shown(value)}")
    if kind == "string_too_short":
        least = ctx.get("min_length", 1)
        return sentence(f"{subject} may not be empty" if least == 1 else
                        f"{subject} must be at least {least} characters long")
    if kind == "string_too_long":
        return sentence(f"{subject} may be at most {ctx.get('max_length')} characters long")
    if kind in ("too_short", "too_long"):
        bound = ctx.get("min_length") if kind == "too_short" else ctx.get("max_length")
        actual = f", not {ctx['actual_length']}" if ctx.get("actual_length") is not None else ""
        return sentence(f"{subject} must hold {'at least' if kind == 'too_short' else 'at most'} {bound} "
                        f"{'item' if bound == 1 else 'items'}{actual}")
    if kind == "string_pattern_mismatch":
        return not_in_form(subject, ctx.get("pattern"), label, value)
    message = str(ctx["error"]) if "error" in ctx else str(error.get("msg", "")).replace("Input should be", "must be")
    return sentence(f"{subject} {message}" if message.startswith(("must ", "may ", "is ")) else
                    f"{subject}: {message}")


def singular(word: str) -> str:
    """A list's name for one of its items: units' is unit, dice's die, abilities' ability, statuses' status."""
    if word == "dice":
        return "die"
    for plural, one in (("ies", "y"), ("sses", "ss"), ("uses", "us"), ("s", "")):
        if word.endswith(plural):
            return word[: len(word) - len(plural)] + one
    return word


def named(path: Sequence[Any], listed: bool = True) -> str:
    """A place in a body in words, innermost first: ("units", 0, "models", 1, "count") is "`count` of model 2 of
    unit 1", ("dice", 0) "die 1 of `dice`" (the list named, unless `listed` is false: "die 1", the owner of a
    field); empty for the body itself."""
    parts: list[str] = []
    n = len(path) - 1
    while n >= 0:
        segment = path[n]
        if isinstance(segment, int) and n > 0 and isinstance(path[n - 1], str):
            parts.append(f"{singular(path[n - 1])} {segment + 1}")
            if listed and n == len(path) - 1 == 1:
                parts.append(f"`{path[n - 1]}`")
            n -= 2
        else:
            parts.append(f"item {segment + 1}" if isinstance(segment, int) else f"`{segment}`")
            n -= 1
    return " of ".join(parts)


def shown(value: Any) -> str:
    """The value sent, as a player typed it ("not \"far\"", "not true"); "and it was sent empty" for JSON's null."""
    if value is None:
        return "and it was sent empty"
    if isinstance(value, (dict, list)):
        return "not an object" if isinstance(value, dict) else "not a list"
    if isinstance(value, str):
        return "not " + json.dumps(value if len(value) <= 40 else value[:40] + "…", ensure_ascii=False)
    return "not " + json.dumps(value)


def resolved(node: Mapping[str, Any], root: Mapping[str, Any]) -> Mapping[str, Any]:
    """A schema node with its reference followed and, for an optional value (`anyOf` [X, null]), X's own keys
    beside the node's title and description."""
    for _ in range(20):
        if "$ref" in node:
            target = root.get("$defs", {}).get(str(node["$ref"]).rsplit("/", 1)[-1], {})
            node = {**target, **{k: v for k, v in node.items() if k != "$ref"}}
        elif len(node.get("allOf", ())) == 1:
            node = {**node["allOf"][0], **{k: v for k, v in node.items() if k != "allOf"}}
        else:
            options = [o for o in node.get("anyOf", ()) if o.get("type") != "null"]
            if len(options) != 1:
                return node
            node = {**options[0], **{k: v for k, v in node.items() if k != "anyOf"}}
    return node


def schema_at(root: Mapping[str, Any], path: Sequence[Any], body: Any = None) -> Mapping[str, Any]:
    """The schema of the value at `path` (empty where the schema does not say); of a union's members, the one the
    body's value there is (its tag, or the fields it has)."""
    node, value = chosen(resolved(root, root), root, body), body
    for segment in path:
        if isinstance(segment, int):
            items = node.get("items")
            node = items if isinstance(items, Mapping) else {}
            value = value[segment] if isinstance(value, list) and 0 <= segment < len(value) else None
        else:
            extra = node.get("additionalProperties")
            node = node.get("properties", {}).get(segment) or (extra if isinstance(extra, Mapping) else {})
            value = value.get(segment) if isinstance(value, dict) else None
        node = chosen(resolved(node, root), root, value)
    return node


def chosen(node: Mapping[str, Any], root: Mapping[str, Any], value: Any) -> Mapping[str, Any]:
    """Of a union (`oneOf`/`anyOf` of objects), the member `value` is: the one whose `const` fields it matches,
    else the first that has its fields; the node itself when it is no union or `value` no object."""
    options = [resolved(o, root) for o in (*node.get("oneOf", ()), *node.get("anyOf", ()))]
    members = [o for o in options if "properties" in o]
    if not members or not isinstance(value, dict):
        return node
    for member in members:
        consts = {k: p["const"] for k, p in member["properties"].items() if isinstance(p, Mapping) and "const" in p}
        if consts and all(value.get(k) == v for k, v in consts.items()):
            return {**member, **{k: v for k, v in node.items() if k in ("title", "description")}}
    return next((m for m in members if set(value) <= set(m["properties"])), node)


def label_of(prop: Mapping[str, Any], name: Any) -> str:
    """A field's words: its title where one was written (not pydantic's own, made of the name), else its
    description (its first clause, when it goes on past 60 characters)."""
    title = str(prop.get("title") or "")
    if title and title != str(name).replace("_", " ").title():
        return title
    described = str(prop.get("description") or "").rstrip(".")
    return re.split(r": |; ", described, maxsplit=1)[0] if len(described) > 60 else described


def choices_of(prop: Mapping[str, Any]) -> list[Any]:
    """The values a field may take, as its schema lists them (an enum, a const, oneOf/anyOf consts)."""
    found = list(prop.get("enum", ()))
    if "const" in prop:
        found.append(prop["const"])
    for option in (*prop.get("oneOf", ()), *prop.get("anyOf", ())):
        found.extend(choices_of(option))
    return list(dict.fromkeys(found))


# the patterns fields are held to (a unit's id, a hash, a seat), named once for the fields and for their words
UNIT_ID, HEX64, SEAT = r"^[A-Za-z0-9_.:-]+$", "^[0-9a-f]{64}$", "^[AB]$"
# what each pattern a field is held to means, as the refusal of a value not in its form says it (never the pattern)
PATTERNS = {dice.PATTERN: "must be a dice expression such as 3, D6, D3+1 or 2D6",
            UNIT_ID: "must be written with letters, digits and _ . : - only, no spaces",
            HEX64: "must be 64 lower-case hex digits",
            SEAT: "must be A or B",
            ENTROPY: "must be hex digits in pairs (whole bytes), at most 256 digits"}


def not_in_form(subject: str, pattern: object, label: str, value: Any) -> str:
    """A value its field's pattern refused, in words (`PATTERNS`; where none are written, the field's label)."""
    said = PATTERNS.get(str(pattern)) or (f"is not in the form it takes: {label}" if label else
                                          "is not in the form it takes")
    return sentence(f"{subject} {said} ({shown(value)})")


IN_WORDS = {"query": "query parameter", "path": "path segment", "header": "header", "cookie": "cookie"}


def parameter_refusal(errors: Sequence[Mapping[str, Any]]) -> tuple[str, str | None]:
    """FastAPI's own validation of a path, query or header parameter as (a detail, the parameter's name)."""
    first = errors[0] if errors else {}
    loc = tuple(first.get("loc") or ())
    where = str(loc[0]) if loc else ""
    name = str(loc[1]) if len(loc) > 1 and where in IN_WORDS else None
    context = Context(f"This request's {IN_WORDS.get(where, 'parameter')}", "this request")
    same = [{**e, "loc": tuple(e.get("loc", ()))[1:]} for e in errors if tuple(e.get("loc", ()))[:1] == loc[:1]]
    refused = invalid(same, {name: first.get("input")} if name is not None else None, context)
    return refused.detail, name if name is not None else refused.field
