"""Issue 25: the reference ruleset's defects the audits reproduced, each held over HTTP in both dice modes and
named by the rule it keeps."""
from __future__ import annotations

import pytest

from tests.e2e.test_reference_rules import events_of, until
from tests.support.client import awaits, keep_dice, play_awaited, unit
from tests.support.instances import consts


@pytest.mark.parametrize("dice", ["server", "table"])
def test_EXT_OBJ_1_control_sums_the_oc_of_every_model_line_in_range(new_game, dice):
    # a sergeant (OC 2) leads four troopers (OC 1): six in all, against five boyz (OC 1)
    squad = unit("squad", 5, models=[
        {"name": "Sergeant", "count": 1, "M": 6, "T": 4, "Sv": 3, "W": 2, "Ld": 6, "OC": 2, "BS": 3, "WS": 3, "A": 2},
        {"name": "Trooper", "count": 4, "M": 6, "T": 4, "Sv": 3, "W": 1, "Ld": 6, "OC": 1, "BS": 3, "WS": 3, "A": 1}])
    game = new_game("reference", dice=dice, battle_rounds=2, objectives=["alpha"])
    game.start([squad], [unit("boyz", 5)])
    until(game, 2, "A", "command")
    answer = game.cmd("A", "end_phase", control={"alpha": ["squad", "boyz"]})
    control = events_of(answer, "ObjectivesControlled")[0]["data"]["objectives"]["alpha"]
    assert control["oc"] == {"A": 6, "B": 5} and control["controlled_by"] == "A"


def rolled_now(game, seat: str, purpose: str, faces: list[int], dice: str) -> list[dict]:
    """The events of the roll the game awaits (table dice: these faces), or, with server dice, those the server's
    own roll of it logged."""
    if dice == "table":
        assert game.state()["awaiting"]["roll"]["purpose"] == purpose
        return keep_dice(game, game.cmd(seat, "roll", dice=faces))["events"]
    return []


def settled(game) -> list[dict]:
    """Server dice: every Command Re-roll the attack offers declined; the game's events."""
    while game.state()["awaiting"]["action"] in ("command_reroll", "keep_dice"):
        game.cmd(game.state()["awaiting"]["seat"], "keep_dice")
    return game.events()


def since(game, seq: int) -> list[dict]:
    return [e for e in game.events() if e["seq"] > seq]


@pytest.mark.parametrize("dice", ["server", "table"])
def test_EXT_FNP_feel_no_pain_stands_against_a_desperate_escapes_mortal_wounds(new_game, dice):
    game = new_game("reference", dice=dice)
    scouts = unit("scouts", 2)
    scouts["models"][0].update(T=10, Sv=2, W=30)  # the grots' knives never wipe them out before B's turn
    game.start([scouts],
               [unit("grots", 30, abilities=("FEEL NO PAIN 5+",), statuses=("engaged",), engaged_with=["scouts"])])
    until(game, 1, "B", "movement")
    seq, standing = game.events()[-1]["seq"], game.state()["units"]["grots"]["models_alive"]  # after A's fight
    game.cmd("B", "select", unit="grots", move="fall_back", escape="desperate")
    rolled_now(game, "B", "hazard", [1, 2, 1] + [6] * (standing - 3), dice)  # three 1-2s: three mortal wounds
    if dice == "table":
        assert game.state()["awaiting"]["roll"] == {"purpose": "feel_no_pain_mortal", "unit": "grots", "spec": "3D6",
                                                    "rule": "EXT.FNP"}
        assert game.state("A")["awaiting"]["seat"] == "B"  # the grots' player rolls it
    rolled_now(game, "B", "feel_no_pain_mortal", [5, 1, 6], dice)  # 5+: two of them are not lost
    events = since(game, seq)
    hazards = next(e for e in events if e["type"] == "HazardsRolled")["data"]
    ignored = next(e for e in events if e["type"] == "MortalWoundsIgnored")  # 30 dice: never no 1-2 (p < 1e-5)
    fnp = next(e for e in events if e["type"] == "DiceRolled" and e["data"]["purpose"] == "feel_no_pain_mortal")
    assert ignored["rule"] == "EXT.FNP" and fnp["rule"] == "EXT.FNP" and fnp["data"]["seat"] == "B"
    assert ignored["data"]["mortal_wounds"] == hazards["mortal_wounds"] == len(fnp["data"]["faces"])
    assert ignored["data"]["ignored"] == sum(1 for f in fnp["data"]["faces"] if f >= 5)
    lost = hazards["mortal_wounds"] - ignored["data"]["ignored"]
    assert game.state()["units"]["grots"]["models_alive"] == standing - lost
    if dice == "table":
        assert lost == 1 and fnp["data"]["text"] == "Feel No Pain: 2 ignored wounds of 3 at 5+"
    assert ignored["text"].startswith("Bob's Grots' Feel No Pain against the Desperate Escape's 3 mortal wounds") \
        or dice == "server"


