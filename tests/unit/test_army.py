"""Starting strength and strength bands (CORE.STR.1, CORE.STR.2) and army validation,
in the domain and through `POST /games/{id}/armies`."""
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.client import unit, vehicle
from tests.support.problems import assert_sentence
from warlog.domain import army
from warlog.domain.rulings import Malformed
from warlog.domain.state import Unit


def mustered(*units, seat="A"):
    """The units as the game keeps them once mustered and started (CORE.STR.1 applied)."""
    state = {u["id"]: Unit.mustered(seat, u) for u in units}
    for uid, strength in army.starting_strengths_of(state).items():
        state[uid] = replace(state[uid], starting_strength=strength)
    return state


def captain(**fields):
    body = unit("captain", 1, keywords=("INFANTRY", "CHARACTER"), leader_of="intercessors", **fields)
    body["models"][0]["W"] = 5
    return body


def lose(state, uid, models=0, wounds=0):
    state[uid] = state[uid].with_casualties(models, wounds)


# --- CORE.STR.1 / CORE.STR.2 in the domain ----------------------------------------------------------------

def test_a_captain_leading_five_intercessors_has_a_starting_strength_of_six():
    units = mustered(captain(), unit("intercessors", 5))
    assert units["captain"].starting_strength == 6
    assert units["intercessors"].starting_strength == 6
    assert army.strength_of(units, "intercessors") == "full"


@pytest.mark.parametrize("destroyed, band", [
    (1, "below_starting"),
    (2, "below_starting"),
    (3, "half"),
    (4, "below_half"),
])
def test_the_worked_example_reads_the_attached_unit_against_six(destroyed, band):
    units = mustered(captain(), unit("intercessors", 5))
    lose(units, "intercessors", models=destroyed)
    assert army.strength_of(units, "intercessors") == band
    assert army.strength_of(units, "captain") == band


def test_with_all_five_intercessors_destroyed_the_captain_alone_is_below_half_strength_full_wounds_or_not():
    units = mustered(captain(), unit("intercessors", 5))
    lose(units, "intercessors", models=5)
    assert army.strength_of(units, "intercessors") == "destroyed"
    assert units["captain"].wounds_lost == 0
    assert army.strength_of(units, "captain") == "below_half"


def test_a_unit_without_a_leader_keeps_its_own_starting_strength():
    units = mustered(unit("scouts", 5), unit("boyz", 10))
    assert units["scouts"].starting_strength == 5
    assert units["boyz"].starting_strength == 10


@pytest.mark.parametrize("wounds_lost, band", [
    (0, "full"),
    (1, "below_starting"),
    (2, "below_starting"),
    (3, "half"),
    (4, "below_half"),
    (5, "below_half"),
])
def test_a_one_model_unit_reads_its_remaining_wounds_against_its_w(wounds_lost, band):
    hero = unit("hero", 1)
    hero["models"][0]["W"] = 6
    units = mustered(hero)
    lose(units, "hero", wounds=wounds_lost)
    assert army.strength_of(units, "hero") == band


def test_a_vehicle_reads_its_hull_points_rather_than_w():
    tank = vehicle("rhino", hull_points=4)
    tank["models"][0]["W"] = 1
    units = mustered(tank)
    lose(units, "rhino", wounds=2)
    assert army.strength_of(units, "rhino") == "half"


def test_a_unit_with_no_models_left_is_destroyed():
    units = mustered(unit("scouts", 5))
    lose(units, "scouts", models=5)
    assert army.strength_of(units, "scouts") == "destroyed"


@settings(max_examples=200, deadline=None)
@given(starting=st.integers(2, 60), data=st.data())
def test_the_bands_are_exclusive_and_follow_the_convention_first_match_wins(starting, data):
    models = data.draw(st.integers(0, starting))
    band = army.strength_band(models, starting)
    expected = ("destroyed" if models == 0 else "below_half" if 2 * models < starting
                else "half" if 2 * models <= starting else "below_starting" if models < starting else "full")
    assert band == expected


@settings(max_examples=100, deadline=None)
@given(starting=st.integers(2, 40), data=st.data())
def test_losing_a_model_never_makes_a_unit_stronger(starting, data):
    order = ["full", "below_starting", "half", "below_half", "destroyed"]
    models = data.draw(st.integers(1, starting))
    assert order.index(army.strength_band(models - 1, starting)) >= order.index(army.strength_band(models, starting))


