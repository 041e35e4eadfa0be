"""Heresy attacks through the shared attack module (`domain/attacks`, its `heresy` tables): shooting, snap shots
and the strikes of a fight, each weapon's dice asked one batch at a time with `request_roll`.

Seed 002 does not detail the Shooting phase; RULES.md cites no HH rule for it. The steps are the shared
ones (RS.ATK.1-4, rolled by the attacker, the saves by the defender at the table) read against the older
era's tables, whose conventions `domain/attacks/tables.py` states. What this module adds (conventions):

- A unit selected to shoot (`select`, HH.MOV.5) fires each ranged weapon once in the phase (`shoot`), at
  one of the units it named, with as many of its models as the players say (attested, CORE.DIST.1).
- The firer's BS (WS in melee) is its first model's; the weapon's own `skill` is not read. The target
  unit is read line by line with the leader attached to it, as it stands.
- Weapon types (the roster's `kind`): RAPID FIRE doubles the shots within half range (attested); a
  HEAVY or ORDNANCE weapon of a unit that is not Stationary, a vehicle's excepted, fires snap shots.
- A vehicle target (its first model has armour values) is hit on the facing the players attest (front,
  side, rear); each glancing or penetrating hit not saved takes hull points (the era's damage table for
  a penetrating hit is the table's to roll and record). At 0 hull points it is destroyed (CORE.STR.2).
- Where the tables lack a value they need (the firer's BS or WS, the weapon's S, the target's T, a
  vehicle's armour values, a foe's WS in melee) that weapon is not offered here: the table rolls it
  with `free_roll` and records its casualties, as the action's summary says.
- Pinned is not rolled here: the era's pinning tests belong to weapons' special rules, which the
  tables do not read; the table records Pinned with `set_status`.
"""
from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from typing import TYPE_CHECKING, Any, Literal, TypeAlias, cast

from typing_extensions import TypedDict

from warlog.domain import army, dice
from warlog.domain import events as ev
from warlog.domain.attacks import Outcome, Profile, Situation, Weapon, to_data
from warlog.domain.attacks.driver import AttackDriver, keep_lines, standing_target
from warlog.domain.attacks.tables import HERESY
from warlog.domain.rules import actions as act
from warlog.domain.rules.actions import Action
from warlog.domain.rules.attacking import Attacking
from warlog.domain.rules.basics import evolves, seat_units
from warlog.domain.rules.heresy import common
from warlog.domain.rules.heresy.commands import Shoot
from warlog.domain.rules.reference.common import members_of
from warlog.domain.rules.ruleset import alive, handles
from warlog.domain.rulings import Malformed, NotFound, Refused
from warlog.domain.state import Armour, GameState, HeresyStep, HeresyTurn, Unit
from warlog.domain.state import Weapon as UnitWeapon
from warlog.domain.state.values import replace
from warlog.domain.words import unit_named

if TYPE_CHECKING:
    from warlog.domain.game import Table


class FightGoesOn(TypedDict):
    """A strike's `then`: the fight goes on once it is resolved (`Assault.fight_goes_on`)."""

    kind: Literal["fight"]


class SnapShotsGoOn(TypedDict):
    """A snap shot's `then`: the reaction's weapons still to fire after it (`Reactions.next_snap_shot`)."""

    kind: Literal["snap_shots"]
    unit: str
    against: str
    facing: str | None
    weapons: list[str]


Then: TypeAlias = FightGoesOn | SnapShotsGoOn  # what follows a heresy attack, carried with its dice

FACINGS = ("front", "side", "rear")
SNAP_KINDS = ("heavy", "ordnance")


def armour(unit: Unit) -> Armour | None:
    """The older editions' armour values (front, side, rear) of a vehicle's first model, if the roster gives them."""
    return unit.models[0].armour


def has_facings(unit: Unit) -> bool:
    """A vehicle with armour values: the players name the facing each attack hits."""
    return army.unit_is_vehicle(unit) and armour(unit) is not None


def tables_gap(state: GameState, uid: str, arms: UnitWeapon, target_uid: str) -> str | None:
    """Why the heresy tables cannot resolve this weapon at this target (None: they can), the units named as the
    attacking player knows them."""
    units = state.units
    line, target = units[uid].models[0], units[target_uid]
    melee = arms.type == "melee"
    vehicle = army.unit_is_vehicle(target)
    if not (line.WS if melee else line.BS):
        return f"{unit_named(state, uid)} has no {'WS' if melee else 'BS'}"
    if not arms.S:
        return f"{arms.name} has no S"
    if melee and vehicle:
        return "a vehicle in an assault is the table's to resolve"
    seat = units[uid].owner
    if melee and not target.models[0].WS:
        return f"{unit_named(state, target_uid, seat)} has no WS"
    if vehicle and not armour(target):
        return f"{unit_named(state, target_uid, seat)} is a vehicle without armour values"
    if not vehicle and not target.models[0].T:
        return f"{unit_named(state, target_uid, seat)} has no T"
    return None


