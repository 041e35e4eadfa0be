"""Rolls that say what they mean (CONTRACT.md "In the players' words", issue 24), over HTTP in every ruleset and
both dice modes: each roll event's data carries `needed`, `outcomes` (one per face), `successes` and `text`, the
outcome in a sentence, and GET /state's `last_roll` shows the latest roll's.

At the table the faces are the test's, so each roll's words are asserted exactly; with server dice the faces are
the seed's, so the words are checked against the rule read independently here (a face at or above what it needs
succeeds, an unmodified 1 fails, ...) and against the step's own count (HitsScored's hits, SavesRolled's saved)."""
from __future__ import annotations

import math
from decimal import Decimal
from typing import Any

import pytest

from tests.e2e.test_heresy import a_goes_first, to_sub_phase
from tests.support.client import GameClient, keep_dice, play_awaited, unit

WORDS = ("needed", "outcomes", "successes", "text")
ROLLS = ("DiceRolled", "RollOff", "HitsScored", "WoundsScored", "SavesRolled", "HazardousRolled", "HazardsRolled",
         "OverwatchResolved")
BOLTER = {"name": "Bolter", "type": "ranged", "range": 24, "A": "2", "skill": 3, "S": 4, "AP": 0, "D": "1",
          "keywords": []}


def roll(game: GameClient, seat: str, faces: list[int], dice: str) -> dict[str, Any]:
    """Roll what the game awaits: the given faces at the table. Server dice rolled themselves in the command
    that called for the roll: its answer."""
    if dice == "server":
        return game.answers[-1]  # type: ignore[attr-defined, no-any-return]
    return game.cmd(seat, "roll", dice=faces)


def tracked(game: GameClient) -> GameClient:
    """The game, keeping each accepted command's answer (`answers`): with server dice a roll is in it."""
    send, answers = game.cmd, []

    def cmd(seat: str, type_: str, **fields: Any) -> dict[str, Any]:
        answers.append(send(seat, type_, **fields))
        return answers[-1]

    game.cmd, game.answers = cmd, answers  # type: ignore[method-assign, attr-defined]
    return game


def kinds(game: GameClient, kind: str, **match: Any) -> list[dict[str, Any]]:
    return [e for e in game.events() if e["type"] == kind and all(e["data"].get(k) == v for k, v in match.items())]


def roll_off(game: GameClient, dice: str) -> None:
    """A tie rolled again, then a winner (at the table); server dice roll until one seat wins."""
    if dice == "table":
        game.cmd("A", "roll_off", dice={"A": 3, "B": 3})
        game.cmd("A", "roll_off", dice={"A": 6, "B": 1})
    else:
        while game.state()["awaiting"]["action"] == "roll_off":
            game.cmd("A", "roll_off")
    game.cmd(game.state()["awaiting"]["seat"], "choose_order", first="A")


def free_roll(game: GameClient, dice: str) -> dict[str, Any]:
    rolled = game.cmd("B", "free_roll", spec="2D6", purpose="scatter", **({"dice": [3, 5]} if dice == "table" else {}))
    return rolled["events"][0]["data"]


def each(face: int, needed: int, critical_on: int | None = 6, ones_fail: bool = True) -> str:
    """The rule for one die, read independently of the service: 1 fails, a critical, else the face needed."""
    if ones_fail and face == 1:
        return "fail"
    if critical_on is not None and face >= critical_on:
        return "critical"
    return "success" if face >= needed else "fail"


def check_every_roll(game: GameClient, modern: bool) -> None:
    """Every roll event of the game says what it means, by the rules; `last_roll` is the latest roll's."""
    events = game.events()
    names = game.state()["players"]
    for event in events:
        kind, d = event["type"], event["data"]
        if kind not in ROLLS:
            continue
        assert all(k in d for k in WORDS), event
        faces = d.get("faces", d.get("dice"))
        if faces is not None:
            assert len(d["outcomes"]) == len(faces), event
        assert isinstance(d["text"], str) and d["text"] and event["text"], event
        if kind == "HitsScored":
            crit = 6 if modern else None
            assert d["outcomes"] == [each(f + d["modifier"], d["needed"], crit) if f > 1 else "fail"
                                     for f in d["dice"]] or d["modifier"], event
            assert d["successes"] == d["hits"] and d["outcomes"].count("critical") == d["criticals"], event
            assert f"{d['hits']} hit" in d["text"] and f"of {len(d['dice'])}" in d["text"], event
        elif kind == "WoundsScored" and "AV" not in d:
            assert d["successes"] == d["wounds"] - d["lethal"], event
            assert d["outcomes"].count("critical") == d["criticals"], event
            assert f"{d['successes']} wound" in d["text"], event
        elif kind == "SavesRolled":
            assert d["outcomes"] == [each(f, d["needed"], None) for f in d["dice"]], event
            assert d["successes"] == d["saved"] and d["outcomes"].count("fail") == d["failed"], event
            assert f"{d['saved']} save" in d["text"], event
        elif kind == "RollOff":
            assert d["needed"] is None and d["successes"] is None, event
            if d["winner"] is None:
                assert d["outcomes"] == ["rerolled", "rerolled"] and "a tie, rolled again" in d["text"], event
            else:
                assert d["outcomes"] == ["success" if s == d["winner"] else "fail" for s in "AB"], event
                assert d["text"].endswith(f"{names[d['winner']]} wins"), event
        elif kind == "DiceRolled" and d.get("free"):
            assert d["needed"] is None and d["successes"] is None and set(d["outcomes"]) <= {"unused"}, event
            assert d["text"].startswith(f"{d['spec']} for {d['purpose']}: "), event
    latest = [e for e in events if e["type"] in ("DiceRolled", "RollOff") and not e["data"].get("free")][-1]
    last = game.state()["last_roll"]
    assert last["seq"] == latest["seq"] and {k: last[k] for k in WORDS} == {k: latest["data"][k] for k in WORDS}