GUN = {"name": "Plasma pistol", "type": "ranged", "range": 12, "A": "1", "skill": 3, "S": 8, "AP": -3, "D": "2",
       "keywords": ["HAZARDOUS"]}
HERO = {"name": "Hero", "count": 1, "M": 6, "T": 4, "Sv": 3, "InSv": 4, "W": 6, "Ld": 6, "OC": 1, "BS": 3, "WS": 3,
        "A": 4, "hull_points": None}


@pytest.mark.parametrize("dice", ["server", "table"])
def test_EXT_FNP_feel_no_pain_stands_against_a_hazardous_weapons_mortal_wounds(new_game, dice):
    for _ in range(60):  # server dice: until the hazard roll is a 1 (table dice: at once)
        game = new_game("reference", dice=dice)
        game.start([unit("hero", 1, keywords=("INFANTRY", "CHARACTER"), abilities=("FEEL NO PAIN 4+",),
                         models=[HERO], weapons=[GUN])], [unit("boyz", 5)])
        until(game, 1, "A", "shooting")
        seq = game.events()[-1]["seq"]
        game.cmd("A", "select", unit="hero", shooting="normal")
        game.cmd("A", "attack", unit="hero", weapon="Plasma pistol", target="boyz")
        rolled_now(game, "A", "hit", [1], dice)  # a miss: nothing else to roll but the hazard
        rolled_now(game, "A", "hazardous", [1], dice)  # a 1: the CHARACTER takes 3 mortal wounds
        while dice == "server" and game.state()["awaiting"]["action"] in ("command_reroll", "keep_dice"):
            game.cmd(game.state()["awaiting"]["seat"], "keep_dice")
        events = since(game, seq)
        if any(e["type"] == "HazardousRolled" and e["data"]["mortal_wounds"] for e in events) or dice == "table":
            break
    if dice == "table":
        assert game.state()["awaiting"]["roll"]["purpose"] == "feel_no_pain_mortal"
        rolled_now(game, "A", "feel_no_pain_mortal", [4, 4, 2], dice)
        events = since(game, seq)
    ignored = next(e for e in events if e["type"] == "MortalWoundsIgnored")
    fnp = next(e for e in events if e["type"] == "DiceRolled" and e["data"]["purpose"] == "feel_no_pain_mortal")
    assert ignored["data"]["mortal_wounds"] == 3 and ignored["data"]["cause"] == "EXT.WPN.HAZARDOUS"
    assert ignored["data"]["ignored"] == sum(1 for f in fnp["data"]["faces"] if f >= 4)
    hero = game.state()["units"]["hero"]
    assert hero["models_alive"] == 1 and hero["wounds_lost"] == 3 - ignored["data"]["ignored"]


@pytest.mark.parametrize("dice", ["server", "table"])
def test_CORE_REV_1_a_returned_model_comes_back_with_its_full_wounds(new_game, dice):
    hero = dict(HERO, W=40, T=3, Sv=6)
    game = new_game("reference", dice=dice)
    game.start([unit("shooters", 10)], [unit("hero", 1, keywords=("INFANTRY", "CHARACTER"), models=[hero])])
    until(game, 1, "A", "shooting")
    game.cmd("A", "select", unit="shooters", shooting="normal")
    game.cmd("A", "attack", unit="shooters", weapon="Boltgun", target="hero")
    rolled_now(game, "A", "hit", [4, 4, 4] + [1] * 17, dice)  # 20 shots, three hit
    rolled_now(game, "A", "wound", [4, 4, 4], dice)  # S4 against T3: 3+
    rolled_now(game, "B", "save", [1, 1, 1], dice)  # three failed saves, three wounds lost
    while game.state()["awaiting"]["action"] in ("command_reroll", "keep_dice"):
        game.cmd(game.state()["awaiting"]["seat"], "keep_dice")
    wounded = game.state()["units"]["hero"]["models"][0]["wounds_left"]  # 20 shots: never unwounded (p < 1e-3)
    assert wounded is not None and wounded < 40 and (wounded == 37 or dice == "server")
    game.cmd("B", "record_casualties", unit="hero", models=1, wounds=0)  # slain by a rule the table applies
    assert game.state()["units"]["hero"]["models_alive"] == 0
    revived = game.cmd("B", "revive", unit="hero", models=1, reason="a rule returns it")
    assert [e["rule"] for e in revived["events"] if e["type"] == "ModelsRevived"] == ["CORE.REV.1"]
    back = game.state()["units"]["hero"]
    assert back["models_alive"] == 1 and back["models"][0]["alive"] == 1
    assert back["models"][0]["wounds_left"] is None and back["wounds_lost"] == 0  # all 40 of its W, not 40 - 3


