import hashlib
import hmac
import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from warlog.domain.dice import (
    PATTERN,
    DiceExpr,
    DiceSpecError,
    Die,
    Roll,
    TableDiceError,
    automatic_success,
    check_table_dice,
    commitment,
    highest_indexes,
    is_double,
    is_triple,
    lowest_indexes,
    mark_criticals,
    needs_text,
    parse,
    pick,
    reroll,
    roll_from_data,
    roll_from_faces,
    roll_off_winner,
    server_faces,
    server_roll,
    treat_as,
)

SEED = bytes(range(32))


def stream(seed, game_id, counter, ea, eb, blocks):
    """The contract's byte stream, computed independently of the module."""
    out = b""
    for block in range(blocks):
        msg = f"{game_id}:{counter}:{block}:{ea}:{eb}".encode()
        out += hmac.new(seed, msg, hashlib.sha256).digest()
    return out


# --- parsing -----------------------------------------------------------------

@pytest.mark.parametrize("spec, expected", [
    ("2", DiceExpr(0, 0, 2)),
    ("D6", DiceExpr(1, 6, 0)),
    ("d6", DiceExpr(1, 6, 0)),
    ("D3+1", DiceExpr(1, 3, 1)),
    ("2D6", DiceExpr(2, 6, 0)),
    ("3D6", DiceExpr(3, 6, 0)),
    ("D3-1", DiceExpr(1, 3, -1)),
    ("2D6+2", DiceExpr(2, 6, 2)),
    (" 2 d 6 + 2 ", DiceExpr(2, 6, 2)),
    ("D10", DiceExpr(1, 10, 0)),
    ("D20", DiceExpr(1, 20, 0)),
    ("1D6", DiceExpr(1, 6, 0)),
    ("50D100", DiceExpr(50, 100, 0)),
    ("D66", DiceExpr(1, 66, 0)),  # a plain 66-sided die, not the two-D6 "D66" reading
])
def test_parse_accepts_the_usual_dice_expressions(spec, expected):
    assert parse(spec) == expected


@pytest.mark.parametrize("spec", [
    "", "   ", "D", "D0", "D1", "ZD6", "1.5", "D6+", "D6-", "51D6", "0D6", "D101",
    "2D6+1+1", "-2", "D6*2", "2 D6 extra", "D6+1001", "99999",
])
def test_parse_rejects_malformed_expressions_with_a_dice_spec_error(spec):
    with pytest.raises(DiceSpecError):
        parse(spec)


def test_parse_refuses_something_that_is_not_text():
    with pytest.raises(DiceSpecError):
        parse(6)  # type: ignore[arg-type]


@pytest.mark.parametrize("spec, canonical", [
    ("2", "2"), ("d6", "D6"), ("1D6", "D6"), ("D3+1", "D3+1"), ("2d6", "2D6"),
    ("D6-1", "D6-1"), ("2D6 + 2", "2D6+2"), ("D6+0", "D6"),
])
def test_str_gives_the_canonical_text_and_round_trips(spec, canonical):
    expr = parse(spec)
    assert str(expr) == canonical
    assert parse(str(expr)) == expr


@given(st.integers(1, 50), st.integers(2, 100), st.integers(-20, 20))
def test_any_valid_expression_round_trips_through_its_text(count, sides, modifier):
    expr = DiceExpr(count, sides, modifier)
    assert parse(str(expr)) == expr


def test_a_constant_is_constant_and_totals_its_value():
    assert parse("2").is_constant
    assert not parse("D6").is_constant
    assert parse("2").total([]) == 2


def test_an_expression_total_adds_the_modifier_and_checks_the_dice():
    assert parse("D3+1").total([3]) == 4
    assert parse("2D6-1").total([6, 6]) == 11
    with pytest.raises(TableDiceError):
        parse("2D6").total([6])


# --- server dice -------------------------------------------------------------

def test_the_commitment_is_the_sha256_of_the_raw_seed():
    assert commitment(SEED) == hashlib.sha256(SEED).hexdigest()
    assert len(commitment(SEED)) == 64


@settings(max_examples=200, deadline=None)
@given(seed=st.binary(max_size=64), counter=st.integers(0, 10**9),
       sides=st.integers(2, 100), count=st.integers(0, 50),
       ea=st.text(alphabet="0123456789abcdef", max_size=16))