def shooting_at_the_table(new_game: Any, weapon: dict[str, Any]) -> GameClient:
    """A reference game at the table, A's two shooters attacking B's guard with `weapon`, the hit roll awaited."""
    game = tracked(new_game("reference", dice="table"))
    game.start([unit("shooters", 2, weapons=[weapon])], [unit("guard", 3)])
    roll_off(game, "table")
    while game.state()["phase"] != "shooting" or game.state()["awaiting"]["action"] != "end_phase":
        play_awaited(game)
    game.cmd("A", "select", unit="shooters", shooting="normal")
    game.cmd("A", "attack", unit="shooters", weapon=weapon["name"], target="guard")
    return game


def test_the_reading_matches_the_rule_at_the_table_for_the_attack_steps(new_game):
    """The faces are the test's: the words are asserted exactly (reference: 3+ to hit, a 6 critical)."""
    game = shooting_at_the_table(new_game, BOLTER)
    hit = keep_dice(game, roll(game, "A", [6, 3, 2, 1], "table"))["events"]
    rolled = next(e for e in hit if e["type"] == "DiceRolled")["data"]
    scored = next(e for e in hit if e["type"] == "HitsScored")["data"]
    for d in (rolled, scored):
        assert (d["needed"], d["outcomes"], d["successes"]) == (3, ["critical", "success", "fail", "fail"], 2)
        assert d["text"] == "Hit roll: 2 hits of 4 at 3+, 1 of them critical"
    wound = keep_dice(game, roll(game, "A", [4, 1], "table"))["events"]
    scored = next(e for e in wound if e["type"] == "WoundsScored")["data"]
    assert (scored["needed"], scored["outcomes"], scored["successes"]) == (4, ["success", "fail"], 1)
    assert scored["text"] == "Wound roll: 1 wound of 2 at 4+"
    save = keep_dice(game, roll(game, "B", [1], "table"))["events"]
    saved = next(e for e in save if e["type"] == "SavesRolled")["data"]
    assert (saved["needed"], saved["outcomes"], saved["successes"], saved["text"]) == (4, ["fail"], 0,
                                                                                        "Saves: 0 saves of 1 at 4+")
    last = game.state()["last_roll"]
    assert (last["purpose"], last["needed"], last["outcomes"], last["successes"]) == ("save", 4, ["fail"], 0)
    check_every_roll(game, modern=True)


