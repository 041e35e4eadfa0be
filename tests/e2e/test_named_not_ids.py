"""CONTRACT.md "In the players' words": what a player reads names units by their names and players by theirs,
never by a unit's id or a seat's letter: the heresy reaction refusals and those of what the heresy tables cannot
roll, the reason an engagement's end stores (edition 4; a game created before keeps the ids it stored), the
duration offered to the player giving a status, and the refusals of an army's links and engagements. The players
are Alice (seat A) and Bob (seat B)."""
from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.test_heresy import a_goes_first, to_sub_phase
from tests.e2e.test_reference_effects import to
from tests.e2e.test_reference_rules import until
from tests.support.client import GameClient, unit, vehicle
from warlog.domain.rules import editions


def heresy_at_move(new_game, dice: str = "server") -> GameClient:
    game = new_game("heresy", dice=dice)
    game.start([unit("a-legion-1", name="Legion Tactical Squad"), unit("a-legion-2", name="Legion Veterans")],
               [unit("b-militia-1", name="Militia"), unit("b-scouts-1", name="Scouts")])
    a_goes_first(game)
    to_sub_phase(game, "A", "move")
    return game


def no_ids(detail: str, *ids: str) -> str:
    assert not any(uid in detail for uid in ids), detail
    assert "seat" not in detail.lower(), detail
    return detail


@pytest.mark.parametrize("dice", ["server", "table"])
def test_HH_REACT_1_a_reaction_claimed_to_no_move_names_the_enemy_unit(new_game, dice):
    game = heresy_at_move(new_game, dice)
    problem = game.refused("B", "react", unit="b-militia-1", against="a-legion-1", direction="away", distance=2)
    assert problem["rule"] == "HH.REACT.1"
    assert no_ids(problem["detail"], "a-legion-1", "b-militia-1") == (
        "Alice's Legion Tactical Squad has ended no move this sub-phase that a reaction may answer.")


def test_HH_REACT_1_a_reaction_refused_once_offered_or_while_another_waits_names_the_moving_unit(new_game):
    game = heresy_at_move(new_game)
    game.cmd("A", "move", unit="a-legion-1", move="normal", distance=6, near=["b-militia-1"])
    assert game.state()["awaiting"]["action"] == "react"
    waiting = game.refused("B", "react", unit="b-militia-1", against="a-legion-2", direction="away", distance=2)
    assert waiting["rule"] == "HH.REACT.1"
    assert no_ids(waiting["detail"], "a-legion", "b-militia-1") == (
        "Answer the reaction offered to the move of Alice's Legion Tactical Squad first.")
    game.cmd("B", "react", act=False)
    again = game.refused("B", "react", unit="b-militia-1", against="a-legion-1", direction="away", distance=2)
    assert again["rule"] == "HH.REACT.1"
    assert no_ids(again["detail"], "a-legion-1") == (
        "It has already been offered a reaction to the move of Alice's Legion Tactical Squad.")


def window_closed(game: GameClient) -> dict[str, Any]:
    """Alice's one-model Legion Tactical Squad ends its move near Bob's Militia through dangerous terrain and fails
    the test: the reaction offered to Bob closes by itself. The `ReactionDeclined` it logs."""
    game.start([unit("a-legion-1", 1, name="Legion Tactical Squad")], [unit("b-militia-1", name="Militia")])
    a_goes_first(game)
    to_sub_phase(game, "A", "move")
    game.cmd("A", "move", unit="a-legion-1", move="normal", distance=6, near=["b-militia-1"], dangerous=1)
    (declined,) = [e for e in game.cmd("A", "roll", dice=[1])["events"] if e["type"] == "ReactionDeclined"]
    assert game.verify()["commands_ok"] is True
    return declined


def test_HH_REACT_1_a_reaction_window_closed_by_the_enemy_units_end_names_it(new_game):
    declined = window_closed(new_game("heresy", dice="table"))
    assert declined["rule"] == "HH.REACT.1"  # HH.REACT.1/named, edition 4
    assert declined["data"]["reason"] == "Alice's Legion Tactical Squad is no longer on the battlefield"


