"""A command judged against an offer's schema by jsonschema-rs (domain/rules/actions.py `admits`) is judged as
jsonschema judges it with the service's reading of JSON's types: an integer is a number written without a
fraction (never 1.0, never true). Any JSON a body may hold, against offers shaped as the rulesets shape them."""
from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from warlog.domain.rules import actions as act
from warlog.domain.rules.actions import _Validator, admits

SCHEMAS = [
    act.action("attack", "RS.SHO.2", "attack", ["unit", "weapon", "target"], unit=act.const("shooters"),
               weapon=act.one_of(["Bolt rifle", "Knife"]), target=act.one_of(["horde", "grots"]),
               models=act.integer(1, 20, "models attacking"), within_half_range=act.boolean("near")).schema,
    act.action("move", "RS.MOV.1", "move", ["unit", "distance"], unit=act.const("horde"),
               distance=act.number(0, 6, "inches")).schema,
    act.action("roll", "CORE.DICE.1", "dice", ["dice"],
               dice={"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": 6},
                     "minItems": 2, "maxItems": 2}).schema,
]

scalars = st.one_of(st.none(), st.booleans(), st.integers(-2**60, 2**60), st.integers(0, 30),
                    st.floats(allow_nan=False, allow_infinity=False), st.sampled_from([1.0, 6.0, 2.5]),
                    st.text(max_size=8), st.sampled_from(["attack", "move", "roll", "shooters", "horde", "Knife"]))
json_values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=3)
                           | st.dictionaries(st.text(max_size=6), inner, max_size=3), max_leaves=8)
keys = st.sampled_from(["type", "unit", "weapon", "target", "models", "within_half_range", "distance", "dice", "x"])
anything = st.dictionaries(keys, json_values | st.lists(st.integers(0, 7) | st.sampled_from([1.0, True]),
                                                         max_size=3), max_size=6)
BASES = [{"type": "attack", "unit": "shooters", "weapon": "Knife", "target": "horde"},
         {"type": "move", "unit": "horde", "distance": 3}, {"type": "roll", "dice": [2, 5]}]
tricky = st.sampled_from([1.0, 6.0, True, 2**70, 3, -1, [1.0, 3], [2, 5], [True, 2], [3, 4, 5]])  # an integer's edges
changes = st.dictionaries(keys, tricky | json_values | st.lists(st.integers(0, 7) | st.sampled_from([1.0, True]),
                                                                min_size=2, max_size=2), min_size=1, max_size=2)


@settings(max_examples=300, deadline=None)
@given(schema=st.sampled_from(SCHEMAS), command=anything)
def test_admits_judges_any_json_as_jsonschema_with_the_services_integers(schema: dict[str, Any],
                                                                         command: dict[str, Any]) -> None:
    assert admits(schema, command) == _Validator(schema).is_valid(command)


@settings(max_examples=300, deadline=None)
@given(which=st.integers(0, len(SCHEMAS) - 1), changed=changes)
def test_admits_judges_an_offers_near_misses_as_jsonschema(which: int, changed: dict[str, Any]) -> None:
    command = {**BASES[which], **changed}
    assert admits(SCHEMAS[which], command) == _Validator(SCHEMAS[which]).is_valid(command)


def test_an_integer_written_with_a_fraction_or_as_true_is_no_integer() -> None:
    attack = {"type": "attack", "unit": "shooters", "weapon": "Knife", "target": "horde"}
    assert admits(SCHEMAS[0], {**attack, "models": 3})
    assert not admits(SCHEMAS[0], {**attack, "models": 3.0})
    assert not admits(SCHEMAS[0], {**attack, "models": True})
    assert not admits(SCHEMAS[0], {**attack, "models": 2**70})
    assert not admits(SCHEMAS[2], {"type": "roll", "dice": [1.0, 2]})
