"""CONTRACT.md "In the players' words", for the reasons a charge or a fight stores in its events (rules edition 4,
domain/rules/editions.py): a new game names the units there as the players know them, owner first ("charge by
Alice's Assault Squad"); a game created under edition 3 keeps the ids it always stored, and `/verify` plays the
requests of both again to the same events. The players are Alice (seat A) and Bob (seat B)."""
from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.test_alternating_audit_fixes import to_charges
from tests.e2e.test_heresy import a_goes_first, to_sub_phase
from tests.e2e.test_heresy_attacks import legion
from tests.e2e.test_reference_rules import charge, until
from tests.support.client import GameClient, unit
from warlog.domain.rules import editions

EDITIONS = pytest.mark.parametrize("edition", [4, 3])


def created_under(monkeypatch: pytest.MonkeyPatch, edition: int) -> None:
    """The next game is created under `edition` (4, or an older one)."""
    assert editions.CURRENT >= 4
    monkeypatch.setattr(editions, "created_under", lambda: {"edition": edition})


def reasons(events: list[dict[str, Any]], kind: str, **data: Any) -> list[str]:
    """The reasons the events of `kind` whose data hold `data` store, in order."""
    return [e["data"]["reason"] for e in events
            if e["type"] == kind and all(e["data"].get(key) == value for key, value in data.items())]


def verified(game: GameClient, events: list[dict[str, Any]], *ids: str) -> None:
    """`/verify` plays the game's requests again to the same events, and none of their texts says an id."""
    assert game.verify()["commands_ok"] is True
    for event in events:
        assert not any(uid in event["text"] for uid in ids), event["text"]


@EDITIONS
def test_RS_CHG_3_a_charge_that_reaches_names_the_charger_in_the_engagement_it_stores(new_game, monkeypatch,
                                                                                       edition):
    created_under(monkeypatch, edition)
    game = new_game("reference", dice="table")
    game.start([unit("a-squad-1", name="Assault Squad"), unit("a-squad-2", name="Assault Squad")],
               [unit("b-mob-1", name="Ork Boyz")])
    until(game, 1, "A", "charge")
    events = charge(game, "A", "a-squad-2", ["b-mob-1"])["events"]
    said = "Alice's Assault Squad 2" if edition == 4 else "a-squad-2"  # two of one name told apart
    assert reasons(events, "UnitsEngaged") == [f"charge by {said}"]
    assert reasons(events, "StatusGained") == [f"charge by {said}"] * 2  # the charger's and the Ork Boyz'
    verified(game, events, "a-squad-2", "b-mob-1")
    # the text reads the same in both: an id an older game stored is said as the unit's name is (Words.names)
    assert [e["text"] for e in events if e["type"] in ("UnitsEngaged", "StatusGained")] == [
        "Alice's Assault Squad 2 is now engaged with Bob's Ork Boyz (charge by Alice's Assault Squad 2).",
        "Alice's Assault Squad 2 (5 of 5) is now engaged: charge by Alice's Assault Squad 2.",
        "Bob's Ork Boyz (5 of 5) is now engaged: charge by Alice's Assault Squad 2."]


@EDITIONS
def test_RS_FGT_4_an_engaging_consolidation_names_the_consolidating_unit_in_what_it_stores(new_game, monkeypatch,
                                                                                           edition):
    created_under(monkeypatch, edition)
    game = new_game("reference", dice="table")
    game.start([unit("a-squad-1", name="Assault Squad", engaged_with=["b-mob-1"])],
               [unit("b-mob-1", name="Ork Boyz"), unit("b-grots-1", name="Grots")])
    until(game, 1, "A", "charge")
    game.cmd("A", "end_phase")
    game.cmd("A", "pile_in", unit="a-squad-1", distance=1)
    game.cmd("B", "pile_in", unit="b-mob-1", distance=1)
    for seat, uid in (("B", "b-mob-1"), ("A", "a-squad-1")):  # nobody Fights First: Bob's unit selects first
        game.cmd(seat, "select", unit=uid, fight="normal")
        game.cmd(seat, "end_fight", unit=uid)
    events = game.cmd("A", "consolidate", unit="a-squad-1", mode="engaging", targets=["b-grots-1"],
                      distance=3)["events"]
    said = "Alice's Assault Squad" if edition == 4 else "a-squad-1"
    assert reasons(events, "UnitsEngaged") == [f"consolidation by {said}"]
    assert reasons(events, "StatusGained", unit="b-grots-1") == [f"consolidation by {said}"]
    assert reasons(events, "FightEligible") == [
        "engaged by the consolidation of Alice's Assault Squad" if edition == 4 else "engaged by a-squad-1's consolidation"]
    verified(game, events, "a-squad-1", "b-grots-1")


