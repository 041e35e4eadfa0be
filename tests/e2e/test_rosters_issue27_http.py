"""Issue 27 over HTTP: refusals that say what the file is, and the CLI and POST /rosters/convert agreeing."""
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.problems import assert_sentence
from tests.support.rosters import as_json, as_ros, as_rosz, profile, roster, selection
from tests.support.shared import CORPUS_FILES, corpus
from warlog.api.cli import main
from warlog.api.rosters import convert

MESBG = roster("Middle-earth Strategy Battle Game", selection("Captain", "model", profiles=[
    profile("Captain", "Hero", Mv='6"', F="5/4+", S="4", D="6", A="2", W="2", C="5")]))
EMPTY = {"roster": {"name": "Empty list", "gameSystemName": "Warhammer 40,000 10th Edition",
                    "forces": [{"name": "Army Roster", "selections": []}]}}


@pytest.mark.parametrize("raw, starts", [
    (b'{"army": {"name": "x"}}', "This JSON is not a New Recruit roster"),
    (as_ros(MESBG), "This roster is for Middle-earth Strategy Battle Game, which warlog does not play"),
    (as_json(EMPTY), "This roster (Empty list) is empty"),
])
def test_a_file_warlog_cannot_read_is_422_in_one_sentence_saying_what_it_is(http, raw, starts):
    refused = http.post("/rosters/convert", content=raw)
    assert refused.status_code == 422, refused.text
    assert refused.json()["detail"].startswith(starts)
    assert_sentence(refused.json())


# -- the CLI and POST /rosters/convert agree on every file of the corpus -----------------------------------

CORPUS = CORPUS_FILES


def test_the_corpus_list_here_is_the_whole_corpus():
    assert {p.name for p in corpus().iterdir() if p.name != "MANIFEST.md"} == set(CORPUS)


@pytest.mark.parametrize("name", CORPUS)
def test_warlog_import_and_post_rosters_convert_agree(http, capsys, name):
    path = corpus() / name
    main(["import", str(path)])
    printed = json.loads(capsys.readouterr().out)
    answered = http.post("/rosters/convert", content=path.read_bytes())
    assert answered.status_code == 200, answered.text
    assert printed == answered.json()
    assert printed["units"] and printed["summary"]["points"] == sum(u.get("points") or 0 for u in printed["units"])


# -- a roster converted, sent back as Unit JSON and mustered, gives the same units -------------------------

NAMES = st.sampled_from(["Warden", "Hunter", "Sentinel", "Brute", "Scout", "Lancer"])
STATLINE = st.fixed_dictionaries({
    "M": st.integers(3, 14).map(lambda n: f'{n}"'), "T": st.integers(2, 12).map(str),
    "SV": st.integers(2, 6).map(lambda n: f"{n}+"), "W": st.integers(1, 16).map(str),
    "LD": st.integers(5, 9).map(lambda n: f"{n}+"), "OC": st.integers(0, 5).map(str)})
WEAPON = st.fixed_dictionaries({
    "Range": st.integers(6, 48).map(lambda n: f'{n}"'), "A": st.sampled_from(["1", "2", "D6", "D3+1"]),
    "BS": st.integers(2, 5).map(lambda n: f"{n}+"), "S": st.integers(3, 12).map(str),
    "AP": st.sampled_from(["0", "-1", "-2", "-3"]), "D": st.sampled_from(["1", "2", "D3"])})


@st.composite
def rosters(draw: st.DrawFn) -> dict:
    chosen = []
    for index in range(draw(st.integers(1, 4))):
        name = f"{draw(NAMES)} {index}"
        models = [selection(f"{name} model", "model", draw(st.integers(1, 10)),
                            profiles=[profile(f"{name} model", "Unit", **draw(STATLINE))])]
        gun = selection(f"{name} gun", profiles=[profile(f"{name} gun", "Ranged Weapons", **draw(WEAPON))])
        unit = selection(name, "unit", selections=[*models, gun], categories=["Infantry"])
        unit["costs"] = [{"name": "pts", "value": draw(st.integers(0, 400))}]
        chosen.append(unit)
    return roster("Warhammer 40,000 10th Edition", *chosen)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(tree=rosters(), encode=st.sampled_from([as_json, as_ros, as_rosz]))
def test_a_converted_roster_mustered_as_unit_json_gives_the_same_units(new_game, tree, encode):
    converted = convert(encode(tree))
    as_unit_json = json.loads(json.dumps(converted["units"]))  # what a client sends back
    assert convert(encode(tree))["units"] == as_unit_json  # converting is deterministic
    from_json, from_file = new_game("reference"), new_game("reference")
    assert from_json.muster("A", as_unit_json).status_code == 200
    answer = from_file.http.post(f"/games/{from_file.id}/armies", content=encode(tree),
                                 headers=from_file.headers("A", **{"Content-Type": "application/octet-stream"}))
    assert answer.status_code == 200, answer.text
    mustered_json, mustered_file = from_json.state()["units"], from_file.state()["units"]
    assert mustered_json == mustered_file
    assert set(mustered_json) == {u["id"] for u in converted["units"]}
    for unit in converted["units"]:
        assert mustered_json[unit["id"]]["starting_strength"] == sum(m["count"] for m in unit["models"])
        assert mustered_json[unit["id"]].get("points") == unit.get("points")


def test_a_converted_unit_says_its_points_and_null_where_the_roster_states_none(http):
    """CONTRACT.md "Roster import": each unit carries the points the roster gives it, null where none."""
    from tests.support.rosters import as_ros, heresy_squad

    converted = http.post("/rosters/convert", content=as_ros(heresy_squad())).json()
    assert converted["units"] and [unit["points"] for unit in converted["units"]] == [None] * len(converted["units"])
    assert converted["summary"]["points"] == 0  # the file states no cost at all
