"""The reference ruleset over HTTP: the Command phase, movement, shooting attacks, charges and fights."""
from tests.support.client import awaits, keep_dice, play_awaited, unit


def army_a():
    return [unit("intercessors", 5, statuses=("battle_shocked",)), unit("hellblasters", 5),
            unit("assault-squad", 5, weapons=[
                {"name": "Bolt pistol", "type": "ranged", "range": 12, "A": "1", "S": 4, "AP": 0, "D": "1",
                 "keywords": ["PISTOL"]},
                {"name": "Chainsword", "type": "melee", "A": "3", "S": 4, "AP": -1, "D": "1"}])]


def army_b():
    return [unit("boyz", 10), unit("nobz", 3, statuses=("engaged",))]


def started(new_game):
    game = new_game("reference", dice="table")
    game.start(army_a(), army_b())
    assert awaits(game.state()) == {"seat": None, "action": "roll_off"}  # CORE.DICE.3: for the first turn
    game.cmd("B", "roll_off", dice={"A": 6, "B": 2})
    assert awaits(game.state()) == {"seat": "A", "action": "choose_order"}
    game.cmd("A", "choose_order", first="A")
    return game


def roll(game, seat, *faces):
    return keep_dice(game, game.cmd(seat, "roll", dice=list(faces)))  # no Command Re-roll of attack rolls here


def test_both_players_gain_a_command_point_and_a_battle_shocked_unit_tests_at_once(new_game):
    game = started(new_game)
    state = game.state()
    assert (state["phase"], state["active_seat"]) == ("command", "A")
    assert state["cp"] == {"A": 1, "B": 1}
    assert awaits(state) == {"seat": "A", "action": "roll", "roll": {
        "purpose": "battle_shock", "unit": "intercessors", "spec": "2D6", "rule": "RS.CMD.2"}}


def test_a_battle_shocked_unit_that_passes_its_test_stops_being_battle_shocked(new_game):
    game = started(new_game)
    answer = roll(game, "A", 3, 4)  # 7 against Ld 7: passed
    tested = next(e for e in answer["events"] if e["type"] == "BattleShockTested")
    assert tested["data"]["passed"] is True and tested["rule"] == "RS.CMD.2"
    audit = game.http.get(f"/games/{game.id}/audit/{tested['seq']}", headers=game.headers("B")).json()
    assert [rule["id"] for rule in audit["also"]] == ["CORE.LD.1"]  # a battle-shock test is a battle-shock roll
    assert audit["also"][0]["summary"]
    assert "battle_shocked" not in game.state()["units"]["intercessors"]["statuses"]
    assert awaits(game.state()) == {"seat": "A", "action": "end_phase"}


def test_a_failed_battle_shock_test_keeps_the_unit_battle_shocked(new_game):
    game = started(new_game)
    answer = roll(game, "A", 1, 2)
    assert next(e for e in answer["events"] if e["type"] == "BattleShockTested")["data"]["passed"] is False
    assert "battle_shocked" in game.state()["units"]["intercessors"]["statuses"]


def test_only_the_active_seat_ends_its_phase(new_game):
    game = started(new_game)
    roll(game, "A", 6, 6)
    assert game.refused("B", "end_phase")["rule"] == "RS.CMD.1"
    game.cmd("A", "end_phase")
    assert game.state()["phase"] == "movement"


def to_phase(game, phase):
    roll(game, "A", 6, 6)
    while game.state()["phase"] != phase:
        play_awaited(game)  # an end_phase, or what the fight awaits (pile in, fight, consolidate)


def test_an_advance_rolls_a_d6_and_the_unit_then_cannot_make_a_normal_shooting(new_game):
    game = started(new_game)
    to_phase(game, "movement")
    game.send("A", {"type": "select", "unit": "hellblasters", "move": "advance"})
    assert game.state()["awaiting"]["roll"]["purpose"] == "advance"
    answer = roll(game, "A", 4)
    assert next(e for e in answer["events"] if e["type"] == "AdvanceRolled")["data"]["max_move"] == 10
    game.cmd("A", "end_phase")
    problem = game.refused("A", "select", unit="hellblasters", shooting="normal")
    assert problem["rule"] == "RS.SHO.1"


def test_a_unit_is_selected_once_per_movement_phase(new_game):
    game = started(new_game)
    to_phase(game, "movement")
    game.cmd("A", "select", unit="hellblasters", move="normal")
    assert game.refused("A", "select", unit="hellblasters", move="normal")["rule"] == "RS.MOV.1"
    assert game.state()["units"]["hellblasters"]["selected"] is True


def test_a_shooting_attack_rolls_hits_wounds_saves_and_removes_casualties(new_game):
    game = started(new_game)
    to_phase(game, "shooting")
    game.cmd("A", "select", unit="hellblasters", shooting="normal")
    game.cmd("A", "attack", unit="hellblasters", weapon="Boltgun", target="boyz")
    state = game.state()
    assert state["awaiting"]["roll"] == {"purpose": "hit", "unit": "hellblasters", "spec": "10D6", "rule": "RS.ATK.1"}
    answer = roll(game, "A", 1, 2, 3, 3, 4, 5, 6, 6, 2, 3)  # BS 3: seven hits (an unmodified 1 fails)
    assert next(e for e in answer["events"] if e["type"] == "HitsScored")["data"]["hits"] == 7
    answer = roll(game, "A", 1, 2, 3, 4, 4, 5, 6)  # S4 vs T4: 4+ wounds -> four wounds
    assert next(e for e in answer["events"] if e["type"] == "WoundsScored")["data"]["wounds"] == 4
    assert game.state()["awaiting"]["seat"] == "B"  # the defender rolls saves
    answer = roll(game, "B", 1, 3, 4, 6)  # Sv 4, AP 0: two saved, two failed
    saves = next(e for e in answer["events"] if e["type"] == "SavesRolled")
    assert (saves["data"]["saved"], saves["data"]["failed"]) == (2, 2)
    boyz = game.state()["units"]["boyz"]
    assert boyz["models_alive"] == 8 and boyz["strength"] == "below_starting"


