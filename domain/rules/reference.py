"""`reference`: the reference sheet (seed 001, RULES.md RS.*): Command, Movement,
Shooting, Charge and Fight phases in each player's turn.

Distances and visibility are the table's (CORE.DIST.1): commands carry what the
players measured; the service rolls, counts and applies the results.
"""
from __future__ import annotations

from decimal import Decimal
from typing import Any

from domain import army, dice
from domain import commands as cmd
from domain.rules import actions as act
from domain.rules.actions import Action
from domain.rules.flow import SEATS, Step, alive, applies, handles, inches, other, units_of
from domain.rules.igougo import Igougo
from domain.rules.registry import register
from domain.rulings import Malformed, NotFound, Refused

ENGAGED = ("engaged", "locked_in_combat")
MOVES = ("normal", "advance", "fall_back", "remain_stationary")
SHOOTING = {"normal": "RS.SHO.1", "assault": "RS.SHO.1", "close_quarters": "RS.SHO.1", "indirect": "RS.SHO.1"}


def engaged(unit: dict[str, Any]) -> bool:
    return any(status in unit["statuses"] for status in ENGAGED)


def wound_needed(strength: int, toughness: int) -> int:
    """RS.ATK.2's wound table (the convention RULES.md gives)."""
    if strength >= 2 * toughness:
        return 2
    if strength > toughness:
        return 3
    if strength == toughness:
        return 4
    if 2 * strength <= toughness:
        return 6
    return 5


def shooting_problem(unit: dict[str, Any], kind: str) -> str | None:
    """RS.SHO.1: why this unit cannot make this type of shooting, or None."""
    advanced = unit["turn"].get("advanced", False)
    words = set().union(*(weapon_keywords(w) for w in army.ranged_weapons(unit)))
    big = {"MONSTER", "VEHICLE"} & set(unit.get("keywords", []))
    return {
        "normal": engaged(unit) and "an engaged unit cannot make a Normal shooting" or
        advanced and "a unit that Advanced cannot make a Normal shooting",
        "assault": engaged(unit) and "an engaged unit cannot make an Assault shooting" or
        not advanced and "Assault shooting is for a unit that Advanced",
        "close_quarters": not engaged(unit) and "Close-quarters shooting is for an engaged unit" or
        advanced and "a unit that Advanced cannot make Close-quarters shooting" or
        not ("CLOSE-QUARTERS" in words or big) and "it needs [CLOSE-QUARTERS] weapons or MONSTER/VEHICLE",
        "indirect": engaged(unit) and "an engaged unit cannot make Indirect shooting" or
        advanced and "a unit that Advanced cannot make Indirect shooting" or
        "INDIRECT FIRE" not in words and "it has no [INDIRECT FIRE] weapon",
    }[kind] or None


def shooting_types(unit: dict[str, Any]) -> list[str]:
    return [kind for kind in SHOOTING if shooting_problem(unit, kind) is None] if army.ranged_weapons(unit) else []


def on_battlefield(unit: dict[str, Any]) -> bool:
    """CORE.OFF.1: neither in reserves nor embarked, and not destroyed."""
    return alive(unit) and not unit.get("in_reserves") and not unit.get("embarked_in")


def first_model(unit: dict[str, Any]) -> dict[str, Any]:
    return unit["models"][0]


def weapon_keywords(weapon: dict[str, Any]) -> set[str]:
    return {k.upper() for k in weapon.get("keywords", [])}