def shots(weapon: UnitWeapon, within_half_range: bool) -> str:
    """The weapon's A; RAPID FIRE doubles it within half range (attested)."""
    expr = dice.parse(weapon.A or "1")
    if weapon.kind == "rapid_fire" and within_half_range:
        expr = dice.DiceExpr(expr.count * 2, expr.sides, expr.modifier * 2)
    return str(expr)


def snap_only(unit: Unit, weapon: UnitWeapon) -> bool:
    """A HEAVY or ORDNANCE weapon of a unit that is not Stationary fires snap shots (a vehicle's excepted)."""
    return weapon.kind in SNAP_KINDS and "stationary" not in unit.statuses and not army.unit_is_vehicle(unit)


def heresy_profile(units: Mapping[str, Unit], uid: str, weapon: UnitWeapon, target_uid: str, models: int,
                   facing: str | None = None, snap_shots: bool = False, within_half_range: bool = False) -> Profile:
    """The attack module's profile on the heresy tables: no EXT abilities, the model's BS or WS, the target as
    it stands (with its attached leader), the foe's WS in melee and the facing's armour value on a vehicle."""
    unit, target = units[uid], units[target_uid]
    melee = weapon.type == "melee"
    line = unit.models[0]
    skill = line.WS if melee else line.BS
    if skill is None or weapon.S is None:  # pragma: no cover -- tables_gap offers no such weapon
        raise ValueError(f"the heresy tables read {uid}'s {'WS' if melee else 'BS'} and {weapon.name}'s S")
    arms = Weapon.of(weapon.name, A=weapon.A or "1" if melee else shots(weapon, within_half_range),
                     skill=skill, S=weapon.S, AP=weapon.AP or 0, D=weapon.D or "1", melee=melee)
    aimed = standing_target(units, members_of(units, target_uid))
    values = armour(target)
    aimed = replace(aimed, WS=target.models[0].WS if melee else None,
                    AV=getattr(values, facing) if values and facing else None)
    return Profile(arms, aimed, Situation(models=models, snap_shots=snap_shots), HERESY)


def hull_points(profile: Profile, outcome: Outcome) -> dict[str, Any]:
    """What a heresy `AttackResolved` adds after the lines: a vehicle's hull points lost (its damage table is the
    table's to roll)."""
    if profile.target.AV is None:
        return {}
    return {"hull_points_lost": outcome.wounds_lost, "armour_value": profile.target.AV,
            "damage_table": "attested: the table rolls the vehicle damage table for its penetrating hits"}


