"""Instances of the legal actions' schemas (CONTRACT.md's JSON Schema subset), two ways:
`instance(schema, rng)` with a seeded `random.Random` for long games, and `strategy(schema)`
for hypothesis, which shrinks a failing game to a short one. Neither knows a rule: they read
only what a schema says, as any client would.
"""
from __future__ import annotations

import random
from typing import Any

from hypothesis import strategies as st

SUBSET = {"type", "properties", "required", "additionalProperties", "const", "enum", "minimum", "maximum",
          "minLength", "maxLength", "items", "minItems", "maxItems", "uniqueItems", "title", "description",
          "oneOf", "format"}  # a choice with titles (CONTRACT.md "In the players' words"): oneOf of {const, title}
CHOICE = {"const", "title"}  # all an entry of a oneOf may hold


def consts(schema: dict[str, Any]) -> list[Any]:
    """The values a choice admits: its enum, or the consts of its oneOf."""
    if "oneOf" in schema:
        return [entry["const"] for entry in schema["oneOf"]]
    return list(schema["enum"])


def choice(schema: dict[str, Any]) -> bool:
    return "enum" in schema or "oneOf" in schema


def keywords(schema: dict[str, Any]) -> set[str]:
    """Every keyword a schema uses, nested ones included (the contract allows only SUBSET)."""
    found = set(schema)
    for sub in schema.get("properties", {}).values():
        found |= keywords(sub)
    if isinstance(schema.get("items"), dict):
        found |= keywords(schema["items"])
    for entry in schema.get("oneOf", ()):
        found |= {"oneOf: " + key for key in set(entry) - CHOICE}  # anything but const and title is outside
    return found


def instance(schema: dict[str, Any], rng: random.Random) -> Any:
    if "const" in schema:
        return schema["const"]
    if choice(schema):
        return rng.choice(consts(schema))
    kind = schema.get("type")
    if kind == "object":
        required = set(schema.get("required", []))
        return {name: instance(sub, rng) for name, sub in schema.get("properties", {}).items()
                if name in required or rng.random() < 0.5}
    if kind == "array":
        low = schema.get("minItems", 0)
        high = schema.get("maxItems", low + 3)
        items = schema.get("items", {})
        if schema.get("uniqueItems") and choice(items):
            return rng.sample(consts(items), rng.randint(low, min(high, len(consts(items)))))
        return [instance(items, rng) for _ in range(rng.randint(low, high))]
    if kind == "integer":
        return rng.randint(schema.get("minimum", -1000), schema.get("maximum", 1000))
    if kind == "number":
        low, high = schema.get("minimum", -1000), schema.get("maximum", 1000)
        return rng.choice([low, high, round(rng.uniform(low, high), rng.choice([0, 1, 2])), rng.uniform(low, high)])
    if kind == "boolean":
        return rng.random() < 0.5
    if kind == "string":
        length = rng.randint(schema.get("minLength", 0), min(schema.get("maxLength", 20), 20))
        return "".join(rng.choice("abc xyz-") for _ in range(length))
    raise AssertionError(f"not a schema of the contract's subset: {schema}")


def strategy(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    if "const" in schema:
        return st.just(schema["const"])
    if choice(schema):
        return st.sampled_from(consts(schema))
    kind = schema.get("type")
    if kind == "object":
        properties = schema.get("properties", {})
        required = set(schema.get("required", []))
        return st.fixed_dictionaries({k: strategy(v) for k, v in properties.items() if k in required},
                                     optional={k: strategy(v) for k, v in properties.items() if k not in required})
    if kind == "array":
        items = schema.get("items", {})
        return st.lists(strategy(items), min_size=schema.get("minItems", 0), max_size=schema.get("maxItems", 5),
                        unique=bool(schema.get("uniqueItems")))
    if kind == "integer":
        return st.integers(schema.get("minimum"), schema.get("maximum"))
    if kind == "number":
        return st.one_of(st.integers(schema.get("minimum"), schema.get("maximum")),
                         st.floats(schema.get("minimum"), schema.get("maximum"), allow_nan=False))
    if kind == "boolean":
        return st.booleans()
    if kind == "string":
        return st.text(min_size=schema.get("minLength", 0), max_size=schema.get("maxLength", 20))
    raise AssertionError(f"not a schema of the contract's subset: {schema}")


def simplest(schema: dict[str, Any]) -> Any:
    """The plainest instance: constants, first choices, required fields only, minimums."""
    if "const" in schema:
        return schema["const"]
    if choice(schema):
        return consts(schema)[0]
    kind = schema.get("type")
    if kind == "object":
        return {name: simplest(sub) for name, sub in schema.get("properties", {}).items()
                if name in schema.get("required", [])}
    if kind == "array":
        items = schema.get("items", {})
        if schema.get("uniqueItems") and choice(items):
            return consts(items)[:schema.get("minItems", 0)]
        return [simplest(items) for _ in range(schema.get("minItems", 0))]
    if kind in ("integer", "number"):
        return schema.get("minimum", 0)
    if kind == "boolean":
        return True
    if kind == "string":
        return "x" * max(1, schema.get("minLength", 0))
    raise AssertionError(f"not a schema of the contract's subset: {schema}")
