"""Issue 27: rosters from every era of the list builders, nothing dropped or mislabelled (built with
tests/support/rosters.py: made-up names and numbers)."""
import pytest

from tests.support.rosters import as_json, as_ros, profile, roster, selection
from warlog.api.rosters import convert
from warlog.domain.rulings import Malformed

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


def tenth(**values: str) -> dict:
    line = {"M": '6"', "T": "4", "SV": "3+", "W": "2", "LD": "6+", "OC": "1", **values}
    return roster("Warhammer 40,000 10th Edition", selection("Marine", "model", profiles=[
        profile("Marine", "Unit", **line),
        profile("Bolt rifle", "Ranged Weapons", Range='24"', A="2", BS="3+", S="4", AP="", D="1")]))


@pytest.mark.parametrize("encode", [as_ros, as_json])
def test_an_empty_characteristic_is_listed_by_unit_and_characteristic_never_silently_null(encode):
    converted = convert(encode(tenth(T="")))
    said = {u["path"]: u["what"] for u in converted["unmapped"]}
    assert said["roster/forces/0/selections/0/profiles/0/characteristics/T"] == \
        "Marine: T is empty in this file: no convention: left unstated"
    assert said["roster/forces/0/selections/0/profiles/1/characteristics/AP"] == \
        "Bolt rifle: AP is empty in this file: no AP assumed"
    assert converted["units"][0]["weapons"][0]["AP"] == 0


def test_an_empty_movement_takes_the_editions_convention_and_says_it_is_assumed():
    converted = convert(as_ros(tenth(M="")))
    assert converted["units"][0]["models"][0]["M"] == 6
    said = [u["what"] for u in converted["unmapped"] if u["path"].startswith("roster/forces/0/selections/0/profiles/0")]
    assert "Marine: M is empty in this file: the edition's move is assumed (listed below)" in said
    assert any("no Movement stated: 6\" assumed" in what for what in said)


def refusal(raw: bytes) -> Malformed:
    with pytest.raises(Malformed) as refused:
        convert(raw)
    return refused.value


def one_sentence(detail: str) -> bool:
    return detail[:1].isupper() and detail.count(". ") == 0 and not detail.endswith(".") and "Traceback" not in detail


@pytest.mark.parametrize("raw, says", [
    (b'{"army": {"name": "x"}, "points": 2000}', "keys army, points"),
    (b'{"units": []}', "army of JSON units"),
    (b'[{"roster": {}}]', "top level is a list"),
])
def test_json_that_is_not_new_recruits_says_what_it_is_and_what_warlog_reads(raw, says):
    refused = refusal(raw)
    assert refused.field == "roster" and one_sentence(refused.detail)
    assert refused.detail.startswith("This JSON is not a New Recruit roster") and says in refused.detail
    assert "New Recruit or ListForge JSON" in refused.detail and ".rosz" in refused.detail


def test_a_battlescribe_roster_put_through_a_generic_xml_to_json_converter_is_named_as_such():
    raw = b'{"roster": {"_name": "x", "forces": {"force": [{"_name": "f", "selections": {"selection": []}}]}}}'
    refused = refusal(raw)
    assert refused.field == "roster/forces" and "generic XML-to-JSON converter" in refused.detail


@pytest.mark.parametrize("encode", [as_ros, as_json])
def test_a_game_warlog_does_not_play_with_no_statline_it_reads_says_so(encode):
    tree = roster("Middle-earth Strategy Battle Game", selection("Warband", selections=[
        selection("Captain of Minas Tirith", "model", profiles=[profile(
            "Captain of Minas Tirith", "Hero", Mv='6"', F="5/4+", S="4", D="6", A="2", W="2", C="5", I="4")])]))
    refused = refusal(encode(tree))
    assert refused.field == "roster/forces" and one_sentence(refused.detail)
    assert refused.detail.startswith("This roster is for Middle-earth Strategy Battle Game, which warlog does "
                                     "not play") and "Horus Heresy" in refused.detail


@pytest.mark.parametrize("tree", [
    {"roster": {"name": "Empty list", "gameSystemName": "Warhammer 40,000 10th Edition",
                "forces": [{"name": "Army Roster", "selections": []}]}},
    {"roster": {"name": "Empty list", "gameSystemName": "Warhammer 40,000 10th Edition", "forces": []}},
])
def test_an_empty_roster_says_it_is_empty(tree):
    refused = refusal(as_json(tree))
    assert refused.field == "roster/forces" and one_sentence(refused.detail) and "is empty" in refused.detail


def costed(node: dict, **costs: float) -> dict:
    node["costs"] = [{"name": name.replace("_", " "), "value": value} for name, value in costs.items()]
    return node