@pytest.mark.parametrize("dice", ["table", "server"])
def test_reference_rolls_say_what_they_mean(new_game, dice):
    game = tracked(new_game("reference", dice=dice))
    # ten guards: the four shots cannot wipe them out, which would end the game before its charge (MSN.END.2)
    game.start([unit("shooters", 2, weapons=[BOLTER]), unit("shocked", 5, statuses=("battle_shocked",))],
               [unit("guard", 10)])
    roll_off(game, dice)
    tested = roll(game, "A", [1, 1], dice)["events"]  # the battle-shocked unit's test at its command phase
    shock, result = (next(e for e in tested if e["type"] == t) for t in ("DiceRolled", "BattleShockTested"))
    total, passed = result["data"]["total"], result["data"]["passed"]
    assert shock["data"]["needed"] == 7 and shock["data"]["successes"] is None
    assert shock["data"]["outcomes"] == ["success" if passed else "fail"] * 2
    assert shock["data"]["text"] == f"Battle-shock: {total} on 2D6 against Ld 7: {'passed' if passed else 'failed'}"
    if dice == "table":
        assert shock["data"]["text"] == "Battle-shock: 2 on 2D6 against Ld 7: failed"
    assert free_roll(game, dice)["text"] == ("2D6 for scatter: 3 and 5 (total 8)" if dice == "table" else
                                             free_roll_text(game))
    while game.state()["phase"] != "shooting" or game.state()["awaiting"]["action"] != "end_phase":
        play_awaited(game)
    game.cmd("A", "select", unit="shooters", shooting="normal")
    game.cmd("A", "attack", unit="shooters", weapon="Bolter", target="guard")
    while game.state()["awaiting"]["action"] in ("roll", "command_reroll", "keep_dice"):
        awaiting = game.state()["awaiting"]
        if awaiting["action"] == "roll":
            keep_dice(game, roll(game, awaiting["seat"], [5] * int(awaiting["roll"]["spec"].split("D")[0] or 1),
                                 dice))
        else:
            game.cmd(awaiting["seat"], "keep_dice")
    game.cmd("A", "end_phase")
    game.cmd("A", "select", unit="shooters")
    charged = roll(game, "A", [3, 4], dice)["events"]
    charge = next(e for e in charged if e["type"] == "DiceRolled")["data"]
    assert charge["needed"] is None and charge["successes"] is None and charge["outcomes"] == ["unused"] * 2
    assert charge["text"] == f"Charge: {charge['total']} on 2D6"  # the inches are named after the roll (RS.CHG.2)
    assert {"hit", "save"} <= {e["data"]["purpose"] for e in kinds(game, "DiceRolled")} or dice == "server"
    check_every_roll(game, modern=True)


def free_roll_text(game: GameClient) -> str:
    d = kinds(game, "DiceRolled", free=True)[-1]["data"]
    return f"2D6 for scatter: {d['faces'][0]} and {d['faces'][1]} (total {d['total']})"


def legion(uid: str, count: int = 5, **fields: Any) -> dict[str, Any]:
    body = unit(uid, count, **fields)
    body["models"][0].update(BS=4, WS=4, I=4, T=4, Sv=3, Ld=8)
    body["weapons"][0].update(name="Bolter", A="2", S=4, AP=5, kind=None, keywords=[])
    return body


@pytest.mark.parametrize("dice", ["table", "server"])
def test_heresy_rolls_say_what_they_mean(new_game, dice):
    game = tracked(new_game("heresy", dice=dice))
    militia = unit("militia", 10)  # more than the shots can slay: a wipe-out would end the game before the charge
    militia["models"][0].update(WS=3, I=3, T=3, Sv=4, Ld=7)
    game.start([legion("legion", 3)], [militia])
    if dice == "table":
        game.cmd("A", "roll_off", dice={"A": 2, "B": 2})  # a tie, rolled again
    a_goes_first(game)
    free_roll(game, dice)
    to_sub_phase(game, "A", None, "shooting")
    game.cmd("A", "select", unit="legion", targets=["militia"])
    game.cmd("A", "shoot", unit="legion", weapon="Bolter", target="militia", models=2)
    hits = roll(game, "A", [3, 2, 6, 1], dice)["events"]  # BS4: 3+, no criticals in the older tables
    scored = next(e for e in hits if e["type"] == "HitsScored")["data"]
    assert scored["needed"] == 3 and "critical" not in scored["outcomes"]
    if dice == "table":
        assert (scored["outcomes"], scored["successes"]) == (["success", "fail", "success", "fail"], 2)
        assert scored["text"] == "Hit roll: 2 hits of 4 at 3+"
    while game.state()["awaiting"]["action"] == "roll":
        awaiting = game.state()["awaiting"]
        roll(game, awaiting["seat"], [4] * int(awaiting["roll"]["spec"].split("D")[0] or 1), dice)
    if dice == "table":  # S4 v T3: 3+; AP5 leaves Sv4: 4+
        assert kinds(game, "WoundsScored")[-1]["data"]["text"] == "Wound roll: 2 wounds of 2 at 3+"
        assert kinds(game, "SavesRolled")[-1]["data"]["text"] == "Saves: 2 saves of 2 at 4+"
    to_sub_phase(game, "A", None, "assault")
    game.cmd("A", "select", unit="legion", targets=["militia"], distance=9)
    rolled = next(e for e in roll(game, "A", [3, 4], dice)["events"] if e["type"] == "DiceRolled")["data"]
    reaches = rolled["total"] >= 9
    assert rolled["needed"] == 9 and rolled["outcomes"] == ["success" if reaches else "fail"] * 2
    assert rolled["text"] == f'Charge: {rolled["total"]} on 2D6 against 9": {"succeeds" if reaches else "fails"}'
    if dice == "table":
        assert rolled["text"] == 'Charge: 7 on 2D6 against 9": fails'
    check_every_roll(game, modern=False)


