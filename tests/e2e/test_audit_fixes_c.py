"""Issue 25: defects the audits named but left (a regroup roll awaited for a unit destroyed meanwhile, an attached
unit's Desperate Escape, Feel No Pain against many mortal wounds, the datasheet after recorded wounds, the names in
the offered actions, mortal wounds outside an attack recorded as the wounds lost), each held over HTTP in both dice
modes and named by the rule it keeps."""
from __future__ import annotations

import re

import pytest

from tests.e2e.test_alternating_audit_fixes import events_of
from tests.e2e.test_reference_audit_fixes import GUN, HERO, rolled_now, since
from tests.e2e.test_reference_rules import until
from tests.support.client import GameClient, play_awaited, unit, vehicle


@pytest.mark.parametrize("dice", ["server", "table"])
def test_AA_MOV_2_a_unit_destroyed_while_its_regroup_roll_waits_leaves_no_roll_awaited(new_game, dice):
    game = new_game("alternating", dice=dice)
    game.start([unit("fleeing", 5, statuses=("falling_back",)), unit("others", 5)], [unit("boyz", 5)])
    assert game.state()["sub_phase"] == "move_fleeing"
    selected = game.cmd("A", "select", unit="fleeing")
    if dice == "table":  # the regroup roll is asked of A's table
        assert game.state()["awaiting"]["roll"]["purpose"] == "regroup"
        killed = game.cmd("B", "record_casualties", unit="fleeing", models=5)
        (withdrawn,) = events_of(killed, "RegroupRollWithdrawn")
        assert withdrawn["rule"] == "AA.MOV.2"
        assert withdrawn["data"] == {"unit": "fleeing", "seat": "A", "reason": "the unit was destroyed"}
        assert "withdrawn" in withdrawn["text"] and "Fleeing" in withdrawn["text"]
        assert not events_of(killed, "RegroupPassed") and not events_of(killed, "RegroupFailed")
    else:  # server dice roll the regroup as it is asked: nothing is left waiting for a unit destroyed after
        assert events_of(selected, "RegroupPassed") or events_of(selected, "RegroupFailed")
        game.cmd("B", "record_casualties", unit="fleeing", models=5)
    state = game.state()
    assert state["queue"] == [] and state["awaiting"]["action"] != "roll"
    assert state["sub_phase"] != "move_fleeing"  # play goes on: no unit is left to flee
    assert game.verify()["commands_ok"] is True


def escaped(game, dice: str, seat: str, uid: str, hazard: list[int]) -> tuple[int, dict]:
    """The seat's engaged unit makes a Desperate Escape in its Movement phase of battle round 1 (at the table its
    hazard dice are the first of `hazard`, one a model standing): the seq it began after, and the state before it."""
    until(game, 1, seat, "movement")
    before = game.state()
    seq = game.events()[-1]["seq"]
    game.cmd(seat, "select", unit=uid, move="fall_back", escape="desperate")
    if dice == "table":
        models = int(game.state()["awaiting"]["roll"]["spec"].removesuffix("D6"))
        rolled_now(game, seat, "hazard", hazard[:models], dice)
    return seq, before


def fnp_faces(events: list[dict]) -> list[int]:
    """Every die the Feel No Pain against the mortal wounds rolled, in order."""
    return [face for e in events if e["type"] == "DiceRolled" and e["data"]["purpose"] == "feel_no_pain_mortal"
            for face in e["data"]["faces"]]


def lines_of(state: dict, uid: str) -> list[int]:
    """The wounds each standing model of the unit has left (its wounded model first), as GET /state gives them."""
    left: list[int] = []
    for line in state["units"][uid]["models"]:
        wounded = line["wounds_left"] is not None
        left += [line["wounds_left"]] * wounded + [line["W"]] * (line["alive"] - wounded)
    return left


def allotted(party: list[tuple[list[int], int | None]], wounds: int, faces: list[int]) -> list[list[int]]:
    """RS.ATK.3 and EXT.FNP as a player deals them by hand: each mortal wound to the first unit of the party with a
    model standing (the bodyguard before its CHARACTER), to its wounded model, each met by the next die where that
    unit has Feel No Pain X+; the wounds each unit's models have left after."""
    left = [list(models) for models, _ in party]
    dice = iter(faces)
    for _ in range(wounds):
        member = next((i for i, models in enumerate(left) if models), None)
        if member is None:
            break
        fnp = party[member][1]
        if fnp is not None and next(dice) >= fnp:
            continue
        left[member][0] -= 1
        if not left[member][0]:
            left[member].pop(0)
    return left


