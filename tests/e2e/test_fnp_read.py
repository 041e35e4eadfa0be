"""EXT.FNP as a player reads the roll (rules edition 5, domain/rules/editions.py EXT.FNP/read): each die of a Feel
No Pain roll meets the wound of one model, and is read against that model's FEEL NO PAIN X+. An attached unit's
bodyguard and leader keep their own (6+ and 4+ here), so a roll against mortal wounds, outside an attack (a
Desperate Escape) or inside one (DEVASTATING WOUNDS), is read die by die against the right one, names whose each
die is, and leaves unused the dice no wound needs; it is never read as the dice total nor every die at one X+. A
game created under edition 4 keeps the reading it always logged, and `/verify` plays both again. Table dice, so
the dice are the test's; the players are Alice (seat A) and Bob (seat B)."""
from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.test_audit_fixes_c import TOUGH, escaped, lines_of
from tests.e2e.test_reference_attacks import CAPTAIN, rolled
from tests.e2e.test_reference_audit_fixes import rolled_now, since
from tests.support.client import GameClient, play_awaited, unit
from warlog.domain.rules import editions


def created_under(monkeypatch: pytest.MonkeyPatch, edition: int) -> None:
    """The next game is created under `edition`."""
    monkeypatch.setattr(editions, "created_under", lambda: {"edition": edition})


def one(events: list[dict[str, Any]], kind: str, purpose: str | None = None) -> dict[str, Any]:
    (event,) = [e for e in events if e["type"] == kind and (purpose is None or e["data"].get("purpose") == purpose)]
    return event


def read(event: dict[str, Any]) -> dict[str, Any]:
    """What a roll event says it means."""
    return {key: event["data"][key] for key in ("needed", "outcomes", "successes", "text")}


def escape(new_game, beast_fnp: str | None) -> tuple[GameClient, int]:
    """Bob's Beast (W2, FEEL NO PAIN `beast_fnp`) guards its Master (W6, FEEL NO PAIN 4+), both MONSTERs; their
    Desperate Escape fails both hazard dice: 6 mortal wounds, whose Feel No Pain roll the game awaits."""
    game = new_game("reference", dice="table")
    beast = unit("beast", 1, keywords=("MONSTER",), abilities=(beast_fnp,) if beast_fnp else (),
                 statuses=("engaged",), engaged_with=["scouts"])
    beast["models"][0].update(W=2, **TOUGH)
    master = unit("master", 1, keywords=("MONSTER", "CHARACTER"), abilities=("FEEL NO PAIN 4+",), leader_of="beast",
                  statuses=("engaged",), engaged_with=["scouts"])
    master["models"][0].update(W=6, **TOUGH)
    scouts = unit("scouts", 2)
    scouts["models"][0].update(W=30, **TOUGH)
    game.start([scouts], [beast, master])
    seq, _ = escaped(game, "table", "B", "beast", [1, 1])
    assert game.state("B")["awaiting"]["roll"] == {"purpose": "feel_no_pain_mortal", "unit": "beast", "spec": "6D6",
                                                   "rule": "EXT.FNP"}
    return game, seq


def test_EXT_FNP_a_leaders_and_its_bodyguards_own_feel_no_pain_read_die_by_die_outside_an_attack(new_game):
    game, seq = escape(new_game, "FEEL NO PAIN 6+")
    # the Beast's two wounds meet its 6+ (5 and 1: lost, it falls), the Master's four its 4+ (5 and 6 ignored)
    rolled_now(game, "B", "feel_no_pain_mortal", [5, 1, 5, 1, 3, 6], "table")
    events = since(game, seq)
    fnp = one(events, "DiceRolled", "feel_no_pain_mortal")
    said = ("Feel No Pain: 2 ignored wounds of 6, each die at the Feel No Pain of the model that would lose the "
            "wound: 5 and 1 for Bob's Beast at 6+ (0 ignored wounds); 5, 1, 3 and 6 for Bob's Master at 4+ "
            "(2 ignored wounds)")
    assert read(fnp) == {"needed": None, "outcomes": ["fail", "fail", "success", "fail", "fail", "success"],
                         "successes": 2, "text": said}  # not the total 21, no die left unread
    assert fnp["text"] == f"Bob rolled 6D6 for Feel No Pain against mortal wounds (Bob's Beast): 5, 1, 5, 1, 3 and 6 (total 21); {said}."
    ignored = one(events, "MortalWoundsIgnored")
    assert read(ignored) == read(fnp)  # the roll and the wounds it stopped say one thing
    assert (ignored["data"]["ignored"], ignored["data"]["lost"]) == (2, 4)
    assert ignored["text"] == ("Feel No Pain of Bob's Beast and Master against the Desperate Escape's 6 mortal wounds: "
                               "2 ignored, 4 to lose.")  # the leader's and the bodyguard's, not the bodyguard's alone
    state = game.state()
    assert {key: state["last_roll"][key] for key in ("needed", "outcomes", "successes", "text")} == read(fnp)
    assert lines_of(state, "beast") == [] and lines_of(state, "master") == [4]
    assert game.verify()["commands_ok"] is True