def test_an_engaged_unit_that_falls_back_while_battle_shocked_makes_a_desperate_escape(new_game):
    game = new_game("reference", dice="table")
    game.start([unit("scouts", 2)], [unit("grots", 5, statuses=("engaged", "battle_shocked"))])
    while game.state()["active_seat"] != "B" or game.state()["phase"] != "command":
        play_awaited(game)  # the engaged grots pile in, fight and consolidate in A's Fight phase (RS.FGT.1-4)
    roll(game, "B", 6, 6)  # B's battle-shock test for the grots: passed
    state = game.state()
    assert "battle_shocked" not in state["units"]["grots"]["statuses"]
    game.cmd("B", "end_phase")
    problem = game.refused("B", "select", unit="grots", move="normal")
    assert problem["rule"] == "RS.MOV.2"
    game.cmd("B", "select", unit="grots", move="fall_back", escape="desperate")
    assert game.state()["awaiting"]["roll"] == {"purpose": "hazard", "unit": "grots", "spec": "5D6", "rule": "RS.MOV.4"}
    answer = roll(game, "B", 1, 2, 3, 5, 6)  # two failures: two mortal wounds
    hazards = next(e for e in answer["events"] if e["type"] == "HazardsRolled")
    assert hazards["data"]["mortal_wounds"] == 2
    assert (hazards["data"]["needed"], hazards["data"]["outcomes"], hazards["data"]["text"]) == (
        3, ["fail", "fail", "success", "success", "success"], "Hazards: 3 passes of 5 at 3+")  # each 1-2 fails
    assert game.state()["units"]["grots"]["models_alive"] == 3
    assert game.state()["awaiting"]["roll"]["purpose"] == "battle_shock"  # not battle-shocked: it tests now


def test_a_charge_is_rolled_first_then_its_targets_are_named_within_the_roll(new_game):
    game = started(new_game)
    to_phase(game, "charge")
    game.cmd("A", "select", unit="assault-squad")
    assert game.state()["awaiting"]["roll"] == {"purpose": "charge", "unit": "assault-squad", "spec": "2D6",
                                                "rule": "RS.CHG.2"}
    roll(game, "A", 3, 5)
    assert awaits(game.state()) == {"seat": "A", "action": "charge_move", "unit": "assault-squad"}
    (move,) = [a for a in game.state("A")["actions"] if a["type"] == "charge_move"]
    assert move["rule"] == "RS.CHG.2" and move["schema"]["properties"]["distance"]["maximum"] == 12
    too_far = game.send("A", {"type": "charge_move", "unit": "assault-squad", "targets": ["boyz"], "distance": 13})
    assert too_far.status_code == 422 and too_far.json()["field"] == "/distance"  # beyond 12": no charge at all
    answer = game.cmd("A", "charge_move", unit="assault-squad", targets=["boyz"], distance=7)
    resolved = next(e for e in answer["events"] if e["type"] == "ChargeResolved")
    assert resolved["rule"] == "RS.CHG.2" and resolved["data"]["success"] is True and resolved["data"]["total"] == 8
    state = game.state()
    assert "engaged" in state["units"]["assault-squad"]["statuses"]
    assert "engaged" in state["units"]["boyz"]["statuses"]
    game.cmd("A", "end_phase")
    state = game.state()
    assert state["phase"] == "fight"
    assert awaits(state) == {"seat": "A", "action": "pile_in"}  # the active player's units pile in first


def test_a_charge_that_falls_short_of_its_farthest_target_fails_and_engages_nothing(new_game):
    game = started(new_game)
    to_phase(game, "charge")
    game.cmd("A", "select", unit="assault-squad")
    roll(game, "A", 1, 2)
    answer = game.cmd("A", "charge_move", unit="assault-squad", targets=["boyz"], distance=4)
    assert next(e for e in answer["events"] if e["type"] == "ChargeResolved")["data"]["success"] is False
    assert "engaged" not in game.state()["units"]["assault-squad"]["statuses"]


def test_the_game_ends_after_the_last_battle_round_and_reveals_the_seed(new_game):
    game = new_game("reference", battle_rounds=1)
    game.start([unit("a1")], [unit("b1")])
    for _ in range(20):
        if game.state()["status"] == "ended":
            break
        play_awaited(game)  # the roll-off for the first turn (server dice), then each phase ended
    assert game.state()["status"] == "ended"
    verdict = game.verify()
    assert verdict["chain_ok"] and verdict["dice_ok"] is True and len(verdict["server_seed"]) == 64


def test_the_roll_off_winner_chooses_who_takes_the_first_turn_and_that_order_holds_every_round(new_game):
    game = new_game("reference", dice="table", battle_rounds=2)
    game.start([unit("a1")], [unit("b1")])
    game.cmd("A", "roll_off", dice={"A": 2, "B": 5})
    assert game.refused("A", "choose_order", first="A")["rule"] == "CORE.DICE.3"
    game.cmd("B", "choose_order", first="B")
    seen = []
    for _ in range(60):
        state = game.state()
        if state["status"] == "ended":
            break
        if state["phase"] == "command" and (state["battle_round"], state["active_seat"]) not in seen:
            seen.append((state["battle_round"], state["active_seat"]))
        play_awaited(game)
    assert seen == [(1, "B"), (1, "A"), (2, "B"), (2, "A")]