def test_a_heresy_game_created_before_edition_4_stores_the_id_of_the_unit_gone(new_game, monkeypatch):
    monkeypatch.setattr(editions, "created_under", lambda: {"edition": 3})
    declined = window_closed(new_game("heresy", dice="table"))
    assert declined["data"]["reason"] == "a-legion-1 is no longer on the battlefield"


def events_after(game: GameClient, seq: int, kind: str) -> list[dict[str, Any]]:
    return [e for e in game.events() if e["seq"] > seq and e["type"] == kind]


def fell_back(game: GameClient) -> list[dict[str, Any]]:
    """Alice's Tactical Squad, mustered engaged with Bob's Ork Boyz, falls back in her first Movement phase: the
    Ork Boyz' statuses lost, engaged with nobody."""
    game.start([unit("a-squad-1", name="Tactical Squad", engaged_with=["b-mob-1"])],
               [unit("b-mob-1", name="Ork Boyz")])
    until(game, 1, "A", "movement")
    seq = game.events()[-1]["seq"]
    game.cmd("A", "select", unit="a-squad-1", move="fall_back", escape="ordered")
    return [e for e in events_after(game, seq, "StatusLost") if e["data"]["unit"] == "b-mob-1"]


def test_RS_MOV_4_an_engagement_ended_by_a_fall_back_names_the_unit_that_fell_back(new_game):
    game = new_game("reference", dice="table")
    lost = fell_back(game)
    assert [e["data"]["status"] for e in lost] == ["engaged"]
    assert lost[0]["data"]["reason"] == "Alice's Tactical Squad fell back"  # RS.MOV.4/named, edition 4
    assert "a-squad-1" not in lost[0]["text"]
    assert game.verify()["commands_ok"] is True


def test_a_game_created_before_edition_4_stores_the_id_of_the_unit_that_fell_back(new_game, monkeypatch):
    """A game created under edition 3 (domain/rules/editions.py, RS.MOV.4/named) logs the reason it always logged,
    and /verify plays its requests again to the same events."""
    monkeypatch.setattr(editions, "created_under", lambda: {"edition": 3})
    game = new_game("reference", dice="table")
    lost = fell_back(game)
    assert [e["data"]["reason"] for e in lost] == ["a-squad-1 fell back"]
    assert game.verify()["commands_ok"] is True


@pytest.mark.parametrize("dice", ["server", "table"])
def test_CORE_PER_1_the_duration_offered_to_the_player_giving_a_status_says_your_next_turn(new_game, dice):
    game = new_game("reference", dice=dice)
    game.start([unit("a-squad-1", name="Tactical Squad")], [unit("b-mob-1", name="Ork Boyz")])
    to(game, "command", "A")
    state = game.state("A")
    titles = [choice["title"] for action in state["actions"] + state.get("records", [])
              if action["type"] in ("set_status", "use_stratagem")
              for choice in action["schema"]["properties"].get("duration", {}).get("oneOf", [])]
    assert "until the start of your next turn" in titles, titles
    assert not [title for title in titles if "seat" in title], titles


def army_refusal(game: GameClient, units: list[dict[str, Any]]) -> dict[str, Any]:
    response = game.muster("A", units)
    assert response.status_code == 422, response.text
    return response.json()


