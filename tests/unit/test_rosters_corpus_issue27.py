"""Issue 27 on the real corpus (../shared/rosters, read at test time, never copied)."""
import pytest

from tests.support.shared import corpus
from warlog.api.rosters import convert

FILES = ["40k10e_leagues-of-votann.rosz", "40k10e_necrons.rosz", "40k10e_ultramarines.rosz",
         "40k11e_newrecruit_aeldari-hank-2k.json", "40k8e_imperial-knights.ros", "40k8e_magnus_NOT-ZIPPED.rosz",
         "40k9e_grey-knights-land-raider.rosz", "40k9e_wound-track-monsters.ros", "aos4_newrecruit_kruleboyz.json",
         "aos4_newrecruit_kruleboyz.rosz", "hh1-30k_mechanicum-knight-bunker.ros",
         "hh1-30k_traitor-legion-transports.ros", "hh2_dark-angels.rosz",
         "hh2_dark-angels_LEADING-SPACE-typenames.ros", "hh3_newrecruit_dark-angels-small.rosz",
         "killteam2021_kommandos.rosz"]


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
