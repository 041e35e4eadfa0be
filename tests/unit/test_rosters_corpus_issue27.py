"""Issue 27 on the real corpus (../shared/rosters, read at test time, never copied)."""
import pytest

from tests.support.shared import CORPUS_FILES, corpus
from warlog.api.rosters import convert

FILES = CORPUS_FILES


def read(name: str) -> dict:
    return convert((corpus() / name).read_bytes())


@pytest.mark.parametrize("name", [f for f in FILES if not f.startswith("killteam")])
def test_the_units_points_add_up_to_the_total_the_roster_states(name):
    converted = read(name)
    assert converted["summary"]["stated_points"] is not None
    assert converted["summary"]["points"] == converted["summary"]["stated_points"]
    assert all(u.get("points") is not None for u in converted["units"])


def test_the_other_cost_types_are_summarised_as_the_roster_writes_them():
    assert read("40k9e_grey-knights-land-raider.rosz")["summary"]["costs"] == {"PL": 15, "CP": -2}
    assert read("40k11e_newrecruit_aeldari-hank-2k.json")["summary"]["costs"] == {"Detachment Points": 3}
    kill_team = read("killteam2021_kommandos.rosz")["summary"]
    assert kill_team["stated_points"] is None and kill_team["costs"] == {"EP": 0}


def test_every_nested_unit_of_the_hh_dark_angels_file_stands_as_its_own_unit():
    converted = read("hh2_dark-angels_LEADING-SPACE-typenames.ros")
    units = {u["id"]: u for u in converted["units"]}
    assert len(units) == 9  # 6 bought at the top, a retinue and two Rhinos bought inside them
    corswain = units["corswain-1"]
    assert [m["name"] for m in corswain["models"]] == ["Corswain"]
    assert corswain["transport"] is None and "TRANSPORT" not in corswain["keywords"]
    retinue = units["deathwing-companion-detachment-1"]
    assert retinue["embarked_in"] == "rhino-transport-1" and units["rhino-transport-1"]["transport"]["capacity"] == 12
    assert units["tactical-squad-2"]["embarked_in"] == "rhino-transport-2"
    assert [m["name"] for m in units["land-raider-spartan-1"]["models"]] == ["Land Raider Spartan"]
    assert any("Deathwing Companion Detachment was bought under Corswain" in u["what"] for u in converted["unmapped"])
    assert sum(u["points"] for u in units.values()) == converted["summary"]["stated_points"] == 1485