@register
class Reference(Igougo):
    name = "reference"
    phases = (("command", None, "RS.CMD.1"), ("movement", None, "RS.MOV.1"), ("shooting", None, "RS.SHO.1"),
              ("charge", None, "RS.CHG.1"), ("fight", None, "RS.FGT.2"))

    # -- command phase -------------------------------------------------------------------

    def begin(self, t: Any, step: Step) -> None:
        if step.phase != "command":
            return
        for seat in SEATS:  # RS.CMD.1: both players gain 1 CP
            t.emit("CommandPointGained", {"seat": seat, "cp": t.state["cp"][seat] + 1}, "RS.CMD.1")
        units = t.state["units"]
        for uid, unit in units_of(t.state, step.active):  # RS.CMD.2, CORE.OFF.1: reserves test too
            band = army.unit_strength(units, uid)
            if alive(unit) and ("battle_shocked" in unit["statuses"] or band in ("half", "below_half")):
                self._battle_shock_roll(t, step.active, uid, band)

    def _battle_shock_roll(self, t: Any, seat: str, uid: str, band: str, rule: str = "RS.CMD.2") -> None:
        self.request_roll(t, seat, "battle_shock", "2D6", rule, uid,
                          ld=army.leadership(t.state["units"][uid]), strength=band)

    # -- selections ----------------------------------------------------------------------

    def eligible(self, state: dict[str, Any], uid: str) -> bool:
        return self.ineligible(state, uid) is None

    def ineligible(self, state: dict[str, Any], uid: str) -> tuple[str, str] | None:
        step = self.step(state)
        unit = state["units"][uid]
        if step is None or step.phase not in ("movement", "shooting", "charge", "fight"):
            return ("CORE.SEQ.1", "no unit is selected in this phase")
        rule = step.rule
        if not alive(unit):
            return (rule, "the unit is destroyed")
        if unit["selected"]:
            return (rule, f"the unit was already selected this {step.phase} phase")
        turn = unit["turn"]
        if step.phase == "fight":  # both players' units fight
            if not (engaged(unit) or turn.get("charged")):
                return ("RS.FGT.2", "only engaged units or units that charged this turn fight")
            return None
        if unit["owner"] != step.active:
            return (rule, f"it is seat {step.active}'s turn")
        if unit.get("in_reserves") or unit.get("embarked_in"):
            return ("CORE.OFF.1", "the unit is not on the battlefield")
        if step.phase == "shooting" and turn.get("fell_back"):
            return ("RS.SHO.1", "units that Fell Back cannot shoot")
        if step.phase == "shooting" and not shooting_types(unit):
            return ("RS.SHO.1", "no type of shooting is open to it (its weapons, Advance or engagement)")
        if step.phase == "charge":
            if engaged(unit):
                return ("RS.CHG.1", "an engaged unit cannot declare a charge")
            if turn.get("advanced") or turn.get("fell_back"):
                return ("RS.CHG.1", "a unit that Advanced or Fell Back cannot charge")
            if not self.charge_targets(state, unit["owner"]):
                return ("RS.CHG.1", "no enemy unit is on the battlefield to charge")
        return None

    @staticmethod
    def charge_targets(state: dict[str, Any], seat: str) -> list[str]:
        return [uid for uid, unit in state["units"].items() if unit["owner"] != seat and on_battlefield(unit)]

    @handles("select")
    def select(self, t: Any, seat: str, command: cmd.Select) -> None:
        state = t.state
        step = self.step(state)
        if step is None or step.phase == "command" or self.awaiting(state)["action"] not in ("end_phase", "select"):
            raise Refused("no unit is selected now", rule=step.rule if step else "CORE.SEQ.1")
        unit = state["units"][command.unit]
        if unit["owner"] != seat:
            raise Refused(f"{command.unit} belongs to seat {unit['owner']}", rule=step.rule)
        if step.phase == "fight" and self.next_fighter(state, step) not in (None, seat):
            raise Refused(f"it is seat {self.next_fighter(state, step)}'s go to select a unit to fight",
                          rule="RS.FGT.2")
        why = self.ineligible(state, command.unit)
        if why:
            raise Refused(why[1], rule=why[0])
        getattr(self, f"_select_{step.phase}")(t, seat, command, unit, step)

    def _select_movement(self, t: Any, seat: str, command: cmd.Select, unit: dict[str, Any], step: Step) -> None:
        move = command.move or ("normal" if command.act else "remain_stationary")
        if move not in MOVES:
            raise Malformed(f"move is one of {', '.join(MOVES)}", field="move")
        uid = command.unit
        if move == "fall_back":
            if not engaged(unit):
                raise Refused("only an engaged unit falls back", rule="RS.MOV.4")
            shocked = "battle_shocked" in unit["statuses"]
            escape = command.escape or ("desperate" if shocked else "ordered")
            if escape not in ("ordered", "desperate"):
                raise Malformed("escape is ordered or desperate", field="escape")
            if escape == "ordered" and shocked:
                raise Refused("a battle-shocked unit must make a Desperate Escape", rule="RS.MOV.4")
            self._moved(t, seat, uid, move, "RS.MOV.4", escape=escape)
            for status in ENGAGED:
                self.change_status(t, uid, status, False, "RS.MOV.4", reason="fell back")
            if escape == "desperate":
                models = unit["models_alive"]
                self.request_roll(t, seat, "hazard", f"{models}D6", "RS.MOV.4", uid, shocked=shocked)
            return
        if engaged(unit) and move in ("normal", "advance"):
            raise Refused("an engaged unit can only Fall Back or Remain Stationary", rule="RS.MOV.2")
        rule = {"normal": "RS.MOV.2", "advance": "RS.MOV.3", "remain_stationary": "RS.MOV.1"}[move]
        self._moved(t, seat, uid, move, rule)
        if move == "advance":
            self.request_roll(t, seat, "advance", "D6", "RS.MOV.3", uid, M=first_model(unit).get("M") or 0)

    def _moved(self, t: Any, seat: str, uid: str, move: str, rule: str, **extra: Any) -> None:
        t.emit("UnitSelected", {"unit": uid, "seat": seat, "phase": "movement", "move": move, **extra}, rule)

    def _select_shooting(self, t: Any, seat: str, command: cmd.Select, unit: dict[str, Any], step: Step) -> None:
        kind = command.shooting or ("close_quarters" if engaged(unit) else "normal")
        if kind not in SHOOTING:
            raise Malformed(f"shooting is one of {', '.join(SHOOTING)}", field="shooting")
        problem = shooting_problem(unit, kind)
        if problem:
            raise Refused(problem, rule="RS.SHO.1")
        t.emit("UnitSelected", {"unit": command.unit, "seat": seat, "phase": "shooting", "shooting": kind}, "RS.SHO.1")

    def _select_charge(self, t: Any, seat: str, command: cmd.Select, unit: dict[str, Any], step: Step) -> None:
        targets = list(dict.fromkeys(command.targets))
        if not targets:
            raise Malformed("a charge names its targets (targets)", field="targets")
        if command.distance is None:
            raise Malformed("a charge gives the inches measured to its farthest target (distance)", field="distance")
        distance = inches(command.distance, "distance", 1000)
        chargeable = self.charge_targets(t.state, seat)
        for target in targets:
            if target not in t.state["units"]:
                raise NotFound(f"no unit {target!r} in this game", field="targets")
            if t.state["units"][target]["owner"] == seat:
                raise Malformed(f"{target} is not an enemy unit", field="targets")
            if target not in chargeable:
                raise Refused(f"{target} is not on the battlefield to be charged", rule="CORE.OFF.1")
        if Decimal(distance) > 12:
            raise Refused(f"a target {distance}\" away is more than 12\" away", rule="RS.CHG.1")
        t.emit("UnitSelected", {"unit": command.unit, "seat": seat, "phase": "charge", "targets": targets,
                                "distance": distance}, "RS.CHG.1")
        self.request_roll(t, seat, "charge", "2D6", "RS.CHG.2", command.unit, targets=targets, distance=distance)

    def _select_fight(self, t: Any, seat: str, command: cmd.Select, unit: dict[str, Any], step: Step) -> None:
        if command.unit not in self.fighters(t.state):
            raise Refused("units with Fights First fight first", rule="RS.FGT.2")
        fight = "normal" if engaged(unit) else "overrun"
        t.emit("UnitSelected", {"unit": command.unit, "seat": seat, "phase": "fight", "fight": fight}, "RS.FGT.2")

    # -- attacks -------------------------------------------------------------------------

    @handles("attack")
    def attack(self, t: Any, seat: str, command: cmd.Attack) -> None:
        state = t.state
        step = self.step(state)
        if step is None or step.phase not in ("shooting", "fight") or state["rolls"]:
            raise Refused("attacks are made in the Shooting and Fight phases, one at a time",
                          rule="RS.SHO.1" if step is None or step.phase != "fight" else "RS.FGT.3")
        rule = "RS.SHO.2" if step.phase == "shooting" else "RS.FGT.3"
        unit = state["units"][command.unit]
        if unit["owner"] != seat:
            raise Refused(f"{command.unit} belongs to seat {unit['owner']}", rule=rule)
        if not unit["selected"]:
            raise Refused(f"select {command.unit} for this phase before it attacks", rule=step.rule)
        if command.target not in state["units"]:
            raise NotFound(f"no unit {command.target!r} in this game", field="target")
        target = state["units"][command.target]
        if target["owner"] == seat or not alive(target):
            raise Refused(f"{command.target} is not an enemy unit still in play", rule=rule)
        if not on_battlefield(target):
            raise Refused(f"{command.target} is not on the battlefield: it cannot be targeted", rule="CORE.OFF.1")
        wanted = "ranged" if step.phase == "shooting" else "melee"
        weapon = next((w for w in unit["weapons"] if w["name"] == command.weapon and w["type"] == wanted), None)
        if weapon is None:
            raise Malformed(f"{command.unit} has no {wanted} weapon named {command.weapon!r}", field="weapon")
        if not self.may_fire(unit, weapon):
            raise Refused("after Advancing a unit shoots only [ASSAULT] weapons", rule="RS.MOV.3")
        models = command.models or unit["models_alive"]
        if not 1 <= models <= unit["models_alive"]:
            raise Malformed(f"models must lie in 1..{unit['models_alive']}", field="models")
        line = first_model(unit)
        skill = weapon.get("skill") or (line.get("BS") if wanted == "ranged" else line.get("WS")) or 4
        attack = {"attacker": command.unit, "target": command.target, "weapon": weapon["name"], "models": models,
                  "skill": skill, "S": weapon.get("S") or 4, "AP": weapon.get("AP") or 0, "D": weapon.get("D", "1"),
                  "rule": rule}
        t.emit("AttackDeclared", attack, rule)
        shots = dice.parse(str(weapon.get("A", "1")))
        if shots.is_constant:
            self._hit_roll(t, seat, attack, shots.modifier * models)
        else:
            spec = dice.DiceExpr(shots.count * models, shots.sides, shots.modifier * models)
            self.request_roll(t, seat, "attacks", str(spec), rule, command.unit, attack=attack)

    def _hit_roll(self, t: Any, seat: str, attack: dict[str, Any], count: int) -> None:
        if count > 0:
            self.request_roll(t, seat, "hit", f"{count}D6", "RS.ATK.1", attack["attacker"], attack=attack)

    def _resolve_hits(self, t: Any, request: dict[str, Any], faces: list[int]) -> None:
        attack = request["context"]["attack"]
        hits = sum(1 for f in faces if f == 6 or (f != 1 and f >= attack["skill"]))  # RS.ATK.1
        criticals = faces.count(6)
        t.emit("HitsScored", {**_ids(attack), "hits": hits, "criticals": criticals, "needed": attack["skill"]},
               "RS.ATK.1")
        toughness = first_model(t.state["units"][attack["target"]]).get("T") or 4
        need = wound_needed(attack["S"], toughness)
        if hits:
            self.request_roll(t, request["seat"], "wound", f"{hits}D6", "RS.ATK.2", attack["attacker"],
                              attack={**attack, "wound_on": need, "T": toughness})

    def _resolve_wounds(self, t: Any, request: dict[str, Any], faces: list[int]) -> None:
        attack = request["context"]["attack"]
        need = attack["wound_on"]
        wounds = sum(1 for f in faces if f == 6 or (f != 1 and f >= need))  # RS.ATK.2
        t.emit("WoundsScored", {**_ids(attack), "wounds": wounds, "criticals": faces.count(6), "needed": need,
                                "S": attack["S"], "T": attack["T"]}, "RS.ATK.2")
        if wounds:
            defender = t.state["units"][attack["target"]]["owner"]
            self.request_roll(t, defender, "save", f"{wounds}D6", "RS.ATK.3", attack["target"], attack=attack)

    def _resolve_saves(self, t: Any, request: dict[str, Any], faces: list[int]) -> None:
        attack = request["context"]["attack"]
        target = t.state["units"][attack["target"]]
        line = first_model(target)
        save, invulnerable, ap = line.get("Sv") or 7, line.get("InSv"), abs(attack["AP"])
        failed = [f for f in sorted(faces)  # RS.ATK.4: lowest results first
                  if f == 1 or not (f - ap >= save or (invulnerable and f >= invulnerable))]
        t.emit("SavesRolled", {**_ids(attack), "saved": len(faces) - len(failed), "failed": len(failed),
                               "Sv": save, "InSv": invulnerable, "AP": attack["AP"]}, "RS.ATK.3")
        if not failed:
            return
        damage = dice.parse(str(attack["D"]))
        if damage.is_constant:
            self._damage(t, attack, [damage.modifier] * len(failed))
        else:
            spec = dice.DiceExpr(damage.count * len(failed), damage.sides, 0)
            self.request_roll(t, t.state["units"][attack["attacker"]]["owner"], "damage", str(spec), "RS.ATK.4", attack["attacker"],
                              attack={**attack, "per_save": damage.count, "modifier": damage.modifier})

    def _damage(self, t: Any, attack: dict[str, Any], amounts: list[int], mortal: bool = False) -> None:
        """RS.ATK.4: a model at 0 wounds is destroyed; excess damage from one attack is lost (not mortal wounds)."""
        uid = attack["target"]
        unit = t.state["units"][uid]
        wounds = first_model(unit).get("hull_points") or first_model(unit)["W"]
        taken = unit.get("model_damage", 0)
        destroyed, applied = 0, 0
        for amount in amounts:
            while amount > 0 and destroyed < unit["models_alive"]:
                hit = min(amount, wounds - taken)
                taken += hit
                applied += hit
                amount = amount - hit if mortal else 0
                if taken >= wounds:
                    destroyed, taken = destroyed + 1, 0
        rule = "RS.MOV.4" if mortal else "RS.ATK.4"
        t.emit("DamageAllocated", {"unit": uid, "damage": amounts, "applied": applied,
                                   "models_destroyed": destroyed, "model_damage": taken, "mortal": mortal}, rule)
        if destroyed or applied:
            self.casualties(t, uid, destroyed, applied if unit["starting_strength"] == 1 else 0, rule)

    # -- rolls ---------------------------------------------------------------------------

    def on_roll(self, t: Any, request: dict[str, Any], roll: dict[str, Any]) -> None:
        purpose, uid, faces = request["purpose"], request["unit"], roll["faces"]
        context = request["context"]
        if purpose == "battle_shock":
            ld = context["ld"]
            passed = roll["total"] >= ld
            t.emit("BattleShockTested", {"unit": uid, "total": roll["total"], "ld": ld, "passed": passed,
                                         "strength": context["strength"]}, "RS.CMD.2")
            self.change_status(t, uid, "battle_shocked", not passed, "RS.CMD.2",
                               reason="failed a battle-shock test" if not passed else "passed a battle-shock test")
        elif purpose == "advance":
            t.emit("AdvanceRolled", {"unit": uid, "total": roll["total"], "max_move": context["M"] + roll["total"]},
                   "RS.MOV.3")
        elif purpose == "hazard":
            self._hazards(t, request, faces)
        elif purpose == "charge":
            self._charge(t, request, roll["total"])
        elif purpose == "attacks":
            self._hit_roll(t, request["seat"], context["attack"], roll["total"])
        elif purpose == "hit":
            self._resolve_hits(t, request, faces)
        elif purpose == "wound":
            self._resolve_wounds(t, request, faces)
        elif purpose == "save":
            self._resolve_saves(t, request, faces)
        elif purpose == "damage":
            attack, per = context["attack"], context["attack"]["per_save"]
            amounts = [sum(faces[i:i + per]) + attack["modifier"] for i in range(0, len(faces), per)]
            self._damage(t, attack, amounts)
        else:
            super().on_roll(t, request, roll)

    def _hazards(self, t: Any, request: dict[str, Any], faces: list[int]) -> None:
        uid = request["unit"]
        unit = t.state["units"][uid]
        per_failure = 3 if {"MONSTER", "VEHICLE"} & set(unit.get("keywords", [])) else 1
        failures = sum(1 for f in faces if f <= 2)
        t.emit("HazardsRolled", {"unit": uid, "failures": failures, "mortal_wounds": failures * per_failure},
               "RS.MOV.4")
        if failures:
            self._damage(t, {"target": uid}, [failures * per_failure], mortal=True)
        unit = t.state["units"][uid]
        if alive(unit) and not request["context"]["shocked"] and "battle_shocked" not in unit["statuses"]:
            self._battle_shock_roll(t, request["seat"], uid, army.unit_strength(t.state["units"], uid), "RS.MOV.4")

    def _charge(self, t: Any, request: dict[str, Any], total: int) -> None:
        context, uid = request["context"], request["unit"]
        needed = Decimal(context["distance"])
        success = Decimal(total) >= needed  # RS.CHG.2: must end engaged with every target
        t.emit("ChargeResolved", {"unit": uid, "targets": context["targets"], "total": total,
                                  "needed": str(needed), "success": success}, "RS.CHG.2")
        if success:  # RS.CHG.3
            for member in [uid, *context["targets"]]:
                self.change_status(t, member, "engaged", True, "RS.CHG.3", reason=f"charge by {uid}")
            t.emit("FightsFirstGained", {"unit": uid, "until": "end of turn"}, "RS.CHG.3")

    # -- reading -------------------------------------------------------------------------

    def step_awaiting(self, state: dict[str, Any], step: Step | None) -> dict[str, Any]:
        if step is not None and step.phase == "fight":
            seat = self.next_fighter(state, step)
            if seat is not None:
                return {"seat": seat, "action": "select"}
        return super().step_awaiting(state, step)

    def next_fighter(self, state: dict[str, Any], step: Step) -> str | None:
        """RS.FGT.2 convention: the players alternate, the non-active player first."""
        fighters = self.fighters(state)
        able = [s for s in SEATS if any(state["units"][uid]["owner"] == s for uid in fighters)]
        if not able:
            return None
        last = state["step"].get("last")
        preferred = other(last) if last else other(step.active)
        return preferred if preferred in able else able[0]

    # -- legal actions -------------------------------------------------------------------

    def play_actions(self, state: dict[str, Any], seat: str, awaiting: dict[str, Any]) -> list[Action]:
        step = self.step(state)
        if step is None:
            return []
        offered = []
        if awaiting["seat"] == seat and step.phase != "command":
            ready = [uid for uid, unit in units_of(state, seat) if self.ineligible(state, uid) is None]
            offered += getattr(self, f"_{step.phase}_actions")(state, seat, ready)
        if step.phase in ("shooting", "fight"):
            offered += self._attack_actions(state, seat, step)
        return offered + super().play_actions(state, seat, awaiting)

    def _movement_actions(self, state: dict[str, Any], seat: str, ready: list[str]) -> list[Action]:
        units = state["units"]
        free = [uid for uid in ready if not engaged(units[uid])]
        offered = []
        if free:
            offered.append(act.action("select", "RS.MOV.1", "move a unit: Normal, Advance or Remain Stationary",
                                      ["unit"], unit=act.one_of(free),
                                      move=act.one_of(("normal", "advance", "remain_stationary"))))
        for shocked in (False, True):  # RS.MOV.4: a battle-shocked unit escapes desperately
            locked = [uid for uid in ready if engaged(units[uid]) and
                      ("battle_shocked" in units[uid]["statuses"]) == shocked]
            if locked:
                offered.append(act.action(
                    "select", "RS.MOV.4", "move an engaged unit: Fall Back or Remain Stationary", ["unit", "move"],
                    unit=act.one_of(locked), move=act.one_of(("fall_back", "remain_stationary")),
                    escape=act.one_of(("desperate",) if shocked else ("ordered", "desperate"))))
        return offered

    def _shooting_actions(self, state: dict[str, Any], seat: str, ready: list[str]) -> list[Action]:
        return [act.action("select", "RS.SHO.1", f"select {uid} to shoot, and its type of shooting",
                           ["unit", "shooting"], unit=act.const(uid),
                           shooting=act.one_of(shooting_types(state["units"][uid])))
                for uid in ready]

    def _charge_actions(self, state: dict[str, Any], seat: str, ready: list[str]) -> list[Action]:
        if not ready:
            return []
        return [act.action("select", "RS.CHG.1", "declare a charge: its targets and the inches to the farthest",
                           ["unit", "targets", "distance"], unit=act.one_of(ready),
                           targets=act.subset(self.charge_targets(state, seat)),
                           distance=act.number(0, 12, "inches measured to the farthest target"))]

    def fighters(self, state: dict[str, Any]) -> list[str]:
        """RS.FGT.2 convention: the units that may be selected to fight now, Fights First before the rest."""
        ready = [uid for uid in state["units"] if self.eligible(state, uid)]
        return [uid for uid in ready if state["units"][uid]["turn"].get("fights_first")] or ready

    def _fight_actions(self, state: dict[str, Any], seat: str, ready: list[str]) -> list[Action]:
        choices = [uid for uid in self.fighters(state) if uid in ready]
        return [act.action("select", "RS.FGT.2", "select a unit to fight", ["unit"], unit=act.one_of(choices))] \
            if choices else []

    def _attack_actions(self, state: dict[str, Any], seat: str, step: Step) -> list[Action]:
        wanted = "ranged" if step.phase == "shooting" else "melee"
        rule = "RS.SHO.2" if step.phase == "shooting" else "RS.FGT.3"
        foes = [uid for uid, unit in state["units"].items() if unit["owner"] != seat and on_battlefield(unit)]
        offered = []
        for uid, unit in units_of(state, seat):
            weapons = [w["name"] for w in unit["weapons"] if w["type"] == wanted and self.may_fire(unit, w)]
            if unit["selected"] and alive(unit) and weapons and foes:
                offered.append(act.action("attack", rule, f"attack with {uid}: a weapon at one target",
                                          ["unit", "weapon", "target"], unit=act.const(uid),
                                          weapon=act.one_of(weapons), target=act.one_of(foes),
                                          models=act.integer(1, unit["models_alive"], "attacking models")))
        return offered

    @staticmethod
    def may_fire(unit: dict[str, Any], weapon: dict[str, Any]) -> bool:
        """RS.MOV.3: after Advancing a unit shoots only [ASSAULT] weapons."""
        return unit["turn"].get("shooting") != "assault" or "ASSAULT" in weapon_keywords(weapon) \
            or weapon.get("kind") == "assault"

    @handles("end_phase")
    def end_phase(self, t: Any, seat: str, command: cmd.EndPhase) -> None:
        step = self.step(t.state)
        if step is not None and step.phase == "fight" and self.next_fighter(t.state, step) is not None:
            raise Refused("every eligible unit fights before the phase ends", rule="RS.FGT.3")
        super().end_phase(t, seat, command)

    # -- appliers ------------------------------------------------------------------------

    @applies("CommandPointGained")
    def _cp(self, state: dict[str, Any], data: dict[str, Any], entry: dict[str, Any]) -> None:
        state["cp"][data["seat"]] = data["cp"]

    @applies("UnitSelected")
    def _selected(self, state: dict[str, Any], data: dict[str, Any], entry: dict[str, Any]) -> None:
        unit = state["units"][data["unit"]]
        unit["selected"] = True
        state["step"]["last"] = data["seat"]
        turn = unit["turn"]
        if data.get("move") == "advance":
            turn["advanced"] = True
        elif data.get("move") == "fall_back":
            turn["fell_back"] = True
        if "shooting" in data:
            turn["shooting"] = data["shooting"]
        if data.get("phase") == "charge":
            turn["declared_charge"] = True

    @applies("ChargeResolved")
    def _charged(self, state: dict[str, Any], data: dict[str, Any], entry: dict[str, Any]) -> None:
        if data["success"]:
            state["units"][data["unit"]]["turn"]["charged"] = True

    @applies("FightsFirstGained")
    def _fights_first(self, state: dict[str, Any], data: dict[str, Any], entry: dict[str, Any]) -> None:
        state["units"][data["unit"]]["turn"]["fights_first"] = True

    @applies("DamageAllocated")
    def _model_damage(self, state: dict[str, Any], data: dict[str, Any], entry: dict[str, Any]) -> None:
        state["units"][data["unit"]]["model_damage"] = data["model_damage"]


def _ids(attack: dict[str, Any]) -> dict[str, Any]:
    return {"attacker": attack["attacker"], "target": attack["target"], "weapon": attack["weapon"]}
