"""The `alternating` ruleset's smaller rules, played straight through the application (no HTTP)."""
from __future__ import annotations

from typing import Any
from uuid import UUID

import pytest

from tests.golden.driver import AppTable
from tests.support.client import awaits, unit, vehicle
from warlog.domain.application import Warlog
from warlog.domain.rules.alternating.common import overwatch_shots
from warlog.domain.rulings import Malformed

AT = "2026-01-01T00:00:00.000Z"


class Table:
    """One table-dice game of `alternating` in memory."""

    def __init__(self, army_a: list[dict[str, Any]], army_b: list[dict[str, Any]], dice_mode: str = "table",
                 **options: Any) -> None:
        self.warlog = Warlog(env={"PERSISTENCE_MODULE": "eventsourcing.popo"})
        created = self.warlog.create_game("alternating", {"A": "Alice", "B": "Bob"}, dice_mode, options, AT)
        self.id = UUID(created["game_id"])
        self.warlog.muster(self.id, "A", army_a, AT)
        self.warlog.muster(self.id, "B", army_b, AT)
        self.app = AppTable(self.warlog, self.id, dice_mode)
        self.do("A", "start_game")

    def do(self, seat: str, type_: str, **fields: Any) -> list[dict[str, Any]]:
        status, answer = self.app.send(seat, {"type": type_, **fields})
        assert status == 200, (type_, fields, answer)
        return answer["events"]

    def refused(self, seat: str, type_: str, **fields: Any) -> dict[str, Any]:
        status, answer = self.app.send(seat, {"type": type_, **fields})
        assert status == 409, (type_, fields, status, answer)
        return answer

    def view(self, seat: str = "A") -> dict[str, Any]:
        return self.app.view(seat)

    def counts_confirmed(self) -> list[dict[str, Any]]:
        self.do("A", "confirm_count")
        return self.do("B", "confirm_count")

    def order(self, winner: str = "A", first: str = "A") -> None:
        self.do("A", "roll_off", dice={"A": 6, "B": 1} if winner == "A" else {"A": 1, "B": 6})
        self.do(winner, "choose_order", first=first)

    def finish_round(self) -> None:
        """Everyone confirms, wins nothing and declares done until the next battle round starts."""
        start = self.view()["battle_round"]
        while self.view()["battle_round"] == start and self.view()["status"] == "in_progress":
            view = self.view()
            awaiting = view["awaiting"]
            seat = awaiting["seat"] or "A"
            if awaiting["action"] == "confirm_count":
                self.do(seat, "confirm_count")
            elif awaiting["action"] == "roll_off":
                self.do(seat, "roll_off", dice={"A": 6, "B": 1})
            elif awaiting["action"] == "choose_order":
                self.do(seat, "choose_order", first="A")
            elif awaiting["action"] == "roll":
                self.do(seat, "roll", dice=[1] * int(awaiting["roll"]["spec"].split("D")[0] or 1))
            elif "declare_done" in {a["type"] for a in self.view(seat)["actions"]}:
                self.do(seat, "declare_done")
            else:
                self.do(seat, "select", unit=next(u for u, x in view["units"].items() if x["eligible"]))


def event(events: list[dict[str, Any]], type_: str) -> dict[str, Any]:
    return next(e for e in events if e["type"] == type_)


@pytest.mark.parametrize("weapon, shots", [
    ({"A": "2", "kind": "rapid_fire"}, "1"),
    ({"A": "1", "kind": "rapid_fire"}, "1"),
    ({"A": "3", "kind": "heavy"}, "2"),
    ({"A": "1", "kind": "pistol"}, "1"),
    ({"A": "2", "kind": "assault"}, "1"),
    ({"A": "4", "kind": "salvo"}, "3"),
    ({"A": "D6", "kind": "heavy"}, "D6-1"),
    ({"A": "2D6", "kind": None}, "2D6-1"),
])
def test_overwatch_fires_one_shot_fewer_but_never_fewer_than_one_from_a_fixed_profile(weapon, shots):
    assert overwatch_shots(weapon) == shots