@EDITIONS
def test_AA_CHG_1_a_charge_that_reaches_names_the_charger_in_the_combat_it_joins(new_game, monkeypatch, edition):
    # Bob's Ork Boyz are pinned (they charge nobody) and carry no gun (no overwatch): the charge goes to its roll
    created_under(monkeypatch, edition)
    game = new_game("alternating", dice="table")
    game.start([unit("a-squad-1", name="Assault Squad")],
               [unit("b-mob-1", name="Ork Boyz", ranged=False, statuses=("pinned",))])
    to_charges(game)
    game.cmd("A", "select", unit="a-squad-1", targets=["b-mob-1"], distance=7)
    events = game.cmd("A", "roll", dice=[4, 4])["events"]
    said = "Alice's Assault Squad" if edition == 4 else "a-squad-1"
    assert reasons(events, "CombatJoined") == [f"charge by {said}"]
    assert reasons(events, "StatusGained") == [f"charge by {said}"] * 2  # both Locked in Combat
    verified(game, events, "a-squad-1", "b-mob-1")


@EDITIONS
def test_HH_MOV_2_locked_in_combat_by_a_charge_and_lost_as_the_foe_broke_names_both_units(new_game, monkeypatch,
                                                                                          edition):
    """Alice's Legion charges Bob's Militia, which loses the fight (one wound to none), fails its Leadership test
    and breaks: the Legion is no longer Locked in Combat."""
    created_under(monkeypatch, edition)
    game = new_game("heresy", dice="table")
    militia = unit("b-militia-1", 4, name="Militia")
    militia["models"][0].update(WS=3, I=3, T=3, Sv=5, Ld=7)
    militia["weapons"][1].update(name="Bayonet", S=3, AP=0)
    charger = legion("a-legion-1", 3, name="Legion")
    charger["weapons"][1].update(name="Chainsword", A="2", S=4, AP=0)
    game.start([charger], [militia])
    a_goes_first(game)
    to_sub_phase(game, "A", None, "assault")
    game.cmd("A", "select", unit="a-legion-1", targets=["b-militia-1"], distance=7)
    events = game.cmd("A", "roll", dice=[3, 4])["events"]  # 7: the charge reaches
    reached = ("the charge of Alice's Legion reached Bob's Militia" if edition == 4
               else "a-legion-1's charge reached b-militia-1")
    assert reasons(events, "StatusGained", status="locked_in_combat") == [reached] * 2
    game.cmd("A", "strike", unit="a-legion-1", weapon="Chainsword")
    events += game.cmd("A", "roll", dice=[3, 3, 3, 3, 2, 1])["events"]  # hits, on 3+
    events += game.cmd("A", "roll", dice=[3, 3, 1, 1])["events"]  # wounds, on 3+
    events += game.cmd("B", "roll", dice=[5, 1])["events"]  # one saved: one wound
    game.cmd("B", "strike", unit="b-militia-1", weapon="Bayonet")
    events += game.cmd("B", "roll", dice=[1, 1, 1])["events"]  # all miss: the Militia lost the fight
    events += game.cmd("B", "roll", dice=[5, 4])["events"]  # 9 against Ld 7: failed, Routed
    broke = "Bob's Militia broke from the fight" if edition == 4 else "b-militia-1 broke from the fight"
    assert reasons(events, "StatusLost", unit="a-legion-1", status="locked_in_combat") == [broke]
    assert [e["text"] for e in events if e["type"] == "StatusLost" and e["data"]["unit"] == "a-legion-1"] == [
        "Alice's Legion (3 of 3) is no longer Locked in Combat: Bob's Militia broke from the fight."]  # in both
    verified(game, events, "a-legion-1", "b-militia-1")