@pytest.mark.parametrize("dice", ["table", "server"])
def test_a_heresy_leadership_test_passes_at_most_ld(new_game, dice):
    game = tracked(new_game("heresy", dice=dice))
    game.start([unit("legion-1", statuses=("routed",))], [unit("militia")])
    a_goes_first(game)
    game.cmd("A", "end_phase")
    game.cmd("A", "end_phase")
    roll(game, "A", [3], dice)  # the fall back distance: a total nothing must reach
    fell = kinds(game, "DiceRolled", purpose="fall_back")[-1]["data"]
    assert fell["needed"] is None and fell["text"] == f"Fall back: {fell['total']} on {fell['spec']}"
    game.cmd("A", "fall_back", unit="legion-1", reached_edge=True)
    tested = roll(game, "A", [5, 4], dice)["events"]
    rolled = next(e for e in tested if e["type"] == "DiceRolled")["data"]
    passed = next(e for e in tested if e["type"] == "LeadershipTested")["data"]["passed"]
    assert rolled["needed"] == 7 and passed == (rolled["total"] <= 7)
    assert rolled["text"] == f"Leadership: {rolled['total']} on 2D6 against Ld 7: {'passed' if passed else 'failed'}"
    if dice == "table":
        assert rolled["text"] == "Leadership: 9 on 2D6 against Ld 7: failed" and rolled["outcomes"] == ["fail"] * 2
    check_every_roll(game, modern=False)


def to_charges(game: GameClient, dice: str) -> None:
    while game.state()["sub_phase"] != "select_charges" or game.state()["awaiting"]["action"] != "select":
        awaiting = game.state()["awaiting"]
        seat, action = awaiting["seat"] or "A", awaiting["action"]
        if action == "select":
            game.cmd(seat, "declare_done")
        elif action == "roll_off":
            roll_off(game, dice)
        else:
            game.cmd(seat, action, **({"first": "A"} if action == "choose_order" else {}))


@pytest.mark.parametrize("dice", ["table", "server"])
def test_alternating_rolls_say_what_they_mean(new_game, dice):
    game = tracked(new_game("alternating", dice=dice))
    game.start([unit("a-1", statuses=("falling_back",)), unit("a-2")],
               [unit("b-1"), unit("b-2", statuses=("locked_in_combat",))])
    game.cmd("A", "select", unit="a-1")  # Move Fleeing Units: a regroup is a Leadership test, 2D6 at most Ld
    if dice == "table":
        game.cmd("A", "roll", dice=[5, 4])
    regroup = kinds(game, "DiceRolled", purpose="regroup")[-1]["data"]
    passed = regroup["total"] <= 7
    assert regroup["needed"] == 7 and regroup["outcomes"] == ["success" if passed else "fail"] * 2
    assert regroup["text"] == f"Regroup: {regroup['total']} on 2D6 against Ld 7: {'passed' if passed else 'failed'}"
    free_roll(game, dice)
    to_charges(game, dice)
    game.cmd("A", "select", unit="a-2", targets=["b-2"], distance=9)  # a locked target fires no overwatch
    if dice == "table":
        game.cmd("A", "roll", dice=[3, 4])
    charge = kinds(game, "DiceRolled", purpose="charge")[-1]["data"]
    reaches = charge["total"] >= 9
    assert charge["needed"] == 9 and charge["successes"] is None
    assert charge["text"] == f'Charge: {charge["total"]} on 2D6 against 9": {"succeeds" if reaches else "fails"}'
    if dice == "table":
        assert charge["text"] == 'Charge: 7 on 2D6 against 9": fails' and charge["outcomes"] == ["fail", "fail"]
    assert kinds(game, "RollOff")  # the order of a sub-phase rolled off, its winner named
    check_every_roll(game, modern=True)


def test_a_charge_reading_rounds_the_inches_up_to_the_total_needed():
    from warlog.domain import rolls

    reading = rolls.charge("7.5")
    assert reading.needed == math.ceil(Decimal("7.5")) == 8
    assert rolls.read([4, 4], "2D6", reading)["text"] == 'Charge: 8 on 2D6 against 7.5": succeeds'
    assert rolls.read([3, 4], "2D6", reading)["text"] == 'Charge: 7 on 2D6 against 7.5": fails'


def test_a_hit_roll_says_what_its_sustained_hits_add(new_game):
    game = shooting_at_the_table(new_game, {**BOLTER, "name": "Storm bolter", "A": "3",
                                            "keywords": ["SUSTAINED HITS 1"]})
    hit = keep_dice(game, roll(game, "A", [6, 6, 3, 2, 1, 4], "table"))["events"]
    scored = next(e for e in hit if e["type"] == "HitsScored")
    assert scored["data"]["text"] == "Hit roll: 4 hits of 6 at 3+, 2 of them critical: SUSTAINED HITS 1 adds 2"
    assert scored["text"].endswith("4 hits of 6 at 3+, 2 of them critical: SUSTAINED HITS 1 adds 2.")