def test_equal_counts_give_nobody_pass_points():
    table = Table([unit("a-1"), unit("a-2")], [unit("b-1"), unit("b-2")])
    calculated = event(table.counts_confirmed(), "PassPointsCalculated")
    assert calculated["data"]["counts"] == {"A": 2, "B": 2}
    assert calculated["data"]["pass_points"] == {"A": 0, "B": 0}
    assert table.view()["pass_points"] == {"A": 0, "B": 0}


def test_a_seat_cannot_include_a_unit_in_the_movement_count_against_the_recorded_statuses():
    table = Table([unit("a-1", statuses=("pinned",))], [unit("b-1")])
    assert table.refused("A", "confirm_count", include={"a-1": "it is not really pinned"})["rule"] == "AA.PP.1"


def test_a_seat_excludes_only_a_counted_unit_and_includes_only_one_the_service_leaves_out():
    table = Table([unit("a-1"), unit("a-2", ranged=False)], [unit("b-1")])
    table.counts_confirmed()
    table.order()
    table.do("A", "declare_done")
    table.do("B", "declare_done")
    offered = table.view("A")["actions"][0]["schema"]["properties"]
    assert list(offered["exclude"]["properties"]) == ["a-1"] and list(offered["include"]["properties"]) == ["a-2"]
    for claims in ({"exclude": {"a-1": "x"}, "include": {"a-1": "y"}}, {"exclude": {"a-2": "no guns"}},
                   {"include": {"a-1": "it shoots"}}):
        assert table.refused("A", "confirm_count", **claims)["rule"] == "AA.SPP.1"
    assert table.view("A")["actions"][0]["type"] == "confirm_count"  # nothing was recorded


def test_a_unit_the_seat_includes_in_the_shooting_count_may_then_be_selected_to_shoot():
    psyker = unit("a-psyker", 1, ranged=False)
    table = Table([psyker, unit("a-1")], [unit("b-1"), unit("b-2"), unit("b-3")])
    table.counts_confirmed()
    table.order()
    table.do("A", "declare_done")
    table.do("B", "declare_done")
    confirmed = table.do("A", "confirm_count", include={"a-psyker": "shoots a witchfire power"})
    assert confirmed[0]["text"] == ("Alice confirmed their shooting pass-point count, counting Alice's A Psyker in "
                                    "(shoots a witchfire power).")
    calculated = event(table.do("B", "confirm_count"), "PassPointsCalculated")
    assert calculated["text"] == ("Pass points for shooting: Alice counts 2, Bob 3, so Alice gets 1 (Alice's A Psyker "
                                  "counted in by Alice: shoots a witchfire power, though the service leaves it out "
                                  "for no ranged weapons).")
    assert calculated["data"]["counts"] == {"A": 2, "B": 3}
    assert calculated["data"]["included"] == [{"unit": "a-psyker", "seat": "A", "by": "A",
                                                "reason": "shoots a witchfire power",
                                                "service_reason": "no ranged weapons"}]
    table.order(winner="A", first="A")
    assert table.view()["units"]["a-psyker"]["eligible"] is True
    table.do("A", "select", unit="a-psyker")


def test_with_only_one_side_able_to_shoot_that_side_selects_alone_without_a_roll_off():
    table = Table([unit("a-1"), unit("a-2")], [unit("b-1", ranged=False)])
    table.counts_confirmed()
    table.order()
    table.do("A", "declare_done")
    table.do("B", "declare_done")
    events = table.counts_confirmed()
    first = event(events, "FirstGoes")
    assert first["rule"] == "AA.ACT.0" and first["data"]["seat"] == "A"
    assert not any(e["type"] == "RollOffNeeded" for e in events)
    assert awaits(table.view()) == {"seat": "A", "action": "select"}


