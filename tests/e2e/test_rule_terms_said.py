"""What a player reads says the rules' own terms, never an internal name (CONTRACT.md "In the players' words"):
phases and sub-phases as the rules name them ("the Command phase", "Move Units", "Select Charging Units"), statuses
as the rules write them ("Battle-shocked", "Pinned"), how a unit is activated ("for an Advance"), the rolls of an
attack ("hit rolls"), a count of models that agrees with its number, and refusals in the same words
(`domain/words.py` PHASES, STEPS, STATUSES, ACTIVATIONS, PURPOSES, AWAITED)."""
from __future__ import annotations

import re

from tests.e2e.test_alternating_audit_fixes import to_charges
from tests.e2e.test_reference import army_a, army_b, roll, started, to_phase
from tests.support.client import GameClient, play_awaited, unit

SNAKE = re.compile(r"\b[a-z]+_[a-z_]+\b")


def texts(game: GameClient) -> list[str]:
    return [e["text"] for e in game.events()]


def last(game: GameClient, type_: str) -> str:
    return next(e["text"] for e in reversed(game.events()) if e["type"] == type_)


def test_a_reference_game_says_its_phases_statuses_activations_and_rolls_as_the_rules_do(new_game):
    game = new_game("reference", dice="table")
    seekers = unit("seekers", 5, weapons=[{"name": "Assault bolter", "type": "ranged", "range": 18, "A": "2", "S": 4,
                                           "AP": 0, "D": "1", "keywords": ["ASSAULT"]}])
    game.start([*army_a(), seekers], [*army_b(), unit("warboss", 1)])  # Alice's Intercessors start battle-shocked
    game.cmd("B", "roll_off", dice={"A": 6, "B": 2})
    game.cmd("A", "choose_order", first="A")
    roll(game, "A", 6, 6)  # their battle-shock test: passed
    game.cmd("A", "end_phase")
    said = texts(game)
    assert "Roll-off for the Command phase: Alice 6, Bob 2; Alice won." in said  # not "for command"
    assert "Alice chose to go first in the Command phase." in said  # not "chose that Alice goes first in command"
    assert "The Command phase began for Alice." in said
    assert "Alice's Intercessors (5 of 5) is no longer Battle-shocked: passed a battle-shock test." in said
    assert "Alice ended the Command phase." in said and "The Movement phase began for Alice." in said
    game.cmd("A", "select", unit="seekers", move="advance")
    assert last(game, "UnitSelected") == "Alice activated Alice's Seekers (5 of 5) for an Advance."
    roll(game, "A", 4)
    game.cmd("A", "end_phase")
    problem = game.refused("A", "select", unit="seekers", shooting="normal")
    assert problem["detail"] == "A unit that Advanced cannot make Normal shooting.", problem
    game.cmd("A", "select", unit="assault-squad", shooting="normal")
    assert last(game, "UnitSelected") == "Alice activated Alice's Assault Squad (5 of 5) for Normal shooting."
    game.cmd("A", "attack", unit="assault-squad", weapon="Bolt pistol", target="warboss")
    assert last(game, "RollRequested") == "Alice is to roll 5D6 for hit rolls (Alice's Assault Squad)."  # not "for to hit"
    roll(game, "A", 6, 6, 6, 6, 6)
    assert last(game, "RollRequested") == "Alice is to roll 5D6 for wound rolls (Alice's Assault Squad)."
    roll(game, "A", 6, 6, 6, 6, 6)
    answer = roll(game, "B", 1, 1, 1, 1, 1)
    strength = next(e for e in answer["events"] if e["type"] == "StrengthChanged")
    assert strength["text"] == "Bob's Warboss is now destroyed: 0 of 1 model left."  # not "0 of 1 models"
    everything = " ".join(texts(game))
    assert not SNAKE.search(everything), SNAKE.findall(everything)


def test_an_alternating_game_names_its_sub_phases_and_statuses_as_the_rules_do(new_game):
    game = new_game("alternating", dice="table")
    game.start([unit("chargers", 5), unit("stuck", 5, statuses=("pinned",))], [unit("boyz", 5, ranged=False)])
    to_charges(game)
    said = texts(game)
    assert said[0] == "An alternating game between Alice (A) and Bob (B) was created; the players roll their own dice."
    assert "Move Units (Movement phase) began for Alice and Bob." in said
    assert "Alice and Bob roll off to decide who chooses for Move Units." in said
    assert "Declare Shooting (Shooting phase) began for Alice and Bob." in said
    assert "Select Charging Units (Assault phase) began for Alice and Bob." in said
    assert any(text.startswith("Roll-off for Select Charging Units: ") for text in said), said
    problem = game.refused("A", "select", unit="stuck", targets=["boyz"], distance=3)
    assert problem["detail"] == "The unit cannot be selected in Select Charging Units: Pinned.", problem
    game.cmd("B", "set_status", unit="boyz", status="locked_in_combat", reason="they charged in at the table")
    assert last(game, "StatusGained") == "Bob's Boyz (5 of 5) is now Locked in Combat: they charged in at the table."
    everything = " ".join(texts(game))
    assert not SNAKE.search(everything), SNAKE.findall(everything)


def test_a_refusal_out_of_turn_in_the_fight_says_what_is_awaited_in_words(new_game):
    game = new_game("reference", dice="table")
    game.start([unit("scouts", 2)], [unit("grots", 5, statuses=("engaged",))])
    for _ in range(50):
        if game.state()["awaiting"]["action"] == "pile_in":
            break
        play_awaited(game)
    seat = game.state()["awaiting"]["seat"]
    problem = game.refused(seat, "consolidate", unit="grots", mode="none")
    assert problem["detail"].startswith("It is not the time to consolidate: the game waits for you to pile in"), \
        problem  # not "No consolidate is awaited now"


def test_a_refusal_to_embark_in_no_unit_says_what_was_sent(new_game):
    game = started(new_game)
    to_phase(game, "movement")
    problem = game.refused("A", "select", unit="hellblasters", move="normal", embark="")
    assert problem["detail"].startswith("Hellblasters cannot embark in '': a unit embarks, after a move, in a "
                                        "friendly transport"), problem  # not "cannot embark in : "


def test_a_refusal_to_return_models_counts_them_in_words(new_game):
    game = started(new_game)
    game.cmd("A", "record_casualties", unit="hellblasters", models=1)
    problem = game.refused("A", "revive", unit="hellblasters", models=2)
    assert problem["detail"] == ("Hellblasters has 1 destroyed model to return; it never grows past its starting "
                                 "strength."), problem  # not "1 destroyed model(s)"