# --- validation in the domain ------------------------------------------------------------------------------

def refusal(units):
    with pytest.raises(Malformed) as caught:
        army.validate_army("A", units)
    return caught.value


def test_a_unit_id_used_twice_is_refused_naming_the_second_one():
    error = refusal([unit("scouts"), unit("boyz"), unit("scouts")])
    assert error.field == "units.2.id"
    assert "scouts" in error.detail


def test_a_unit_id_the_other_army_already_uses_is_renamed_and_the_armys_links_follow_it():
    sent = [unit("boyz", leader_of=None), unit("nob", 1, leader_of="boyz"), unit("boyz-b"), unit("grots")]
    units, renamed = army.distinct_ids(sent, {"boyz", "nob", "boyz-b2", "trukk"})
    assert renamed == {"boyz": "boyz-b3", "nob": "nob-b"}  # boyz-b is this army's own, boyz-b2 the other's
    assert [u["id"] for u in units] == ["boyz-b3", "nob-b", "boyz-b", "grots"]
    assert units[1]["leader_of"] == "boyz-b3"
    assert army.as_sent(units, renamed) == sent  # what a muster is played again from
    assert army.distinct_ids(sent, {"trukk"}) == (sent, {})


def test_a_renamed_id_stays_within_the_longest_a_unit_id_may_be():
    long_id = "x" * army.ID_LENGTH
    [renamed], mapping = army.distinct_ids([unit(long_id)], {long_id})
    assert len(renamed["id"]) == army.ID_LENGTH and renamed["id"].endswith("-b") and mapping == {long_id: renamed["id"]}


def test_embarking_in_a_unit_that_is_not_in_the_army_is_refused():
    error = refusal([unit("tactical", embarked_in="rhino-9")])
    assert error.field == "units.0.embarked_in"
    assert "rhino-9" in error.detail


def test_embarking_in_a_unit_without_transport_capacity_is_refused():
    error = refusal([unit("scouts"), unit("tactical", embarked_in="scouts")])
    assert error.field == "units.1.embarked_in"


def test_more_models_embarked_than_the_transport_holds_is_refused():
    error = refusal([vehicle("rhino", capacity=10), unit("tactical", 6, embarked_in="rhino"),
                     unit("scouts", 5, embarked_in="rhino")])
    assert error.field == "units.0.transport.capacity"
    assert "11" in error.detail


def test_a_transport_cannot_ride_inside_another_transport():
    error = refusal([vehicle("rhino", capacity=10), vehicle("razorback", capacity=6, embarked_in="rhino"),
                     unit("scouts", 5, embarked_in="razorback")])
    assert error.field == "units.2.embarked_in"


def test_leading_an_unknown_unit_or_oneself_is_refused():
    assert refusal([captain()]).field == "units.0.leader_of"
    assert refusal([unit("captain", 1, leader_of="captain")]).field == "units.0.leader_of"


def test_two_leaders_of_one_bodyguard_are_refused_since_the_strength_would_be_ambiguous():
    second = unit("lieutenant", 1, leader_of="intercessors")
    error = refusal([captain(), second, unit("intercessors", 5)])
    assert error.field == "units.1.leader_of"
    assert error.detail == "Intercessors is already led by Captain"  # by the names the army gives them


@pytest.mark.parametrize("characteristic, value", [("count", 0), ("W", 0), ("hull_points", -1), ("W", "3")])
def test_a_model_line_with_an_impossible_count_or_wounds_is_refused_naming_it(characteristic, value):
    body = unit("scouts")
    body["models"][0][characteristic] = value
    error = refusal([body])
    assert error.field == f"units.0.models.0.{characteristic}"


def test_an_unknown_status_is_refused():
    assert refusal([unit("scouts", statuses=("sleepy",))]).field == "units.0.statuses"


def test_a_well_formed_army_with_a_leader_and_an_embarked_unit_passes():
    army.validate_army("A", [captain(), unit("intercessors", 5), vehicle("rhino", capacity=10),
                             unit("tactical", 10, embarked_in="rhino")])


# --- through POST /games/{id}/armies -----------------------------------------------------------------------