def test_regrouped_lasts_the_rest_of_the_turn_and_ends_with_it():
    table = Table([unit("a-1", statuses=("falling_back",))], [unit("b-1")])
    table.do("A", "select", unit="a-1")
    table.do("A", "roll", dice=[2, 2])
    assert table.view()["units"]["a-1"]["statuses"] == ["regrouped"]
    table.finish_round()
    view = table.view()
    assert view["battle_round"] == 2
    assert view["units"]["a-1"]["statuses"] == []


def test_a_charge_names_its_targets_and_the_measured_distance():
    table = Table([unit("a-1")], [unit("b-1")])
    _play_to_charges(table)
    for fields in ({"targets": ["b-1"]}, {"distance": "6"}):
        status, answer = table.app.send("A", {"type": "select", "unit": "a-1", **fields})
        assert status == 422, answer
    status, answer = table.app.send("A", {"type": "select", "unit": "a-1", "targets": ["b-1"], "distance": "six"})
    assert status == 422 and answer["field"] == "/distance"


def test_a_locked_unit_fires_no_overwatch_and_the_charge_rolls_on_by_itself():
    table = Table([unit("a-1")], [unit("b-1"), unit("b-2", statuses=("locked_in_combat",)),
                                   unit("b-3", statuses=("locked_in_combat",))])
    _play_to_charges(table)
    events = table.do("A", "select", unit="a-1", targets=["b-2"], distance=4)
    assert event(events, "ChargeDeclared")["data"]["overwatch_by"] == []
    assert table.view()["awaiting"]["roll"]["purpose"] == "charge"
    events = table.do("A", "roll", dice=[2, 2])
    assert event(events, "ChargeResolved")["data"]["success"] is True
    joined = event(events, "CombatJoined")
    assert joined["data"]["units"] == ["a-1", "b-2"]


def test_a_charger_wiped_out_by_overwatch_does_not_make_it_in():
    table = Table([unit("a-1", 2)], [unit("b-1")])
    _play_to_charges(table)
    table.do("A", "select", unit="a-1", targets=["b-1"], distance=3)
    table.do("B", "select", unit="b-1", weapons=["Boltgun"] * 5)
    assert table.view()["awaiting"]["roll"] == {"purpose": "overwatch", "unit": "b-1", "spec": "5D6", "rule": "AA.OW.1"}
    table.do("B", "roll", dice=[6, 6, 1, 1, 1])
    events = table.do("B", "record_casualties", unit="a-1", models=2, rule="AA.OW.1")
    resolved = event(events, "ChargeResolved")  # no charge roll is asked of a unit that is gone
    assert resolved["data"]["success"] is False and resolved["data"]["reason"] == "the charging unit was destroyed"
    assert not any(e["type"] in ("CombatJoined", "RollRequested") for e in events)
    assert table.view()["awaiting"]["action"] != "roll"


def test_overwatch_fired_with_server_dice_waits_for_its_casualties_before_the_charge_roll():
    table = Table([unit("a-1", 5)], [unit("b-1")], dice_mode="server")
    _play_to_charges(table)
    table.do("A", "select", unit="a-1", targets=["b-1"], distance=3)
    events = table.do("B", "select", unit="b-1")
    assert event(events, "OverwatchResolved")["rule"] == "AA.OW.1"
    assert not any(e["type"] == "ChargeResolved" or e["data"].get("purpose") == "charge" for e in events)
    assert awaits(table.view()) == {"seat": "A", "action": "resolve_charge", "unit": "a-1",
                                               "rule": "AA.CHG.1"}
    table.do("A", "record_casualties", unit="a-1", models=1, rule="AA.OW.1")
    events = table.do("A", "resolve_charge")
    assert [e["data"].get("purpose") for e in events if e["type"] == "DiceRolled"] == ["charge"]
    assert event(events, "ChargeResolved")["rule"] == "AA.CHG.1"


