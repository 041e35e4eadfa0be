"""Issue 25, the defects the audits named and left: each held over HTTP in both dice modes and named by the rule it
keeps."""
from __future__ import annotations

import re

import pytest

from tests.e2e.test_heresy import a_goes_first, to_sub_phase
from tests.e2e.test_heresy_audit_fixes import LOCKED, fight_out, fighter
from tests.e2e.test_heresy_movement_fixes import at_move
from tests.e2e.test_reference_audit_fixes_b import resolved_at
from tests.e2e.test_reference_rules import until
from tests.support.client import GameClient, unit

DICE = ["server", "table"]


def engaged(game: GameClient) -> dict[str, list[str]]:
    return {uid: shown["engaged_with"] for uid, shown in game.state()["units"].items()}


@pytest.mark.parametrize("dice", DICE)
def test_RS_FGT_2_get_state_names_the_enemy_units_each_unit_is_locked_with(new_game, dice):
    game = new_game("heresy", dice=dice)
    # only the legion's army names the lock; both sides read it
    free, scouts = fighter("free", 2, []), fighter("scouts", 2, [])  # not locked yet, and none falls or breaks
    free["statuses"] = scouts["statuses"] = []
    game.start([fighter("legion", 2, ["militia"]), free], [fighter("militia", 2, []), scouts])
    assert engaged(game) == {"legion": ["militia"], "militia": ["legion"], "free": [], "scouts": []}
    a_goes_first(game)
    to_sub_phase(game, "A", None, "assault")
    fight_out(game)  # the mustered pair fights again (RS.FGT.2), and nobody falls
    game.cmd("A", "select", unit="free", targets=["scouts"], distance=2)  # 2D6 always reaches 2"
    if game.state()["awaiting"].get("roll"):
        game.cmd("A", "roll", dice=[1, 1])
    fight_out(game)
    units = game.state()["units"]
    assert LOCKED in units["free"]["statuses"] and LOCKED in units["scouts"]["statuses"]
    assert engaged(game) == {"legion": ["militia"], "militia": ["legion"], "free": ["scouts"], "scouts": ["free"]}


def problem_of(response) -> dict:
    assert response.status_code == 422, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    return response.json()


@pytest.mark.parametrize("dice", DICE)
def test_SVC_SETUP_a_mustered_engaged_with_naming_no_enemy_unit_is_refused(new_game, dice):
    game = new_game("heresy", dice=dice)
    before = len(game.events())
    own = problem_of(game.muster("A", [unit("legion"), unit("legion-2", engaged_with=["militia", "legion"])]))
    assert own["field"] == "/units/1/engaged_with/1"
    assert own["detail"] == ("Legion 2 cannot start engaged with Legion, a unit of its own army (only with an "
                             "enemy unit).")  # its units by name, as the army names them
    game.muster("B", [unit("militia")]).raise_for_status()
    unknown = problem_of(game.muster("A", [unit("legion", engaged_with=["militia", "ghosts"])]))
    assert unknown["field"] == "/units/0/engaged_with/1"
    assert unknown["detail"] == "Legion cannot start engaged with 'ghosts': the other army has no unit of that id."
    assert len(game.events()) == before + 1 and game.state()["mustered"] == {"A": False, "B": True}
    game.muster("A", [unit("legion", engaged_with=["militia"])]).raise_for_status()  # an enemy unit: accepted
    assert game.state()["mustered"] == {"A": True, "B": True}
    assert game.verify()["commands_ok"] is True


@pytest.mark.parametrize("dice", DICE)
def test_SVC_SETUP_start_game_judges_a_name_mustered_before_the_other_army(new_game, dice):
    game = new_game("heresy", dice=dice)
    game.muster("A", [unit("legion", engaged_with=["militia"])]).raise_for_status()  # B's army is not yet known
    game.muster("B", [unit("scouts")]).raise_for_status()
    before = len(game.events())
    problem = game.refused("A", "start_game")
    assert problem["status"] == 409 and problem["rule"] == "SVC.SETUP" and "militia" in problem["detail"]
    assert len(game.events()) == before and game.state()["status"] == "setup"
    game.muster("B", [unit("militia", statuses=(LOCKED,)), unit("scouts")]).raise_for_status()
    game.cmd("A", "start_game")
    assert game.state()["status"] == "in_progress"
    assert game.verify()["commands_ok"] is True