def priced_list(stated: float = 120) -> dict:
    squad = costed(selection("Squad", "unit", selections=[
        costed(selection("Trooper", "model", 5, profiles=[profile(
            "Trooper", "Unit", M='6"', T="4", SV="3+", W="2", LD="6+", OC="2")]), pts=90),
        costed(selection("Heavy gun"), pts=10)]), pts=0, PL=5)
    tree = roster("Warhammer 40,000 10th Edition", costed(selection("Detachment"), CP=-2), squad,
                  costed(selection("Walker", "model", profiles=[profile(
                      "Walker", "Unit", M='8"', T="9", SV="3+", W="12", LD="6+", OC="4")]), pts=20, PL=3))
    return costed(tree["roster"], pts=stated, PL=8, CP=-2, Blessings=1) and tree


@pytest.mark.parametrize("encode", [as_ros, as_json])
def test_each_unit_carries_its_points_and_the_summary_reads_them_against_the_rosters_total(encode):
    converted = convert(encode(priced_list()))
    assert [(u["name"], u["points"]) for u in converted["units"]] == [("Squad", 100), ("Walker", 20)]
    assert converted["summary"] == {"points": 120, "stated_points": 120,
                                    "costs": {"PL": 8, "CP": -2, "Blessings": 1}}
    assert not any(u["path"] == "roster/costs" for u in converted["unmapped"])


def test_a_stated_total_the_units_do_not_reach_is_listed():
    converted = convert(as_json(priced_list(stated=135)))
    assert converted["summary"]["stated_points"] == 135 and converted["summary"]["points"] == 120
    assert any(u["path"] == "roster/costs" and "states 135 points" in u["what"] for u in converted["unmapped"])


def test_a_roster_without_costs_gives_null_points_and_no_made_up_total():
    tree = priced_list()
    del tree["roster"]["costs"]
    for item in tree["roster"]["forces"][0]["selections"]:
        item.pop("costs", None)
        for child in item["selections"]:
            child.pop("costs", None)
    converted = convert(as_json(tree))
    assert [u.get("points") for u in converted["units"]] == [None, None]  # null: absent, as the Unit schema has it
    assert converted["summary"] == {"points": 0, "stated_points": None, "costs": {}}


def body(name: str, count: int = 1, **line: str) -> dict:
    values = {"WS": "4", "BS": "4", "S": "4", "T": "4", "W": "1", "I": "4", "A": "1", "Ld": "8", "Save": "3+", **line}
    return selection(name, "model", count, profiles=[profile(name, "Unit", **values)])


def rhino() -> dict:
    return selection("Rhino", profiles=[profile("Rhino", "Vehicle", BS="4", Front="11", Side="11", Rear="10", HP="3",
                                                Transport_Capacity="10")])


@pytest.mark.parametrize("encode", [as_ros, as_json])
def test_nested_units_all_stand_as_their_own_units_at_any_depth(encode):
    tree = roster(HERESY, selection("Champion", "unit", selections=[
        body("Champion", W="3"),
        selection("Retinue", "unit", selections=[body("Guard", 4), rhino()])]),
        selection("Squad", "unit", selections=[body("Trooper", 10), rhino()]),
        selection("Squadron", "unit", selections=[rhino(), rhino()]))
    units = {u["id"]: u for u in convert(encode(tree))["units"]}
    assert set(units) == {"champion-1", "retinue-1", "rhino-1", "squad-1", "rhino-2", "squadron-1"}
    assert units["champion-1"]["transport"] is None and len(units["champion-1"]["models"]) == 1
    assert (units["retinue-1"]["embarked_in"], units["squad-1"]["embarked_in"]) == ("rhino-1", "rhino-2")
    assert units["squadron-1"]["models"][0]["count"] == 2  # a squadron's vehicles are its own, not nested


@pytest.mark.parametrize("encode", [as_ros, as_json])
def test_a_model_whose_statline_comes_with_an_upgrade_bought_on_it_fields_that_statline(encode):
    adept = selection("Adept", "model", selections=[selection("Magos", profiles=[profile(
        "Magos", "Unit", WS="3", BS="3", S="3", T="3", W="2", I="3", A="1", LD="9", Save="3+")])])
    tree = roster(HERESY, selection("Auxilia", "unit", selections=[adept, body("Servitor", 4)]))
    converted = convert(encode(tree))
    assert [(m["name"], m["count"], m["W"]) for m in converted["units"][0]["models"]] == [
        ("Magos", 1, 2), ("Servitor", 4, 1)]
    assert not any("no statline" in u["what"] or "does not field" in u["what"] for u in converted["unmapped"])
