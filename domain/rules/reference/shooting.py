"""The Shooting phase (RS.SHO.*) and every attack, ranged or melee, rolled hit -> wound -> save -> damage
(RS.ATK.1-4). Each weapon of a unit is used once a phase; in a fight each model uses one melee weapon."""
from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from typing import TYPE_CHECKING, Any

from warlog.domain import army
from warlog.domain import events as ev
from warlog.domain.attacks import Need, Outcome, Profile, Situation, to_data, weapon_from
from warlog.domain.attacks.driver import AttackDriver, keep_lines, standing_target
from warlog.domain.attacks.lines import line_standing
from warlog.domain.attacks.steps import hazardous
from warlog.domain.rules import actions as act
from warlog.domain.rules import editions
from warlog.domain.rules.actions import Action
from warlog.domain.rules.attacking import Attacking
from warlog.domain.rules.basics import evolves, seat_units
from warlog.domain.rules.flow import wounded_note
from warlog.domain.rules.reference import events as own
from warlog.domain.rules.reference.commands import Attack, ReferenceSelect
from warlog.domain.rules.reference.common import (
    attached_to,
    engaged,
    foes,
    is_monster_or_vehicle,
    members_of,
    not_a_unit_alone,
    on_battlefield,
    remained_stationary,
)
from warlog.domain.rules.ruleset import alive, handles
from warlog.domain.rulings import Malformed, NotFound, Refused
from warlog.domain.state import GameState, Lines, ReferenceTurn, Unit
from warlog.domain.state import Weapon as UnitWeapon
from warlog.domain.state.values import replace
from warlog.domain.words import ACTIVATIONS, humane, not_yours, unit_named

if TYPE_CHECKING:
    from warlog.domain.game import Table

SHOOTING = ("normal", "assault", "close_quarters", "indirect")
RESOLVED_FIELDS = ("hits", "wounds", "failed_saves", "mortal_wounds", "wounds_lost", "models_destroyed")  # AttackResolved


# -- the types of shooting (RS.SHO.1) -----------------------------------------------------------------------


def weapon_keywords(weapon: UnitWeapon) -> set[str]:
    return {k.upper().strip("[] ") for k in weapon.keywords}


def close_quarters_weapon(unit: Unit, weapon: UnitWeapon) -> bool:
    words = weapon_keywords(weapon)
    return is_monster_or_vehicle(unit) or "CLOSE-QUARTERS" in words or "PISTOL" in words or weapon.kind == "pistol"


def usable(unit: Unit, weapon: UnitWeapon, kind: str) -> bool:
    """RS.SHO.1: which ranged weapons a type of shooting fires."""
    words = weapon_keywords(weapon)
    return {"normal": True, "assault": "ASSAULT" in words or weapon.kind == "assault",
            "close_quarters": close_quarters_weapon(unit, weapon), "indirect": "INDIRECT FIRE" in words}[kind]


def shooting_problem(unit: Unit, kind: str) -> str | None:
    """RS.SHO.1: why this unit cannot make this type of shooting, or None."""
    advanced = bool(ReferenceTurn.of(unit.turn).advanced)
    said = ACTIVATIONS["shooting"].get(kind, f"{humane(kind)} shooting")  # 'Close-quarters shooting'
    if engaged(unit) and kind != "close_quarters":
        return f"an engaged unit cannot make {said}"
    if advanced and kind != "assault":
        return f"a unit that Advanced cannot make {said}"
    if kind == "assault" and not advanced:
        return "Assault shooting is for a unit that Advanced"
    if kind == "close_quarters" and not engaged(unit):
        return "Close-quarters shooting is for an engaged unit"
    if not any(usable(unit, w, kind) for w in army.unit_ranged_weapons(unit)):
        return {"assault": "it has no [ASSAULT] weapon", "indirect": "it has no [INDIRECT FIRE] weapon",
                "close_quarters": "it needs [CLOSE-QUARTERS] weapons or MONSTER/VEHICLE",
                "normal": "it has no ranged weapon"}[kind]
    return None


def is_blast(weapon: UnitWeapon) -> bool:
    return "BLAST" in weapon_keywords(weapon)


