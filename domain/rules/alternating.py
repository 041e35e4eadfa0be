"""`alternating`: one joint game turn per battle round, both players acting in
every phase, unit by unit (seed 000, RULES.md AA.*).

What the seed leaves unchanged (distances, to-hit tables, combat minutiae) is
recorded, not invented: attested outcomes plus dice rolled with a purpose.

Two questions about a unit are kept apart: `ineligible` is the rules' answer
(could this unit be selected in this sub-phase at all: it drives who stays in
the alternation, AA.ACT.3), `eligible` is the contract's (may it be selected
*now*: the game awaits a `select` from its owner).
"""
from __future__ import annotations

from collections import Counter
from decimal import Decimal
from typing import Any

from warlog.domain import army, dice
from warlog.domain import commands as cmd
from warlog.domain.rules import actions as act
from warlog.domain.rules.actions import Action
from warlog.domain.rules.flow import SEATS, Ruleset, Step, alive, applies, handles, inches, other, units_of
from warlog.domain.rules.registry import register
from warlog.domain.rulings import Malformed, NotFound, Refused

LAYOUT = [
    Step("movement", "move_fleeing", "fleeing", "AA.MOV.1", "AA.MOV.2", "AA.MOV.2", declare_done=False),
    Step("movement", "movement_pass_points", "count", "AA.MOV.1", "AA.PP.1"),
    Step("movement", "move_units", "alternate", "AA.MOV.1", "AA.ACT.2", "AA.ACT.1", pass_points=True),
    Step("shooting", "shooting_pass_points", "count", "AA.SHO.1", "AA.SPP.1"),
    Step("shooting", "declare_shooting", "alternate", "AA.SHO.1", "AA.SHO.2", "AA.SHO.2", pass_points=True),
    Step("shooting", "run", "alternate", "AA.SHO.1", "AA.RUN.1", "AA.RUN.1"),
    Step("assault", "select_charges", "alternate", "AA.ASL.1", "AA.CHG.1", "AA.CHG.1"),
    Step("assault", "resolve_combats", "alternate", "AA.ASL.1", "AA.CC.1", "AA.CC.1", declare_done=False),
]
RESULT_RULE = {"movement_pass_points": "AA.PP.2", "shooting_pass_points": "AA.SPP.1"}
TURN_RULE = {"move_fleeing": "AA.MOV.2", "move_units": "AA.ACT.3", "declare_shooting": "AA.ACT.3",
             "run": "AA.RUN.1", "select_charges": "AA.CHG.1", "resolve_combats": "AA.CC.1"}
HOLD_REFUSAL = {"run": ("AA.RUN.1", "a unit selected to run counts as having run; it cannot opt out"),
                "resolve_combats": ("AA.CC.1", "a combat chosen is fought"),
                "move_fleeing": ("AA.MOV.2", "a fleeing unit selected is resolved: its regroup roll decides"),
                "select_charges": ("AA.CHG.1", "a unit selected here declares a charge; to declare no more "
                                               "charges, declare done")}
LOCKED = ("locked_in_combat", "engaged")
UNABLE_TO_MOVE = ("pinned", "gone_to_ground", *LOCKED)  # AA.PP.1 "otherwise unable to move": locked in combat
RESERVE_ARRIVES_ON = 3  # AA.RES.1 convention: a D6, arriving on 3+
MAX_CHARGE = 12  # inches: the 2D6 charge roll can reach no further
REASON = act.text(200, "why (what the table sees)")
SUMMARY = {"move_fleeing": "resolve a fleeing unit: its regroup roll, then it falls back or regroups",
           "move_units": "select a unit to move (act false: it moves zero)",
           "declare_shooting": "select a unit to shoot (act false: it holds fire and may still run)",
           "run": "select a unit to run or move flat out (it counts as having run)",
           "select_charges": "declare a charge: the unit, its targets and the distance measured to them",
           "resolve_combats": "choose a combat to fight"}


def immobile(unit: dict[str, Any]) -> bool:
    """AA.PP.1: immobilised by damage or inherently immobile (Movement 0)."""
    return army.is_vehicle(unit) and (
        "immobilised" in unit["statuses"] or all(m.get("M") == 0 for m in unit["models"]))  # M null: unknown


def on_table(unit: dict[str, Any]) -> bool:
    return alive(unit) and not unit.get("in_reserves")


def regrouped_slow(unit: dict[str, Any]) -> bool:
    return "regrouped" in unit["statuses"] and not army.has_ability(unit, "ATSKNF")


def fire_points(state: dict[str, Any], unit: dict[str, Any]) -> bool:
    transport = state["units"].get(unit.get("embarked_in") or "")
    return transport is None or bool((transport.get("transport") or {}).get("fire_points"))


def movement_exclusion(state: dict[str, Any], unit: dict[str, Any]) -> str | None:
    """AA.PP.1 and AA.RES.1: why the service leaves a unit out of the movement count."""
    statuses = unit["statuses"]
    if unit.get("in_reserves"):
        return "in reserves"
    if "falling_back" in statuses:
        return "falling back"
    if regrouped_slow(unit):
        return "regrouped this turn"
    for status in UNABLE_TO_MOVE:
        if status in statuses:
            return "locked in combat" if status in LOCKED else status.replace("_", " ")
    if immobile(unit):
        return "immobile vehicle"
    return None


def shooting_exclusion(state: dict[str, Any], unit: dict[str, Any]) -> str | None:
    """AA.SPP.1: why the service leaves a unit out of the shooting count."""
    statuses = unit["statuses"]
    if unit.get("in_reserves"):
        return "in reserves"
    if not army.ranged_weapons(unit):
        return "no ranged weapons"
    if "no_weapons_left" in statuses:
        return "no weapons left"
    if "pinned" in statuses:
        return "pinned"
    if any(status in statuses for status in LOCKED):
        return "locked in combat"
    if unit.get("embarked_in") and not fire_points(state, unit):
        return "embarked without fire points"
    return None


def overwatch_shots(weapon: dict[str, Any]) -> str:
    """AA.OW.1: several shots fire one fewer; a single shot (and Rapid Fire) fires one."""
    if weapon.get("kind") == "rapid_fire":
        return "1"
    expr = dice.parse(str(weapon.get("A", "1")))
    if expr.is_constant:
        return str(max(1, expr.modifier - 1))
    return str(dice.DiceExpr(expr.count, expr.sides, expr.modifier - 1))


def overwatch_block(state: dict[str, Any], unit: dict[str, Any]) -> str | None:
    """Why a charged unit fires no overwatch: gone, or unable to shoot (AA.SPP.1's list) or falling back."""
    if not on_table(unit):
        return "destroyed or off the table"
    if "falling_back" in unit["statuses"]:
        return "falling back"
    return shooting_exclusion(state, unit)