TOUGH = {"T": 12, "Sv": 2, "InSv": 2}  # the scouts' knives hardly scratch them before B's turn


@pytest.mark.parametrize("dice", ["server", "table"])
def test_RS_MOV_4_an_attached_units_desperate_escape_wounds_the_bodyguard_then_its_leader(new_game, dice):
    # a beast (W2, FNP 6+) guards its master (W6, FNP 4+); both MONSTERs: 3 mortal wounds a failed hazard die
    for _ in range(30):  # server dice: until a hazard die fails (table dice: at once)
        game = new_game("reference", dice=dice)
        beast = unit("beast", 1, keywords=("MONSTER",), abilities=("FEEL NO PAIN 6+",), statuses=("engaged",),
                     engaged_with=["scouts"])
        beast["models"][0].update(W=2, **TOUGH)
        master = unit("master", 1, keywords=("MONSTER", "CHARACTER"), abilities=("FEEL NO PAIN 4+",),
                      leader_of="beast", statuses=("engaged",), engaged_with=["scouts"])
        master["models"][0].update(W=6, **TOUGH)
        scouts = unit("scouts", 2)
        scouts["models"][0].update(W=30, **TOUGH)
        game.start([scouts], [beast, master])
        seq, before = escaped(game, dice, "B", "beast", [1, 1])
        hazards = next(e for e in since(game, seq) if e["type"] == "HazardsRolled")["data"]
        if hazards["mortal_wounds"] or dice == "table":
            break
    if dice == "table":  # six mortal wounds: the beast's two, then the master's four, each at its own 4+ or 6+
        assert hazards["mortal_wounds"] == 6
        assert game.state()["awaiting"]["roll"] == {"purpose": "feel_no_pain_mortal", "unit": "beast", "spec": "6D6",
                                                    "rule": "EXT.FNP"}
        rolled_now(game, "B", "feel_no_pain_mortal", [5, 1, 5, 1, 3, 6], dice)
    events = since(game, seq)
    faces = fnp_faces(events)
    assert len(faces) == hazards["mortal_wounds"]  # one die a mortal wound
    party = [(lines_of(before, "beast"), 6), (lines_of(before, "master"), 4)]
    beast_left, master_left = allotted(party, hazards["mortal_wounds"], faces)
    state = game.state()
    assert lines_of(state, "beast") == beast_left and lines_of(state, "master") == master_left
    ignored = next(e for e in events if e["type"] == "MortalWoundsIgnored")
    assert ignored["rule"] == "EXT.FNP" and ignored["data"]["mortal_wounds"] == hazards["mortal_wounds"]
    if dice == "table":  # the 5 the beast's 6+ lets through stops a wound on its master, at 4+
        assert beast_left == [] and master_left == [4]
        assert state["units"]["beast"]["models_alive"] == 0 and state["units"]["master"]["models_alive"] == 1
        assert ignored["data"]["ignored"] == 2 and ignored["data"]["lost"] == 4
        assert ignored["data"]["outcomes"] == ["fail", "fail", "success", "fail", "fail", "success"]
        dealt = [(e["data"]["unit"], e["data"]["applied"]) for e in events if e["type"] == "DamageAllocated"]
        assert dealt == [("beast", 2), ("master", 2)]
    assert game.verify()["commands_ok"] is True