def test_server_faces_always_lie_in_range_and_have_the_requested_count(seed, counter, sides, count, ea):
    faces = server_faces(seed, "game", counter, ea, "", count, sides)
    assert len(faces) == count
    assert all(1 <= f <= sides for f in faces)


def test_the_same_seed_and_counter_give_the_same_faces():
    assert server_faces(SEED, "g", 7, "aa", "bb", 20, 6) == server_faces(SEED, "g", 7, "aa", "bb", 20, 6)


def test_a_different_counter_or_entropy_or_game_gives_a_different_stream():
    base = server_faces(SEED, "g", 0, "aa", "bb", 40, 6)
    assert server_faces(SEED, "g", 1, "aa", "bb", 40, 6) != base
    assert server_faces(SEED, "g", 0, "ab", "bb", 40, 6) != base
    assert server_faces(SEED, "g", 0, "aa", "bc", 40, 6) != base
    assert server_faces(SEED, "h", 0, "aa", "bb", 40, 6) != base
    assert server_faces(bytes(32), "g", 0, "aa", "bb", 40, 6) != base


def test_server_faces_match_a_known_answer_computed_with_hmac_directly():
    data = stream(SEED, "g", 0, "", "ab", blocks=2)
    expected = [b % 6 + 1 for b in data if b < 252][:10]
    assert len(expected) == 10
    assert server_faces(SEED, "g", 0, "", "ab", 10, 6) == expected


def test_a_roll_of_several_dice_takes_them_in_order_from_one_counters_stream():
    one_by_one = server_faces(SEED, "g", 3, "", "", 30, 6)
    assert server_faces(SEED, "g", 3, "", "", 2, 6) == one_by_one[:2]
    assert server_roll(SEED, "g", 3, "", "", parse("2D6+1")).faces == one_by_one[:2]


def test_many_dice_run_on_into_the_next_hmac_blocks():
    data = stream(SEED, "g", 5, "", "", blocks=4)
    expected = [b % 6 + 1 for b in data if b < 252][:100]
    assert server_faces(SEED, "g", 5, "", "", 100, 6) == expected


def test_server_d6_faces_are_uniform_by_a_chi_square_test():
    counts = [0] * 6
    for counter in range(1000):
        for face in server_faces(SEED, "chi", counter, "e1", "e2", 60, 6):
            counts[face - 1] += 1
    total = sum(counts)
    assert total == 60_000
    expected = total / 6
    statistic = sum((c - expected) ** 2 / expected for c in counts)
    assert statistic < 20.515  # 0.001 critical value, 5 degrees of freedom


def test_for_six_sides_bytes_of_252_and_above_are_skipped():
    for counter in range(500):
        data = stream(SEED, "skip", counter, "", "", blocks=1)
        high = [i for i, b in enumerate(data[:31]) if b >= 252]
        if high:
            break
    else:  # pragma: no cover - probability ~ (1 - 4/256) ** 15500
        pytest.fail("no byte >= 252 found")
    pos = high[0]
    taken_before = sum(1 for b in data[:pos] if b < 252)
    faces = server_faces(SEED, "skip", counter, "", "", taken_before + 1, 6)
    # the face after the skipped byte comes from the next usable byte, not the skipped one
    next_usable = next(b for b in data[pos + 1:] if b < 252)
    assert faces[-1] == next_usable % 6 + 1
    assert faces == [b % 6 + 1 for b in data if b < 252][:taken_before + 1]


def test_for_three_sides_only_byte_255_is_skipped():
    data = stream(SEED, "d3", 0, "", "", blocks=2)
    expected = [b % 3 + 1 for b in data if b < 255][:40]
    assert server_faces(SEED, "d3", 0, "", "", 40, 3) == expected


def test_server_faces_refuse_impossible_dice():
    with pytest.raises(ValueError):
        server_faces(SEED, "g", 0, "", "", 1, 0)
    with pytest.raises(ValueError):
        server_faces(SEED, "g", 0, "", "", -1, 6)
    assert server_faces(SEED, "g", 0, "", "", 0, 6) == []


# --- table dice --------------------------------------------------------------