def blast_blocked(state: GameState, uid: str, target: str) -> bool:
    """EXT.WPN.BLAST: the target unit (with its attached leader) is within Engagement Range of a unit of the
    attacker's army, the attacker's own unit included."""
    units = state.units
    friends = {f for f, u in units.items() if u.owner == units[uid].owner}
    return any(friends & set(units[m].engaged_with) for m in members_of(units, target))


def shooting_types(unit: Unit) -> list[str]:
    """The types of shooting open to the unit."""
    return [kind for kind in SHOOTING if shooting_problem(unit, kind) is None]


class Shooting(Attacking):
    """Mixed into `Reference`: the Shooting phase, the shared attack driver it holds (`attacks`) and the hooks
    that driver calls back."""

    attack_party = staticmethod(members_of)

    @cached_property
    def attacks(self) -> AttackDriver:
        """Every attack, ranged or melee (domain/attacks/driver.py): its outcome names the mortal wounds too; an
        attack may pause between batches for Command Re-roll (EXT.CP.1, `batch_rolled`); a HAZARDOUS weapon's roll
        after its last target costs what `hazard_suffered` says."""
        return AttackDriver(self, resolved_fields=RESOLVED_FIELDS, batch_rolled=self.batch_rolled,
                            hazard_suffered=self.hazard_suffered)

    def batch_rolled(self, t: Table, context: ev.AttackRoll, need: Need, faces: list[int]) -> None:
        """Hook: a whole batch of an attack is in (`Reference` hands it to its part `AttackChoices`, choices.py, which
        may pause it for Command Re-roll); it goes on."""
        self.attacks.batch_done(t, context, faces)

    def shooting_actions(self, state: GameState, seat: str, ready: list[str]) -> list[Action]:
        units = state.units
        return [act.action("select", "RS.SHO.1", f"select {unit_named(state, uid)} to shoot, and its type of shooting",
                           ["unit", "shooting"], unit=act.const(uid),
                           shooting=act.one_of(shooting_types(units[uid])))
                for uid in ready]

    def select_shooting(self, t: Table, seat: str, command: ReferenceSelect, selected: Unit) -> None:
        """`selected`: the unit the command selects."""
        kind = command.shooting or ("close_quarters" if engaged(selected) else "normal")
        if kind not in SHOOTING:
            raise Malformed(f"shooting is one of {', '.join(SHOOTING)}", field="shooting")
        problem = shooting_problem(selected, kind)
        if problem:
            raise Refused(problem, rule="RS.SHO.1")
        t.emit("UnitSelected", {"unit": command.unit, "seat": seat, "phase": "shooting", "shooting": kind}, "RS.SHO.1")

    # -- what an attack may use and aim at ----------------------------------------------

    def weapons_open(self, state: GameState, uid: str, phase: str) -> list[str]:
        """Weapons this unit may still attack with this phase: each once; in a shooting, those its type fires."""
        unit = state.units[uid]
        turn = ReferenceTurn.of(unit.turn)
        used = turn.used or ()
        if phase == "shooting":
            kind = turn.shooting
            if kind is None:  # selected for an action instead of shooting (unit_actions.py)
                return []
            return [w.name for w in army.unit_ranged_weapons(unit) if w.name not in used and usable(unit, w, kind)]
        if self.models_left(unit) <= 0:
            return []
        return [w.name for w in unit.weapons if w.type == "melee" and w.name not in used]

    @staticmethod
    def models_left(unit: Unit) -> int:
        """RS.FGT.3: each model picks one melee weapon; these have not attacked yet."""
        return unit.models_alive - (ReferenceTurn.of(unit.turn).melee_models or 0)

    @staticmethod
    def targets_of(state: GameState, uid: str, phase: str) -> list[str]:
        """RS.SHO.2 (unengaged targets; close-quarters and PISTOL at the units engaged with it) and RS.FGT.3
        (enemy units engaged with it); an attached leader is targeted as its bodyguard's unit (CORE.STR.1)."""
        units = state.units
        unit = units[uid]
        near = [f for f in unit.engaged_with if alive(units[f]) and not attached_to(units, f)]
        if phase == "fight" or ReferenceTurn.of(unit.turn).shooting == "close_quarters":
            if near:
                return near
            return [f for f, u in foes(state, unit.owner) if engaged(u)] if engaged(unit) else []
        return [f for f, u in foes(state, unit.owner) if not engaged(u)]

    def attack_actions(self, state: GameState, seat: str, phase: str) -> list[Action]:
        if state.rolls:
            return []
        rule = "RS.SHO.2" if phase == "shooting" else "RS.FGT.3"
        offered = []
        for uid, unit in seat_units(state, seat):
            if not (unit.selected and alive(unit)) or (phase == "fight" and not ReferenceTurn.of(unit.turn).fighting):
                continue
            weapons, targets = self.weapons_open(state, uid, phase), self.targets_of(state, uid, phase)
            most = unit.models_alive if phase == "shooting" else self.models_left(unit)
            for group, aimed in self.weapon_groups(state, uid, weapons, targets):
                offered += self.attack_offers(state, uid, rule, group, aimed, most)
        return offered

    def attack_offers(self, state: GameState, uid: str, rule: str, weapons: list[str], targets: list[str],
                      most: int) -> list[Action]:
        """The attack with these weapons at one of these targets; and (RS.SHO.2, each model's weapon a weapon)
        where there are two targets or more for two models or more, the attack with each model's weapon at a
        target of its own: `targets`, one entry a model."""
        precise = self.precision_applies(state, uid, weapons, targets)
        common = {"unit": act.const(uid), "weapon": act.one_of(weapons),
                  "precision": act.boolean("PRECISION: critical hits' wounds go to a CHARACTER in the target "
                                           "unit") if precise else None}
        offers = [act.action("attack", rule, f"attack with {unit_named(state, uid)}: one weapon at one target",
                             ["unit", "weapon", "target"], target=act.one_of(targets),
                             models=act.integer(1, most, "models attacking with it"),
                             within_half_range=act.boolean("the target is within half the weapon's range "
                                                           "(RAPID FIRE, MELTA; measured)"), **common)]
        if editions.fixed(state, "RS.SHO.2") and len(targets) > 1 and most > 1:
            each = {"type": "array", "items": act.one_of(targets), "minItems": 1, "maxItems": most,
                    "description": "one entry a model attacking with the weapon: the unit it attacks"}
            near = act.subset(targets, 0, "the targets within half the weapon's range (RAPID FIRE, MELTA; measured)")
            offers.append(act.action("attack", rule, f"attack with {unit_named(state, uid)}: one weapon, each model's at its target",
                                     ["unit", "weapon", "targets"], targets=each, within_half_range_of=near,
                                     **common))
        return offers

    @staticmethod
    def weapon_groups(state: GameState, uid: str, weapons: list[str],
                      targets: list[str]) -> list[tuple[list[str], list[str]]]:
        """The open weapons with the targets each may attack: one group, unless EXT.WPN.BLAST keeps the unit's
        BLAST weapons off some target (a unit engaged with the attacker's army), where they are a group of their
        own with the targets left to them (none: not offered)."""
        if not (weapons and targets):
            return []
        if not editions.fixed(state, "EXT.WPN.BLAST"):
            return [(weapons, targets)]
        blast = [w.name for w in state.units[uid].weapons if w.name in weapons and is_blast(w)]
        open_to_blast = [target for target in targets if not blast_blocked(state, uid, target)]
        if not blast or open_to_blast == targets:
            return [(weapons, targets)]
        rest = [w for w in weapons if w not in blast]
        return [(group, aimed) for group, aimed in ((rest, targets), (blast, open_to_blast)) if group and aimed]

    @staticmethod
    def precision_applies(state: GameState, uid: str, weapons: list[str], targets: list[str]) -> bool:
        """EXT.WPN.PRECISION is the attacker's choice only where one of its open weapons has PRECISION and a
        target unit (with its attached leader) has a CHARACTER model."""
        units = state.units
        precise = any("PRECISION" in weapon_keywords(w) for w in units[uid].weapons if w.name in weapons)
        return precise and any("CHARACTER" in units[m].keywords for target in targets
                               for m in members_of(units, target))

    @handles("attack")
    def attack(self, t: Table, seat: str, command: Attack) -> None:
        state = t.state
        step = self.step(t.state)
        if step is None or step.phase not in ("shooting", "fight") or state.rolls:
            raise Refused("attacks are made in the Shooting and Fight phases, one at a time",
                          rule="RS.SHO.1" if step is None or step.phase != "fight" else "RS.FGT.3")
        phase = step.phase
        rule = "RS.SHO.2" if phase == "shooting" else "RS.FGT.3"
        unit = state.units[command.unit]
        if unit.owner != seat:
            raise Refused(not_yours(state, command.unit, seat), rule=rule)
        if not unit.selected or (phase == "fight" and not ReferenceTurn.of(unit.turn).fighting):
            raise Refused(f"select {unit_named(state, command.unit, seat)} for this phase before it attacks",
                          rule=step.rule)
        wanted = "ranged" if phase == "shooting" else "melee"
        weapon = next((w for w in unit.weapons if w.name == command.weapon and w.type == wanted), None)
        if weapon is None:
            raise Malformed(f"{unit_named(state, command.unit, seat)} has no {wanted} weapon named {command.weapon!r}",
                            field="weapon")
        if command.weapon not in self.weapons_open(state, command.unit, phase):
            raise Refused(f"{command.weapon} was used this phase, or this type of shooting does not fire it",
                          rule="RS.SHO.1" if phase == "shooting" else "RS.FGT.3")
        aims = self.aims_of(state, command, phase, rule)
        for target in aims:
            self.judge_target(state, command.unit, weapon, target, phase, rule)
        near = self.near_of(command, aims)
        if command.precision is not None and type(command.precision) is not bool:
            raise Malformed("precision is true or false", field="precision")
        how = {"phase": phase, "rule": rule, "near": near, "precision": bool(command.precision)}
        (target, models), *rest = aims.items()
        self.declare_aim(t, command.unit, weapon, target, models, how, [[uid, n] for uid, n in rest])

    def aims_of(self, state: GameState, command: Attack, phase: str, rule: str) -> dict[str, int]:
        """The models attacking each target, in the order named: `target` with `models` (default: all), or
        `targets`, one entry a model (RS.SHO.2 per model's weapon)."""
        unit = state.units[command.unit]
        most = unit.models_alive if phase == "shooting" else self.models_left(unit)
        if command.targets is None:
            if command.target is None:
                raise Malformed("name the target (or each model's, `targets`)", field="target")
            models = command.models or most
            if not 1 <= models <= most:
                raise Malformed(f"models must be from 1 to {most}", field="models")
            return {command.target: models}
        if not editions.fixed(state, "RS.SHO.2"):
            raise Refused("in this game's edition a weapon attacks one target: send `target`", rule=rule)
        if command.target is not None or command.models is not None:
            raise Malformed("`targets` names each model's target: send it without `target` and `models`",
                            field="targets")
        if not 1 <= len(command.targets) <= most:
            raise Malformed(f"targets names 1 to {most} models' targets, one entry a model", field="targets")
        aims: dict[str, int] = {}
        for target in command.targets:
            aims[target] = aims.get(target, 0) + 1
        return aims

    @staticmethod
    def near_of(command: Attack, aims: dict[str, int]) -> list[str]:
        """The targets within half the weapon's range, as attested (RAPID FIRE, MELTA): `within_half_range` of
        the one target, `within_half_range_of` naming those of `targets`."""
        if command.targets is None:
            if command.within_half_range_of is not None:
                raise Malformed("name the one target's range with within_half_range", field="within_half_range_of")
            if command.within_half_range is not None and type(command.within_half_range) is not bool:
                raise Malformed("within_half_range is true or false (measured at the table)",
                                field="within_half_range")
            return list(aims) if command.within_half_range else []
        if command.within_half_range is not None:
            raise Malformed("with `targets`, name those within half range in within_half_range_of",
                            field="within_half_range")
        named = set(command.within_half_range_of or ())  # a unit it names that is not attacked: nothing to read
        return [target for target in aims if target in named]

    def judge_target(self, state: GameState, uid: str, weapon: UnitWeapon, target: str, phase: str,
                     rule: str) -> None:
        """RS.SHO.2 / RS.FGT.3 (CORE.STR.1, EXT.WPN.BLAST): whether this weapon of the unit may attack it."""
        if target not in state.units:
            raise NotFound(f"no unit {target!r} in this game", field="target")
        seat = state.units[uid].owner  # the attacker's player, whom the refusal answers
        alone = not_a_unit_alone(state, seat, [target])
        if alone:
            raise Refused(alone[1], rule=alone[0])
        if target not in self.targets_of(state, uid, phase):
            why = "an enemy unit engaged with it" if phase == "fight" else "a visible enemy unit, unengaged"
            off = not on_battlefield(state.units[target])  # CORE.OFF.1: it cannot be targeted at all
            raise Refused(f"{unit_named(state, target, seat)} is not a target here: {why} on the battlefield",
                          rule="CORE.OFF.1" if off else rule)
        if is_blast(weapon) and editions.fixed(state, "EXT.WPN.BLAST") and blast_blocked(state, uid, target):
            raise Refused(f"{weapon.name} is a BLAST weapon: it never attacks a unit within Engagement Range of "
                          f"a unit of your army, {unit_named(state, uid, seat)} included", rule="EXT.WPN.BLAST")

    def declare_aim(self, t: Table, uid: str, weapon: UnitWeapon, target: str, models: int, how: Mapping[str, Any],
                    rest: list[list[Any]]) -> None:
        """Declare the weapon's attack at one target, `how` the command asked for it (its phase and rule, the
        attested range and PRECISION); `rest`: the targets after this one and their models, each declared in turn
        as the attack before it ends (RS.SHO.2 per model's weapon), carried with the attack's dice as `then`. A
        HAZARDOUS weapon aimed so is rolled for once its last target is attacked (`fired`: its models so far)."""
        within = target in how["near"]
        profile = self.attack_profile(t.state, uid, weapon, target, models, within, how["precision"])
        if hazardous(profile) and (rest or "fired" in how) and editions.fixed(t.state, "EXT.WPN.HAZARDOUS"):
            profile = replace(profile, situation=replace(profile.situation, hazard_after=True))
            how = {**how, "fired": how.get("fired", 0) + models}
        attack: ev.AttackDeclared = {"attacker": uid, "target": target, "weapon": weapon.name, "models": models,
                                     "phase": how["phase"], "within_half_range": within,
                                     "abilities": sorted(k.text for k in profile.weapon.keywords if k.known),
                                     "profile": to_data(profile)}
        seat = t.state.units[uid].owner  # the attacker's, also where the defender's roll ended the attack before
        if rest or "fired" in how:
            self.attacks.declare_attack(t, attack, how["rule"], seat, then={**how, "aims": rest})
        else:
            self.attacks.declare_attack(t, attack, how["rule"], seat)

    def next_aim(self, t: Table, uid: str, weapon_name: str, then: Mapping[str, Any]) -> bool:
        """The weapon's attack at its next target, once the one before it is resolved: each target still standing
        and still one it may attack, with the models it names that are left. False: none is left."""
        how = {key: then[key] for key in ("phase", "rule", "near", "precision", "fired") if key in then}
        unit = t.state.units[uid]
        wanted = "ranged" if how["phase"] == "shooting" else "melee"
        weapon = next(w for w in unit.weapons if w.name == weapon_name and w.type == wanted)
        aims = [list(aim) for aim in then["aims"]]
        while aims and alive(unit):
            (target, models), aims = aims[0], aims[1:]
            if alive(t.state.units[target]) and target in self.targets_of(t.state, uid, how["phase"]):
                self.declare_aim(t, uid, weapon, target, min(models, unit.models_alive), how, aims)
                return True
        return False

    def attack_profile(self, state: GameState, uid: str, weapon: UnitWeapon, target_uid: str, models: int,
                       within_half_range: bool, precision: bool = False) -> Profile:
        """The attack module's profile: the weapon and its abilities, the situation as the log knows it or the
        players attest it, the target unit (with its attached leader) line by line as it stands."""
        units = state.units
        unit, target = units[uid], units[target_uid]
        turn = ReferenceTurn.of(unit.turn)
        friends = {f for f, u in units.items() if u.owner == unit.owner}
        situation = Situation(
            models=models, remained_stationary=remained_stationary(state, unit),
            charged=bool(turn.charged), within_half_range=within_half_range,
            target_engaged_with_friendly=bool(friends & set(target.engaged_with)),
            attacker_keywords=frozenset(unit.keywords), defender_allocates=True)
        profile = Profile(weapon_from(weapon, unit), standing_target(units, members_of(units, target_uid)), situation)
        if precision:  # EXT.WPN.PRECISION: the attacker sends the critical hits' wounds to a CHARACTER it picks
            line = next((i for i, ml in enumerate(profile.target.lines)
                         if "CHARACTER" in ml.keywords and ml.count), None)
            if line is not None:
                profile = replace(profile, situation=replace(situation, precision_line=line))
        return profile

    def attack_finished(self, t: Table, context: ev.AttackRoll, outcome: Outcome) -> None:
        """EXT.WPN.HAZARDOUS: after the attack's losses, the hazard's on the attacker; then the weapon's attack at
        its next target, if its models were aimed at more than one (RS.SHO.2), and after the last its hazard."""
        hazard = outcome.hazardous
        if hazard is not None:
            self.hazard_suffered(t, context["attack"]["attacker"], hazard.facts)
        then, ids = context.get("then"), context["attack"]
        if then and then.get("aims") and self.next_aim(t, ids["attacker"], ids["weapon"], then):
            return  # RS.SHO.2: the weapon's models aimed at another target attack it now
        if then and then.get("fired") and alive(t.state.units[ids["attacker"]]):
            self.attacks.weapon_hazard(t, ids, then["fired"])  # EXT.WPN.HAZARDOUS: its last target attacked

    def hazard_suffered(self, t: Table, uid: str, facts: Mapping[str, Any]) -> None:
        """EXT.WPN.HAZARDOUS: a model destroyed a 1, or (a CHARACTER, MONSTER or VEHICLE) 3 mortal wounds."""
        slain = facts["models_destroyed"]
        if editions.fixed(t.state, "EXT.WPN.HAZARDOUS/left"):  # never more than it has left (casualties recorded
            slain = min(slain, t.state.units[uid].models_alive)  # while it waited), nor a unit destroyed twice
        if slain:
            self.casualties(t, uid, slain, 0, "EXT.WPN.HAZARDOUS")
        elif facts["mortal_wounds"]:
            self.damage(t, {"target": uid}, [facts["mortal_wounds"]], mortal=True, rule="EXT.WPN.HAZARDOUS")

    def damage(self, t: Table, attack: Mapping[str, str], amounts: list[int], mortal: bool = False,
               rule: str = "RS.ATK.4") -> None:
        """RS.ATK.4: a model at 0 wounds is destroyed; excess damage from one attack is lost (not mortal wounds).
        Outside an attack (hazards, Desperate Escape) the damage goes model line by model line as an attack's
        would (RS.ATK.3): to the wounded model first, then to the first lines standing, each model's own W."""
        uid = attack["target"]
        unit = t.state.units[uid]
        alive, taken = line_standing(unit)
        wounds = [model.wounds for model in unit.models]
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
        if not (destroyed or applied):
            return
        if unit.starting_strength == 1 or not editions.fixed(t.state, "RS.ATK.4/mortal"):  # one model: all it lost
            self.casualties(t, uid, destroyed, applied if unit.starting_strength == 1 else 0, rule)
        else:  # RS.ATK.4/mortal: the wounds lost, and its wounded model's as its model line shows them
            self.casualties(t, uid, destroyed, applied, rule, **wounded_note(t.state, uid, taken))

    # -- appliers ------------------------------------------------------------------------

    @evolves("AttackDeclared")
    def _attack_declared(self, state: GameState, data: ev.AttackDeclared, entry: ev.Entry) -> GameState:
        uid = data["attacker"]
        unit = state.units[uid]
        turn = ReferenceTurn.of(unit.turn)
        turn = replace(turn, used=(*(turn.used or ()), data["weapon"]))
        if data.get("phase") == "fight":
            turn = replace(turn, melee_models=(turn.melee_models or 0) + data["models"])
        return state.with_unit(uid, replace(unit, turn=turn))

    @evolves("DamageAllocated")
    def _model_damage(self, state: GameState, data: own.DamageAllocated, entry: ev.Entry) -> GameState:
        uid = data["unit"]
        # the model lines as the damage left them (line_standing reads them for the next); a DamageAllocated
        # stored before it named its lines drops them: they are read again from the counts
        lines = Lines.from_json(data["lines"]) if "lines" in data else None
        return state.with_unit(uid, replace(state.units[uid], model_damage=data["model_damage"], lines=lines))

    @evolves("AttackResolved")
    def _attack_resolved(self, state: GameState, data: ev.AttackResolved, entry: ev.Entry) -> GameState:
        return keep_lines(state, data)