def test_overwatch_names_only_the_weapons_the_unit_has_and_at_most_its_models():
    table = Table([unit("a-1")], [unit("b-1", 5)])
    _play_to_charges(table)
    table.do("A", "select", unit="a-1", targets=["b-1"], distance=3)
    for weapons in (["Lascannon"], ["Boltgun"] * 6, []):
        status, answer = table.app.send("B", {"type": "select", "unit": "b-1", "weapons": weapons})
        assert status == 422 and answer["field"] == "/weapons", answer


def test_a_combat_the_service_does_not_know_needs_its_enemy_units_named():
    table = Table([unit("a-1", statuses=("locked_in_combat",))], [unit("b-1", statuses=("locked_in_combat",))])
    while table.view()["sub_phase"] != "resolve_combats":
        view = table.view()
        awaiting = view["awaiting"]
        seat = awaiting["seat"] or "A"
        action = awaiting["action"]
        table.do(seat, action, **({"dice": {"A": 6, "B": 1}} if action == "roll_off" else
                                   {"first": "A"} if action == "choose_order" else {}))
    table.order(winner="B", first="A")  # either seat may choose any combat: both take part
    assert awaits(table.view()) == {"seat": "A", "action": "select"}
    status, answer = table.app.send("A", {"type": "select", "unit": "b-1"})
    assert status == 422 and answer["field"] == "/targets"
    events = table.do("A", "select", unit="b-1", targets=["a-1"])
    assert event(events, "CombatFought")["data"]["units"] == ["a-1", "b-1"]
    assert table.view()["battle_round"] == 2


def test_commands_of_the_ruleset_are_refused_with_their_rule_before_the_game_starts():
    warlog = Warlog(env={"PERSISTENCE_MODULE": "eventsourcing.popo"})
    created = warlog.create_game("alternating", {"A": "Alice", "B": "Bob"}, "server", {}, AT)
    table = AppTable(warlog, UUID(created["game_id"]), "server")
    status, answer = table.send("A", {"type": "pass"})
    assert status == 409 and answer["rule"] == "SVC.SETUP"


def _play_to_charges(table: Table, sub_phase: str = "select_charges") -> None:
    while table.view()["sub_phase"] != sub_phase or table.view()["awaiting"]["action"] != "select":
        view = table.view()
        awaiting = view["awaiting"]
        seat = awaiting["seat"] or "A"
        action = awaiting["action"]
        if action == "select":
            table.do(seat, "declare_done")
        else:
            table_dice = action == "roll_off" and table.app.dice_mode == "table"
            table.do(seat, action, **({"dice": {"A": 6, "B": 1}} if table_dice else
                                       {"first": "A"} if action == "choose_order" else {}))


def test_a_unit_in_ongoing_reserves_arrives_at_the_next_move_units_without_a_roll_and_is_selected_first():
    table = Table([unit("a-1"), unit("a-2")], [unit("b-1")])
    assert table.refused("B", "ongoing_reserves", unit="a-2")["rule"] == "AA.RES.1"
    entered = table.do("A", "ongoing_reserves", unit="a-2", reason="left the table")
    assert entered[0]["type"] == "OngoingReservesEntered" and entered[0]["rule"] == "AA.RES.1"
    assert entered[0]["text"] == ("Alice's A 2 (5 of 5) left the battlefield into Ongoing Reserves (left the table): "
                                  "it arrives at the start of the next Move Units.")
    table.do("A", "confirm_count")
    events = table.do("B", "confirm_count")
    assert event(events, "PassPointsCalculated")["data"]["excluded"] == [
        {"unit": "a-2", "seat": "A", "by": "service", "reason": "in reserves"}]
    arriving = event(events, "ReserveArriving")  # battle round 1, before options.reserves_from_round
    assert arriving["data"] == {"unit": "a-2", "ongoing": True} and arriving["rule"] == "AA.RES.1"
    assert not any(e["type"] in ("RollRequested", "DiceRolled") for e in events)
    table.order()
    assert table.refused("A", "select", unit="a-1")["rule"] == "AA.RES.1"
    table.do("A", "select", unit="a-2")
    assert table.view()["units"]["a-2"]["in_reserves"] is False