def test_needs_text_names_the_dice_required():
    assert needs_text(parse("2D6")) == "2 dice of 6 sides (2D6)"
    assert needs_text(parse("D3+1")) == "1 die of 3 sides (D3+1)"


def test_table_dice_of_the_right_count_and_range_are_accepted():
    assert check_table_dice(parse("2D6"), [4, 2]) == [4, 2]
    assert check_table_dice(parse("2"), []) == []


def test_table_dice_of_the_wrong_count_are_refused_saying_what_is_needed():
    with pytest.raises(TableDiceError, match=r"this roll needs 2 dice of 6 sides \(2D6\), got 1"):
        check_table_dice(parse("2D6"), [3])


@pytest.mark.parametrize("dice, message", [
    ([3, 0], r"die 2 shows 0, but a D6 shows 1 to 6"),
    ([3, 7], r"die 2 shows 7, but a D6 shows 1 to 6"),
    ([True, 2], r"die 1 is True, not a whole number.*2 dice of 6 sides"),
    ([2.0, 2], r"die 1 is 2\.0, not a whole number"),
    ("34", r"needs 2 dice of 6 sides"),
    (None, r"needs 2 dice of 6 sides"),
])
def test_table_dice_outside_the_faces_or_not_whole_numbers_are_refused(dice, message):
    with pytest.raises(TableDiceError, match=message):
        check_table_dice(parse("2D6"), dice)


def test_a_d3_is_entered_as_a_three_sided_die():
    with pytest.raises(TableDiceError, match=r"but a D3 shows 1 to 3"):
        check_table_dice(parse("D3"), [4])


# --- reading results -----------------------------------------------------------

def test_doubles_and_triples_are_any_two_or_three_dice_of_one_result():
    assert is_double([3, 5, 3])
    assert not is_double([1, 2, 3])
    assert is_triple([4, 1, 4, 4])
    assert not is_triple([4, 4, 1, 1])
    assert not is_double([])


def test_highest_and_lowest_list_every_tied_die():
    assert highest_indexes([6, 2, 6, 1]) == [0, 2]
    assert lowest_indexes([1, 2, 6, 1]) == [0, 3]
    assert highest_indexes([]) == []


def test_the_active_player_picks_one_of_the_tied_dice():
    faces = [6, 2, 6]
    assert pick(faces, 2, highest_indexes(faces)) == 6
    with pytest.raises(ValueError):
        pick(faces, 1, highest_indexes(faces))


def test_a_roll_off_tie_is_rolled_again():
    assert roll_off_winner(5, 2) == "A"
    assert roll_off_winner(1, 4) == "B"
    assert roll_off_winner(3, 3) is None


# --- roll records and re-rolls -----------------------------------------------------

def test_a_roll_from_faces_totals_its_dice_and_modifier():
    roll = roll_from_faces(parse("2D6+2"), [3, 4])
    assert roll.faces == [3, 4]
    assert roll.total == 9
    assert roll.dice == (Die(3, 6), Die(4, 6))


def test_a_2d6_reroll_rerolls_both_dice():
    roll = reroll(roll_from_faces(parse("2D6"), [1, 2]), [0, 1], [5, 6])
    assert roll.faces == [5, 6]
    assert roll.total == 11


def test_rerolling_one_die_of_a_2d6_is_refused():
    roll = roll_from_faces(parse("2D6"), [1, 2])
    with pytest.raises(ValueError, match="a 2D6 re-rolls all its dice"):
        reroll(roll, [0], [5])


def test_a_die_rerolled_once_cannot_be_rerolled_again():
    roll = reroll(roll_from_faces(parse("D6"), [1]), [0], [2])
    with pytest.raises(ValueError, match="already a re-roll"):
        reroll(roll, [0], [6])
    both = reroll(roll_from_faces(parse("2D6"), [1, 1]), [0, 1], [2, 2])
    with pytest.raises(ValueError):
        reroll(both, [0, 1], [6, 6])


