"""The Shooting phase (RS.SHO.*) and every attack, ranged or melee, rolled hit -> wound -> save -> damage
(RS.ATK.1-4). Each weapon of a unit is used once a phase; in a fight each model uses one melee weapon."""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from warlog.domain import army, dice
from warlog.domain import commands as cmd
from warlog.domain.attacks import ATTACKER, Need, Profile, Situation, from_data, profile_from, resolve, to_data
from warlog.domain.rules import actions as act
from warlog.domain.rules.actions import Action
from warlog.domain.rules.flow import alive, applies, handles, units_of
from warlog.domain.rules.reference.choices import need_data
from warlog.domain.rules.reference.common import (
    attached_to,
    engaged,
    foes,
    is_monster_or_vehicle,
    members,
    not_a_unit_alone,
    weapon_keywords,
)
from warlog.domain.rulings import Malformed, NotFound, Refused

SHOOTING = ("normal", "assault", "close_quarters", "indirect")
STEP_EVENTS = {"attacks": "AttacksRolled", "hit": "HitsScored", "hit_reroll": "HitsRerolled",
               "sustained": "SustainedHitsScored", "wound": "WoundsScored", "wound_reroll": "WoundsRerolled",
               "save": "SavesRolled", "damage": "DamageInflicted", "feel_no_pain": "FeelNoPainRolled",
               "mortal_damage": "MortalWoundsInflicted", "mortal_feel_no_pain": "FeelNoPainRolled",
               "hazardous": "HazardousRolled", "allocate": "GroupAllocated"}  # by Need.step (heresy's roll purposes)