def test_a_concession_reads_as_who_conceded_and_who_won():
    table = Table([unit("a-1")], [unit("b-1")])
    conceded, ended = table.do("B", "concede")
    assert (conceded["type"], conceded["text"]) == ("Conceded", "Bob conceded the game.")
    assert (ended["rule"], ended["text"]) == ("MSN.END.3", "Bob conceded: Alice won (MSN.END.3).")


def test_a_combat_ends_when_one_side_has_no_unit_left_in_it_and_the_survivors_are_no_longer_locked():
    table = Table([unit("a-1")], [unit("b-1", 2), unit("b-2")])
    _play_to_charges(table)
    table.do("A", "select", unit="a-1", targets=["b-1"], distance=3)
    table.do("B", "select", unit="b-1", act=False)
    table.do("A", "roll", dice=[3, 3])
    assert table.view()["units"]["a-1"]["statuses"] == ["locked_in_combat"]
    events = table.do("A", "record_casualties", unit="b-1", models=2)
    ended = event(events, "CombatEnded")
    assert ended["rule"] == "AA.CC.1" and ended["data"]["units"] == ["a-1"]
    assert table.view()["units"]["a-1"]["statuses"] == []


def test_a_combat_named_when_chosen_takes_only_enemy_units_locked_in_combat():
    table = Table([unit("a-1", statuses=("locked_in_combat",))],
                  [unit("b-1", statuses=("locked_in_combat",)), unit("b-2")])
    _play_to_charges(table)
    table.do("B", "declare_done")  # only b-2 could charge (AA.ACT.0)
    table.order()
    assert table.refused("A", "select", unit="a-1", targets=["b-2"])["rule"] == "AA.CC.1"


def test_a_unit_embarked_or_in_reserves_cannot_be_charged():
    table = Table([unit("a-1")], [vehicle("b-truck", capacity=10), unit("b-in", embarked_in="b-truck"),
                                   unit("b-res", in_reserves=True)])
    _play_to_charges(table)
    for target in ("b-in", "b-res"):
        assert table.refused("A", "select", unit="a-1", targets=[target], distance=3)["rule"] == "AA.CHG.1"


def test_the_passengers_of_a_destroyed_transport_are_out_on_the_table_and_count_for_shooting():
    table = Table([unit("a-1"), unit("a-2")],
                  [vehicle("b-truck", capacity=10, weapons=False), unit("b-in", embarked_in="b-truck")])
    events = table.do("A", "record_casualties", unit="b-truck", models=1)
    assert [e["type"] for e in events][-2:] == ["UnitDestroyed", "UnitDisembarked"]
    out = event(events, "UnitDisembarked")
    assert out["rule"] == "CORE.OFF.1"
    assert out["data"] == {"unit": "b-in", "transport": "b-truck", "reason": "its transport was destroyed"}
    assert table.view()["units"]["b-in"]["embarked_in"] is None
    while table.view()["sub_phase"] != "shooting_pass_points":
        awaiting = table.view()["awaiting"]
        seat = awaiting["seat"] or "A"
        if awaiting["action"] == "select":
            table.do(seat, "declare_done")
        else:
            table.do(seat, awaiting["action"], **({"dice": {"A": 6, "B": 1}} if awaiting["action"] == "roll_off"
                                                  else {"first": "A"} if awaiting["action"] == "choose_order" else {}))
    counted = event(table.counts_confirmed(), "PassPointsCalculated")["data"]["counts"]
    assert counted == {"A": 2, "B": 1}  # inside a truck with no fire points it would not have counted (AA.SPP.1)


