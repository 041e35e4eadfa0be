"""The real corpus (../shared/rosters/, read at test time, never copied): players' own files convert.

Without ../shared (a public clone) they skip naming it; under .ci/run (WARLOG_SHARED_REQUIRED=1) they fail.
The files are named here, so none is left out unnoticed."""
import json

import pytest

from tests.support.shared import CORPUS_FILES, corpus
from warlog.api.rosters import convert

RULESET = {  # 40k 10th/11th -> reference; 8th/9th -> alternating; Horus Heresy -> heresy
    "40k10e_leagues-of-votann.rosz": "reference", "40k10e_necrons.rosz": "reference",
    "40k10e_ultramarines.rosz": "reference", "40k11e_newrecruit_aeldari-hank-2k.json": "reference",
    "40k8e_imperial-knights.ros": "alternating", "40k8e_magnus_NOT-ZIPPED.rosz": "alternating",
    "40k9e_grey-knights-land-raider.rosz": "alternating", "40k9e_wound-track-monsters.ros": "alternating",
    "hh1-30k_mechanicum-knight-bunker.ros": "heresy", "hh1-30k_traitor-legion-transports.ros": "heresy",
    "hh2_dark-angels.rosz": "heresy", "hh2_dark-angels_LEADING-SPACE-typenames.ros": "heresy",
    "hh3_newrecruit_dark-angels-small.rosz": "heresy",
}
OTHER_GAMES = ["killteam2021_kommandos.rosz", "aos4_newrecruit_kruleboyz.json", "aos4_newrecruit_kruleboyz.rosz"]


def read(name: str, ruleset: str | None = None) -> dict:
    return convert((corpus() / name).read_bytes(), ruleset)


def test_the_corpus_is_there_and_every_file_in_it_is_tested():
    assert {p.name for p in corpus().iterdir() if p.name != "MANIFEST.md"} == set(RULESET) | set(OTHER_GAMES)
    assert set(CORPUS_FILES) == set(RULESET) | set(OTHER_GAMES)


def explained(unmapped: list[dict]) -> bool:
    return all(set(u) == {"path", "what"} and u["path"].startswith("roster") and len(u["what"]) > 10
               for u in unmapped)


@pytest.mark.parametrize("name", sorted(RULESET))
def test_every_40k_and_heresy_file_converts_for_its_ruleset(name):
    converted = read(name, RULESET[name])
    assert converted["ruleset"] == RULESET[name]
    assert converted["units"] and explained(converted["unmapped"])
    assert all(m["count"] >= 1 and m["W"] >= 1 for u in converted["units"] for m in u["models"])
    assert read(name)["ruleset"] == RULESET[name]  # the game system names it without being told


@pytest.mark.parametrize("name", OTHER_GAMES)
def test_kill_team_and_age_of_sigmar_give_units_and_say_they_map_to_no_ruleset(name):
    converted = read(name)
    assert converted["units"] and explained(converted["unmapped"])
    assert converted["unmapped"][0]["path"] == "roster" and "none of the rulesets" in converted["unmapped"][0]["what"]


def test_the_age_of_sigmar_json_and_xml_of_one_list_give_the_same_units():
    from_json, from_xml = read("aos4_newrecruit_kruleboyz.json"), read("aos4_newrecruit_kruleboyz.rosz")
    assert (from_json["format"], from_xml["format"]) == ("json", "rosz")
    assert from_json["units"] == from_xml["units"]
    assert len(from_json["unmapped"]) == len(from_xml["unmapped"])


def models(unit: dict) -> list[tuple[str, int, int]]:
    return [(m["name"], m["count"], m["W"]) for m in unit["models"]]


def test_the_silent_king_is_one_unit_of_two_statlines():
    king = next(u for u in read("40k10e_necrons.rosz")["units"] if u["name"] == "The Silent King")
    assert sorted(models(king)) == [("Szarekh", 1, 16), ("Triarchal Menhir", 2, 5)]


