"""The heresy tables of the attack module (domain/attacks/tables.py): to hit by BS and WS, the wound chart, AP on
the 1-6 scale, invulnerable saves, armour penetration and hull points; their exact odds against a Monte Carlo.
The modern tables stay what RS.ATK.1-4 say (tests/unit/test_attacks.py)."""
from collections import Counter

import pytest

from tests.unit.test_attacks import every_roll, monte_carlo_deviation, one
from warlog.domain.attacks import (
    ModelLine,
    Profile,
    Situation,
    Target,
    Weapon,
    distribution,
    from_data,
    resolve,
    tables,
    to_data,
)
from warlog.domain.attacks.tables import HERESY


def shot(bs=4, S=4, AP=0, A=1, D=1, melee=False):
    return Weapon.of("gun", A=A, skill=bs, S=S, AP=AP, D=D, melee=melee)


def troops(count=1, T=4, Sv=3, InSv=None, W=1, WS=None, AV=None):
    return Target((ModelLine("Legionary", count, W=W, T=T, Sv=Sv, InSv=InSv),), WS=WS, AV=AV)


def heresy(weapon, target, **situation):
    return Profile(weapon, target, Situation(**situation), HERESY)


@pytest.mark.parametrize("bs, needed", [(1, 6), (2, 5), (3, 4), (4, 3), (5, 2), (6, 2), (10, 2)])
def test_to_hit_by_ballistic_skill_is_seven_minus_bs_at_best_two_up(bs, needed):
    assert tables.ranged_needed(bs) == needed
    progress = resolve(heresy(shot(bs=bs, A=6), troops()), [[1, 2, 3, 4, 5, 6]])
    assert one(progress, "hit")["needed"] == needed
    assert one(progress, "hit")["hits"] == 7 - needed and one(progress, "hit")["criticals"] == 0


def test_snap_shots_hit_only_on_a_six_whatever_the_bs():
    progress = resolve(heresy(shot(bs=5, A=6), troops(), snap_shots=True), [[1, 2, 3, 4, 5, 6]])
    assert one(progress, "hit")["needed"] == 6 and one(progress, "hit")["hits"] == 1


@pytest.mark.parametrize("ws, foe, needed", [(5, 4, 3), (4, 4, 4), (4, 8, 4), (4, 9, 5), (3, 7, 5), (2, 1, 3)])
def test_to_hit_in_melee_reads_weapon_skill_against_the_foes(ws, foe, needed):
    assert tables.melee_needed(ws, foe) == needed
    progress = resolve(heresy(shot(bs=ws, melee=True), troops(WS=foe)), [[needed]])
    assert one(progress, "hit")["needed"] == needed and one(progress, "hit")["hits"] == 1


@pytest.mark.parametrize("S, T, needed", [(6, 4, 2), (10, 4, 2), (5, 4, 3), (4, 4, 4), (3, 4, 5), (2, 4, 6),
                                          (1, 4, 6), (3, 7, 7), (4, 8, 7)])
def test_the_wound_chart_reads_strength_against_toughness_and_four_below_cannot_wound(S, T, needed):
    assert tables.wound_needed(S, T) == needed
    progress = resolve(heresy(shot(bs=5, S=S), troops(T=T)), [[6], [6]])
    wound = one(progress, "wound")
    assert wound["needed"] == needed and wound["wounds"] == (0 if needed == 7 else 1) and wound["criticals"] == 0


@pytest.mark.parametrize("AP, Sv, face, saved", [(5, 3, 3, True), (3, 3, 6, False), (2, 3, 6, False),
                                                 (4, 3, 3, True), (0, 3, 3, True), (0, 3, 2, False),
                                                 (0, None, 6, False)])
def test_an_armour_save_is_taken_unless_the_ap_is_as_good_as_the_save(AP, Sv, face, saved):
    progress = resolve(heresy(shot(bs=5, S=4, AP=AP), troops(Sv=Sv)), [[6], [6], [face]])
    assert one(progress, "save")["saved"] == int(saved)