def test_a_random_shot_weapon_rolls_its_overwatch_shots_per_model_one_fewer_then_its_hits():
    flamer = {"name": "Burna", "type": "ranged", "range": 8, "A": "D6", "skill": 3, "S": 4, "AP": 0, "D": "1",
              "kind": "assault", "keywords": []}
    table = Table([unit("a-1", 2)], [unit("b-1", 3, weapons=[flamer])])
    _play_to_charges(table)
    table.do("A", "select", unit="a-1", targets=["b-1"], distance=3)
    fired = event(table.do("B", "select", unit="b-1", weapons=["Burna", "Burna"]), "OverwatchFired")
    assert fired["data"]["weapons"][0]["shots"] == "2x(D6-1)" and fired["data"]["volleys"] == 1
    assert table.view()["awaiting"]["roll"] == {"purpose": "overwatch_shots", "unit": "b-1", "spec": "2D6",
                                                "rule": "AA.OW.1"}
    rolled = event(table.do("B", "roll", dice=[1, 5]), "OverwatchShotsRolled")
    assert rolled["rule"] == "AA.OW.1"
    assert rolled["data"]["shots_per_model"] == [1, 4] and rolled["data"]["shots"] == 5  # a 1 still fires one
    assert table.view()["awaiting"]["roll"]["purpose"] == "overwatch"
    assert table.view()["awaiting"]["roll"]["spec"] == "5D6"
    resolved = event(table.do("B", "roll", dice=[6, 2, 3, 6, 1]), "OverwatchResolved")
    assert resolved["data"]["shots"] == 5
    assert resolved["data"]["text"] == "5D6 for overwatch: 6, 2, 3, 6 and 1 (total 18)"  # the players read the hits
    assert resolved["data"]["needed"] is None and resolved["data"]["outcomes"] == ["unused"] * 5
    assert table.view()["awaiting"]["action"] == "resolve_charge"  # its casualties are recorded first
    table.do("A", "resolve_charge")
    assert awaits(table.view()) == {"seat": "A", "action": "roll", "roll": {
        "purpose": "charge", "unit": "a-1", "spec": "2D6", "rule": "AA.CHG.1"}}


# -- issue 8's defects, each reproduced over the contract before it was fixed --------------------


def offered_types(table: Table, seat: str) -> set[str]:
    return {a["type"] for a in table.view(seat)["actions"]}


def test_a_unit_whose_every_foe_has_fought_is_not_awaited_and_the_combats_end():
    locked = ("locked_in_combat",)
    table = Table([unit("a1", statuses=locked)], [unit("b1", statuses=locked), unit("b2", statuses=locked)])
    _play_to_charges(table, "resolve_combats")
    table.do("A", "select", unit="a1", targets=["b1"])
    view = table.view()
    assert view["units"]["b2"]["eligible"] is False  # its only foe, a1, has fought: nothing is left for it
    assert view["sub_phase"] != "resolve_combats" and view["battle_round"] == 2


def test_overwatch_from_a_unit_with_several_ranged_weapons_names_each_models_weapon():
    pistol = {"name": "Pistol", "type": "ranged", "range": 12, "A": "1", "skill": 3, "S": 4, "AP": 0, "D": "1",
              "kind": "pistol", "keywords": []}
    table = Table([unit("a-1")], [unit("b-1", 3, weapons=[unit("x")["weapons"][0], pistol])])
    _play_to_charges(table)
    table.do("A", "select", unit="a-1", targets=["b-1"], distance=3)
    fire = table.view("B")["actions"][0]["schema"]
    assert "weapons" in fire["required"] and fire["properties"]["weapons"]["maxItems"] == 3
    status, answer = table.app.send("B", {"type": "select", "unit": "b-1"})  # no longer every weapon of every model
    assert status == 422 and answer["field"] == "/weapons"
    fired = event(table.do("B", "select", unit="b-1", weapons=["Boltgun", "Boltgun", "Pistol"]), "OverwatchFired")
    assert [(w["name"], w["models"], w["shots"]) for w in fired["data"]["weapons"]] == [("Boltgun", 2, 2),
                                                                                       ("Pistol", 1, 1)]