def test_EXT_FNP_dice_for_wounds_of_models_without_feel_no_pain_are_unused(new_game):
    game, seq = escape(new_game, None)
    # the Beast has none: its two wounds take no die; the Master's four meet 5, 1, 5 and 1 at 4+
    rolled_now(game, "B", "feel_no_pain_mortal", [5, 1, 5, 1, 3, 6], "table")
    events = since(game, seq)
    fnp = one(events, "DiceRolled", "feel_no_pain_mortal")
    assert read(fnp) == {"needed": 4, "outcomes": ["success", "fail", "success", "fail", "unused", "unused"],
                         "successes": 2,  # not 3: the 6 meets no wound
                         "text": "Feel No Pain: 2 ignored wounds of 4 at 4+ for Bob's Master; 2 dice unused"}
    ignored = one(events, "MortalWoundsIgnored")
    assert read(ignored) == read(fnp) and ignored["data"]["ignored"] == 2
    assert lines_of(game.state(), "beast") == [] and lines_of(game.state(), "master") == [4]
    assert game.verify()["commands_ok"] is True


def test_EXT_FNP_a_game_created_under_edition_4_keeps_the_reading_it_logged(new_game, monkeypatch):
    created_under(monkeypatch, 4)
    game, seq = escape(new_game, "FEEL NO PAIN 6+")
    rolled_now(game, "B", "feel_no_pain_mortal", [5, 1, 5, 1, 3, 6], "table")
    events = since(game, seq)
    fnp = one(events, "DiceRolled", "feel_no_pain_mortal")
    assert read(fnp) == {"needed": None, "outcomes": ["unused"] * 6, "successes": None,
                         "text": "6D6 for feel no pain mortal: 5, 1, 5, 1, 3 and 6 (total 21)"}
    assert fnp["text"] == "Bob rolled 6D6 for Feel No Pain against mortal wounds (Bob's Beast): 5, 1, 5, 1, 3 and 6 (total 21)."
    ignored = one(events, "MortalWoundsIgnored")
    assert ignored["data"]["text"] == "Feel No Pain: 2 ignored wounds of 6, each model at its own"
    assert (ignored["data"]["ignored"], ignored["data"]["lost"]) == (2, 4)  # the same judgment
    assert lines_of(game.state(), "beast") == [] and lines_of(game.state(), "master") == [4]
    assert game.verify()["commands_ok"] is True


MELTA = {"name": "Melta", "type": "ranged", "range": 24, "A": "1", "skill": 3, "S": 8, "AP": -4, "D": "3",
         "keywords": ["DEVASTATING WOUNDS"]}


def shot(new_game, guard: int) -> GameClient:
    """Alice's Shooters aim a Melta (D3, DEVASTATING WOUNDS) at `guard` W1 Guards (FEEL NO PAIN 6+) led by Bob's
    Captain (W4, FEEL NO PAIN 4+)."""
    game = new_game("reference", dice="table")
    game.start([unit("shooters", 1, weapons=[MELTA])],
               [unit("guard", guard, abilities=("FEEL NO PAIN 6+",)),
                unit("captain", 1, leader_of="guard", keywords=("INFANTRY", "CHARACTER"), models=[CAPTAIN],
                     abilities=("FEEL NO PAIN 4+",))])
    while game.state()["phase"] != "shooting" or game.state()["awaiting"]["action"] != "end_phase":
        play_awaited(game)
    game.cmd("A", "select", unit="shooters", shooting="normal")
    game.cmd("A", "attack", unit="shooters", weapon="Melta", target="guard")
    rolled(game, "A", "hit", [6])
    return game


def test_EXT_FNP_devastating_mortal_wounds_read_die_by_die_against_the_bodyguard_then_its_leader(new_game):
    game = shot(new_game, 1)
    rolled(game, "A", "wound", [6])  # a critical wound: 3 mortal wounds, no save
    # the Guard's 6+ fails on the 2 and it falls; the Captain's 4+ stops the other two (4 and 6)
    done = rolled(game, "B", "mortal_feel_no_pain", [2, 4, 6])
    fnp = done["DiceRolled"]
    assert read(fnp) == {"needed": None, "outcomes": ["fail", "success", "success"], "successes": 2,
                         "text": "Feel No Pain: 2 ignored wounds of 3, each die at the Feel No Pain of the model that "
                                 "would lose the wound: 2 for Bob's Guard at 6+ (0 ignored wounds); 4 and 6 for Bob's "
                                 "Captain at 4+ (2 ignored wounds)"}
    assert done["MortalWoundsInflicted"]["data"]["wounds_lost"] == 1
    units = game.state()["units"]
    assert units["guard"]["models_alive"] == 0 and units["captain"]["models"][0]["wounds_left"] is None
    assert game.verify()["commands_ok"] is True


def test_EXT_FNP_the_dice_for_damage_lost_with_its_model_are_unused(new_game):
    game = shot(new_game, 2)
    rolled(game, "A", "wound", [4])  # a wound, not critical: saved on 7+ (AP -4), so failed
    rolled(game, "B", "save", [6])
    # the failed save's 3 damage meets one W1 Guard: the 1 fails at 6+ and it falls; the rest of the damage is lost
    done = rolled(game, "B", "feel_no_pain", [1, 6, 6])
    assert read(done["DiceRolled"]) == {"needed": 6, "outcomes": ["fail", "unused", "unused"], "successes": 0,
                                        "text": "Feel No Pain: 0 ignored wounds of 1 at 6+; 2 dice unused"}
    assert game.state()["units"]["guard"]["models_alive"] == 1
    assert game.verify()["commands_ok"] is True