DECISION_EVENTS = {**STEP_EVENTS, "mortal_wounds": "MortalWoundsInflicted"}  # by Decision.step: what each step decided


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
            if kind is None:  # selected for an action instead of shooting (unit_actions.py)
                return []
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
        (enemy units engaged with it); an attached leader is targeted as its bodyguard's unit (CORE.STR.1)."""
        units = state["units"]
        unit = units[uid]
        near = [f for f in unit.get("engaged_with", []) if alive(units[f]) and not attached_to(units, f)]
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
                precise = self.precision_applies(state, uid, weapons, targets)
                offered.append(act.action("attack", rule, f"attack with {uid}: one weapon at one target",
                                          ["unit", "weapon", "target"], unit=act.const(uid),
                                          weapon=act.one_of(weapons), target=act.one_of(targets),
                                          models=act.integer(1, most, "models attacking with it"),
                                          within_half_range=act.boolean("the target is within half the weapon's "
                                                                        "range (RAPID FIRE, MELTA; measured)"),
                                          precision=act.boolean("PRECISION: critical hits' wounds go to a "
                                                                "CHARACTER in the target unit") if precise else None))
        return offered

    @staticmethod
    def precision_applies(state: dict[str, Any], uid: str, weapons: list[str], targets: list[str]) -> bool:
        """EXT.WPN.PRECISION is the attacker's choice only where one of its open weapons has PRECISION and a
        target unit (with its attached leader) has a CHARACTER model."""
        units = state["units"]
        precise = any("PRECISION" in weapon_keywords(w) for w in units[uid]["weapons"] if w["name"] in weapons)
        return precise and any("CHARACTER" in units[m].get("keywords", []) for target in targets
                               for m in members(units, target))

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
        alone = not_a_unit_alone(state["units"], [command.target])
        if alone:
            raise Refused(alone[1], rule=alone[0])
        if command.target not in self.targets_of(state, command.unit, phase):
            why = "an enemy unit engaged with it" if phase == "fight" else "a visible enemy unit, unengaged"
            raise Refused(f"{command.target} is not a target here: {why} on the battlefield (CORE.OFF.1)", rule=rule)
        most = unit["models_alive"] if phase == "shooting" else self.models_left(unit)
        models = command.models or most
        if not 1 <= models <= most:
            raise Malformed(f"models must lie in 1..{most}", field="models")
        if command.within_half_range is not None and type(command.within_half_range) is not bool:
            raise Malformed("within_half_range is true or false (measured at the table)", field="within_half_range")
        if command.precision is not None and type(command.precision) is not bool:
            raise Malformed("precision is true or false", field="precision")
        profile = self.attack_profile(state, command.unit, weapon, command.target, models,
                                      bool(command.within_half_range), bool(command.precision))
        attack = {"attacker": command.unit, "target": command.target, "weapon": weapon["name"], "models": models,
                  "phase": phase, "within_half_range": bool(command.within_half_range),
                  "abilities": sorted(k.text for k in profile.weapon.keywords if k.known), "profile": to_data(profile)}
        t.emit("AttackDeclared", attack, rule)
        self.attack_goes_on(t, {"attack": {k: attack[k] for k in ("attacker", "target", "weapon")},
                                "profile": attack["profile"], "batches": [], "decided": 0, "faces": []})

    def attack_profile(self, state: dict[str, Any], uid: str, weapon: dict[str, Any], target_uid: str, models: int,
                       within_half_range: bool, precision: bool = False) -> Profile:
        """The attack module's profile: the weapon and its abilities, the situation as the log knows it or the
        players attest it, the target unit (with its attached leader) line by line as it stands."""
        units = state["units"]
        unit, target = units[uid], units[target_uid]
        friends = {f for f, u in units.items() if u["owner"] == unit["owner"]}
        situation = Situation(
            models=models, remained_stationary=unit["turn"].get("move") == "remain_stationary",
            charged=bool(unit["turn"].get("charged")), within_half_range=within_half_range,
            target_engaged_with_friendly=bool(friends & set(target.get("engaged_with", []))),
            attacker_keywords=frozenset(unit.get("keywords", [])), defender_allocates=True)
        together = members(units, target_uid)
        standing = [line_standing(units[m]) for m in together]
        profile = profile_from(weapon, unit, [units[m] for m in together], situation,
                               alive=[s[0] for s in standing], wounds_taken=[s[1] for s in standing])
        if precision:  # EXT.WPN.PRECISION: the attacker sends the critical hits' wounds to a CHARACTER it picks
            line = next((i for i, ml in enumerate(profile.target.lines) if "CHARACTER" in ml.keywords and ml.count), None)
            if line is not None:
                profile = replace(profile, situation=replace(situation, precision_line=line))
        return profile

    def attack_goes_on(self, t: Any, context: dict[str, Any]) -> None:
        """Replay the attack with the dice so far (the module is pure); record what it decided since, then ask
        for the next dice, or apply its outcome."""
        progress = resolve(from_data(context["profile"]), context["batches"])
        ids = context["attack"]
        context = record_decisions(t, progress, context)
        need = progress.need
        if need is not None and need.step == "allocate":  # RS.ATK.3: the defender's pick, not a roll
            self.offer_allocation(t, context, need)
            return
        if need is not None:  # one roll, or several of at most MAX_DICE dice that make up one batch
            units = t.state["units"]
            seat = units[ids["attacker"] if need.seat == ATTACKER else ids["target"]]["owner"]
            count = min(dice.MAX_DICE, need.count - len(context["faces"]))
            self.request_roll(t, seat, need.step, str(dice.DiceExpr(count, need.sides)), need.rule,
                              ids["attacker"] if need.seat == ATTACKER else ids["target"], attack_roll=context,
                              batch=need.count, need=need_data(need))
            return
        self.attack_done(t, context, progress.outcome)

    def attack_rolled(self, t: Any, request: dict[str, Any], roll: dict[str, Any]) -> None:
        if "attack_reroll" in request["context"]:  # EXT.CP.1: a Command Re-roll of one roll of the batch
            self.attack_rerolled(t, request, roll)
            return
        context = request["context"]["attack_roll"]
        faces = context["faces"] + roll["faces"]
        if len(faces) < request["context"]["batch"]:
            self.attack_goes_on(t, {**context, "faces": faces})
            return
        need = request["context"].get("need")  # a roll asked for before choices were offered carries none
        if need is None:
            self.attack_goes_on(t, {**context, "batches": context["batches"] + [faces], "faces": []})
            return
        self.batch_rolled(t, context, Need(*need), faces)

    def attack_done(self, t: Any, context: dict[str, Any], outcome: Any) -> None:
        """RS.ATK.4: the losses line by line, on the target and its attached leader; HAZARDOUS on the attacker."""
        units = t.state["units"]
        ids = context["attack"]
        together = members(units, ids["target"])
        before, after = lines_after(units, together, from_data(context["profile"]), outcome)
        t.emit("AttackResolved", {**ids, "hits": outcome.hits, "wounds": outcome.wounds,
                                  "failed_saves": outcome.failed_saves, "mortal_wounds": outcome.mortal_wounds,
                                  "wounds_lost": outcome.wounds_lost, "models_destroyed": outcome.models_destroyed,
                                  "lines": after}, "RS.ATK.4")
        record_losses(self, t, together, before, after)
        hazard = outcome.hazardous
        if hazard is not None and (hazard.facts["models_destroyed"] or hazard.facts["mortal_wounds"]):
            attacker = ids["attacker"]
            if hazard.facts["models_destroyed"]:
                self.casualties(t, attacker, hazard.facts["models_destroyed"], 0, "EXT.WPN.HAZARDOUS")
            else:
                self.damage(t, {"target": attacker}, [hazard.facts["mortal_wounds"]], mortal=True,
                            rule="EXT.WPN.HAZARDOUS")

    def damage(self, t: Any, attack: dict[str, Any], amounts: list[int], mortal: bool = False,
               rule: str = "RS.ATK.4") -> None:
        """RS.ATK.4: a model at 0 wounds is destroyed; excess damage from one attack is lost (not mortal wounds).
        Outside an attack (hazards, Desperate Escape) the damage goes model line by model line as an attack's
        would (RS.ATK.3): to the wounded model first, then to the first lines standing, each model's own W."""
        uid = attack["target"]
        unit = t.state["units"][uid]
        alive, taken = line_standing(unit)
        wounds = [army.model_wounds(model) for model in unit["models"]]
        destroyed, applied = 0, 0
        for amount in amounts:
            while amount > 0 and any(alive):
                line = next((i for i, lost in enumerate(taken) if lost), None)
                line = line if line is not None else next(i for i, n in enumerate(alive) if n)
                hit = min(amount, wounds[line] - taken[line])
                taken[line] += hit
                applied += hit
                amount = amount - hit if mortal else 0
                if taken[line] >= wounds[line]:
                    alive[line], taken[line], destroyed = alive[line] - 1, 0, destroyed + 1
        t.emit("DamageAllocated", {"unit": uid, "damage": amounts, "applied": applied, "models_destroyed": destroyed,
                                   "model_damage": sum(taken), "mortal": mortal,
                                   "lines": {"alive": alive, "taken": taken}}, rule)
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
        unit = state["units"][data["unit"]]
        unit["model_damage"] = data["model_damage"]
        if "lines" in data:  # the model lines as the damage left them (line_standing reads them for the next)
            unit["lines"] = data["lines"]
        else:  # stored before DamageAllocated named its lines: they are read again from the counts
            unit.pop("lines", None)

    @applies("AttackResolved")
    def _attack_resolved(self, state: dict[str, Any], data: dict[str, Any], entry: dict[str, Any]) -> None:
        keep_lines(state, data)


