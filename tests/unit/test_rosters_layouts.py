"""Every layout the BattleScribe roster schema has had reads as the current one: hand-written fixtures
(tests/fixtures/rosters/layout_*.ros, made-up names and numbers, no rules text) of one list in 2.03, 2.01
(`profileTypeName=`, `<characteristic value=>`), 1.15 (`force → categories → category → selections`) and
before 1.15 (`catalogueLinks`, the selections at the roster's top naming their force and category), as the
BSData schemas repository's roster migrations describe them."""
from pathlib import Path

import pytest

from warlog.api.rosters import convert

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "rosters"


def read(layout: str) -> dict:
    return convert((FIXTURES / f"layout_{layout}.ros").read_bytes())


def without_keywords(units: list[dict]) -> list[dict]:
    return [{k: v for k, v in unit.items() if k != "keywords"} for unit in units]


def test_the_current_layout_gives_the_squad_and_the_walker():
    units = read("2_03")["units"]
    assert [u["name"] for u in units] == ["Test Squad", "Test Walker"]
    assert [(m["name"], m["count"], m["W"], m["Sv"]) for m in units[0]["models"]] == [
        ("Test Sergeant", 1, 2, 3), ("Test Trooper", 4, 2, 3)]
    assert [w["name"] for w in units[0]["weapons"]] == ["Test Rifle"]


def test_a_2_01_roster_with_attribute_characteristics_gives_the_same_units():
    assert read("2_01")["units"] == read("2_03")["units"]
    assert read("2_01")["unmapped"] == read("2_03")["unmapped"]


@pytest.mark.parametrize("layout", ["1_15", "1_14"])
def test_a_roster_filed_by_category_gives_the_same_units_keyworded_by_its_category(layout):
    older, current = read(layout)["units"], read("2_03")["units"]
    assert without_keywords(older) == without_keywords(current)
    assert "TROOPS" in older[0]["keywords"] and "HEAVY SUPPORT" in older[1]["keywords"]


@pytest.mark.parametrize("layout", ["2_03", "2_01", "1_15", "1_14"])
def test_each_layout_says_its_battle_size_is_no_unit(layout):
    assert any(u["path"] == "roster/forces/0/selections/0" and "Battle Size" in u["what"]
               for u in read(layout)["unmapped"])


@pytest.mark.parametrize("layout", ["2_03", "2_01", "1_15", "1_14"])
def test_each_layout_gives_the_units_points_and_the_rosters_total(layout):
    converted = read(layout)
    assert [u["points"] for u in converted["units"]] == [110, 40]
    assert converted["summary"]["points"] == converted["summary"]["stated_points"] == 150