def test_overwatch_from_a_unit_with_one_ranged_weapon_fires_it_once_per_model():
    table = Table([unit("a-1")], [unit("b-1", 4)])
    _play_to_charges(table)
    table.do("A", "select", unit="a-1", targets=["b-1"], distance=3)
    fired = event(table.do("B", "select", unit="b-1"), "OverwatchFired")
    assert fired["data"]["weapons"] == [{"name": "Boltgun", "kind": "rapid_fire", "A": "2", "shots_per_model": "1",
                                         "models": 4, "shots": 4}]


def test_holding_a_charge_is_no_tempo_pass_in_select_charging_units():
    table = Table([unit("a-1"), unit("a-2")], [unit("b-1")])
    _play_to_charges(table)
    assert table.refused("A", "select", unit="a-1", act=False)["rule"] == "AA.CHG.1"
    assert offered_types(table, "A") == {"select", "declare_done"}


def test_a_fleeing_unit_selected_is_resolved_and_cannot_be_passed_over_with_act_false():
    table = Table([unit("a-1", statuses=("falling_back",))], [unit("b-1")])
    assert table.view()["sub_phase"] == "move_fleeing"
    assert table.refused("A", "select", unit="a-1", act=False)["rule"] == "AA.MOV.2"
    assert table.view("A")["actions"][0]["schema"]["properties"]["act"]["const"] is True


def test_a_unit_without_leadership_is_refused_at_muster_unless_it_never_takes_the_test():
    warlog = Warlog(env={"PERSISTENCE_MODULE": "eventsourcing.popo"})
    game_id = UUID(warlog.create_game("alternating", {"A": "Alice", "B": "Bob"}, "table", {}, AT)["game_id"])
    leaderless = unit("a-1")
    leaderless["models"][0]["Ld"] = None
    with pytest.raises(Malformed) as refused:
        warlog.muster(game_id, "A", [unit("a-0"), leaderless], AT)
    assert refused.value.field == "units.1.models.0.Ld"
    fearless = {**leaderless, "abilities": ["ATSKNF"]}
    warlog.muster(game_id, "A", [fearless, vehicle("a-tank")], AT)  # regroups without a roll; no morale


def test_a_blast_hit_on_a_wrecked_vehicle_is_refused():
    table = Table([unit("a-1")], [vehicle("b-tank", hull_points=1)])
    table.do("A", "vehicle_hit", unit="b-tank", hit="penetrating", hull_points=1)
    assert table.refused("A", "blast_hit", unit="b-tank", strength=6, centre_over_hull=True)["rule"] == "CORE.STR.2"


def test_a_regrouped_unit_without_atsknf_still_runs_and_charges():
    table = Table([unit("a-1", statuses=("regrouped",))], [unit("b-1")])
    _play_to_charges(table, "run")
    assert table.view()["units"]["a-1"]["eligible"] is True
    _play_to_charges(table)
    assert table.view()["units"]["a-1"]["eligible"] is True
    table.do("A", "select", unit="a-1", targets=["b-1"], distance=5)


def test_at_the_table_either_seat_enters_both_seats_roll_off_dice():
    table = Table([unit("a-1")], [unit("b-1")])
    table.counts_confirmed()
    assert awaits(table.view()) == {"seat": None, "action": "roll_off"}
    for seat in "AB":
        (roll_off,) = table.view(seat)["actions"]
        assert roll_off["type"] == "roll_off" and roll_off["schema"]["required"] == ["type", "dice"]
        assert roll_off["schema"]["properties"]["dice"]["required"] == ["A", "B"]
    table.do("B", "roll_off", dice={"A": 2, "B": 5})
    assert awaits(table.view()) == {"seat": "B", "action": "choose_order"}
    assert table.view("A")["actions"] == [] and offered_types(table, "B") == {"choose_order"}