@pytest.mark.parametrize("dice", ["server", "table"])
def test_EXT_FNP_feel_no_pain_rolls_a_die_for_every_mortal_wound_past_fifty(new_game, dice):
    # fifty MONSTERs escape: every failed hazard die is 3 mortal wounds, more than 50 when 17 of them fail
    for _ in range(40):  # server dice: until more than 50 (about one game in two; table dice: at once)
        game = new_game("reference", dice=dice)
        beasts = unit("beasts", 50, keywords=("MONSTER",), abilities=("FEEL NO PAIN 5+",), statuses=("engaged",),
                      engaged_with=["scouts"])
        beasts["models"][0].update(W=10, **TOUGH)
        scouts = unit("scouts", 2)
        scouts["models"][0].update(W=30, **TOUGH)
        game.start([scouts], [beasts])
        seq, before = escaped(game, dice, "B", "beasts", [1] * 20 + [6] * 30)
        standing = before["units"]["beasts"]["models_alive"]
        hazards = next(e for e in since(game, seq) if e["type"] == "HazardsRolled")["data"]
        if hazards["mortal_wounds"] > 50 or dice == "table":
            break
    wounds = hazards["mortal_wounds"]
    assert wounds > 50
    if dice == "table":  # 60 mortal wounds: 50 dice, then the other 10
        assert game.state()["awaiting"]["roll"]["spec"] == "50D6"
        rolled_now(game, "B", "feel_no_pain_mortal", [1] * 50, dice)
        assert game.state()["awaiting"]["roll"] == {"purpose": "feel_no_pain_mortal", "unit": "beasts",
                                                    "spec": "10D6", "rule": "EXT.FNP"}
        rolled_now(game, "B", "feel_no_pain_mortal", [6] * 10, dice)
    events = since(game, seq)
    faces = fnp_faces(events)
    assert len(faces) == wounds
    ignored = next(e for e in events if e["type"] == "MortalWoundsIgnored")["data"]
    assert ignored["ignored"] == sum(1 for face in faces if face >= 5) and ignored["lost"] == wounds - ignored["ignored"]
    state = game.state()
    assert sum(lines_of(state, "beasts")) == sum(lines_of(before, "beasts")) - ignored["lost"]
    beasts = state["units"]["beasts"]
    if dice == "table":
        assert ignored["ignored"] == 10 and ignored["lost"] == 50 and beasts["models_alive"] == standing - 5
    assert game.verify()["commands_ok"] is True


@pytest.mark.parametrize("dice", ["server", "table"])
def test_CORE_STR_2_wounds_recorded_show_on_the_datasheets_model_lines(new_game, dice):
    # a sergeant (W3) leads four troopers (W2); a hero (W6) alone
    squad = unit("squad", 5, models=[
        {"name": "Sergeant", "count": 1, "M": 6, "T": 4, "Sv": 3, "W": 3, "Ld": 6, "OC": 2, "BS": 3, "WS": 3, "A": 2},
        {"name": "Trooper", "count": 4, "M": 6, "T": 4, "Sv": 3, "W": 2, "Ld": 6, "OC": 1, "BS": 3, "WS": 3, "A": 1}])
    game = new_game("reference", dice=dice)
    game.start([squad, unit("hero", 1, keywords=("INFANTRY", "CHARACTER"), models=[dict(HERO)])], [unit("boyz", 5)])

    def lines(uid: str) -> list[tuple[str, int, int | None]]:
        return [(line["name"], line["alive"], line["wounds_left"]) for line in game.state("B")["units"][uid]["models"]]

    game.cmd("B", "record_casualties", unit="squad", wounds=2)  # the first model standing, the sergeant, loses two
    assert lines("squad") == [("Sergeant", 1, 1), ("Trooper", 4, None)]
    assert game.state()["units"]["squad"]["models_alive"] == 5
    game.cmd("B", "record_casualties", unit="squad", models=1, wounds=1)  # the first line's model removed (the
    assert lines("squad") == [("Sergeant", 0, None), ("Trooper", 4, 1)]  # sergeant), then a trooper loses one
    recorded = game.cmd("A", "record_casualties", unit="squad", wounds=1)  # the wounded trooper loses his last
    (casualties,) = events_of(recorded, "CasualtiesRecorded")
    assert casualties["rule"] == "CORE.STR.2" and casualties["data"]["models"] == 1
    assert lines("squad") == [("Sergeant", 0, None), ("Trooper", 3, None)]
    assert game.state()["units"]["squad"]["models_alive"] == 3
    game.cmd("B", "record_casualties", unit="hero", wounds=2)
    assert lines("hero") == [("Hero", 1, 4)]
    hero = game.state()["units"]["hero"]
    assert hero["models_alive"] == 1 and hero["wounds_lost"] == 2
    game.cmd("B", "record_casualties", unit="hero", wounds=4)
    assert lines("hero") == [("Hero", 0, None)] and game.state()["units"]["hero"]["strength"] == "destroyed"
    assert game.verify()["commands_ok"] is True


