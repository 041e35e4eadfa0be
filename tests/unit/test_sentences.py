"""A pydantic ValidationError said in the players' words (api/sentences.py): the body's own path as a JSON
pointer, whatever pydantic inserts into `loc` for a union; sentences read from the schema, never its messages."""
from typing import Annotated, Literal

import pytest
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from tests.support.problems import assert_sentence
from warlog.api.sentences import Context, field_pointer, invalid, pointer, sentence


class Move(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    kind: Literal["move"]
    distance: int = Field(title="Distance moved (inches)")


class Shoot(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    kind: Literal["shoot"]
    target: str = Field(description="the unit to shoot at")


class Turn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    steps: list[Annotated[Move | Shoot, Field(discriminator="kind")]]
    dice: list[int] | dict[str, int] | None = None


def refused(body):
    with pytest.raises(ValidationError) as error:
        Turn.model_validate(body)
    said = invalid(error.value, body, Context("This turn", "a turn", Turn.model_json_schema()))
    assert_sentence({"detail": said.detail, "field": said.field})
    return said


def test_a_tagged_unions_tag_is_no_part_of_the_pointer():
    said = refused({"steps": [{"kind": "shoot", "target": "boyz"}, {"kind": "move", "distance": "far"}]})
    assert said.field == "/steps/1/distance"  # pydantic's loc: ("steps", 1, "move", "distance")
    assert said.detail == '`distance` of step 2 (Distance moved (inches)) must be a whole number, not "far".'


def test_a_missing_field_is_said_with_its_description_and_an_unknown_one_with_what_is_taken():
    said = refused({"steps": [{"kind": "shoot"}]})
    assert (said.field, said.detail) == ("/steps/0/target", "Step 1 needs `target`: the unit to shoot at.")
    said = refused({"steps": [{"kind": "move", "distance": 3, "foo": 1}]})
    assert (said.field, said.detail) == ("/steps/0/foo", "`foo` is not part of step 1; it takes `kind` and `distance`.")
    said = refused({"steps": [], "evil": 1})
    assert said.detail == "`evil` is not part of a turn; it takes `steps` and `dice`."


def test_a_plain_unions_member_names_are_no_part_of_the_pointer_nor_of_the_sentence():
    said = refused({"steps": [], "dice": [1, "x"]})
    assert said.field == "/dice/1"  # pydantic's loc: ("dice", "list[int]", 1)
    assert said.detail == 'Die 2 of `dice` must be a whole number, not "x".'
    said = refused({"steps": [], "dice": 5})
    assert said.field == "/dice" and said.detail == "`dice` must be a list or an object, not 5."


def test_an_unknown_tag_lists_the_tags():
    said = refused({"steps": [{"kind": "fly"}]})
    assert said.field == "/steps/0/kind"  # the tag's own field, not the step
    assert said.detail == '`kind` of step 1 must be one of: move, shoot (not "fly").'


@pytest.mark.parametrize("field, expected", [("units.0.models.1.Ld", "/units/0/models/1/Ld"), ("dice", "/dice"),
                                             ("roster/forces/0", "/roster/forces/0"),
                                             ("Idempotency-Key", "Idempotency-Key"), ("/a~b", "/a~b"), (None, None)])
def test_a_rulings_field_becomes_a_json_pointer_and_a_headers_name_stays(field, expected):
    assert field_pointer(field) == expected


def test_a_pointer_escapes_tilde_and_slash_as_rfc_6901_says():
    assert pointer(["a/b", "m~n", 0]) == "/a~1b/m~0n/0"


@pytest.mark.parametrize("text, expected", [("spec: 0D6 rolls no die", "`spec`: 0D6 rolls no die."),
                                            ("start_game belongs to set-up", "`start_game` belongs to set-up."),
                                            ("'scouts' has no transport", "`scouts` has no transport."),
                                            ("there is no action to undo.", "There is no action to undo.")])
def test_a_detail_becomes_a_sentence(text, expected):
    assert sentence(text) == expected
