"""The Shooting phase (RS.SHO.*) and every attack, ranged or melee, rolled hit -> wound -> save -> damage
(RS.ATK.1-4). Each weapon of a unit is used once a phase; in a fight each model uses one melee weapon."""
from __future__ import annotations

from typing import Any

from domain import army, dice
from domain import commands as cmd
from domain.rules import actions as act
from domain.rules.actions import Action
from domain.rules.flow import alive, applies, handles, units_of
from domain.rules.reference.common import engaged, first_model, foes, is_monster_or_vehicle, weapon_keywords
from domain.rulings import Malformed, NotFound, Refused

SHOOTING = ("normal", "assault", "close_quarters", "indirect")


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


def close_quarters_weapon(unit: dict[str, Any], weapon: dict[str, Any]) -> bool:
    words = weapon_keywords(weapon)
    return is_monster_or_vehicle(unit) or "CLOSE-QUARTERS" in words or "PISTOL" in words \
        or weapon.get("kind") == "pistol"


def usable(unit: dict[str, Any], weapon: dict[str, Any], kind: str) -> bool:
    """RS.SHO.1: which ranged weapons a type of shooting fires."""
    words = weapon_keywords(weapon)
    return {"normal": True, "assault": "ASSAULT" in words or weapon.get("kind") == "assault",
            "close_quarters": close_quarters_weapon(unit, weapon), "indirect": "INDIRECT FIRE" in words}[kind]


def shooting_problem(unit: dict[str, Any], kind: str) -> str | None:
    """RS.SHO.1: why this unit cannot make this type of shooting, or None."""
    advanced = unit["turn"].get("advanced", False)
    if engaged(unit) and kind != "close_quarters":
        return f"an engaged unit cannot make {kind.replace('_', '-')} shooting"
    if advanced and kind != "assault":
        return f"a unit that Advanced cannot make {kind.replace('_', '-')} shooting"
    if kind == "assault" and not advanced:
        return "Assault shooting is for a unit that Advanced"
    if kind == "close_quarters" and not engaged(unit):
        return "Close-quarters shooting is for an engaged unit"
    if not any(usable(unit, w, kind) for w in army.ranged_weapons(unit)):
        return {"assault": "it has no [ASSAULT] weapon", "indirect": "it has no [INDIRECT FIRE] weapon",
                "close_quarters": "it needs [CLOSE-QUARTERS] weapons or MONSTER/VEHICLE",
                "normal": "it has no ranged weapon"}[kind]
    return None


def shooting_types(unit: dict[str, Any]) -> list[str]:
    return [kind for kind in SHOOTING if shooting_problem(unit, kind) is None]


