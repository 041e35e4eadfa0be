"""`values.replace`, the appliers' way to change a frozen value, makes what `dataclasses.replace` makes: the same
value, the same refusal of a name no field has, and a dataclass with its own `__post_init__` still checked."""
from __future__ import annotations

import dataclasses

import pytest

from warlog.domain.attacks.profile import Profile
from warlog.domain.state.values import _replaced


@dataclasses.dataclass(frozen=True, slots=True)
class Line:
    name: str
    count: int
    keywords: tuple[str, ...] = ()


@dataclasses.dataclass(frozen=True)
class Checked:
    count: int

    def __post_init__(self) -> None:
        if self.count < 0:
            raise ValueError("a count is never below zero")


def test_a_replaced_value_is_the_value_dataclasses_makes() -> None:
    line = Line("Grots", 10, ("INFANTRY",))
    made = _replaced(line, count=7)
    assert made == dataclasses.replace(line, count=7) == Line("Grots", 7, ("INFANTRY",))
    assert line.count == 10  # the value replaced is left as it was
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.count = 1  # type: ignore[misc]  # still frozen: what the test asserts


def test_a_name_no_field_has_is_refused() -> None:
    with pytest.raises(TypeError, match="no field 'models'"):
        _replaced(Line("Grots", 10), models=3)


def test_a_dataclass_that_checks_itself_is_still_checked() -> None:
    assert _replaced(Checked(2), count=3) == Checked(3)
    with pytest.raises(ValueError, match="below zero"):
        _replaced(Checked(2), count=-1)
    assert hasattr(Profile, "__post_init__")  # the attack profile is one such: its tables are checked