ID = re.compile(r"\bu-\d\b")
HERESY_NAMED = (  # what each heresy offer names, walked through the Movement, Shooting and Assault phases
    "bring Captain into play from your deployment zone's edge", "bring Captain into play and rush up to",
    "snap shots from Boyz at Alice's Captain", "decline the reaction to Alice's Captain",
    "move Assault Squad up to", "rush Assault Squad up to", "react: Boyz moves up to",
    "decline the reaction to Alice's Assault Squad", "disembark Tactical Squad from Rhino", "fall back Scouts",
    "fire one weapon of Assault Squad at Bob's Boyz", "declare a charge by Assault Squad",
    "Assault Squad strikes Bob's Boyz at Initiative")


def heresy_armies() -> tuple[list[dict], list[dict]]:
    """A unit to move, shoot and charge, one in reserves, one Routed and one embarked (HH.RES, HH.ROUT, HH.EMB)."""
    return ([unit("u-1", 5, name="Assault Squad"), unit("u-2", 1, name="Captain", in_reserves=True),
             unit("u-4", 3, name="Scouts", statuses=("routed",)), vehicle("u-5", capacity=10, name="Rhino"),
             unit("u-6", 5, name="Tactical Squad", embarked_in="u-5")],
            [unit("u-3", 10, name="Boyz")])


def heresy_step(game: GameClient, state: dict, done: set[str], summaries: set[str]) -> bool:
    """Seat A's own choices where the plainest offer would pass them by: its reserve passes and rushes near the Boyz (snap
    shots, then a reaction), the Assault Squad moves near them (a reaction), selects them to shoot at (its shoot
    offers) and charges them (the strikes); whether it did one."""
    turn = (state["active_seat"], state["phase"], state["sub_phase"])
    if state["awaiting"].get("roll", {}).get("purpose") == "reserve":
        game.cmd("A", "roll", dice=[3])  # at the table: it arrives (the plainest 1 would keep it waiting)
    elif state["awaiting"]["action"] == "enter":
        game.cmd("A", "enter", unit="u-2", from_edge=True, rush=True, distance=7, near=["u-3"])
        done.add("enter")
    elif "enter" not in done:  # the Boyz snap shoot and react while they are not Locked in Combat
        return False
    elif turn == ("A", "movement", "move") and "move" not in done and state["awaiting"]["action"] == "end_phase":
        game.cmd("A", "move", unit="u-1", move="normal", distance=6, near=["u-3"])
        done.add("move")
    elif turn == ("A", "shooting", None) and "shoot" not in done:
        game.cmd("A", "select", unit="u-1", targets=["u-3"])  # then it is offered to fire each weapon
        summaries |= {action["summary"] for action in game.state("A")["actions"]}
        done.add("shoot")
    elif turn == ("A", "assault", None) and "charge" not in done:
        game.cmd("A", "select", unit="u-1", targets=["u-3"], distance=1)  # 2D6 reaches 1": both strike
        done.add("charge")
    else:
        return False
    return True


@pytest.mark.parametrize("dice", ["server", "table"])
@pytest.mark.parametrize("ruleset", ["reference", "alternating", "heresy"])
def test_offered_actions_summaries_name_units_by_name_never_by_id(new_game, ruleset, dice):
    # CONTRACT.md "In the players' words": ids a player never sees ("u-1"), names they do ("Assault Squad")
    game = new_game(ruleset, dice=dice, battle_rounds=12 if ruleset == "heresy" else 1)  # a reserve roll may fail
    if ruleset == "heresy":
        game.start(*heresy_armies())
    else:
        game.start([unit("u-1", 5, name="Assault Squad"), unit("u-2", 1, name="Captain", statuses=("falling_back",))],
                   [unit("u-3", 10, name="Boyz")])
    summaries: set[str] = set()
    done: set[str] = set()
    for _ in range(400):
        state = game.state()
        if state["status"] != "in_progress":
            break
        for seat in ("A", "B"):
            summaries |= {action["summary"] for action in game.state(seat)["actions"]}
        if ruleset == "heresy":
            if all(any(summary.startswith(named) for summary in summaries) for named in HERESY_NAMED):
                break
            if heresy_step(game, state, done, summaries):
                continue
        if ruleset == "reference" and state["phase"] == "shooting" and state["active_seat"] == "A" and \
                not state["units"]["u-1"]["selected"]:
            game.cmd("A", "select", unit="u-1", shooting="normal")  # then it is offered its attack
            summaries |= {action["summary"] for action in game.state("A")["actions"]}
            game.cmd("A", "attack", unit="u-1", weapon="Boltgun", target="u-3")  # its hit roll is asked of A
            continue
        play_awaited(game)
    assert summaries and not [summary for summary in summaries if ID.search(summary)]
    if ruleset == "reference":
        assert "select Assault Squad to shoot, and its type of shooting" in summaries
        assert "attack with Assault Squad: one weapon at one target" in summaries
    if ruleset == "heresy":
        assert [named for named in HERESY_NAMED if not any(summary.startswith(named) for summary in summaries)] == []
    if dice == "table":  # a roll for a unit names it: the regroup of a fleeing one, a hit roll, a reserve roll
        assert [summary for summary in summaries if summary.startswith("roll ") and summary.endswith(")")
                and ("(Captain)" in summary or "(Assault Squad)" in summary or "(Boyz)" in summary)]