class Shooting:
    """Mixed into `Reference`."""

    def shooting_actions(self, state: dict[str, Any], seat: str, ready: list[str]) -> list[Action]:
        return [act.action("select", "RS.SHO.1", f"select {uid} to shoot, and its type of shooting",
                           ["unit", "shooting"], unit=act.const(uid),
                           shooting=act.one_of(shooting_types(state["units"][uid])))
                for uid in ready]

    def select_shooting(self, t: Any, seat: str, command: cmd.Select, unit: dict[str, Any]) -> None:
        kind = command.shooting or ("close_quarters" if engaged(unit) else "normal")
        if kind not in SHOOTING:
            raise Malformed(f"shooting is one of {', '.join(SHOOTING)}", field="shooting")
        problem = shooting_problem(unit, kind)
        if problem:
            raise Refused(problem, rule="RS.SHO.1")
        t.emit("UnitSelected", {"unit": command.unit, "seat": seat, "phase": "shooting", "shooting": kind}, "RS.SHO.1")

    # -- what an attack may use and aim at ----------------------------------------------

    def weapons_open(self, state: dict[str, Any], uid: str, phase: str) -> list[str]:
        """Weapons this unit may still attack with this phase: each once; in a shooting, those its type fires."""
        unit = state["units"][uid]
        used = unit["turn"].get("used", [])
        if phase == "shooting":
            kind = unit["turn"].get("shooting")
            return [w["name"] for w in army.ranged_weapons(unit) if w["name"] not in used and usable(unit, w, kind)]
        if self.models_left(unit) <= 0:
            return []
        return [w["name"] for w in unit.get("weapons", []) if w.get("type") == "melee" and w["name"] not in used]

    @staticmethod
    def models_left(unit: dict[str, Any]) -> int:
        """RS.FGT.3: each model picks one melee weapon; these have not attacked yet."""
        return unit["models_alive"] - unit["turn"].get("melee_models", 0)

    @staticmethod
    def targets_of(state: dict[str, Any], uid: str, phase: str) -> list[str]:
        """RS.SHO.2 (unengaged targets; close-quarters and PISTOL at the units engaged with it) and RS.FGT.3
        (enemy units engaged with it)."""
        unit = state["units"][uid]
        near = [f for f in unit.get("engaged_with", []) if alive(state["units"][f])]
        if phase == "fight" or unit["turn"].get("shooting") == "close_quarters":
            if near:
                return near
            return [f for f, u in foes(state, unit["owner"]) if engaged(u)] if engaged(unit) else []
        return [f for f, u in foes(state, unit["owner"]) if not engaged(u)]

    def attack_actions(self, state: dict[str, Any], seat: str, phase: str) -> list[Action]:
        if state["rolls"]:
            return []
        rule = "RS.SHO.2" if phase == "shooting" else "RS.FGT.3"
        offered = []
        for uid, unit in units_of(state, seat):
            if not (unit["selected"] and alive(unit)) or (phase == "fight" and not unit["turn"].get("fighting")):
                continue
            weapons, targets = self.weapons_open(state, uid, phase), self.targets_of(state, uid, phase)
            if weapons and targets:
                most = unit["models_alive"] if phase == "shooting" else self.models_left(unit)
                offered.append(act.action("attack", rule, f"attack with {uid}: one weapon at one target",
                                          ["unit", "weapon", "target"], unit=act.const(uid),
                                          weapon=act.one_of(weapons), target=act.one_of(targets),
                                          models=act.integer(1, most, "models attacking with it")))
        return offered

    @handles("attack")
    def attack(self, t: Any, seat: str, command: cmd.Attack) -> None:
        state = t.state
        step = self.step(state)
        if step is None or step.phase not in ("shooting", "fight") or state["rolls"]:
            raise Refused("attacks are made in the Shooting and Fight phases, one at a time",
                          rule="RS.SHO.1" if step is None or step.phase != "fight" else "RS.FGT.3")
        phase = step.phase
        rule = "RS.SHO.2" if phase == "shooting" else "RS.FGT.3"
        unit = state["units"][command.unit]
        if unit["owner"] != seat:
            raise Refused(f"{command.unit} belongs to seat {unit['owner']}", rule=rule)
        if not unit["selected"] or (phase == "fight" and not unit["turn"].get("fighting")):
            raise Refused(f"select {command.unit} for this phase before it attacks", rule=step.rule)
        if command.target not in state["units"]:
            raise NotFound(f"no unit {command.target!r} in this game", field="target")
        wanted = "ranged" if phase == "shooting" else "melee"
        weapon = next((w for w in unit["weapons"] if w["name"] == command.weapon and w["type"] == wanted), None)
        if weapon is None:
            raise Malformed(f"{command.unit} has no {wanted} weapon named {command.weapon!r}", field="weapon")
        if command.weapon not in self.weapons_open(state, command.unit, phase):
            raise Refused(f"{command.weapon} was used this phase, or this type of shooting does not fire it",
                          rule="RS.SHO.1" if phase == "shooting" else "RS.FGT.3")
        if command.target not in self.targets_of(state, command.unit, phase):
            why = "an enemy unit engaged with it" if phase == "fight" else "a visible enemy unit, unengaged"
            raise Refused(f"{command.target} is not a target here: {why} on the battlefield (CORE.OFF.1)", rule=rule)
        most = unit["models_alive"] if phase == "shooting" else self.models_left(unit)
        models = command.models or most
        if not 1 <= models <= most:
            raise Malformed(f"models must lie in 1..{most}", field="models")
        line = first_model(unit)
        skill = weapon.get("skill") or (line.get("BS") if wanted == "ranged" else line.get("WS")) or 4
        attack = {"attacker": command.unit, "target": command.target, "weapon": weapon["name"], "models": models,
                  "skill": skill, "S": weapon.get("S") or 4, "AP": weapon.get("AP") or 0, "D": weapon.get("D", "1"),
                  "rule": rule, "phase": phase}
        t.emit("AttackDeclared", attack, rule)
        shots = dice.parse(str(weapon.get("A", "1")))
        if shots.is_constant:
            self.hit_roll(t, seat, attack, shots.modifier * models)
        else:
            spec = dice.DiceExpr(shots.count * models, shots.sides, shots.modifier * models)
            self.request_roll(t, seat, "attacks", str(spec), rule, command.unit, attack=attack)

    # -- the attack sequence (RS.ATK.1-4) ----------------------------------------------

    def hit_roll(self, t: Any, seat: str, attack: dict[str, Any], count: int) -> None:
        if count > 0:
            self.request_roll(t, seat, "hit", f"{count}D6", "RS.ATK.1", attack["attacker"], attack=attack)

    def resolve_hits(self, t: Any, request: dict[str, Any], faces: list[int]) -> None:
        attack = request["context"]["attack"]
        hits = sum(1 for f in faces if f == 6 or (f != 1 and f >= attack["skill"]))  # RS.ATK.1
        t.emit("HitsScored", {**_ids(attack), "hits": hits, "criticals": faces.count(6), "needed": attack["skill"]},
               "RS.ATK.1")
        toughness = first_model(t.state["units"][attack["target"]]).get("T") or 4
        if hits:
            self.request_roll(t, request["seat"], "wound", f"{hits}D6", "RS.ATK.2", attack["attacker"],
                              attack={**attack, "wound_on": wound_needed(attack["S"], toughness), "T": toughness})

    def resolve_wounds(self, t: Any, request: dict[str, Any], faces: list[int]) -> None:
        attack = request["context"]["attack"]
        need = attack["wound_on"]
        wounds = sum(1 for f in faces if f == 6 or (f != 1 and f >= need))  # RS.ATK.2
        t.emit("WoundsScored", {**_ids(attack), "wounds": wounds, "criticals": faces.count(6), "needed": need,
                                "S": attack["S"], "T": attack["T"]}, "RS.ATK.2")
        if wounds:  # the defender's dice are the defender's
            defender = t.state["units"][attack["target"]]["owner"]
            self.request_roll(t, defender, "save", f"{wounds}D6", "RS.ATK.3", attack["target"], attack=attack)

    def resolve_saves(self, t: Any, request: dict[str, Any], faces: list[int]) -> None:
        attack = request["context"]["attack"]
        line = first_model(t.state["units"][attack["target"]])
        save, invulnerable, ap = line.get("Sv") or 7, line.get("InSv"), abs(attack["AP"])
        failed = [f for f in sorted(faces)  # RS.ATK.4: lowest results first
                  if f == 1 or not (f - ap >= save or (invulnerable and f >= invulnerable))]
        t.emit("SavesRolled", {**_ids(attack), "saved": len(faces) - len(failed), "failed": len(failed),
                               "Sv": save, "InSv": invulnerable, "AP": attack["AP"]}, "RS.ATK.3")
        if not failed:
            return
        damage = dice.parse(str(attack["D"]))
        if damage.is_constant:
            self.damage(t, attack, [damage.modifier] * len(failed))
        else:
            spec = dice.DiceExpr(damage.count * len(failed), damage.sides, 0)
            self.request_roll(t, t.state["units"][attack["attacker"]]["owner"], "damage", str(spec), "RS.ATK.4",
                              attack["attacker"], attack={**attack, "per_save": damage.count,
                                                          "modifier": damage.modifier})

    def resolve_damage(self, t: Any, request: dict[str, Any], faces: list[int]) -> None:
        attack = request["context"]["attack"]
        per = attack["per_save"]
        self.damage(t, attack, [sum(faces[i:i + per]) + attack["modifier"] for i in range(0, len(faces), per)])

    def damage(self, t: Any, attack: dict[str, Any], amounts: list[int], mortal: bool = False,
               rule: str = "RS.ATK.4") -> None:
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
        t.emit("DamageAllocated", {"unit": uid, "damage": amounts, "applied": applied,
                                   "models_destroyed": destroyed, "model_damage": taken, "mortal": mortal}, rule)
        if destroyed or applied:
            self.casualties(t, uid, destroyed, applied if unit["starting_strength"] == 1 else 0, rule)

    # -- appliers ------------------------------------------------------------------------

    @applies("AttackDeclared")
    def _attack_declared(self, state: dict[str, Any], data: dict[str, Any], entry: dict[str, Any]) -> None:
        turn = state["units"][data["attacker"]]["turn"]
        turn.setdefault("used", []).append(data["weapon"])
        if data.get("phase") == "fight":
            turn["melee_models"] = turn.get("melee_models", 0) + data["models"]

    @applies("DamageAllocated")
    def _model_damage(self, state: dict[str, Any], data: dict[str, Any], entry: dict[str, Any]) -> None:
        state["units"][data["unit"]]["model_damage"] = data["model_damage"]


def _ids(attack: dict[str, Any]) -> dict[str, Any]:
    return {"attacker": attack["attacker"], "target": attack["target"], "weapon": attack["weapon"]}