@register
class Alternating(Ruleset):
    name = "alternating"
    round_rule = "AA.TURN.1"
    anytime_commands = Ruleset.anytime_commands + ("vehicle_hit", "blast_hit", "ongoing_reserves")

    def round_layout(self, state: dict[str, Any]) -> list[Step]:
        return LAYOUT

    def check_army(self, units: list[dict[str, Any]]) -> None:
        """AA.MOV.2: a regroup roll is a Leadership test, so a unit that may fall back states its Ld."""
        for index, unit in enumerate(units):
            if army.is_vehicle(unit) or army.has_ability(unit, "ATSKNF"):
                continue  # vehicles take no morale; ATSKNF regroups without a roll
            if all(line.get("Ld") is None for line in unit["models"]):
                raise Malformed(f"{unit['id']} needs Ld: a fleeing unit regroups on a Leadership test (AA.MOV.2)",
                                field=f"units.{index}.models.0.Ld")

    @handles("set_status")
    def set_status(self, t: Any, seat: str, command: cmd.SetStatus) -> None:
        unit = t.state["units"][command.unit]
        if command.status == "falling_back" and command.value and not army.has_ability(unit, "ATSKNF") \
                and all(line.get("Ld") is None for line in unit["models"]):
            raise Refused(f"{command.unit} has no Leadership to regroup with, so it cannot fall back",
                          rule="AA.MOV.2")
        super().set_status(t, seat, command)

    # -- eligibility ---------------------------------------------------------------------

    def eligible(self, state: dict[str, Any], uid: str) -> bool:
        """CONTRACT.md: `eligible` means it may be selected now (by the seat whose go it is)."""
        awaiting = self.awaiting(state)
        if awaiting["action"] != "select":
            return False
        if "reaction" in awaiting:
            return uid == awaiting["unit"]
        step = self.step(state)
        if step.name != "resolve_combats" and state["units"][uid]["owner"] != awaiting["seat"]:
            return False
        return self.ineligible(state, uid) is None

    def ineligible(self, state: dict[str, Any], uid: str) -> tuple[str, str] | None:
        """Why the rules forbid selecting a unit in this sub-phase: (rule, reason), or None."""
        step = self.step(state)
        unit = state["units"][uid]
        if step is None or step.kind not in ("alternate", "fleeing"):
            return ("AA.ACT.2", "no unit is selected now")
        rule = step.play_rule
        if not alive(unit):
            return (rule, "the unit is destroyed")
        if unit["selected"]:
            return (rule, "the unit was already selected this phase")
        statuses = unit["statuses"]
        turn = unit["turn"]
        name = step.name
        if name == "move_fleeing":
            fleeing = "falling_back" in statuses and on_table(unit)
            return None if fleeing else ("AA.MOV.2", "the unit is not falling back on the battlefield")
        if name == "move_units":
            return self._move_ineligible(state, unit)
        if not on_table(unit):
            return (rule, "the unit is in reserves")
        if name == "resolve_combats":
            if not any(s in statuses for s in LOCKED):
                return ("AA.CC.1", "the unit is in no combat")
            if turn.get("fought"):
                return ("AA.CC.1", "its combat was already fought this turn")
            if self._combat_of(state, uid) is None and not self.combat_foes(state, uid):
                return ("AA.CC.1", "no enemy unit is left to fight it: every locked enemy has fought this turn")
            return None
        if name == "declare_shooting":
            included = uid in state.get("shooting_included", {})
            reason = shooting_exclusion(state, unit)
            return ("AA.SPP.1", f"the unit cannot shoot: {reason}") if reason and not included else None
        if name == "run" and turn.get("shot"):
            return ("AA.RUN.1", "the unit shot this phase")
        blocked = [s.replace("_", " ") for s in ("falling_back", *UNABLE_TO_MOVE) if s in statuses]
        if unit.get("embarked_in"):
            blocked.append("embarked")
        if immobile(unit):
            blocked.append("immobile")
        if name == "select_charges" and turn.get("ran"):
            blocked.append("ran this turn")
        if name == "select_charges" and not blocked and not self.charge_targets(state, unit["owner"]):
            blocked.append("no enemy unit is on the battlefield to charge")
        if blocked:
            return (rule, f"the unit cannot {name.replace('_', ' ')}: {', '.join(blocked)}")
        return None

    @staticmethod
    def _move_ineligible(state: dict[str, Any], unit: dict[str, Any]) -> tuple[str, str] | None:
        """AA.ACT.2 with AA.RES.1: arrivals first, then units able to move."""
        if unit["arriving"]:
            return None
        if any(u["arriving"] and alive(u) for _, u in units_of(state, unit["owner"])):
            return ("AA.RES.1", "arriving reserves are selected before any other unit")
        reason = movement_exclusion(state, unit)
        return ("AA.ACT.2", f"the unit is not eligible to move: {reason}") if reason else None

    def can_go(self, state: dict[str, Any], seat: str) -> bool:
        step = self.step(state)
        if step is None or state["declared_done"][seat]:
            return False
        if step.name == "resolve_combats":  # AA.CC.1: either player may choose any combat
            return any(self.ineligible(state, uid) is None for uid in state["units"])
        return any(self.ineligible(state, uid) is None for uid, _ in units_of(state, seat))

    def next_go(self, state: dict[str, Any]) -> str | None:
        """AA.ACT.3: goes alternate; one with nothing left drops out; the other finishes."""
        first, last = state["step"]["first"], state["step"]["last"]
        if first is None:
            return None
        able = [seat for seat in SEATS if self.can_go(state, seat)]
        if not able:
            return None
        if last is None:
            return first if first in able else able[0]
        return other(last) if other(last) in able else last

    @staticmethod
    def charge_targets(state: dict[str, Any], seat: str) -> list[str]:
        """Enemy units a charge by `seat` may name: on the battlefield, not embarked (AA.CHG.1)."""
        return [uid for uid, unit in state["units"].items()
                if unit["owner"] != seat and on_table(unit) and not unit.get("embarked_in")]

    @staticmethod
    def combat_foes(state: dict[str, Any], uid: str) -> list[str]:
        """Enemy units a locked unit with no known combat may name as its opponents: locked, not yet fought."""
        owner = state["units"][uid]["owner"]
        return [foe for foe, unit in state["units"].items()
                if unit["owner"] != owner and on_table(unit) and not unit["turn"].get("fought")
                and any(s in unit["statuses"] for s in LOCKED)]

    def arrivals_pending(self, state: dict[str, Any], seat: str) -> bool:
        return any(u["arriving"] and alive(u) for _, u in units_of(state, seat))

    # -- the flow ------------------------------------------------------------------------

    def start_round(self, t: Any, battle_round: int) -> None:
        for uid, unit in t.state["units"].items():
            if "regrouped" in unit["statuses"]:  # AA.MOV.2: regrouped lasts the rest of the turn
                self.change_status(t, uid, "regrouped", False, "AA.MOV.2", reason="the turn ended")
        super().start_round(t, battle_round)

    def begin(self, t: Any, step: Step) -> None:
        """AA.RES.1: at the start of Move Units ongoing reserves arrive, then reserve rolls, then the roll-off."""
        state = t.state
        if step.name != "move_units":
            return
        for uid, unit in state["units"].items():
            if unit.get("ongoing") and unit.get("in_reserves") and alive(unit):
                t.emit("ReserveArriving", {"unit": uid, "ongoing": True}, "AA.RES.1")
        if state["battle_round"] < state["options"]["reserves_from_round"]:
            return
        for seat in SEATS:
            for uid, unit in units_of(state, seat):
                if unit.get("in_reserves") and alive(unit) and not unit["arriving"]:
                    self.request_roll(t, seat, "reserve", "D6", "AA.RES.1", uid)

    def settle(self, t: Any, step: Step) -> None:
        state = t.state
        able = [s for s in SEATS if self.can_go(state, s)]
        if not able:
            reason = "no unit is falling back" if step.kind == "fleeing" else "neither player has an eligible unit"
            t.emit("StepSkipped", {"sub_phase": step.name, "reason": reason},
                   "AA.MOV.2" if step.kind == "fleeing" else "AA.ACT.0")
        elif len(able) == 1:
            t.emit("FirstGoes", {"sub_phase": step.name, "seat": able[0],
                                 "reason": "only this player has units to select"},
                   "AA.MOV.2" if step.kind == "fleeing" else "AA.ACT.0")
        else:
            t.emit("RollOffNeeded", {"sub_phase": step.name, "choice": step.kind != "fleeing"}, step.order_rule)

    def progress(self, t: Any, step: Step) -> bool:
        """Automatic moves: a combat with one side gone ends; a declared charge runs on once nobody answers it."""
        if self._end_combats(t):
            return True
        charge = t.state["step"].get("charge")
        if not charge:
            return False
        if not alive(t.state["units"][charge["unit"]]):  # destroyed by overwatch: nothing left to charge
            t.emit("ChargeResolved", {"unit": charge["unit"], "targets": charge["targets"],
                                      "distance": charge["distance"], "total": None, "success": False,
                                      "reason": "the charging unit was destroyed"}, "AA.CHG.1")
            return True
        if charge["pending"]:
            target = charge["pending"][0]
            reason = overwatch_block(t.state, t.state["units"][target])
            if reason is None:
                return False
            t.emit("OverwatchHeld", {"unit": target, "against": charge["unit"], "reason": reason}, "AA.OW.1")
            return True
        if charge["volleys"] or self.charge_waits(charge):
            return False
        self.request_roll(t, charge["seat"], "charge", "2D6", "AA.CHG.1", charge["unit"],
                          targets=charge["targets"], distance=charge["distance"])
        return True

    def _end_combats(self, t: Any) -> bool:
        """AA.CC.1: a combat is in progress while both sides have a unit standing in it, locked."""
        units = t.state["units"]
        for cid, combat in t.state["combats"].items():
            standing = [u for u in combat["units"]
                        if alive(units[u]) and any(s in units[u]["statuses"] for s in LOCKED)]
            if len({units[u]["owner"] for u in standing}) == 2:
                continue
            t.emit("CombatEnded", {"combat": cid, "units": standing, "reason": "no enemy unit left in it"},
                   "AA.CC.1")
            for uid in standing:
                for status in LOCKED:
                    self.change_status(t, uid, status, False, "AA.CC.1", reason="its combat ended")
            return True
        return False

    def step_over(self, state: dict[str, Any], step: Step) -> bool:
        if step.kind == "count":
            return state["step"]["calculated"]
        if state["step"]["skipped"]:
            return True
        if state["step"].get("charge"):
            return False
        return state["step"]["first"] is not None and self.next_go(state) is None

    def step_awaiting(self, state: dict[str, Any], step: Step | None) -> dict[str, Any]:
        if step is None:
            return {"seat": None, "action": "none"}
        flow = state["step"]
        if step.kind == "count":
            waiting = [s for s in SEATS if flow["confirmed"][s] is None]
            return {"seat": waiting[0] if len(waiting) == 1 else None, "action": "confirm_count"}
        charge = flow.get("charge")
        if charge and charge["pending"]:
            target = charge["pending"][0]
            return {"seat": state["units"][target]["owner"], "action": "select", "reaction": "overwatch",
                    "unit": target, "against": charge["unit"], "rule": "AA.OW.1"}
        if charge and self.charge_waits(charge):
            return {"seat": charge["seat"], "action": "resolve_charge", "unit": charge["unit"], "rule": "AA.CHG.1"}
        if flow["first"] is None and flow["roll_off"] is not None:
            if flow["winner"] is None:
                return {"seat": None, "action": "roll_off"}
            return {"seat": flow["winner"], "action": "choose_order"}
        return {"seat": self.next_go(state), "action": "select"}

    @staticmethod
    def charge_waits(charge: dict[str, Any]) -> bool:
        """AA.CHG.1: overwatch resolves in full first; once it was fired, the charger rolls when its casualties
        are recorded (`resolve_charge`)."""
        return not charge["pending"] and not charge["volleys"] and charge.get("fired") and not charge.get("resumed")

    # -- legal actions -------------------------------------------------------------------

    def records(self, state: dict[str, Any], seat: str) -> list[Action]:
        offered = super().records(state, seat)
        vehicles = [uid for uid, unit in state["units"].items() if alive(unit) and army.is_vehicle(unit)]
        if vehicles:
            offered += [act.action("vehicle_hit", "AA.VEH.2", "record a glancing or penetrating hit on a vehicle",
                                   ["unit", "hit", "hull_points"], unit=act.one_of(vehicles),
                                   hit=act.one_of(("glancing", "penetrating")), hull_points=act.integer(1, 20)),
                        act.action("blast_hit", "AA.VEH.1", "record a Blast marker's hit on a vehicle",
                                   ["unit", "strength", "centre_over_hull"], unit=act.one_of(vehicles),
                                   strength=act.integer(1, 20, "the weapon's Strength"),
                                   centre_over_hull=act.boolean("the marker's centre hole is over the hull"))]
        leaving = [uid for uid, unit in units_of(state, seat) if on_table(unit) and not unit.get("embarked_in")]
        if leaving:
            offered.append(act.action("ongoing_reserves", "AA.RES.1", "a unit leaves the battlefield into Ongoing "
                                      "Reserves", ["unit"], unit=act.one_of(leaving), reason=act.text(200, "why")))
        return offered

    def play_actions(self, state: dict[str, Any], seat: str, awaiting: dict[str, Any]) -> list[Action]:
        step = self.step(state)
        if step is None or awaiting["action"] == "none":
            return []
        if awaiting["action"] == "confirm_count":
            return [self._count_action(state, seat, step)] if state["step"]["confirmed"][seat] is None else []
        if awaiting["seat"] != seat:
            return []
        if awaiting["action"] == "resolve_charge":
            return [act.action("resolve_charge", "AA.CHG.1", f"roll {awaiting['unit']}'s charge (record "
                               "overwatch casualties first)")]
        if awaiting.get("reaction") == "overwatch":
            return self._overwatch_actions(state, awaiting)
        return self._go_actions(state, seat, step)

    def _count_action(self, state: dict[str, Any], seat: str, step: Step) -> Action:
        """AA.PP.1 / AA.SPP.1: exclude what the table sees of a counted unit; include (shooting only) a unit
        the service leaves out but that shoots with an ability."""
        exclusion = movement_exclusion if step.name == "movement_pass_points" else shooting_exclusion
        mine = [(uid, exclusion(state, unit)) for uid, unit in units_of(state, seat) if alive(unit)]
        counted = [uid for uid, reason in mine if reason is None]
        left_out = [uid for uid, reason in mine if reason is not None]
        fields: dict[str, Any] = {}
        if counted:
            fields["exclude"] = act.keyed(counted, REASON, "counted units to leave out, each with its reason")
        if left_out and step.name == "shooting_pass_points":
            fields["include"] = act.keyed(left_out, REASON, "units the service leaves out to count, with why")
        return act.action("confirm_count", step.play_rule, "confirm your pass-point count", **fields)

    def _overwatch_actions(self, state: dict[str, Any], awaiting: dict[str, Any]) -> list[Action]:
        uid, against = awaiting["unit"], awaiting["against"]
        unit = state["units"][uid]
        names = list(dict.fromkeys(w["name"] for w in army.ranged_weapons(unit)))
        weapons = {"type": "array", "items": {"enum": names}, "minItems": 1, "maxItems": unit["models_alive"],
                   "description": "each firing model's ranged weapon, one name per model"}
        return [act.action("select", "AA.OW.1", f"fire overwatch with {uid} at the charging {against}",
                           ["unit", *(["weapons"] if len(names) > 1 else [])], unit=act.const(uid),
                           act=act.const(True), weapons=weapons),
                act.action("select", "AA.OW.1", f"hold {uid}'s overwatch", ["unit", "act"],
                           unit=act.const(uid), act=act.const(False))]

    def _go_actions(self, state: dict[str, Any], seat: str, step: Step) -> list[Action]:
        name, rule = step.name, step.play_rule
        owners = SEATS if name == "resolve_combats" else (seat,)
        ready = [uid for uid, unit in state["units"].items()
                 if unit["owner"] in owners and self.ineligible(state, uid) is None]
        offered: list[Action] = []
        if ready and name == "select_charges":
            targets = self.charge_targets(state, seat)
            offered.append(act.action(
                "select", rule, SUMMARY[name], ["unit", "targets", "distance"], unit=act.one_of(ready),
                act=act.const(True), targets=act.subset(targets, description="the enemy units charged"),
                distance=act.number(0, MAX_CHARGE, "inches measured to the farthest target")))
        elif ready and name == "resolve_combats":
            known = [uid for uid in ready if self._combat_of(state, uid) is not None]
            if known:
                offered.append(act.action("select", rule, SUMMARY[name], ["unit"], unit=act.one_of(known),
                                          act=act.const(True)))
            for uid in ready:
                if uid not in known:  # locked by a status the service knows no combat for: name its foes
                    offered.append(act.action(
                        "select", rule, f"fight {uid}'s combat, naming the enemy units in it", ["unit", "targets"],
                        unit=act.const(uid), act=act.const(True),
                        targets=act.subset(self.combat_foes(state, uid), description="the enemy units in it")))
        elif ready:
            arriving = name == "move_units" and self.arrivals_pending(state, seat)
            may_hold = name in ("move_units", "declare_shooting") and not arriving  # AA.ACT.2, AA.SHO.2
            offered.append(act.action("select", "AA.RES.1" if arriving else rule,
                                      "bring on a unit arriving from reserve" if arriving else SUMMARY[name],
                                      ["unit"], unit=act.one_of(ready),
                                      act=act.boolean() if may_hold else act.const(True)))
        if step.pass_points and state["pass_points"][seat] > 0 and self.can_go(state, other(seat)):
            offered.append(act.action("pass", "AA.ACT.2", f"spend a pass point ({state['pass_points'][seat]} left)"))
        if step.declare_done and not (name == "move_units" and self.arrivals_pending(state, seat)):
            offered.append(act.action("declare_done", "AA.ACT.4", "select no more units this sub-phase (final)"))
        return offered

    # -- commands ------------------------------------------------------------------------

    def _on_go(self, t: Any, seat: str) -> Step:
        """The checks every go shares: a go is awaited, it is this seat's, and it has not declared done."""
        state = t.state
        step = self.step(state)
        awaiting = self.awaiting(state)
        if awaiting["action"] != "select" or step is None:
            rule = (awaiting["roll"]["rule"] if awaiting["action"] == "roll"
                    else step.order_rule if awaiting["action"] in ("roll_off", "choose_order")
                    else (step.play_rule or step.rule) if step else "AA.ACT.2")
            raise Refused(f"no unit is selected now: the game awaits {awaiting['action']}", rule=rule)
        if "reaction" in awaiting:
            raise Refused(f"the charge by {awaiting['against']} resolves in full first: seat {awaiting['seat']} "
                          f"answers with overwatch from {awaiting['unit']} or holds it", rule="AA.CHG.1")
        if state["declared_done"][seat]:
            raise Refused("you declared you will select no more units this phase", rule="AA.ACT.4")
        if awaiting["seat"] != seat:
            raise Refused(f"it is seat {awaiting['seat']}'s go", rule=TURN_RULE[step.name])
        return step

    @handles("select")
    def select(self, t: Any, seat: str, command: cmd.Select) -> None:
        awaiting = self.awaiting(t.state)
        if awaiting["action"] == "select" and awaiting.get("reaction") == "overwatch" and awaiting["seat"] == seat:
            self._overwatch(t, seat, command, awaiting)
            return
        step = self._on_go(t, seat)
        state = t.state
        unit = state["units"][command.unit]
        if unit["owner"] != seat and step.name != "resolve_combats":
            raise Refused(f"{command.unit} belongs to seat {unit['owner']}", rule=TURN_RULE[step.name])
        why = self.ineligible(state, command.unit)
        if why:
            raise Refused(why[1], rule=why[0])
        if not command.act and step.name in HOLD_REFUSAL:
            rule, reason = HOLD_REFUSAL[step.name]
            raise Refused(reason, rule=rule)
        if not command.act and step.name == "move_units" and unit["arriving"]:
            raise Refused("a unit arriving from reserve comes on; it cannot move zero", rule="AA.RES.1")
        targets = self._targets(state, command)
        distance = None if command.distance is None else inches(command.distance, "distance", 1000)
        if step.name == "select_charges":
            self._check_charge(state, seat, targets, distance)
        if step.name == "resolve_combats":
            self._check_combat(state, command.unit, targets)
        data = {"unit": command.unit, "act": command.act, "sub_phase": step.name, "seat": seat}
        if distance is not None:
            data["distance"] = distance
        t.emit("UnitSelected", data, step.play_rule)
        getattr(self, f"_selected_{step.name}")(t, seat, command.unit, command.act, targets, distance)

    @staticmethod
    def _targets(state: dict[str, Any], command: cmd.Select) -> list[str]:
        targets = list(dict.fromkeys(command.targets))
        owner = state["units"][command.unit]["owner"]
        for target in targets:
            if target not in state["units"]:
                raise NotFound(f"no unit {target!r} in this game", field="targets")
            if state["units"][target]["owner"] == owner:
                raise Malformed(f"target {target!r} is not an enemy unit", field="targets")
        return targets

    def _check_charge(self, state: dict[str, Any], seat: str, targets: list[str], distance: str | None) -> None:
        if not targets:
            raise Malformed("a charge names its target units (targets)", field="targets")
        if distance is None:
            raise Malformed("a charge gives the distance the players measured to its target (distance)",
                            field="distance")
        chargeable = self.charge_targets(state, seat)
        for target in targets:
            if target not in chargeable:
                raise Refused(f"{target} is not on the battlefield to be charged", rule="AA.CHG.1")
        if Decimal(distance) > MAX_CHARGE:
            raise Refused(f"{distance}\" is beyond any 2D6 charge roll ({MAX_CHARGE}\")", rule="AA.CHG.1")

    def _selected_move_fleeing(self, t: Any, seat: str, uid: str, act: bool, targets: list, distance: Any) -> None:
        unit = t.state["units"][uid]
        if army.has_ability(unit, "ATSKNF"):  # CORE.DICE.1: automatic, not rolled
            self._regroup(t, uid, passed=True, automatic=True)
        else:
            self.request_roll(t, seat, "regroup", "2D6", "AA.MOV.2", uid, ld=army.leadership(unit))

    def _regroup(self, t: Any, uid: str, passed: bool, **facts: Any) -> None:
        if passed:
            t.emit("RegroupPassed", {"unit": uid, **facts}, "AA.MOV.2")
            self.change_status(t, uid, "falling_back", False, "AA.MOV.2", reason="regrouped")
            self.change_status(t, uid, "regrouped", True, "AA.MOV.2", reason="regrouped")
        else:
            t.emit("RegroupFailed", {"unit": uid, "fall_back": "the players move it", **facts}, "AA.MOV.2")

    def _selected_move_units(self, t: Any, seat: str, uid: str, act: bool, targets: list, distance: Any) -> None:
        unit = t.state["units"][uid]
        if unit["arriving"]:
            t.emit("ReserveArrived", {"unit": uid}, "AA.RES.1")
        elif unit.get("embarked_in") and act:  # AA.ACT.5: disembarking is its own selection
            t.emit("UnitDisembarked", {"unit": uid, "transport": unit["embarked_in"]}, "AA.ACT.5")

    def _selected_declare_shooting(self, t: Any, seat: str, uid: str, act: bool, targets: list,
                                   distance: Any) -> None:
        """AA.SHO.2: the shots themselves are rolled with free_roll and their outcome recorded."""

    def _selected_run(self, t: Any, seat: str, uid: str, act: bool, targets: list, distance: Any) -> None:
        """AA.RUN.1: selected means it counts as having run, whether it moves or not."""

    def _selected_select_charges(self, t: Any, seat: str, uid: str, act: bool, targets: list,
                                 distance: str | None) -> None:
        if not act:
            return
        state = t.state
        answer = [target for target in targets if overwatch_block(state, state["units"][target]) is None]
        t.emit("ChargeDeclared", {"unit": uid, "seat": seat, "targets": targets, "distance": distance,
                                  "overwatch_by": answer}, "AA.CHG.1")

    def _overwatch(self, t: Any, seat: str, command: cmd.Select, awaiting: dict[str, Any]) -> None:
        """AA.OW.1: the charged unit answers with overwatch (shots from each weapon's profile) or holds it."""
        state = t.state
        uid, against = awaiting["unit"], awaiting["against"]
        if command.unit != uid:
            raise Refused(f"the overwatch awaited is {uid}'s, against the charge by {against}", rule="AA.OW.1")
        if not command.act:
            t.emit("OverwatchHeld", {"unit": uid, "against": against, "reason": "held by its player"}, "AA.OW.1")
            return
        unit = state["units"][uid]
        ranged = {w["name"]: w for w in army.ranged_weapons(unit)}
        if command.weapons is None and len(ranged) > 1:  # each model fires one weapon: which?
            raise Malformed(f"{uid} has {len(ranged)} ranged weapons: name the one each firing model uses "
                            "(weapons, one name per model)", field="weapons")
        chosen = list(command.weapons) if command.weapons is not None else [next(iter(ranged))] * unit["models_alive"]
        unknown = [name for name in chosen if name not in ranged]
        if unknown:
            raise Malformed(f"{uid} has no ranged weapon {unknown[0]!r}", field="weapons")
        if not 1 <= len(chosen) <= unit["models_alive"]:
            raise Malformed(f"weapons: one name for each firing model, 1..{unit['models_alive']} of them",
                            field="weapons")
        fired, rolls = [], []
        for name, models in Counter(chosen).items():
            weapon = ranged[name]
            per_model = overwatch_shots(weapon)
            expr = dice.parse(per_model)
            shots = expr.modifier * models if expr.is_constant else f"{models}x({per_model})"
            fired.append({"name": name, "kind": weapon.get("kind"), "A": weapon.get("A"),
                          "shots_per_model": per_model, "models": models, "shots": shots})
            if expr.is_constant:
                rolls += [(name, "overwatch", str(dice.DiceExpr(n, 6)), {}) for n in _chunks(shots, dice.MAX_DICE)]
            else:  # a random profile: each model rolls its shots first (`overwatch_shots`), then the hits
                profile = dice.parse(str(weapon.get("A")))
                rolls += [(name, "overwatch_shots", str(dice.DiceExpr(n * profile.count, profile.sides)),
                           {"per_model": profile.count, "modifier": profile.modifier})
                          for n in _chunks(models, dice.MAX_DICE // profile.count)]
        # every roll still to come counts as a volley: the charge waits until none is left
        t.emit("OverwatchFired", {"unit": uid, "against": against, "weapons": fired, "volleys": len(rolls)},
               "AA.OW.1")
        for name, purpose, spec, extra in rolls:
            self.request_roll(t, seat, purpose, spec, "AA.OW.1", uid, against=against, weapon=name, **extra)

    def _overwatch_shots(self, t: Any, seat: str, uid: str, context: dict[str, Any], faces: list[int]) -> None:
        """AA.OW.1 on a random profile: each model fires what it rolled, one fewer, never fewer than one."""
        k = context["per_model"]
        per_model = [max(1, sum(faces[i:i + k]) + context["modifier"] - 1) for i in range(0, len(faces), k)]
        hits = _chunks(sum(per_model), dice.MAX_DICE)
        t.emit("OverwatchShotsRolled", {"unit": uid, "against": context["against"], "weapon": context["weapon"],
                                        "shots_per_model": per_model, "shots": sum(per_model),
                                        "volleys": len(hits)}, "AA.OW.1")
        for count in hits:
            self.request_roll(t, seat, "overwatch", str(dice.DiceExpr(count, 6)), "AA.OW.1", uid,
                              against=context["against"], weapon=context["weapon"])

    def _selected_resolve_combats(self, t: Any, seat: str, uid: str, act: bool, targets: list,
                                  distance: Any) -> None:
        state = t.state
        known = self._combat_of(state, uid)
        if targets and (known is None or not set(targets) <= set(state["combats"][known]["units"])):
            t.emit("CombatJoined", {"units": [uid, *targets], "reason": "named when the combat was chosen"},
                   "AA.CC.1")
        combat = self._combat_of(state, uid)
        t.emit("CombatFought", {"combat": combat, "chosen": uid, "seat": seat,
                                "units": state["combats"][combat]["units"]}, "AA.CC.1")

    def _check_combat(self, state: dict[str, Any], uid: str, targets: list[str]) -> None:
        if self._combat_of(state, uid) is None and not targets:
            raise Malformed(f"the service knows no combat of {uid}: name the enemy units in it (targets)",
                            field="targets")
        for target in targets:
            if not alive(state["units"][target]):
                raise Refused(f"{target} is destroyed and fights no combat", rule="AA.CC.1")
            if state["units"][target]["turn"].get("fought"):
                raise Refused(f"{target}'s combat was already fought this turn", rule="AA.CC.1")
            if not any(s in state["units"][target]["statuses"] for s in LOCKED):
                raise Refused(f"{target} is not locked in combat", rule="AA.CC.1")

    @staticmethod
    def _combat_of(state: dict[str, Any], uid: str) -> str | None:
        return next((cid for cid, combat in state["combats"].items() if uid in combat["units"]), None)

    def on_roll(self, t: Any, request: dict[str, Any], roll: dict[str, Any]) -> None:
        uid, context, total = request["unit"], request["context"], roll["total"]
        purpose = request["purpose"]
        if purpose == "regroup":  # AA.MOV.2 convention: a Leadership test, passed when 2D6 <= Ld
            self._regroup(t, uid, passed=total <= context["ld"], total=total, ld=context["ld"])
        elif purpose == "reserve":
            arrives = total >= RESERVE_ARRIVES_ON
            t.emit("ReserveArriving" if arrives else "ReserveDelayed",
                   {"unit": uid, "total": total, "needed": RESERVE_ARRIVES_ON}, "AA.RES.1")
        elif purpose == "overwatch_shots":
            self._overwatch_shots(t, request["seat"], uid, context, roll["faces"])
        elif purpose == "overwatch":  # hits are read by the players (snap shots, unchanged by the seed)
            t.emit("OverwatchResolved", {"unit": uid, "against": context["against"], "weapon": context["weapon"],
                                         "shots": len(roll["faces"]), "faces": roll["faces"]}, "AA.OW.1")
        elif purpose == "charge":
            self._charge_outcome(t, uid, context, total)
        else:
            super().on_roll(t, request, roll)

    def _charge_outcome(self, t: Any, uid: str, context: dict[str, Any], total: int) -> None:
        """2D6 against the distance the players measured (the charge range of the edition the seed builds on)."""
        distance, targets = context["distance"], context["targets"]
        state = t.state
        success = Decimal(total) >= Decimal(distance) and alive(state["units"][uid])
        t.emit("ChargeResolved", {"unit": uid, "targets": targets, "distance": distance, "total": total,
                                  "success": success}, "AA.CHG.1")
        standing = [target for target in targets if alive(state["units"][target])]
        if success and standing:
            for member in [uid, *standing]:
                self.change_status(t, member, "locked_in_combat", True, "AA.CHG.1", reason=f"charge by {uid}")
            t.emit("CombatJoined", {"units": [uid, *standing], "reason": f"charge by {uid}"}, "AA.CHG.1")

    @handles("resolve_charge")
    def resolve_charge(self, t: Any, seat: str, command: cmd.ResolveCharge) -> None:
        """AA.CHG.1: the overwatch fired at a charge is resolved in full (its casualties recorded) first."""
        awaiting = self.awaiting(t.state)
        if awaiting["action"] != "resolve_charge":
            raise Refused(f"no charge waits to be rolled: the game awaits {awaiting['action']}", rule="AA.CHG.1")
        if awaiting["seat"] != seat:
            raise Refused(f"seat {awaiting['seat']} rolls its own charge", rule="AA.CHG.1")
        t.emit("ChargeRollCalled", {"unit": awaiting["unit"], "seat": seat}, "AA.CHG.1")

    @handles("pass")
    def pass_go(self, t: Any, seat: str, command: cmd.Pass) -> None:
        step = self._on_go(t, seat)
        state = t.state
        if not step.pass_points:
            raise Refused(f"pass points are not used in {step.name.replace('_', ' ')}",
                          rule={"run": "AA.RUN.1", "move_fleeing": "AA.MOV.2"}.get(step.name, "AA.ASL.1"))
        if state["pass_points"][seat] <= 0:
            raise Refused("you have no pass points left; select a unit", rule="AA.ACT.2")
        if not self.can_go(state, other(seat)):
            raise Refused("the opponent has no eligible unit left; select one of yours", rule="AA.ACT.3")
        t.emit("PassPointSpent", {"seat": seat, "sub_phase": step.name,
                                  "remaining": state["pass_points"][seat] - 1}, "AA.ACT.2")

    @handles("declare_done")
    def declare_done(self, t: Any, seat: str, command: cmd.DeclareDone) -> None:
        step = self._on_go(t, seat)
        if not step.declare_done:
            rule = "AA.CC.1" if step.name == "resolve_combats" else "AA.MOV.2"
            raise Refused(f"every {'combat' if rule == 'AA.CC.1' else 'fleeing unit'} must be resolved", rule=rule)
        if step.name == "move_units" and self.arrivals_pending(t.state, seat):
            raise Refused("units arriving from reserve must be selected first", rule="AA.RES.1")
        t.emit("DeclaredDone", {"seat": seat, "sub_phase": step.name}, "AA.ACT.4")

    @handles("confirm_count")
    def confirm_count(self, t: Any, seat: str, command: cmd.ConfirmCount) -> None:
        state = t.state
        step = self.step(state)
        if step is None or step.kind != "count" or state["step"]["calculated"]:
            raise Refused("no pass-point count is being confirmed now",
                          rule=(step.play_rule or step.rule) if step else "AA.PP.1")
        if state["step"]["confirmed"][seat] is not None:
            raise Refused("you already confirmed your count", rule=step.play_rule)
        if command.include and step.name == "movement_pass_points":
            raise Refused("the movement count leaves out only what the log's statuses say; correct a status "
                          "with set_status instead", rule="AA.PP.1")
        exclusion = movement_exclusion if step.name == "movement_pass_points" else shooting_exclusion
        for field, claims in (("exclude", command.exclude), ("include", command.include)):
            for uid, reason in claims.items():
                if uid not in state["units"]:
                    raise NotFound(f"no unit {uid!r} in this game", field=field)
                unit = state["units"][uid]
                if unit["owner"] != seat:
                    raise Refused(f"{uid} belongs to seat {unit['owner']}; each seat confirms its own count",
                                  rule=step.play_rule)
                if not isinstance(reason, str) or not 1 <= len(reason) <= 200:
                    raise Malformed(f"{field}.{uid}: give the reason (1..200 characters)", field=field)
                if not alive(unit):
                    raise Refused(f"{uid} is destroyed and counts for nothing", rule=step.play_rule)
                service = exclusion(state, unit)
                if field == "exclude" and service is not None:
                    raise Refused(f"{uid} is left out already ({service})", rule=step.play_rule)
                if field == "include" and service is None:
                    raise Refused(f"{uid} is counted already", rule=step.play_rule)
        t.emit("CountConfirmed", {"seat": seat, "sub_phase": step.name, "exclude": dict(command.exclude),
                                  "include": dict(command.include)}, step.play_rule)
        if all(state["step"]["confirmed"][s] is not None for s in SEATS):
            t.emit("PassPointsCalculated", self._count(state, step), RESULT_RULE[step.name])

    def _count(self, state: dict[str, Any], step: Step) -> dict[str, Any]:
        """AA.PP.1/AA.PP.2 and AA.SPP.1: both counts, every exclusion with who attested it, the result."""
        exclusion = movement_exclusion if step.name == "movement_pass_points" else shooting_exclusion
        counts, counted, excluded, included = {}, {}, [], []
        for seat in SEATS:
            claims = state["step"]["confirmed"][seat]
            counted[seat] = []
            for uid, unit in units_of(state, seat):
                if not alive(unit):
                    continue
                reason = exclusion(state, unit)
                if reason and uid in claims["include"]:
                    included.append({"unit": uid, "seat": seat, "by": seat, "reason": claims["include"][uid],
                                     "service_reason": reason})
                    counted[seat].append(uid)
                elif reason:
                    excluded.append({"unit": uid, "seat": seat, "by": "service", "reason": reason})
                elif uid in claims["exclude"]:
                    excluded.append({"unit": uid, "seat": seat, "by": seat, "reason": claims["exclude"][uid]})
                else:
                    counted[seat].append(uid)
            counts[seat] = len(counted[seat])
        points = {s: 0 for s in SEATS}
        if counts["A"] != counts["B"]:
            fewer = min(SEATS, key=lambda s: counts[s])
            points[fewer] = abs(counts["A"] - counts["B"])
        return {"sub_phase": step.name, "counts": counts, "counted": counted, "excluded": excluded,
                "included": included, "pass_points": points}

    @handles("vehicle_hit")
    def vehicle_hit(self, t: Any, seat: str, command: cmd.VehicleHit) -> None:
        """AA.VEH.2 on the army's hull points: a vehicle's model line carries `hull_points` (null: its W)."""
        unit = t.state["units"][command.unit]
        if command.hit not in ("glancing", "penetrating") or command.hull_points < 1:
            raise Malformed("hit is glancing or penetrating and hull_points at least 1", field="hit")
        if not army.is_vehicle(unit):
            raise Refused(f"{command.unit} is not a vehicle", rule="AA.VEH.2")
        if not alive(unit):
            raise Refused(f"{command.unit} is already destroyed", rule="CORE.STR.2")
        left = army.total_wounds(unit) - unit.get("wounds_lost", 0)
        loss = min(command.hull_points, left)
        if command.hit == "glancing" and loss >= left and not immobile(unit):
            outcome = "immobilised"  # AA.VEH.2: a mobile vehicle keeps its last hull point
            loss = left - 1
        else:
            outcome = "wrecked" if loss >= left else "damaged"
        t.emit("VehicleHit", {"unit": command.unit, "hit": command.hit, "hull_points": command.hull_points,
                              "hull_points_left": left - loss, "outcome": outcome, "attested_by": seat}, "AA.VEH.2")
        if loss or outcome == "wrecked":
            self.casualties(t, command.unit, 1 if outcome == "wrecked" else 0, loss, "AA.VEH.2")
        if outcome == "immobilised":
            self.change_status(t, command.unit, "immobilised", True, "AA.VEH.2", reason="glancing hit")

    @handles("ongoing_reserves")
    def ongoing_reserves(self, t: Any, seat: str, command: cmd.OngoingReserves) -> None:
        unit = t.state["units"][command.unit]
        if unit["owner"] != seat:
            raise Refused(f"{command.unit} belongs to seat {unit['owner']}", rule="AA.RES.1")
        if not on_table(unit) or unit.get("embarked_in"):
            raise Refused(f"{command.unit} is not on the battlefield", rule="AA.RES.1")
        t.emit("OngoingReservesEntered", {"unit": command.unit, "reason": command.reason, "attested_by": seat},
               "AA.RES.1")

    @handles("blast_hit")
    def blast_hit(self, t: Any, seat: str, command: cmd.BlastHit) -> None:
        unit = t.state["units"][command.unit]
        if command.strength < 1:
            raise Malformed("strength must be at least 1", field="strength")
        if not army.is_vehicle(unit):
            raise Refused(f"{command.unit} is not a vehicle; AA.VEH.1 is about blast hits on vehicles",
                          rule="AA.VEH.1")
        if not alive(unit):
            raise Refused(f"{command.unit} is already wrecked", rule="CORE.STR.2")
        strength = command.strength if command.centre_over_hull else command.strength - 1
        t.emit("BlastHitResolved", {"unit": command.unit, "strength": strength, "weapon_strength": command.strength,
                                    "centre_over_hull": command.centre_over_hull, "attested_by": seat}, "AA.VEH.1")

    # -- appliers ------------------------------------------------------------------------

    @applies("UnitSelected")
    def _selected(self, state: dict[str, Any], data: dict[str, Any], entry: dict[str, Any]) -> None:
        unit = state["units"][data["unit"]]
        unit["selected"] = True
        state["step"]["last"] = data["seat"]
        flag = {"move_units": "moved", "declare_shooting": "shot" if data["act"] else "held_fire",
                "run": "ran", "select_charges": "charged" if data["act"] else "held_charge",
                "move_fleeing": "fled"}.get(data["sub_phase"])
        if flag:
            unit["turn"][flag] = True

    @applies("PassPointSpent")
    def _pass(self, state: dict[str, Any], data: dict[str, Any], entry: dict[str, Any]) -> None:
        state["pass_points"][data["seat"]] = data["remaining"]
        state["step"]["last"] = data["seat"]

    @applies("DeclaredDone")
    def _done(self, state: dict[str, Any], data: dict[str, Any], entry: dict[str, Any]) -> None:
        state["declared_done"][data["seat"]] = True
        state["step"]["last"] = data["seat"]

    @applies("CountConfirmed")
    def _confirmed(self, state: dict[str, Any], data: dict[str, Any], entry: dict[str, Any]) -> None:
        state["step"]["confirmed"][data["seat"]] = {"exclude": data["exclude"], "include": data["include"]}

    @applies("PassPointsCalculated")
    def _calculated(self, state: dict[str, Any], data: dict[str, Any], entry: dict[str, Any]) -> None:
        state["pass_points"] = dict(data["pass_points"])
        state["step"]["calculated"] = True
        if data["sub_phase"] == "shooting_pass_points":
            state["shooting_included"] = {item["unit"]: item["reason"] for item in data["included"]}

    @applies("ReserveArrived")
    def _arrived(self, state: dict[str, Any], data: dict[str, Any], entry: dict[str, Any]) -> None:
        unit = state["units"][data["unit"]]
        unit.update(arriving=False, in_reserves=False, ongoing=False)

    @applies("OngoingReservesEntered")
    def _ongoing(self, state: dict[str, Any], data: dict[str, Any], entry: dict[str, Any]) -> None:
        state["units"][data["unit"]].update(in_reserves=True, ongoing=True, arriving=False)

    @applies("ChargeDeclared")
    def _charge(self, state: dict[str, Any], data: dict[str, Any], entry: dict[str, Any]) -> None:
        state["step"]["charge"] = {"unit": data["unit"], "seat": data["seat"], "targets": data["targets"],
                                   "distance": data["distance"], "pending": list(data["overwatch_by"]),
                                   "volleys": 0}

    @applies("OverwatchFired")
    def _overwatch_fired(self, state: dict[str, Any], data: dict[str, Any], entry: dict[str, Any]) -> None:
        charge = state["step"]["charge"]
        charge["pending"].remove(data["unit"])
        charge["volleys"] = data["volleys"]
        charge["fired"] = True

    @applies("ChargeRollCalled")
    def _charge_roll_called(self, state: dict[str, Any], data: dict[str, Any], entry: dict[str, Any]) -> None:
        state["step"]["charge"]["resumed"] = True

    @applies("OverwatchHeld")
    def _overwatch_held(self, state: dict[str, Any], data: dict[str, Any], entry: dict[str, Any]) -> None:
        state["step"]["charge"]["pending"].remove(data["unit"])

    @applies("OverwatchShotsRolled")
    def _overwatch_shots_rolled(self, state: dict[str, Any], data: dict[str, Any], entry: dict[str, Any]) -> None:
        state["step"]["charge"]["volleys"] += data["volleys"] - 1  # this roll done, its hit rolls to come

    @applies("OverwatchResolved")
    def _overwatch_resolved(self, state: dict[str, Any], data: dict[str, Any], entry: dict[str, Any]) -> None:
        state["step"]["charge"]["volleys"] -= 1

    @applies("ChargeResolved")
    def _charge_resolved(self, state: dict[str, Any], data: dict[str, Any], entry: dict[str, Any]) -> None:
        state["step"]["charge"] = None

    @applies("CombatJoined")
    def _combat(self, state: dict[str, Any], data: dict[str, Any], entry: dict[str, Any]) -> None:
        members = set(data["units"])
        units = state["units"]
        for cid in [cid for cid, c in state["combats"].items() if members & set(c["units"])]:
            # a unit that left its combat since (no longer locked, or destroyed) does not come along
            members |= {u for u in state["combats"].pop(cid)["units"]
                        if alive(units[u]) and any(s in units[u]["statuses"] for s in LOCKED)}
        state["combats"][f"combat-{entry['seq']}"] = {"units": sorted(members), "fought": False}

    @applies("CombatEnded")
    def _combat_ended(self, state: dict[str, Any], data: dict[str, Any], entry: dict[str, Any]) -> None:
        state["combats"].pop(data["combat"], None)

    @applies("CombatFought")
    def _fought(self, state: dict[str, Any], data: dict[str, Any], entry: dict[str, Any]) -> None:
        state["step"]["last"] = data["seat"]
        state["combats"][data["combat"]]["fought"] = True
        for uid in data["units"]:
            state["units"][uid]["turn"]["fought"] = True


def _chunks(total: int, size: int) -> list[int]:
    return [min(size, total - start) for start in range(0, total, size)]