def claimable(game: GameClient, seat: str = "B") -> dict[str, set[str]]:
    """The moves each of the seat's units may claim a reaction to: unit -> the enemy units whose move it answers."""
    found: dict[str, set[str]] = {}
    for action in game.state(seat)["actions"]:
        fields = action["schema"]["properties"]
        if "against" in fields:
            found.setdefault(fields["unit"]["const"], set()).update(c["const"] for c in fields["against"]["oneOf"])
    return found


@pytest.mark.parametrize("dice", DICE)
def test_HH_REACT_1_a_claimed_reaction_answers_only_the_latest_enemy_move(new_game, dice):
    game = new_game("heresy", dice=dice)
    game.start([unit("legion-1"), unit("legion-2"), unit("legion-3")], [unit("militia"), unit("scouts")])
    a_goes_first(game)
    to_sub_phase(game, "A", "move")
    game.cmd("A", "move", unit="legion-1", move="normal", distance=6)  # A names no unit near
    assert claimable(game) == {"militia": {"legion-1"}, "scouts": {"legion-1"}}
    game.cmd("A", "move", unit="legion-2", move="normal", distance=5)
    assert claimable(game) == {"militia": {"legion-2"}, "scouts": {"legion-2"}}  # legion-1's chance has passed
    game.cmd("A", "move", unit="legion-3", move="normal", distance=0)  # Stationary: no move to react to
    assert claimable(game) == {"militia": {"legion-2"}, "scouts": {"legion-2"}}
    before = len(game.events())
    problem = game.refused("B", "react", unit="militia", against="legion-1", direction="away", distance=2)
    assert problem["rule"] == "HH.REACT.1"
    assert problem["detail"] == ("A reaction answers the latest enemy move, the move of Alice's Legion 2, not that "
                                 "of Alice's Legion 1.")  # the units by name, as the players know them
    assert len(game.events()) == before
    answer = game.cmd("B", "react", unit="militia", against="legion-2", direction="away", distance=2)
    assert [e["type"] for e in answer["events"]] == ["ReactionOffered", "ReactionMade"]
    assert answer["events"][1]["data"]["against"] == "legion-2"
    assert claimable(game) == {"scouts": {"legion-2"}}
    assert game.verify()["commands_ok"] is True


PLASMA = {"name": "Plasma gun", "type": "ranged", "range": 24, "A": "1", "skill": 3, "S": 8, "AP": -3, "D": "2",
          "keywords": ["HAZARDOUS"]}


def hazard_after(game: GameClient, unit_id: str, targets: list[str], faces: list[int]) -> list[dict]:
    """A HAZARDOUS weapon's attack at each model's target played out (at the table the attacker's dice all 6s, the
    defender's all 1s, and the hazard roll `faces`): its events. The hazard roll is asked once, a die a model, after
    the last target's attack."""
    events = game.cmd("A", "attack", unit=unit_id, weapon="Plasma gun", targets=targets)["events"]
    while (awaiting := game.state()["awaiting"])["action"] in ("roll", "keep_dice", "command_reroll", "allocate"):
        if awaiting["action"] != "roll":
            events += game.cmd(awaiting["seat"], "keep_dice" if awaiting["action"] != "allocate" else "allocate",
                               **({"line": 0} if awaiting["action"] == "allocate" else {}))["events"]
            continue
        roll = awaiting["roll"]
        if roll["purpose"] == "hazardous":
            assert roll == {"purpose": "hazardous", "unit": unit_id, "spec": f"{len(targets)}D6",
                            "rule": "EXT.WPN.HAZARDOUS"}
            assert awaiting["seat"] == "A" and resolved_at(events) == list(dict.fromkeys(targets))  # after the last
            dice = faces
        else:
            count = int(roll["spec"].split("D")[0] or 1)
            dice = [1 if roll["purpose"] in ("save", "feel_no_pain", "feel_no_pain_mortal") else 6] * count
        events += game.cmd(awaiting["seat"], "roll", dice=dice)["events"]
    kinds = [e["type"] for e in events]
    assert kinds.count("HazardousRolled") == 1  # one roll, a die a model that attacked with it
    assert kinds.index("HazardousRolled") > max(i for i, k in enumerate(kinds) if k == "AttackResolved")
    return events