def test_a_model_statline_wins_over_its_units():
    pioneers = next(u for u in read("40k10e_leagues-of-votann.rosz")["units"] if u["name"] == "Hernkyn Pioneers")
    wounds = {name: w for name, _, w in models(pioneers)}
    assert wounds["Hernkyn Pioneer w/ ion beamer"] == 4 and 3 in wounds.values()


def test_new_recruit_leaders_are_attached_to_their_bodyguards():
    converted = read("40k11e_newrecruit_aeldari-hank-2k.json")
    units = {u["id"]: u for u in converted["units"]}
    assert len(units) == 18
    led = {u["name"]: units[u["leader_of"]]["name"] for u in units.values() if u["leader_of"]}
    assert led == {"Asurmen": "Dire Avengers", "Fuegan": "Fire Dragons", "Jain Zar": "Howling Banshees",
                   "Lhykhis": "Warp Spiders", "Farseer Skyrunner": "Windriders"}
    assert [u["id"] for u in units.values() if u["name"] == "Striking Scorpions"] == [
        "striking-scorpions-1", "striking-scorpions-2"]


def test_heresy_squads_start_in_the_transports_bought_inside_them():
    units = {u["id"]: u for u in read("hh1-30k_traitor-legion-transports.ros")["units"]}
    squad = next(u for u in units.values() if u["name"].startswith("Tactical Squad"))
    rhino = units[squad["embarked_in"]]
    assert rhino["transport"]["capacity"] == 10 and rhino["models"][0]["hull_points"] == 3
    assert set(rhino["models"][0]["armour"]) == {"front", "side", "rear"}
    assert sorted(models(squad)) == [("Tactical Sergeant, Legion", 1, 1), ("Tactical Space Marines, Legion", 9, 1)]


def test_a_wound_track_fills_the_starred_characteristics():
    converted = read("40k9e_grey-knights-land-raider.rosz")
    raider = converted["units"][0]["models"][0]
    assert isinstance(raider["M"], int) and isinstance(raider["BS"], int)
    assert any("wound track" in u["what"] for u in converted["unmapped"])


def test_degrading_brackets_muster_with_the_top_one():
    converted = read("40k9e_wound-track-monsters.ros")
    tyrant = next(u for u in converted["units"] if "Hive Tyrant" in u["name"])
    assert "[1]" in json.dumps(tyrant) or tyrant["models"][0]["W"] > 1
    assert any("lower degrading bracket" in u["what"] for u in converted["unmapped"])


def test_a_rosz_that_is_plain_xml_is_read_as_xml():
    assert read("40k8e_magnus_NOT-ZIPPED.rosz")["format"] == "ros"


def test_leading_spaces_in_type_names_are_trimmed():
    converted = read("hh2_dark-angels_LEADING-SPACE-typenames.ros")
    assert all(m.get("Ld") for u in converted["units"] if "VEHICLE" not in u["keywords"] for m in u["models"])


def test_a_tenth_edition_transport_capacity_is_read_from_its_ability_text():
    units = read("40k10e_ultramarines.rosz")["units"]
    assert {u["name"]: u["transport"]["capacity"] for u in units if u["transport"]} == {
        "Razorback": 6, "Impulsor": 6, "Land Speeder Storm": 6}


def test_a_knight_musters_with_its_healthiest_wound_track_row():
    knights = {u["name"]: u for u in read("40k8e_imperial-knights.ros")["units"]}
    castellan = knights["Knight Castellan"]["models"][0]
    assert (castellan["W"], castellan["M"]) == (28, 10)
    assert all("VEHICLE" in u["keywords"] for u in knights.values())  # a squadron's models carry it


def test_a_conditional_invulnerable_save_keeps_its_first_value_and_says_so():
    converted = read("40k11e_newrecruit_aeldari-hank-2k.json")
    assert {u["models"][0]["InSv"] for u in converted["units"] if u["name"] == "Farseer Skyrunner"} == {4}
    assert any(u["what"].startswith("INSV '4+* / 5+': 4 read") for u in converted["unmapped"])
