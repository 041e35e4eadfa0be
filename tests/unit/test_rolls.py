"""domain/rolls.py: one reading for every roll. An attack roll's reading (`steps.reading`) agrees face for face
with the step's own table (what the attack module decides), in the modern and the heresy tables, with
modifiers, ANTI criticals, a critical hit on 5+, an invulnerable save and armour penetration; the sentences say
the numbers."""
from __future__ import annotations

import pytest

from warlog.domain import rolls
from warlog.domain.attacks import ModelLine, Profile, Situation, Standing, Target, Weapon, steps
from warlog.domain.attacks.allocation import Wounds, fnp_rolled_for
from warlog.domain.attacks.tables import HERESY

OUTCOME = {0: "fail", 1: "success", 2: "critical"}


def modern(*keywords: str, skill: int = 3, S: int = 4, AP: int = 0, Sv: int = 3, InSv: int | None = None,
           **situation: object) -> Profile:
    return Profile(Weapon.of("gun", A=1, skill=skill, S=S, AP=AP, D=1, keywords=keywords),
                   Target((ModelLine("Marine", 5, W=2, T=4, Sv=Sv, InSv=InSv),)), Situation(**situation))  # type: ignore[arg-type]


def heresy(bs: int = 4, S: int = 4, AP: int = 0, Sv: int = 3, InSv: int | None = None, AV: int | None = None,
           **situation: object) -> Profile:
    return Profile(Weapon.of("gun", A=1, skill=bs, S=S, AP=AP, D=1),
                   Target((ModelLine("Legionary", 1, W=1, T=4, Sv=Sv, InSv=InSv),), AV=AV),
                   Situation(**situation), HERESY)  # type: ignore[arg-type]


PROFILES = {
    "modern 3+": modern(),
    "modern, +1 to hit, -1 to wound": modern(hit_modifier=1, wound_modifier=-1),
    "critical hits on 5+": modern(critical_hit_on=5),
    "ANTI-INFANTRY 4+ (criticals on 4+)": modern("ANTI-INFANTRY 4+"),
    "an invulnerable save": modern(AP=-3, InSv=4),
    "heresy BS4": heresy(),
    "heresy snap shots": heresy(snap_shots=True),
    "heresy AP that negates the save": heresy(AP=3, Sv=3),
    "heresy armour penetration": heresy(S=6, AV=10),
}


@pytest.mark.parametrize("name", PROFILES)
def test_an_attack_rolls_reading_agrees_with_its_steps_table_on_every_face(name: str) -> None:
    profile = PROFILES[name]
    faces = list(range(1, 7))
    hit = rolls.read(faces, "6D6", steps.reading(profile, "hit"))["outcomes"]
    assert hit == [OUTCOME[steps.hit_result(profile, f, steps.hit_modifier(profile)[0])] for f in faces], name
    wound = rolls.read(faces, "6D6", steps.reading(profile, "wound_reroll"))["outcomes"]
    table = steps._wound_table(profile)
    assert wound == [OUTCOME[table[f]] for f in faces], name
    save = rolls.read(faces, "6D6", steps.reading(profile, "save", 0))
    assert save["outcomes"] == ["success" if steps.saved(profile, 0, f) else "fail" for f in faces], name
    assert save["successes"] == sum(steps.saved(profile, 0, f) for f in faces)
    hazardous = rolls.read(faces, "6D6", steps.reading(profile, "hazardous"))
    assert hazardous["successes"] == 6 - steps.hazardous_roll(profile, faces).facts["ones"]
    assert steps.reading(profile, "damage") is None and steps.reading(profile, "attacks") is None


def test_a_reading_says_its_numbers_in_a_sentence() -> None:
    hit = rolls.read([6, 6, 3, 2, 1, 4, 5, 3, 3, 1, 2, 6], "12D6", steps.reading(modern(), "hit"))
    assert hit == {"needed": 3, "outcomes": ["critical", "critical", "success", "fail", "fail", "success", "success",
                                             "success", "success", "fail", "fail", "critical"],
                   "successes": 8, "text": "Hit roll: 8 hits of 12 at 3+, 3 of them critical"}
    shifted = rolls.read([2, 3], "2D6", steps.reading(modern(hit_modifier=1), "hit"))
    assert shifted["text"] == "Hit roll: 2 hits of 2 at 3+ (+1 to each die)"
    passed = rolls.read([5, 4], "2D6", rolls.leadership("Battle-shock", 7))
    assert passed == {"needed": 7, "outcomes": ["success", "success"], "successes": None,
                      "text": "Battle-shock: 9 on 2D6 against Ld 7: passed"}
    older = rolls.read([5, 4], "2D6", rolls.leadership("Leadership", 7, at_most=True))
    assert older["outcomes"] == ["fail", "fail"] and older["text"] == "Leadership: 9 on 2D6 against Ld 7: failed"
    assert rolls.read([3, 4], "2D6", rolls.charge("9"))["text"] == 'Charge: 7 on 2D6 against 9": fails'
    assert rolls.read([2], "D6", rolls.arrives_on("Reserves", 3))["text"] == "Reserves: 2 on D6 against 3+: stays in reserve"
    assert rolls.free([3, 5], "2D6", "scatter", 8) == {"needed": None, "outcomes": ["unused", "unused"],
                                                       "successes": None, "text": "2D6 for scatter: 3 and 5 (total 8)"}
    assert rolls.read([4], "D6", rolls.Reading("Charge"))["text"] == "Charge: 4 on D6"