@pytest.mark.parametrize("dice", DICE)
def test_EXT_WPN_HAZARDOUS_a_weapon_aimed_at_several_targets_is_rolled_for_once_a_model(new_game, dice):
    """Reference (RS.SHO.2 `targets` is the reference's; heresy fires each weapon at one target): three plasma guns
    at the boyz and two at the grots make one hazard roll of five dice, after both attacks, not one a target."""
    game = new_game("reference", dice=dice)
    game.start([unit("squad", 5, weapons=[PLASMA])], [unit("boyz", 10), unit("grots", 5)])
    until(game, 1, "A", "shooting")
    game.cmd("A", "select", unit="squad", shooting="normal")
    events = hazard_after(game, "squad", ["boyz", "boyz", "grots", "boyz", "grots"], [1, 6, 6, 1, 6])
    assert [(e["data"]["target"], e["data"]["models"]) for e in events if e["type"] == "AttackDeclared"] == [
        ("boyz", 3), ("grots", 2)]
    [hazard] = [e for e in events if e["type"] == "HazardousRolled"]
    assert hazard["rule"] == "EXT.WPN.HAZARDOUS" and len(hazard["data"]["dice"]) == 5
    assert hazard["data"]["weapon"] == "Plasma gun" and hazard["data"]["attacker"] == "squad"
    ones = hazard["data"]["dice"].count(1)
    assert hazard["data"]["ones"] == ones == hazard["data"]["models_destroyed"]
    assert hazard["data"]["text"] == f"Hazardous: {5 - ones} passes of 5 at 2+"
    assert game.state()["units"]["squad"]["models_alive"] == 5 - ones
    if dice == "table":
        assert ones == 2
    lost = [e for e in events if e["type"] in ("CasualtiesRecorded", "ModelsDestroyed", "UnitDestroyed")
            and e["rule"] == "EXT.WPN.HAZARDOUS"]
    assert bool(lost) == bool(ones)
    assert game.verify()["commands_ok"] is True


@pytest.mark.parametrize("dice", DICE)
def test_EXT_WPN_HAZARDOUS_a_characters_mortal_wounds_come_after_every_target_and_meet_its_feel_no_pain(new_game,
                                                                                                      dice):
    from tests.e2e.test_reference_audit_fixes import HERO
    heroes = unit("heroes", 2, keywords=("INFANTRY", "CHARACTER"), abilities=("FEEL NO PAIN 5+",),
                  models=[{**HERO, "count": 2}], weapons=[PLASMA])
    game = new_game("reference", dice=dice)
    game.start([heroes], [unit("boyz", 10), unit("grots", 5)])
    until(game, 1, "A", "shooting")
    game.cmd("A", "select", unit="heroes", shooting="normal")
    events = hazard_after(game, "heroes", ["boyz", "grots"], [1, 6])  # before: a 1 at the boyz lost the grots' shot
    assert resolved_at(events) == ["boyz", "grots"]
    [hazard] = [e for e in events if e["type"] == "HazardousRolled"]
    ones = hazard["data"]["dice"].count(1)
    assert (hazard["data"]["models_destroyed"], hazard["data"]["mortal_wounds"]) == (0, 3 * ones)
    ignored = [e["data"] for e in events if e["type"] == "MortalWoundsIgnored"]
    assert [(d["mortal_wounds"], d["cause"]) for d in ignored] == ([(3 * ones, "EXT.WPN.HAZARDOUS")] if ones else [])
    if dice == "table":  # the Feel No Pain dice all 1s: the three are lost
        [line] = game.state()["units"]["heroes"]["models"]
        assert ones == 1 and ignored[0]["lost"] == 3 and (line["alive"], line["wounds_left"]) == (2, 3)
    assert game.verify()["commands_ok"] is True