class Shooting(Attacking):
    """Mixed into `Heresy`: `shoot`, and the shared attack driver every heresy attack is rolled by (shots, snap
    shots, strikes, `attacks`), with what it calls back: the target with its attached leader, what follows the
    attack."""

    attack_party = staticmethod(members_of)

    @cached_property
    def attacks(self) -> AttackDriver:
        """Every heresy attack (domain/attacks/driver.py); its outcome adds a vehicle's hull points."""
        return AttackDriver(self, resolved_extra=hull_points)

    def attack_finished(self, t: Table, context: ev.AttackRoll, outcome: Outcome) -> None:
        """Hook: what follows a heresy attack (`Heresy`: a snap shot's next weapon, a fight's next strike)."""

    # -- the Shooting phase ----------------------------------------------------------------

    @staticmethod
    def shots_open(state: GameState, uid: str) -> list[UnitWeapon]:
        unit = state.units[uid]
        fired = HeresyTurn.of(unit.turn).fired or ()
        return [w for w in army.unit_ranged_weapons(unit) if w.name not in fired]

    @staticmethod
    def shot_targets(state: GameState, uid: str) -> list[str]:
        unit = state.units[uid]
        standing = common.enemies_on_battlefield(state, unit.owner)
        return [target for target in HeresyTurn.of(unit.turn).targets or () if target in standing]

    def shoot_actions(self, state: GameState, seat: str) -> list[Action]:
        units, offered = state.units, []
        for uid, unit in seat_units(state, seat):
            if not (HeresyTurn.of(unit.turn).shot and alive(unit)) or not unit.selected:
                continue
            for target in self.shot_targets(state, uid):
                weapons = [w.name for w in self.shots_open(state, uid) if tables_gap(state, uid, w, target) is None]
                if not weapons:
                    continue
                vehicle = has_facings(units[target])
                fields = {"facing": act.one_of(FACINGS, "the armour facing hit (attested)")} if vehicle else {}
                offered.append(act.action(
                    "shoot", "RS.SHO.2", f"fire one weapon of {unit_named(state, uid)} at "
                    f"{unit_named(state, target, seat)}: the service rolls hits, wounds"
                    + (" (armour penetration)" if vehicle else "") + " and saves on the heresy tables",
                    ["unit", "weapon", "target", *fields], unit=act.const(uid), weapon=act.one_of(weapons),
                    target=act.const(target), models=act.integer(1, unit.models_alive, "models firing it"),
                    within_half_range=act.boolean("the target is within half range (RAPID FIRE: double shots)"),
                    **fields))
        return offered

    @handles("shoot")
    def shoot(self, t: Table, seat: str, command: Shoot) -> None:
        state = t.state
        step = self.step(t.state)
        common.refuse_while_reacting(state, seat)
        if step is None or step.phase != "shooting" or state.rolls:
            raise Refused("a unit selected to shoot fires in the Shooting phase, one weapon at a time",
                          rule="HH.MOV.5")
        units = state.units
        if command.unit not in units:
            raise NotFound(f"no unit {command.unit!r} in this game", field="unit")
        unit = units[command.unit]
        if unit.owner != seat or not unit.selected or not HeresyTurn.of(unit.turn).shot:
            raise Refused(f"select {unit_named(state, command.unit, seat)} to shoot (naming its targets) before it fires", rule="HH.MOV.5")
        weapon = next((w for w in army.unit_ranged_weapons(unit) if w.name == command.weapon), None)
        if weapon is None:
            raise Malformed(f"{unit_named(state, command.unit, seat)} has no ranged weapon named {command.weapon!r}", field="weapon")
        if weapon not in self.shots_open(state, command.unit):
            raise Refused(f"{command.weapon} has fired this phase: each weapon fires once", rule="RS.SHO.2")
        if command.target not in self.shot_targets(state, command.unit):
            raise Refused(f"{unit_named(state, command.target, seat)} is not one of the units "
                          f"{unit_named(state, command.unit, seat)} was selected to shoot at, "
                          "on the battlefield", rule="RS.SHO.2")
        gap = tables_gap(state, command.unit, weapon, command.target)
        if gap:
            raise Refused(f"{gap}: roll this weapon's attack as a free roll and record its casualties",
                          rule="RS.ATK.1")
        facing = self.checked_facing(units[command.target], command.facing)
        models = command.models if command.models is not None else unit.models_alive
        if isinstance(models, bool) or not isinstance(models, int) or not 1 <= models <= unit.models_alive:
            raise Malformed(f"models must be from 1 to {unit.models_alive}", field="models")
        self.start_attack(t, command.unit, weapon, command.target, models, "shooting", facing,
                          snap_shots=snap_only(unit, weapon), within_half_range=command.within_half_range is True)

    @staticmethod
    def checked_facing(target: Unit, facing: str | None) -> str | None:
        if not has_facings(target):
            if facing is not None:
                raise Malformed("a facing is named only for a vehicle target with armour values", field="facing")
            return None
        if facing not in FACINGS:
            raise Malformed("name the armour facing hit: front, side or rear (attested)", field="facing")
        return facing

    # -- an attack, rolled by the shared driver (`attacks`) ---------------------------------

    def start_attack(self, t: Table, uid: str, arms: UnitWeapon, target: str, models: int,
                     phase: str, facing: str | None = None, snap_shots: bool = False, within_half_range: bool = False,
                     then: Then | None = None) -> None:
        """Declare one weapon's attack on the heresy tables and roll it (the shared driver). `then` rides along
        with the dice and says what follows the attack (`attack_finished`), logged as JSON (`ev.AttackRoll.then`).
        `arms`: the unit's weapon."""
        profile = heresy_profile(t.state.units, uid, arms, target, models, facing, snap_shots, within_half_range)
        rule = "HH.RES.4" if phase == "snap_shots" else "RS.FGT.3" if phase == "assault" else "RS.SHO.2"
        attack: ev.AttackDeclared = {"attacker": uid, "target": target, "weapon": arms.name, "models": models, "phase": phase,
                  "facing": facing, "snap_shots": snap_shots, "within_half_range": within_half_range,
                  "tables": HERESY, "profile": to_data(profile)}
        self.attacks.declare_attack(t, attack, rule, then=cast("ev.JSONObject | None", then))  # logged with the dice

    # -- appliers ----------------------------------------------------------------------------

    @evolves("AttackDeclared")
    def _attack_declared(self, state: GameState, data: ev.AttackDeclared, entry: ev.Entry) -> GameState:
        if data["phase"] == "shooting":
            uid = data["attacker"]
            unit = state.units[uid]
            turn = HeresyTurn.of(unit.turn)
            state = state.with_unit(uid, replace(unit, turn=replace(turn, fired=(*(turn.fired or ()), data["weapon"]))))
        return self.counted(state, "AttackDeclared", data)

    @evolves("AttackResolved")
    def _attack_resolved(self, state: GameState, data: ev.AttackResolved, entry: ev.Entry) -> GameState:
        return self.counted(keep_lines(state, data), "AttackResolved", data)

    def counted(self, state: GameState, kind: str, data: ev.AttackCounted) -> GameState:
        """A fight under way counts its strikes and the wounds each side caused (`fight_counts`)."""
        if not isinstance(state.step, HeresyStep) or state.step.fight is None:
            return state
        return self.fight_counts(state, kind, data)

    @staticmethod
    def fight_counts(state: GameState, kind: str, data: ev.AttackCounted) -> GameState:
        """Hook: the state once a fight has counted an attack's event of `kind` (heresy/assault.py)."""
        return state