def test_an_invulnerable_save_stands_against_any_ap_and_a_one_always_fails():
    target = troops(count=2, Sv=2, InSv=5)
    progress = resolve(heresy(shot(bs=5, A=2, S=4, AP=2), target), [[6, 6], [6, 6], [5, 1]])
    save = one(progress, "save")
    assert save["needed"] == 5 and save["saved"] == 1 and save["failed"] == 1
    assert progress.outcome.models_destroyed == 1


@pytest.mark.parametrize("face, S, AV, result", [(4, 6, 10, 1), (5, 6, 10, 2), (3, 6, 10, 0), (1, 9, 10, 1),
                                                 (6, 3, 10, 0)])
def test_armour_penetration_is_d6_plus_s_against_the_facings_armour_value(face, S, AV, result):
    assert tables.penetration(face, S, AV) == result


def test_glancing_and_penetrating_hits_each_take_a_hull_point_and_no_armour_save_is_taken():
    rhino = Target((ModelLine("Rhino", 1, W=3, T=7, Sv=3),), AV=11)
    progress = resolve(heresy(shot(bs=4, A=4, S=7, AP=0), rhino), [[3, 3, 3, 1], [4, 5, 3], [2, 6]])
    wound = one(progress, "wound")
    assert (wound["glancing"], wound["penetrating"], wound["AV"], wound["wounds"]) == (1, 1, 11, 2)
    assert one(progress, "save")["needed"] == 7  # armour values take no armour save
    assert progress.outcome.wounds_lost == 2 and progress.outcome.models_destroyed == 0
    wrecked = resolve(heresy(shot(bs=4, A=3, S=7), rhino), [[3, 3, 3], [4, 5, 6], [1, 1, 1]])
    assert wrecked.outcome.wounds_lost == 3 and wrecked.outcome.models_destroyed == 1  # 0 hull points: destroyed


def test_a_heresy_profile_travels_as_data_and_a_modern_one_is_written_as_before():
    profile = heresy(shot(bs=4, melee=True), troops(WS=5, AV=None), snap_shots=True)
    data = to_data(profile)
    assert data["tables"] == HERESY and data["target"]["WS"] == 5 and data["situation"]["snap_shots"] is True
    assert from_data(data) == profile
    modern = to_data(Profile(shot(), troops()))
    assert "tables" not in modern and "WS" not in modern["target"] and "snap_shots" not in modern["situation"]
    with pytest.raises(ValueError):
        Profile(shot(), troops(), tables="ancient")


HERESY_PROFILES = {
    "volley at a squad with an invulnerable save, AP negating armour": heresy(
        shot(bs=4, A="D3", S=4, AP=3), Target((ModelLine("Legionary", 3, W=1, T=4, Sv=3),
                                               ModelLine("Praetor", 1, W=3, T=4, Sv=2, InSv=4,
                                                         keywords=frozenset({"CHARACTER"})))), models=2),
    "lascannon shots at a vehicle's side armour": heresy(
        shot(bs=4, A=2, S=9, AP=2), Target((ModelLine("Rhino", 1, W=3, T=7),), AV=11), models=2),
    "melee WS against WS, two wounds a model": heresy(
        shot(bs=4, A=2, S=5, AP=0, melee=True), troops(count=3, T=4, Sv=4, W=2, WS=5), models=3),
}


@pytest.mark.parametrize("name", HERESY_PROFILES)
def test_the_heresy_odds_agree_with_a_monte_carlo_of_the_step_functions(name):
    assert monte_carlo_deviation(HERESY_PROFILES[name]) < 3


def test_the_heresy_odds_equal_the_sum_over_every_roll_of_a_small_attack():
    profile = heresy(shot(bs=3, A=2, S=8, AP=0), Target((ModelLine("Rhino", 1, W=2, T=7, InSv=5),), AV=12))
    lost = Counter()
    for outcome, p in every_roll(profile):
        lost[outcome.wounds_lost] += p
    assert distribution(profile).wounds_lost == pytest.approx(dict(lost), abs=1e-12)