LASCANNON = {"name": "Lascannon", "type": "ranged", "range": 48, "A": "1", "skill": 4, "S": 12, "AP": -3, "D": "6",
             "keywords": ["HEAVY"]}


@pytest.mark.parametrize("dice", ["server", "table"])
def test_EXT_WPN_HEAVY_a_unit_never_selected_in_the_movement_phase_remained_stationary(new_game, dice):
    game = new_game("reference", dice=dice)
    game.start([unit("devastators", 2, weapons=[LASCANNON])], [unit("boyz", 10)])
    until(game, 1, "A", "shooting")  # its Movement phase ended with the devastators never selected
    game.cmd("A", "select", unit="devastators", shooting="normal")
    game.cmd("A", "attack", unit="devastators", weapon="Lascannon", target="boyz")
    events = rolled_now(game, "A", "hit", [3, 2], dice) or settled(game)
    hits = [e for e in events if e["type"] == "HitsScored"][-1]
    assert "EXT.WPN.HEAVY" in hits["data"]["rules"] and hits["data"]["modifier"] == 1  # BS 4+, +1 to each die
    assert hits["data"]["hits"] == sum(1 for f in hits["data"]["dice"] if f >= 3)
    if dice == "table":
        assert hits["data"]["hits"] == 1


CAPTAIN = dict(HERO, name="Captain", W=5)


@pytest.mark.parametrize("dice", ["server", "table"])
def test_RS_CMD_3_no_stratagem_targets_a_leader_or_its_bodyguard_while_either_is_battle_shocked(new_game, dice):
    game = new_game("reference", dice=dice)
    character = ("INFANTRY", "CHARACTER")
    game.start([unit("scouts", 3)],
               [unit("guard", 5, statuses=("battle_shocked",)),  # the bodyguard holds the status
                unit("captain", 1, leader_of="guard", keywords=character, models=[CAPTAIN]),
                unit("vets", 5),
                unit("chaplain", 1, leader_of="vets", keywords=character, models=[CAPTAIN],
                     statuses=("battle_shocked",)),  # here the leader holds it
                unit("boyz", 5)])
    until(game, 1, "A", "movement")  # seat A's turn: Bob has gained 1 CP and has not tested yet
    assert game.state("B")["cp"]["B"] >= 1
    offers = [a for a in game.state("B")["actions"]
              if a["type"] == "use_stratagem" and "Go to Ground" in consts(a["schema"]["properties"]["name"])]
    assert consts(offers[0]["schema"]["properties"]["unit"]) == ["boyz"]  # neither part of a shocked unit
    for uid in ("guard", "captain", "vets", "chaplain"):
        problem = game.refused("B", "use_stratagem", name="Go to Ground", unit=uid)
        assert problem["rule"] == "RS.CMD.3" and "battle-shocked" in problem["detail"]
    used = game.cmd("B", "use_stratagem", name="Go to Ground", unit="boyz")
    assert [e["rule"] for e in used["events"] if e["type"] == "StratagemUsed"] == ["EXT.CP.1"]


@pytest.mark.parametrize("dice", ["server", "table"])
def test_RS_CMD_2_an_attached_unit_tests_battle_shock_on_its_best_leadership(new_game, dice):
    game = new_game("reference", dice=dice)
    guard = unit("guard", 5, statuses=("battle_shocked",))  # Ld 7+
    game.start([guard, unit("captain", 1, leader_of="guard", keywords=("INFANTRY", "CHARACTER"),
                            models=[CAPTAIN])],  # Ld 6+: the better
               [unit("boyz", 5)])
    for _ in range(10):  # the roll-off, the first turn chosen: seat A's Command phase tests the guard
        awaiting = game.state()["awaiting"]
        if any(e["type"] == "BattleShockTested" for e in game.events()):
            break
        if awaiting.get("roll", {}).get("purpose") == "battle_shock":
            assert awaiting["roll"]["unit"] == "guard"
            game.cmd("A", "roll", dice=[3, 3])  # 6: passes against Ld 6, would fail against 7
            break
        play_awaited(game)
    tested = [e for e in game.events() if e["type"] == "BattleShockTested"]
    assert len(tested) == 1 and tested[0]["data"]["ld"] == 6 and tested[0]["data"]["unit"] == "guard"
    assert tested[0]["data"]["passed"] == (tested[0]["data"]["total"] >= 6)
    shocked = {uid: "battle_shocked" in game.state()["units"][uid]["statuses"] for uid in ("guard", "captain")}
    assert shocked == {"guard": not tested[0]["data"]["passed"], "captain": not tested[0]["data"]["passed"]}
    if dice == "table":
        assert tested[0]["data"]["passed"] and tested[0]["text"].endswith("6 on 2D6 against Ld 6.")