def keep_lines(state: dict[str, Any], data: dict[str, Any]) -> None:
    """After an attack: each unit's model lines as it left them (`line_standing` reads them for the next)."""
    for uid, lines in data["lines"].items():
        unit = state["units"][uid]
        unit["lines"] = lines
        unit["model_damage"] = next((taken for taken in lines["taken"] if taken), 0)


def record_decisions(t: Any, progress: Any, context: dict[str, Any]) -> dict[str, Any]:
    """Record what the attack module decided since the last batch, one event a step (the rule that decided it
    cited); the attack's context counts the decisions recorded."""
    ids = context["attack"]
    for decision in progress.decisions[context["decided"]:]:
        extra = {"rules": list(decision.rules)} if len(decision.rules) > 1 else {}
        t.emit(DECISION_EVENTS.get(decision.step, "AttackStep"), {**ids, "step": decision.step, **decision.facts,
                                                                 **extra}, decision.rules[0])
    return {**context, "decided": len(progress.decisions)}


def lines_after(units: dict[str, Any], together: list[str], profile: Profile,
                outcome: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """The target's model lines before the attack and after it (models alive, the wounded model's lost wounds),
    unit by unit of the target and its attached leader."""
    after, before, position = {}, {}, 0
    for uid in together:
        lines = len(units[uid]["models"])
        after[uid] = {"alive": list(outcome.standing.alive[position:position + lines]),
                      "taken": list(outcome.standing.taken[position:position + lines])}
        before[uid] = profile.target.lines[position:position + lines]
        position += lines
    return before, after


def record_losses(ruleset: Any, t: Any, together: list[str], before: dict[str, Any], after: dict[str, Any]) -> None:
    """RS.ATK.4: each unit's models and wounds lost in the attack, recorded as casualties."""
    units = t.state["units"]
    for uid in together:
        wounds = 0  # the wounds this unit had left before the attack, less those it has left after
        for line, was in enumerate(before[uid]):
            wounds += (was.count * was.W - was.wounds_taken) - \
                      (after[uid]["alive"][line] * was.W - after[uid]["taken"][line])
        lost = units[uid]["models_alive"] - sum(after[uid]["alive"])
        if lost > 0 or wounds > 0:
            ruleset.casualties(t, uid, lost, wounds, "RS.ATK.4")


def line_standing(unit: dict[str, Any]) -> tuple[list[int], list[int]]:
    """Models alive and the wounded model's lost wounds, per model line: as the last attack left them, with what
    was recorded since laid over them (RS.ATK.3).

    Without lines kept by an attack (none yet, or dropped by mortal wounds outside one or by revived models) a
    unit's mustered lines are the start. Models lost since are taken from the first lines first; models returned
    come back to the first lines short of their count, with full W (CORE.REV.1). A kept wounded model keeps its
    lost wounds on its line while that line has a model standing; wounds known only as a count (`model_damage`,
    with no lines kept) go to the first line standing with more W than that, else to none. What comes out always
    makes a valid `ModelLine` each: a wounded model is alive and has lost fewer wounds than its W."""
    counts = [line.get("count", 1) for line in unit["models"]]
    wounds = [army.model_wounds(line) for line in unit["models"]]
    kept = unit.get("lines")
    if not (kept and len(kept["alive"]) == len(counts) == len(kept["taken"])):
        kept = None
    alive, taken = (list(kept["alive"]), list(kept["taken"])) if kept else (list(counts), [0] * len(counts))
    change = unit["models_alive"] - sum(alive)
    for i in range(len(alive)):
        moved = min(counts[i] - alive[i], change) if change > 0 else -min(alive[i], -change)
        alive[i] += moved
        change -= moved
    taken = [t if n and 0 < t < w else 0 for t, n, w in zip(taken, alive, wounds)]
    damage = 0 if kept else unit.get("model_damage", 0)  # kept lines say whose the wounds are
    if damage:
        fits = next((i for i, (n, w) in enumerate(zip(alive, wounds)) if n and damage < w), None)
        if fits is not None:
            taken[fits] = damage
    return alive, taken