def test_a_roll_off_names_its_winner_or_says_it_is_rolled_again() -> None:
    names = {"A": "Alice", "B": "Bob"}
    assert rolls.roll_off([2, 5], names, "B") == {"needed": None, "outcomes": ["fail", "success"], "successes": None,
                                                  "text": "Roll-off: Alice 2, Bob 5: Bob wins"}
    tied = rolls.roll_off([4, 4], names, None)
    assert tied["outcomes"] == ["rerolled", "rerolled"] and tied["text"] == "Roll-off: Alice 4, Bob 4: a tie, rolled again"


def test_rerolled_and_unused_faces_count_no_success() -> None:
    read = rolls.read([1, 6, 4], "3D6", rolls.Reading("Hit roll", 3, each=True, noun="hit"), rerolled=[0],
                      unused=[2])
    assert read["outcomes"] == ["rerolled", "success", "unused"] and read["successes"] == 1
    assert read["text"] == "Hit roll: 1 hit of 1 at 3+"


def test_the_words_added_are_those_an_event_logged_before_lacks() -> None:
    hits = {"needed": 3, "outcomes": [], "successes": 0, "text": ""}
    assert rolls.added("HitsScored", hits) == ("outcomes", "successes", "text")  # HitsScored logged `needed` already
    assert rolls.added("DiceRolled", hits) == rolls.KEYS
    assert rolls.added("ReserveArriving", {"needed": 3}) == ()  # no roll event: its `needed` is its own
    assert rolls.as_before("DiceRolled", {"faces": [1], **hits}) == {"faces": [1]}


def test_a_feel_no_pain_roll_reads_its_lines_x_plus() -> None:
    profile = Profile(Weapon.of("gun", A=1, skill=3, S=4, AP=0, D=1),
                      Target((ModelLine("Ghoul", 5, W=1, T=4, Sv=6, InSv=None, fnp=5),)), Situation())
    read = rolls.read([5, 4, 6, 1], "4D6", steps.reading(profile, "feel_no_pain", 0))
    assert read == {"needed": 5, "outcomes": ["success", "fail", "success", "fail"], "successes": 2,
                    "text": "Feel No Pain: 2 ignored wounds of 4 at 5+"}
    assert steps.reading(modern(), "feel_no_pain", 0) is None  # a line without Feel No Pain rolls none


def test_a_feel_no_pain_die_is_read_for_the_model_that_would_lose_its_wound() -> None:
    # EXT.FNP: a bodyguard Beast (W2, 6+) before its CHARACTER Master (W6, 4+); a die it ignores keeps it standing,
    # so which model the next die is for follows from the faces before it
    target = Target((ModelLine("Beast", 1, W=2, fnp=6), ModelLine("Master", 1, W=6, fnp=4, keywords=frozenset({
        "CHARACTER"}))))
    mortal = Wounds(Standing.of(target), None, (4,))
    assert fnp_rolled_for(target, mortal, [6, 1, 1, 5]) == ((0, 6), (0, 6), (0, 6), (1, 4))
    assert fnp_rolled_for(target, mortal, [1, 1, 5, 5]) == ((0, 6), (0, 6), (1, 4), (1, 4))
    assert fnp_rolled_for(target, mortal, [1]) == ((0, 6),)  # a roll read before its last dice are in
    # a failed save's 3 damage on the W2 Beast: the third die meets no wound (the excess is lost with it)
    assert fnp_rolled_for(target, Wounds(Standing.of(target), 0, (3,)), [1, 1, 6]) == ((0, 6), (0, 6))


def test_a_roll_read_apart_reads_each_die_against_its_own_number_and_names_whose_it_is() -> None:
    apart = rolls.Reading("Feel No Pain", each=True, noun="ignored wound", ones_fail=False,
                          apart=lambda faces: [rolls.Against(6, "Bob's Beast"), rolls.Against(4, "Bob's Master")])
    assert rolls.read([5, 4, 2], "3D6", apart) == {
        "needed": None, "outcomes": ["fail", "success", "unused"], "successes": 1,
        "text": "Feel No Pain: 1 ignored wound of 2, each die at the Feel No Pain of the model that would lose the "
                "wound: 5 for Bob's Beast at 6+ (0 ignored wounds); 4 for Bob's Master at 4+ (1 ignored wound); "
                "1 die unused"}
    own = rolls.Reading("Feel No Pain", each=True, noun="ignored wound", ones_fail=False,
                        apart=lambda faces: [rolls.Against(5)] * len(faces))
    assert rolls.read([5, 1, 6], "3D6", own) == rolls.read([5, 1, 6], "3D6", rolls.Reading(
        "Feel No Pain", 5, each=True, noun="ignored wound", ones_fail=False))  # one unit's own X+: as it always read


def test_an_unmodified_one_fails_whatever_the_modifier_but_not_on_an_armour_penetration_die() -> None:
    plus_one = rolls.Reading("Hit roll", 2, each=True, noun="hit", modifier=1)
    assert rolls.read([1, 2], "2D6", plus_one)["outcomes"] == ["fail", "success"]
    penetration = steps.reading(heresy(S=9, AV=10), "wound")  # D6 + 9 against AV 10: a 1 glances
    assert rolls.read([1, 2], "2D6", penetration)["outcomes"] == ["success", "critical"]
    assert [steps._wound_table(heresy(S=9, AV=10))[f] for f in (1, 2)] == [1, 2]