@pytest.mark.parametrize("dice", ["server", "table"])
def test_RS_ATK_4_a_unit_destroyed_in_a_fight_ends_its_engagement_by_the_rule_that_destroyed_it(new_game, dice):
    grot = unit("grot", 1, ranged=False, statuses=("engaged",), engaged_with=["scouts"])
    grot["models"][0].update(T=1, Sv=7, W=1)
    game = new_game("reference", dice=dice)
    game.start([unit("scouts", 10)], [grot])
    for _ in range(60):  # A's Fight phase: both pile in, the grot (not active) fights first, then the scouts
        if awaits(game.state()) == {"seat": "A", "action": "attack", "unit": "scouts"}:
            break
        play_awaited(game)
    seq = game.events()[-1]["seq"]
    game.cmd("A", "attack", unit="scouts", weapon="Knife", target="grot")
    rolled_now(game, "A", "hit", [6] * 10, dice)
    rolled_now(game, "A", "wound", [6] * 10, dice)  # S4 against T1: 2+
    while game.state()["awaiting"]["action"] == "roll":  # the grot's save: 7+, none made
        awaiting = game.state()["awaiting"]
        rolled_now(game, awaiting["seat"], awaiting["roll"]["purpose"], [1] * int(awaiting["roll"]["spec"][:-2]),
                   dice)
    settled(game)
    events = since(game, seq)
    assert game.state()["units"]["grot"]["models_alive"] == 0  # ten knives at one grot: it falls (p > 1 - 1e-9)
    ended = next(e for e in events if e["type"] == "EngagementEnded")
    assert ended["rule"] == "RS.ATK.4" and ended["data"] == {"unit": "grot", "with": ["scouts"],
                                                            "reason": "was destroyed"}
    assert all(e["rule"] == "RS.ATK.4" for e in events if e["type"] == "StatusLost"
               and e["data"]["status"] == "engaged")


@pytest.mark.parametrize("dice", ["server", "table"])
def test_RS_SHO_2_and_RS_CHG_2_refusals_cite_the_rule_that_applies_not_CORE_OFF_1(new_game, dice):
    game = new_game("reference", dice=dice)
    game.start([unit("scouts", 5), unit("assault", 5)],
               [unit("boyz", 5, statuses=("engaged",), engaged_with=["assault"]), unit("grots", 5),
                unit("reserve", 5, in_reserves=True)])
    until(game, 1, "A", "command")
    problem = game.refused("A", "select", unit="scouts")
    assert problem["rule"] == "RS.CMD.1"  # no unit is selected in the Command phase (not CORE.SEQ.1)
    until(game, 1, "A", "shooting")
    game.cmd("A", "select", unit="scouts", shooting="normal")
    engaged = game.refused("A", "attack", unit="scouts", weapon="Boltgun", target="boyz")
    assert engaged["rule"] == "RS.SHO.2" and "CORE.OFF.1" not in engaged["detail"]  # on the table, but engaged
    away = game.refused("A", "attack", unit="scouts", weapon="Boltgun", target="reserve")
    assert away["rule"] == "CORE.OFF.1"  # in strategic reserves: not on the battlefield
    until(game, 1, "A", "charge")
    game.cmd("A", "select", unit="scouts")
    rolled_now(game, "A", "charge", [6, 6], dice)
    own_unit = game.refused("A", "charge_move", unit="scouts", targets=["assault"], distance=5)
    assert own_unit["rule"] == "RS.CHG.2"  # not an enemy unit: the charge's own rule
    reserve = game.refused("A", "charge_move", unit="scouts", targets=["reserve"], distance=5)
    assert reserve["rule"] == "CORE.OFF.1"


@pytest.mark.parametrize("dice", ["server", "table"])
def test_RS_MOV_4_a_bodyguard_whose_leader_is_battle_shocked_escapes_desperately(new_game, dice):
    scouts = unit("scouts", 3)
    scouts["models"][0].update(T=10, Sv=2, W=30)  # nobody is wiped out before B's turn
    game = new_game("reference", dice=dice)
    game.start([scouts], [unit("vets", 5, statuses=("engaged",), engaged_with=["scouts"]),
                          unit("chaplain", 1, leader_of="vets", keywords=("INFANTRY", "CHARACTER"), models=[CAPTAIN])])
    until(game, 1, "B", "movement")
    game.cmd("B", "set_status", unit="chaplain", status="battle_shocked", value=True, reason="a rule the table applies")
    (escape,) = [a for a in game.state("B")["actions"] if a["type"] == "select" and a["rule"] == "RS.MOV.4"]
    assert consts(escape["schema"]["properties"]["unit"]) == ["vets"]
    assert consts(escape["schema"]["properties"]["escape"]) == ["desperate"]  # the unit is battle-shocked
    assert game.refused("B", "select", unit="vets", move="fall_back", escape="ordered")["rule"] == "RS.MOV.4"