def test_the_replaced_faces_stay_in_the_record_and_faces_shows_the_new_ones():
    roll = reroll(roll_from_faces(parse("2D6"), [1, 2]), [1, 0], [5, 6])
    assert roll.dice == (
        Die(1, 6, replaced=True), Die(2, 6, replaced=True),
        Die(5, 6, rerolled=True), Die(6, 6, rerolled=True),
    )
    assert roll.faces == [5, 6]
    data = roll.to_data()
    assert [d["face"] for d in data["dice"]] == [1, 2, 5, 6]
    assert data["faces"] == [5, 6]


def test_modifiers_apply_after_the_reroll():
    roll = roll_from_faces(parse("D3+1"), [1])
    assert roll.total == 2
    roll = reroll(roll, [0], [3])
    assert roll.total == 4


def test_a_reroll_checks_the_new_faces():
    roll = roll_from_faces(parse("D3"), [1])
    with pytest.raises(TableDiceError, match=r"but a D3 shows 1 to 3"):
        reroll(roll, [0], [6])
    with pytest.raises(TableDiceError):
        reroll(roll, [0], [1, 2])
    with pytest.raises(ValueError):
        reroll(roll, [1], [2])
    with pytest.raises(ValueError):
        reroll(roll_from_faces(parse("2"), []), [], [])


def test_automatic_success_has_no_dice_and_no_total_and_cannot_be_rerolled():
    roll = automatic_success(parse("2D6"))
    assert roll.automatic
    assert roll.dice == ()
    assert roll.faces == []
    assert roll.total is None
    assert mark_criticals(roll).dice == ()  # CORE.DICE.1: never a critical
    with pytest.raises(ValueError):
        reroll(roll, [0, 1], [3, 3])
    with pytest.raises(ValueError):
        treat_as(roll, 6)


def test_treated_as_overrides_the_total_and_may_exceed_six():
    roll = treat_as(roll_from_faces(parse("D6"), [2]), 7)
    assert roll.total == 7
    assert roll.faces == [2]
    assert roll.to_data()["treated_as"] == 7
    with pytest.raises(ValueError):
        reroll(roll, [0], [4])


def test_criticals_are_unmodified_sixes_on_counting_d6_dice():
    roll = mark_criticals(roll_from_faces(parse("3D6+1"), [6, 5, 6]))
    assert [d.critical for d in roll.dice] == [True, False, True]
    assert [d.critical for d in mark_criticals(roll, on=5).dice] == [True, True, True]
    assert not mark_criticals(roll_from_faces(parse("D3"), [3]), on=3).dice[0].critical
    rerolled = reroll(roll, [0, 1, 2], [1, 2, 3])
    assert not any(d.critical for d in rerolled.dice)


def test_to_data_is_plain_json_and_reads_back():
    roll = mark_criticals(reroll(roll_from_faces(parse("D6+1"), [1]), [0], [6]))
    data = roll.to_data()
    assert data == {
        "spec": "D6+1", "faces": [6], "total": 7,
        "dice": [
            {"face": 1, "sides": 6, "rerolled": False, "replaced": True, "critical": False},
            {"face": 6, "sides": 6, "rerolled": True, "replaced": False, "critical": True},
        ],
        "automatic": False, "treated_as": None,
    }
    assert json.loads(json.dumps(data)) == data
    assert roll_from_data(data) == roll
    auto = automatic_success(parse("2D6"))
    assert roll_from_data(auto.to_data()) == auto
    assert isinstance(roll, Roll)


@settings(max_examples=300, deadline=None)
@given(st.from_regex(PATTERN))
def test_every_text_the_documented_pattern_admits_is_a_dice_expression(spec):
    """The OpenAPI document gives dice expressions this pattern: whatever it admits parse() reads (it also
    reads whitespace and leading zeros, which the pattern leaves out)."""
    parse(spec)


@pytest.mark.parametrize("spec", ["0", "1000", "D2", "d100", "50D6", "D6+1000", "2D6-3", "D3+0"])
def test_the_edges_of_the_documented_pattern_are_dice_expressions(spec):
    assert re.fullmatch(PATTERN, spec) and parse(spec)


@pytest.mark.parametrize("spec", ["1001", "D1", "D101", "51D6", "0D6", "D6+1001", "", "D", "2D"])
def test_what_the_pattern_refuses_parse_refuses_too(spec):
    assert not re.fullmatch(PATTERN, spec)
    with pytest.raises(DiceSpecError):
        parse(spec)
