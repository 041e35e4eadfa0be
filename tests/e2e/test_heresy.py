"""The heresy ruleset over HTTP: Reserves, Move and Rout sub-phases in each player's Movement phase."""
from tests.support.client import unit


def test_the_movement_phase_runs_reserves_move_and_rout_in_order(new_game):
    game = new_game("heresy", dice="table")
    game.start([unit("legion-1"), unit("legion-2", in_reserves=True)], [unit("militia")])
    state = game.state()
    assert (state["phase"], state["sub_phase"], state["active_seat"]) == ("movement", "reserves", "A")
    assert state["awaiting"]["roll"] == {"purpose": "reserve", "unit": "legion-2", "spec": "D6", "rule": "HH.RES.1"}
    answer = game.cmd("A", "roll", dice=[3])
    assert [e["type"] for e in answer["events"]][-1] == "ReserveArrived"
    assert game.state()["units"]["legion-2"]["in_reserves"] is False
    game.cmd("A", "end_phase")
    assert game.state()["sub_phase"] == "move"
    game.cmd("A", "end_phase")
    assert game.state()["sub_phase"] == "rout"


def test_a_reserve_roll_below_three_stays_in_reserves(new_game):
    game = new_game("heresy", dice="table")
    game.start([unit("legion-1"), unit("legion-2", in_reserves=True)], [unit("militia")])
    answer = game.cmd("A", "roll", dice=[2])
    assert answer["events"][-1]["type"] == "ReserveDelayed" and answer["events"][-1]["rule"] == "HH.RES.1"
    assert game.state()["units"]["legion-2"]["in_reserves"] is True


def test_a_routed_unit_rolls_its_fall_back_distance_in_the_rout_sub_phase(new_game):
    game = new_game("heresy")
    game.start([unit("legion-1", statuses=("routed",))], [unit("militia")])
    game.cmd("A", "end_phase")
    answer = game.cmd("A", "end_phase")
    fell_back = next(e for e in answer["events"] if e["type"] == "FallBackRolled")
    assert fell_back["rule"] == "HH.ROUT.2"
    assert 5 <= int(fell_back["data"]["distance"]) <= 10  # 1D6 + Initiative 4


def test_seat_b_moves_after_seat_a_has_finished_its_turn(new_game):
    game = new_game("heresy")
    game.start([unit("legion-1")], [unit("militia")])
    for _ in range(5):
        game.cmd("A", "end_phase")
    state = game.state()
    assert (state["active_seat"], state["phase"], state["sub_phase"]) == ("B", "movement", "reserves")
    assert game.refused("A", "end_phase")["rule"] == "HH.MOV.0"
