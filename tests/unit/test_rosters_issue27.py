"""Issue 27: rosters from every era of the list builders, nothing dropped or mislabelled (built with
tests/support/rosters.py: made-up names and numbers)."""
import pytest

from tests.support.rosters import as_json, as_ros, profile, roster, selection
from warlog.api.rosters import convert

HERESY = "(HH V2) Horus Heresy (2022)"


def knight(type_name: str = "Knights and Titans", weapon_type: str = "Knight Weapon") -> dict:
    return roster(HERESY, selection("Questoris Knight", "unit", selections=[
        selection("Questoris Knight", "model", profiles=[profile(
            "Questoris Knight", type_name, M="12", WS="4", BS="4", S="10", Front="13", Side="12", Rear="12",
            I="4", A="3", HP="6")]),
        selection("Battle Cannon", profiles=[profile("Battle Cannon", weapon_type, Range='72"', Strength="8",
                                                     AP="3", Type="Ordnance 1")])]))


@pytest.mark.parametrize("encode", [as_ros, as_json])
def test_a_statline_typed_with_an_unknown_name_is_known_by_its_shape(encode):
    converted = convert(encode(knight()))
    [unit] = converted["units"]
    [line] = unit["models"]
    assert (line["name"], line["armour"], line["hull_points"]) == ("Questoris Knight", {"front": 13, "side": 12,
                                                                                        "rear": 12}, 6)
    assert "VEHICLE" in unit["keywords"]
    assert [(w["name"], w["type"], w["S"], w["AP"]) for w in unit["weapons"]] == [("Battle Cannon", "ranged", 8, 3)]
    assert not any("army configuration" in u["what"] for u in converted["unmapped"])


def test_a_model_statline_of_the_tenth_set_under_any_name_is_a_statline():
    tree = roster("Warhammer 40,000 10th Edition", selection("Strange Beast", "model", profiles=[profile(
        "Strange Beast", "Beasts of the Warp", M='8"', T="9", SV="3+", W="12", LD="6+", OC="4")]))
    [unit] = convert(as_ros(tree))["units"]
    assert (unit["models"][0]["W"], unit["models"][0]["T"]) == (12, 9)


def test_a_profile_of_no_known_shape_is_still_listed_not_read():
    tree = knight()
    tree["roster"]["forces"][0]["selections"][0]["profiles"] = [profile("Ion Shield", "Knight Gear", Effect="x")]
    converted = convert(as_ros(tree))
    assert any("'Knight Gear' profile is not read" in u["what"] for u in converted["unmapped"])


@pytest.mark.parametrize("encode", [as_ros, as_json])
def test_a_unit_with_no_statline_is_said_as_a_unit_not_army_configuration(encode):
    tree = roster("Warhammer 40,000 10th Edition",
                  selection("Detachment", selections=[selection("Plague Host")]),
                  selection("Great Unclean One", "model", selections=[selection("Bilesword")]),
                  selection("Nurglings", "unit", selections=[selection("Nurgling", "model", 3)]),
                  selection("Strange Beast", "model", profiles=[profile(
                      "Strange Beast", "Unit", M='8"', T="9", SV="3+", W="12", LD="6+", OC="4")]))
    said = {u["path"]: u["what"] for u in convert(encode(tree))["unmapped"]}
    assert said["roster/forces/0/selections/1"].startswith("a unit with no statline in this file: Great Unclean One")
    assert said["roster/forces/0/selections/2"].startswith("a unit with no statline in this file: Nurglings")
    assert "army configuration" in said["roster/forces/0/selections/0"]