@pytest.mark.parametrize("units, field, detail", [
    ([unit("a-scouts", name="Scouts"), unit("a-tac", name="Tactical Squad", embarked_in="a-scouts")],
     "/units/1/embarked_in", "Scouts has no transport capacity."),
    ([vehicle("a-rhino", capacity=10, name="Rhino"), vehicle("a-razor", capacity=6, name="Razorback",
                                                               embarked_in="a-rhino"),
      unit("a-tac", name="Tactical Squad", embarked_in="a-razor")],
     "/units/2/embarked_in", "Razorback is itself embarked in Rhino."),
    ([vehicle("a-rhino", capacity=10, name="Rhino"), unit("a-tac", 6, name="Tactical Squad", embarked_in="a-rhino"),
      unit("a-scouts", 5, name="Scouts", embarked_in="a-rhino")],
     "/units/0/transport/capacity", "11 models embarked in Rhino, capacity 10."),
    ([unit("a-capt", 1, name="Captain", leader_of="a-lt"), unit("a-lt", 1, name="Lieutenant", leader_of="a-tac"),
      unit("a-tac", name="Tactical Squad")],
     "/units/0/leader_of", "Lieutenant leads a unit itself and cannot be led."),
    ([unit("a-capt", 1, name="Captain", leader_of="a-tac"), unit("a-lt", 1, name="Lieutenant", leader_of="a-tac"),
      unit("a-tac", name="Tactical Squad")],
     "/units/1/leader_of", "Tactical Squad is already led by Captain."),
    ([unit("a-boyz-1", name="Boyz"), unit("a-boyz-2", name="Boyz", transport=None),
      unit("a-nob", 1, name="Nob", embarked_in="a-boyz-2")],
     "/units/2/embarked_in", "Boyz (id 'a-boyz-2') has no transport capacity."),
    ([unit("a-tac", name="Tactical Squad", engaged_with=["a-scouts"]), unit("a-scouts", name="Scouts")],
     "/units/0/engaged_with/0", "Tactical Squad cannot start engaged with Scouts, a unit of its own army (only with "
                                "an enemy unit)."),
])
def test_an_armys_refused_links_name_its_units_as_the_army_names_them(new_game, units, field, detail):
    game = new_game("reference")
    problem = army_refusal(game, units)
    assert (problem["field"], problem["detail"]) == (field, detail)


def test_an_army_engaged_with_a_unit_the_other_army_lacks_names_its_unit_and_quotes_the_id(new_game):
    game = new_game("heresy")
    game.muster("B", [unit("b-mob-1", name="Ork Boyz")]).raise_for_status()
    problem = army_refusal(game, [unit("a-tac", name="Tactical Squad", engaged_with=["b-mob-1", "b-ghosts"])])
    assert problem["field"] == "/units/0/engaged_with/1"
    assert problem["detail"] == "Tactical Squad cannot start engaged with 'b-ghosts': the other army has no unit of " \
                                "that id."


def test_RS_ATK_1_a_weapon_the_heresy_tables_cannot_read_is_refused_naming_the_unit(new_game):
    """A shot the tables cannot roll (the shooter has no BS) is refused with the unit named, not its id."""
    game = new_game("heresy", dice="table")
    blind = unit("a-blind-1", 2, name="Blind Squad")
    blind["models"][0]["BS"] = None
    game.start([blind], [unit("b-militia-1", name="Militia")])
    a_goes_first(game)
    to_sub_phase(game, "A", None, "shooting")
    game.cmd("A", "select", unit="a-blind-1", targets=["b-militia-1"])
    problem = game.refused("A", "shoot", unit="a-blind-1", weapon="Boltgun", target="b-militia-1")
    assert problem["rule"] == "RS.ATK.1"
    assert no_ids(problem["detail"], "a-blind-1") == (
        "Blind Squad has no BS: roll this weapon's attack as a free roll and record its casualties.")


def test_HH_MOV_5_a_charge_the_service_cannot_roll_is_refused_naming_both_units(new_game):
    """A charge with a distance (the service rolls it) by a unit with no melee weapon the tables read names the
    charger and its target as Alice knows them."""
    game = new_game("heresy", dice="table")
    gunners = unit("a-gunners-1", name="Gunners")
    gunners["weapons"] = [w for w in gunners["weapons"] if w["type"] == "ranged"]
    game.start([gunners], [unit("b-militia-1", name="Militia")])
    a_goes_first(game)
    to_sub_phase(game, "A", None, "assault")
    problem = game.refused("A", "select", unit="a-gunners-1", targets=["b-militia-1"], distance=3)
    assert problem["rule"] == "HH.MOV.5"
    assert no_ids(problem["detail"], "a-gunners-1", "b-militia-1") == (
        "Gunners has no melee weapon the tables can strike Bob's Militia with: declare the charge without a distance "
        "and record what happens.")