def test_the_worked_example_through_the_api_from_six_to_the_captain_alone(new_game):
    game = new_game()
    game.start([captain(), unit("intercessors", 5)], [unit("boyz", 10)])
    units = game.state()["units"]
    assert (units["captain"]["starting_strength"], units["intercessors"]["starting_strength"]) == (6, 6)
    seen, said = [], []
    for destroyed in (3, 1, 1):
        events = game.cmd("A", "record_casualties", unit="intercessors", models=destroyed)["events"]
        units = game.state()["units"]
        seen.append((units["intercessors"]["strength"], units["captain"]["strength"]))
        changed = [e for e in events if e["type"] == "StrengthChanged"]
        assert all(e["rule"] == "CORE.STR.2" for e in changed)
        said.append([(e["data"]["to"], e["data"]["models_alive"]) for e in changed])
    assert seen == [("half", "half"), ("below_half", "below_half"), ("destroyed", "below_half")]
    # one unit while attached (CORE.STR.2/attached): the Captain alone is still below half, as it was at 2 of 6
    assert said == [[("half", 3)], [("below_half", 2)], []]
    assert [e["data"] for e in events if e["type"] == "UnitDestroyed"] == [{"unit": "intercessors"}]
    assert units["captain"]["models_alive"] == 1


def test_a_lone_hero_through_the_api_is_below_starting_strength_once_wounded(new_game):
    hero = unit("hero", 1)
    hero["models"][0]["W"] = 4
    game = new_game()
    game.start([hero], [unit("boyz", 10)])
    game.cmd("B", "record_casualties", unit="hero", wounds=1)
    assert game.state()["units"]["hero"]["strength"] == "below_starting"
    game.cmd("B", "record_casualties", unit="hero", wounds=1)
    assert game.state()["units"]["hero"]["strength"] == "half"


def muster_refused(game, units):
    before = game.events()[-1]["seq"]
    response = game.muster("A", units)
    assert response.status_code == 422, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    assert game.events()[-1]["seq"] == before
    assert_sentence(response.json())
    return response.json()


@pytest.mark.parametrize("units, field", [
    ([unit("scouts"), unit("scouts")], "/units/1/id"),
    ([unit("tactical", embarked_in="rhino-9")], "/units/0/embarked_in"),
    ([unit("scouts"), unit("tactical", embarked_in="scouts")], "/units/1/embarked_in"),
    ([unit("captain", 1, leader_of="nobody")], "/units/0/leader_of"),
])
def test_an_army_with_broken_links_between_units_is_422_naming_the_field(new_game, units, field):
    problem = muster_refused(new_game(), units)
    assert problem["field"] == field
    assert problem["status"] == 422


@pytest.mark.parametrize("characteristic, value", [
    ("count", 0), ("W", 0), ("T", 0), ("Sv", 8), ("Ld", -1), ("hull_points", 0), ("M", "fast"),
])
def test_impossible_characteristics_are_422_naming_the_characteristic(new_game, characteristic, value):
    body = unit("scouts")
    body["models"][0][characteristic] = value
    problem = muster_refused(new_game(), [body])
    assert problem["field"] == f"/units/0/models/0/{characteristic}"


def test_a_weapon_with_an_unreadable_dice_expression_is_422_naming_it(new_game):
    body = unit("scouts")
    body["weapons"][0]["D"] = "D7+"
    assert muster_refused(new_game(), [body])["field"] == "/units/0/weapons/0/D"


def test_an_id_the_other_seat_already_mustered_is_renamed_not_refused(new_game):
    game = new_game()
    assert game.muster("B", [unit("boyz")]).status_code == 200
    answer = game.muster("A", [unit("boyz")])
    assert answer.status_code == 200 and answer.json()["renamed"] == {"boyz": "boyz-b"}
    assert {uid: u["owner"] for uid, u in game.state()["units"].items()} == {"boyz": "B", "boyz-b": "A"}


def test_a_second_muster_replaces_the_first_before_the_start(new_game):
    game = new_game()
    assert game.muster("A", [unit("scouts", 5)]).status_code == 200
    assert game.muster("A", [unit("boyz", 10)]).status_code == 200
    assert set(game.state()["units"]) == {"boyz"}


def test_mustering_after_the_start_is_refused_by_the_setup_rule(new_game):
    game = new_game()
    game.start([unit("scouts")], [unit("boyz")])
    response = game.muster("A", [unit("scouts", 3)])
    assert response.status_code == 409
    assert response.json()["rule"] == "SVC.SETUP"