def wounds_lost_agree(state: dict, uid: str) -> bool:
    """GET /state's `wounds_lost` is its wounded model's, as the model lines' `wounds_left` show it (api/wire.py)."""
    unit_now = state["units"][uid]
    return unit_now["wounds_lost"] == sum(line["W"] - line["wounds_left"] for line in unit_now["models"]
                                          if line["wounds_left"] is not None)


def recorded_as_lost(events: list[dict]) -> list[str]:
    """Each unit the mortal wounds reached: its `CasualtiesRecorded` says the models and the wounds it lost, as the
    `DamageAllocated` before it dealt them, and never that it "lost nothing"."""
    dealt = [e["data"] for e in events if e["type"] == "DamageAllocated"]
    recorded = [e for e in events if e["type"] == "CasualtiesRecorded"]
    assert [(d["unit"], d["models_destroyed"], d["applied"]) for d in dealt if d["applied"]] == \
        [(e["data"]["unit"], e["data"]["models"], e["data"]["wounds"]) for e in recorded]
    assert recorded and not [e for e in recorded if "lost nothing" in e["text"]]
    return [e["data"]["unit"] for e in recorded]


@pytest.mark.parametrize("dice", ["server", "table"])
@pytest.mark.parametrize("attached", [False, True])
def test_RS_ATK_4_a_desperate_escapes_mortal_wounds_are_recorded_as_the_wounds_lost(new_game, dice, attached):
    # RS.MOV.4: three MONSTERs (W5) escape, or a beast (W2) guarding its master (W6): 3 mortal wounds a failed die
    for _ in range(30):  # server dice: until a hazard die fails (table dice: at once)
        game = new_game("reference", dice=dice)
        scouts = unit("scouts", 2)
        scouts["models"][0].update(W=30, **TOUGH)
        beasts = unit("beasts", 1 if attached else 3, keywords=("MONSTER",), statuses=("engaged",),
                      engaged_with=["scouts"])
        beasts["models"][0].update(W=2 if attached else 5, **TOUGH)
        master = unit("master", 1, keywords=("MONSTER", "CHARACTER"), leader_of="beasts", statuses=("engaged",),
                      engaged_with=["scouts"])
        master["models"][0].update(W=6, **TOUGH)
        game.start([scouts], [beasts, master] if attached else [beasts])
        seq, _ = escaped(game, dice, "B", "beasts", [1, 6, 6])  # table: one die fails, 3 mortal wounds
        events = since(game, seq)
        hazards = next(e for e in events if e["type"] == "HazardsRolled")["data"]
        if hazards["mortal_wounds"] or dice == "table":
            break
    reached = recorded_as_lost(events)
    state = game.state()
    assert all(wounds_lost_agree(state, uid) for uid in ("beasts", *(["master"] if attached else [])))
    if dice == "table" and attached:  # the beast's two slay it, the master loses the third
        assert reached == ["beasts", "master"] and state["units"]["master"]["wounds_lost"] == 1
        assert [e["text"] for e in events if e["type"] == "CasualtiesRecorded"] == [
            "Bob's Beasts (1 of 2) lost 1 model and 2 wounds.", "Bob's Master (1 of 2) lost 1 wound."]
    elif dice == "table":  # one beast loses three of its five
        assert reached == ["beasts"] and state["units"]["beasts"]["wounds_lost"] == 3
        assert [line["wounds_left"] for line in state["units"]["beasts"]["models"]] == [2]
    assert game.verify()["commands_ok"] is True