@pytest.mark.parametrize("dice", DICE)
def test_the_summary_is_walked_once_a_version_and_its_cached_answer_is_a_fresh_ones(new_game, dice, monkeypatch):
    from tests.e2e.test_results import summary
    from warlog.projections import summary as summaries
    walks: list[int] = []
    walk = summaries.walk
    monkeypatch.setattr(summaries, "walk", lambda stored: walks.append(1) or walk(stored))
    game = new_game("heresy", dice=dice)
    game.start([unit("legion-1")], [unit("militia")])
    game.cmd("A", "free_roll", spec="2D6", purpose="a tally", **({"dice": [3, 4]} if dice == "table" else {}))
    first = summary(game)
    assert summary(game) == first and summary(game, "spectator") == first and len(walks) == 1  # polled: no walk
    for chart in ("vp", "losses", "luck"):
        assert game.http.get(f"/games/{game.id}/charts/{chart}", headers=game.headers("B")).status_code == 200
    assert len(walks) == 1  # the charts draw the summary kept
    game.cmd("B", "record_casualties", unit="legion-1", models=2)
    a_goes_first(game)
    later = summary(game)
    assert len(walks) == 2 and later["version"] > first["version"]
    assert later["seats"]["A"]["models_lost"] == 2 and first["seats"]["A"]["models_lost"] == 0
    summaries.SUMMARIES.clear()
    assert summary(game) == later and len(walks) == 3  # the kept answer is what a fresh walk makes


@pytest.mark.parametrize("dice", DICE)
def test_a_heresy_refusal_names_the_unit_as_the_players_know_it_never_by_id(new_game, dice):
    """CONTRACT.md "In the players' words": a refusal's sentence names a unit by its name, as the offers do."""
    game = new_game("heresy", dice=dice)
    at_move(game, [unit("legion-1", 5, name="Tactical Squad")], [unit("militia", 10, name="Militia")])
    too_far = game.refused("A", "move", unit="legion-1", move="normal", distance=40)
    assert too_far["rule"] == "HH.MOV.1"
    assert "Tactical Squad may move at most" in too_far["detail"] and "legion-1" not in too_far["detail"]
    not_yours = game.refused("B", "move", unit="legion-1", move="normal", distance=1)
    assert "legion-1" not in not_yours["detail"]


def test_a_chart_is_drawn_once_a_version_and_its_kept_picture_is_a_fresh_ones(new_game, monkeypatch):
    """GET /charts/{chart} polled between two writes answers the picture drawn for that version (pygal's drawing
    costs milliseconds), the same bytes a fresh drawing makes; a new write draws it again."""
    from warlog.api.routes import analytics
    from warlog.projections import summary as summaries
    drawings: list[str] = []
    draw = analytics.draw
    monkeypatch.setattr(analytics, "draw", lambda made, chart: drawings.append(chart) or draw(made, chart))
    game = new_game("heresy", dice="server")
    game.start([unit("legion-1")], [unit("militia")])

    def chart(name: str) -> bytes:
        answer = game.http.get(f"/games/{game.id}/charts/{name}", headers=game.headers("B"))
        assert answer.status_code == 200 and answer.headers["content-type"].startswith("image/svg+xml")
        return answer.content

    def picture(drawn: bytes) -> bytes:  # pygal names each drawing's element ids with a fresh uuid
        return re.sub(rb"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", b"uuid", drawn)

    first = chart("losses")
    assert chart("losses") == first and chart("vp") and drawings == ["losses", "vp"]  # polled: drawn once each
    summaries.DRAWN.clear()
    again = chart("losses")
    assert again != first and picture(again) == picture(first)  # drawn afresh: the kept one was the same picture
    assert drawings == ["losses", "vp", "losses"]
    game.cmd("B", "record_casualties", unit="legion-1", models=2)
    later = chart("losses")
    assert drawings[-1] == "losses" and len(drawings) == 4 and picture(later) != picture(first)  # a new version