@pytest.mark.parametrize("dice", ["server", "table"])
def test_RS_ATK_4_a_hazardous_weapons_mortal_wounds_on_a_squad_are_recorded_as_the_wounds_lost(new_game, dice):
    # EXT.WPN.HAZARDOUS: two MONSTERs (W5) fire a HAZARDOUS gun; a 1 is 3 mortal wounds on the unit
    for _ in range(60):  # server dice: until a hazard die is a 1 (table dice: at once)
        game = new_game("reference", dice=dice)
        beasts = unit("beasts", 2, keywords=("MONSTER",), weapons=[GUN])
        beasts["models"][0].update(W=5)
        game.start([beasts], [unit("boyz", 5)])
        until(game, 1, "A", "shooting")
        seq = game.events()[-1]["seq"]
        game.cmd("A", "select", unit="beasts", shooting="normal")
        game.cmd("A", "attack", unit="beasts", weapon="Plasma pistol", target="boyz")
        rolled_now(game, "A", "hit", [1, 1], dice)  # two misses: nothing else to roll but the hazard
        rolled_now(game, "A", "hazardous", [1, 6], dice)  # one 1: 3 mortal wounds
        while game.state()["awaiting"]["action"] in ("command_reroll", "keep_dice"):
            game.cmd(game.state()["awaiting"]["seat"], "keep_dice")
        events = since(game, seq)
        if any(e["type"] == "HazardousRolled" and e["data"]["mortal_wounds"] for e in events):
            break
    events = [e for e in events if e["rule"] == "EXT.WPN.HAZARDOUS"]
    assert recorded_as_lost(events) == ["beasts"]
    state = game.state()
    assert wounds_lost_agree(state, "beasts")
    if dice == "table":
        assert state["units"]["beasts"]["wounds_lost"] == 3 and state["units"]["beasts"]["models_alive"] == 2
        assert [e["text"] for e in events if e["type"] == "CasualtiesRecorded"] == ["Alice's Beasts (2 of 2) lost 3 "
                                                                                    "wounds."]
    assert game.verify()["commands_ok"] is True


@pytest.mark.parametrize("dice", ["server", "table"])
def test_CORE_STR_2_wounds_lost_is_the_wounded_models_after_an_attack_and_wounds_recorded(new_game, dice):
    # five W2 models: three wounds slay one and wound another, which has lost 1, not 3
    target = unit("target", 5)
    target["models"][0].update(W=2, T=3, Sv=6)
    game = new_game("reference", dice=dice)
    game.start([unit("shooters", 10)], [target])
    until(game, 1, "A", "shooting")
    game.cmd("A", "select", unit="shooters", shooting="normal")
    game.cmd("A", "attack", unit="shooters", weapon="Boltgun", target="target")
    rolled_now(game, "A", "hit", [4, 4, 4] + [1] * 17, dice)  # 20 shots, three hit
    rolled_now(game, "A", "wound", [4, 4, 4], dice)  # S4 against T3: 3+
    rolled_now(game, "B", "save", [1, 1, 1], dice)  # three wounds lost
    while game.state()["awaiting"]["action"] in ("command_reroll", "keep_dice"):
        game.cmd(game.state()["awaiting"]["seat"], "keep_dice")
    state = game.state()
    assert wounds_lost_agree(state, "target")
    if dice == "table":
        assert state["units"]["target"]["models_alive"] == 4 and state["units"]["target"]["wounds_lost"] == 1
    if state["units"]["target"]["models_alive"]:
        game.cmd("B", "record_casualties", unit="target", models=1, wounds=1)  # one removed, one wounded
        state = game.state()
        assert wounds_lost_agree(state, "target")
        if dice == "table":  # the wounded model loses its last: two fewer, none wounded
            assert state["units"]["target"]["models_alive"] == 2 and state["units"]["target"]["wounds_lost"] == 0
    assert game.verify()["commands_ok"] is True
