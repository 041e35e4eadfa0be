"""The Assault phase's charge and fight, rolled by the service where the units' older profiles allow it.

Seed 002 does not detail the Assault phase and RULES.md cites no HH rule for it; these are conventions
in the classic manner of the era, each step citing the shared rule it follows:

- A charge (`select` with a `distance`, HH.MOV.5: never after a rush) names one enemy unit and the
  inches the players measured to it (attested, CORE.DIST.1, at most 12"). The charge roll is 2D6
  (RS.CHG.2's roll): at least the distance and the charge reaches, both units gain Locked in Combat
  (HH.MOV.2 names the status; the events say why) and they fight at once; short of it nothing happens.
- The fight (RS.FGT.3's strikes on the heresy tables, `domain/attacks/tables.py`: WS against WS, S
  against T): Initiative steps from the highest I down (a unit's I is its lowest model's); at an equal I
  the units strike simultaneously: each strikes with the models it had when the step began. Each unit
  strikes with one melee weapon its player names (`strike`), every one of those models using it.
- The result: the side that caused fewer wounds loses and takes a Leadership test (HH.ROUT.3's
  convention: 2D6, passed when the total is at most Ld). Failed: it is Routed (HH.ROUT.1: it falls
  back in its next Rout sub-phase), and Locked in Combat ends for both units. Passed, or equal wounds:
  both stay Locked in Combat. Locked in Combat also ends for the survivor when its foe is destroyed.
- What the tables cannot read stays the table's: a charge without a distance, a charger with no melee
  weapon the tables read (a vehicle target included), or a unit without an Initiative or a Leadership is
  declared as before and its outcome recorded (`set_status`, `record_casualties`), as the action's
  summary says.
- A combat goes on (RS.FGT.2: a unit engaged is eligible to fight; edition 2): units still Locked in Combat
  with each other at the start of an Assault phase fight again, in either player's Assault phase, once a
  phase, pair by pair before anything else (the active player's unit first). Who is locked with whom is
  `engaged_with`, as the army names it or a charge that reached makes it; a unit stays locked while one enemy
  it is locked with stands. In edition 1 such a fight was the table's.
"""
from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import TYPE_CHECKING, Protocol, cast

from warlog.domain import army
from warlog.domain import commands as cmd
from warlog.domain import events as ev
from warlog.domain.rules import actions as act
from warlog.domain.rules import editions
from warlog.domain.rules.actions import Action
from warlog.domain.rules.basics import evolves
from warlog.domain.rules.heresy import common
from warlog.domain.rules.heresy import events as own
from warlog.domain.rules.heresy.commands import Strike
from warlog.domain.rules.heresy.shooting import FightGoesOn, Then, tables_gap
from warlog.domain.rules.ruleset import Part, alive, handles, inches
from warlog.domain.rulings import Malformed, Refused
from warlog.domain.state import Frozen, GameState, HeresyFight, HeresyStep, Unit, Weapon
from warlog.domain.state.values import replace
from warlog.domain.words import plural, unit_named, unit_title

if TYPE_CHECKING:
    from warlog.domain.game import Table

CHARGE_RANGE = 12  # a 2D6 charge reaches at most 12"


def locking(state: GameState, uid: str, target: str | None = None) -> str:
    """Why Locked in Combat is gained by a charge of `uid` that reached `target`, or lost by its foe as `uid` broke
    from the fight (no `target`), as the statuses store it: the units by name with their owners' ("the charge of
    Alice's Legion reached Bob's Militia", HH.MOV.2/named of edition 4), by their ids in a game created before."""
    if not editions.fixed(state, "HH.MOV.2/named"):
        return f"{uid}'s charge reached {target}" if target is not None else f"{uid} broke from the fight"
    named = unit_title(state, uid, counts=False)
    if target is None:
        return f"{named} broke from the fight"
    return f"the charge of {named} reached {unit_title(state, target, counts=False)}"


def melee_weapons(state: GameState, uid: str, foe: str) -> list[Weapon]:
    """The melee weapons of `uid` the heresy tables can strike `foe` with."""
    return [w for w in state.units[uid].weapons if w.type == "melee" and tables_gap(state, uid, w, foe) is None]


def rolled_charge_gap(state: GameState, uid: str, target: str) -> str | None:
    """Why a charge by `uid` at `target` cannot be rolled and fought by the service (None: it can), the units named
    as the charging player knows them."""
    units, seat = state.units, state.units[uid].owner
    if not melee_weapons(state, uid, target):
        return f"{unit_named(state, uid, seat)} has no melee weapon the tables can strike " \
               f"{unit_named(state, target, seat)} with"
    for unit in (uid, target):
        if not all(line.I for line in units[unit].models):
            return f"{unit_named(state, unit, seat)} has no Initiative"
        if not army.unit_leadership(units[unit]):
            return f"{unit_named(state, unit, seat)} has no Leadership to test if it loses"
    return None


def locked_foes(units: Mapping[str, Unit], uid: str) -> list[str]:
    """The enemy units `uid` is Locked in Combat with, both standing and locked (`engaged_with`, as the army
    named it or a charge made it, either side's)."""
    unit = units[uid]
    if common.LOCKED not in unit.statuses or not common.on_battlefield(unit):
        return []
    return [foe for foe, other in units.items() if other.owner != unit.owner and common.LOCKED in other.statuses
            and common.on_battlefield(other) and (foe in unit.engaged_with or uid in other.engaged_with)]


def foe_of(fight: HeresyFight, uid: str) -> str:
    """The other unit of the fight."""
    a, b = fight.units
    return b if uid == a else a


def fight_under_way(state: GameState) -> HeresyFight | None:
    """The fight being fought in this step (None: none, or it is over)."""
    fight = common.heresy_step(state).fight
    return fight if fight and not fight.over else None


def fight_counted(state: GameState, kind: str, data: ev.AttackCounted) -> GameState:
    """The fight's counts after an attack's event: a strike declared in it, the wounds a side caused."""
    step = common.heresy_step(state)
    fight = step.fight
    if not fight or fight.over or data["attacker"] not in fight.units:
        return state
    attacker = data["attacker"]
    if kind == "AttackDeclared" and cast(ev.AttackDeclared, data)["phase"] == "assault":
        fight = replace(fight, struck=(*fight.struck, attacker))
    elif kind == "AttackResolved":
        wounds_lost = cast(ev.AttackResolved, data)["wounds_lost"]
        fight = replace(fight, caused=fight.caused.set(attacker, fight.caused[attacker] + wounds_lost))
    else:
        return state
    return replace(state, step=replace(step, fight=fight))


class AssaultRules(common.TableRules, Protocol):
    """What the charge and the fight call back in their ruleset besides the table's (`TableRules`): a strike's
    attack (heresy's `Shooting`: the weapon's attack declared and rolled, the fight going on once it is resolved)."""

    def start_attack(self, t: Table, uid: str, arms: Weapon, target: str, models: int, phase: str,
                     facing: str | None = None, snap_shots: bool = False, within_half_range: bool = False,
                     then: Then | None = None) -> None:
        """One weapon's attack declared on the heresy tables and rolled; `then` says what follows it."""


class Assault(Part[AssaultRules]):
    """A part of `Heresy`: the charge roll, Locked in Combat and the fight (a strike is `Shooting`'s attack, asked
    of the ruleset). `strike` is dispatched to it, `FightBegan`, `InitiativeStepBegan` and `FightResolved` applied
    by it; `Heresy` asks it the rest by name (`engaged_with` for the interpreter; `strikers`, `charge_actions`,
    `check_charge`, `roll_charge` for its part Combat; `continue_combat`, `charge_rolled`,
    `fight_leadership_rolled`, `fight_goes_on`, `strike_actions` for its own hooks); the fight's counts after an
    attack's event are `fight_counted`, which `Heresy.fight_counts` (shooting.py's hook) answers with."""

    def engaged_with(self, state: GameState, uid: str) -> tuple[str, ...]:
        """The enemy units it is Locked in Combat with (`locked_foes`: either side's `engaged_with`, both locked)."""
        return tuple(sorted(locked_foes(state.units, uid)))

    # -- the charge ---------------------------------------------------------------------------

    def charge_actions(self, state: GameState, seat: str, ready: list[str]) -> list[Action]:
        offered: list[Action] = []
        for uid in ready:
            rolled = [f for f in common.enemies_on_battlefield(state, seat) if rolled_charge_gap(state, uid, f) is None]
            if rolled:
                offered.append(act.action(
                    "select", "HH.MOV.5", f"declare a charge by {unit_named(state, uid)} at one enemy unit, with the "
                    "inches measured to it: the service rolls 2D6; if it reaches, both are Locked in Combat and fight in "
                    "Initiative order", ["unit", "targets", "distance"], unit=act.const(uid), act=act.const(True),
                    targets={**act.subset(rolled, 1, "the unit charged"), "maxItems": 1},
                    distance=act.number(0, CHARGE_RANGE, f"inches to it, measured (at most {CHARGE_RANGE}\")")))
        return offered

    @staticmethod
    def check_charge(state: GameState, command: cmd.Select, targets: list[str]) -> None:
        """A charge the service rolls: one target the tables can fight, a distance measured within 12"."""
        if len(targets) != 1:
            raise Malformed("a charge the service rolls names one target unit", field="targets")
        gap = rolled_charge_gap(state, command.unit, targets[0])
        if gap:
            raise Refused(f"{gap}: declare the charge without a distance and record what happens", rule="HH.MOV.5")
        inches(command.distance, "distance", CHARGE_RANGE)

    def roll_charge(self, t: Table, seat: str, command: cmd.Select, target: str) -> None:
        """After ChargeDeclared: the charge roll (2D6 against the distance measured)."""
        distance = inches(command.distance, "distance", CHARGE_RANGE)
        self.rules.request_roll(t, seat, "charge", "2D6", "RS.CHG.2", command.unit, target=target, distance=distance)

    def charge_rolled(self, t: Table, uid: str, request: ev.RollRequested, roll: ev.DiceRolled) -> None:
        target, distance = request["context"]["target"], request["context"]["distance"]
        reached = Decimal(roll["total"]) >= Decimal(distance)
        t.emit("ChargeRolled", ev.ChargeRolled(unit=uid, target=target, total=roll["total"], distance=distance,
                                reached=reached), "RS.CHG.2")
        if not reached:
            return
        units = t.state.units
        if not (alive(units[uid]) and alive(units[target])):
            return
        reason = locking(t.state, uid, target)
        for one, foe in ((uid, target), (target, uid)):
            self.rules.change_status(t, one, common.LOCKED, True, "HH.MOV.2", reason=reason, foe=foe)
        self.begin_fight(t, uid, target, "RS.FGT.3")

    def begin_fight(self, t: Table, uid: str, foe: str, rule: str) -> None:
        """The two units fight in Initiative order: a charge that reached (RS.FGT.3), or a combat that goes on
        (RS.FGT.2)."""
        units = t.state.units
        steps = sorted({common.initiative(units[uid]), common.initiative(units[foe])}, reverse=True)
        t.emit("FightBegan", own.FightBegan(units=[uid, foe], initiative_steps=steps,
                                            initiative={uid: common.initiative(units[uid]),
                                                        foe: common.initiative(units[foe])}),
               rule)
        self.fight_goes_on(t, None)

    # -- a combat that goes on (RS.FGT.2, edition 2) --------------------------------------------

    def continuing_combat(self, state: GameState) -> tuple[str, str] | None:
        """RS.FGT.2: units still Locked in Combat at the start of an Assault phase are engaged, so eligible to
        fight: the next pair (the active player's unit first) that has not fought in this phase, if the tables
        can fight it (else it stays the table's, as a charge they cannot roll)."""
        step = self.rules.step(state)
        if step is None or step.phase != "assault" or not editions.fixed(state, "RS.FGT.2") or state.rolls \
                or common.reaction_window(state) is not None or fight_under_way(state) is not None:
            return None
        fought, units = common.heresy_step(state).fought or (), state.units
        for uid in sorted(units, key=lambda u: units[u].owner != step.active):
            for foe in locked_foes(units, uid):
                if not (uid in fought and foe in fought) and (rolled_charge_gap(state, uid, foe) is None
                                                              or rolled_charge_gap(state, foe, uid) is None):
                    return uid, foe
        return None

    def continue_combat(self, t: Table) -> bool:
        """The `progress` hook: the next combat that goes on begins (True), or none is left (False)."""
        pair = self.continuing_combat(t.state)
        if pair is None:
            return False
        self.begin_fight(t, *pair, "RS.FGT.2")
        return True

    def unlock(self, t: Table, uid: str, reason: str) -> None:
        """Locked in Combat ends for `uid`, unless (edition 2) it is still locked with another enemy unit."""
        if editions.fixed(t.state, "RS.FGT.2") and locked_foes(t.state.units, uid):
            return
        self.rules.change_status(t, uid, common.LOCKED, False, "HH.MOV.2", reason=reason)

    # -- the fight ----------------------------------------------------------------------------

    def strikers(self, state: GameState) -> list[str]:
        """The units still to strike in the current Initiative step (each once, with a weapon the tables read)."""
        fight = fight_under_way(state)
        if fight is None or fight.step is None:
            return []
        units = state.units
        return [uid for uid in fight.striking if uid not in fight.struck and fight.models.get(uid, 0) > 0
                and alive(units[foe_of(fight, uid)]) and melee_weapons(state, uid, foe_of(fight, uid))]

    def fight_goes_on(self, t: Table, then: FightGoesOn | None) -> None:
        """After a strike (or as the fight begins): wait for the next striker, open the next Initiative step,
        or settle the fight. `then`: what followed the strike (None as the fight begins)."""
        fight = fight_under_way(t.state)
        if fight is None or self.strikers(t.state):
            return
        units = t.state.units
        standing = all(alive(units[uid]) for uid in fight.units)
        later = [i for i in fight.initiative_steps if fight.step is None or i < fight.step]
        while standing and later:
            step = later.pop(0)
            striking = [uid for uid in fight.units if fight.initiative[uid] == step]
            units = t.state.units
            t.emit("InitiativeStepBegan", own.InitiativeStepBegan(initiative=step, striking=striking,
                                           models={uid: units[uid].models_alive for uid in striking}),
                   "RS.FGT.3")
            if self.strikers(t.state):
                return
        self.settle_fight(t)

    def settle_fight(self, t: Table) -> None:
        fight = fight_under_way(t.state)
        if fight is None:
            raise ValueError("no fight to settle")
        units = t.state.units
        a, b = fight.units
        caused = dict(fight.caused)
        gone = [uid for uid in (a, b) if not alive(units[uid])]
        loser = None if gone or caused[a] == caused[b] else (a if caused[a] < caused[b] else b)
        t.emit("FightResolved", own.FightResolved(units=[a, b], wounds_caused=caused, destroyed=gone, loser=loser),
               "RS.FGT.3")
        for uid in (a, b):
            if uid not in gone and foe_of(fight, uid) in gone:
                self.unlock(t, uid, "its foe was destroyed")
        if loser is not None and editions.fixed(t.state, "HH.ROUT.3") and not army.unit_leadership(units[loser]):
            loser = None  # no Leadership to test: it stays in the fight (never tested as Ld 0)
        if loser is not None:
            units = t.state.units
            self.rules.request_roll(t, units[loser].owner, "fight_leadership", "2D6", "HH.ROUT.3", loser,
                                    ld=army.unit_leadership(units[loser]), foe=foe_of(fight, loser))

    def fight_leadership_rolled(self, t: Table, uid: str, request: ev.RollRequested, roll: ev.DiceRolled) -> None:
        """HH.ROUT.3's convention for the loser of a fight: 2D6 at most Ld, or Routed and out of the combat."""
        ld, foe = request["context"]["ld"], request["context"]["foe"]
        passed = roll["total"] <= ld
        t.emit("LeadershipTested", {"unit": uid, "total": roll["total"], "ld": ld, "passed": passed,
                                    "for": "it lost the fight"}, "HH.ROUT.3")
        if passed or not alive(t.state.units[uid]):
            return
        self.rules.change_status(t, uid, "routed", True, "HH.ROUT.1",
                                 reason="it lost the fight and failed its Leadership test (convention)")
        self.rules.change_status(t, uid, common.LOCKED, False, "HH.MOV.2", reason="it is Routed: it falls back")
        self.unlock(t, foe, locking(t.state, uid))

    def strike_actions(self, state: GameState, seat: str) -> list[Action]:
        fight = fight_under_way(state)
        if fight is None:  # no fight, no strikers
            return []
        units = state.units
        return [act.action("strike", "RS.FGT.3", f"{unit_named(state, uid)} strikes "
                           f"{unit_named(state, foe_of(fight, uid), seat)} at Initiative {fight.step} with "
                           f"{plural(fight.models[uid], 'model')}, one melee weapon (WS against WS)",
                           ["unit", "weapon"], unit=act.const(uid),
                           weapon=act.one_of([w.name for w in melee_weapons(state, uid, foe_of(fight, uid))]))
                for uid in self.strikers(state)[:1] if units[uid].owner == seat]

    @handles("strike")
    def strike(self, t: Table, seat: str, command: Strike) -> None:
        state = t.state
        strikers, fight = self.strikers(state), fight_under_way(state)
        if state.rolls or fight is None or not strikers or command.unit != strikers[0]:  # strikers: in a fight
            raise Refused("no strike is awaited from this unit: a fight strikes in Initiative order"
                          + (f", {unit_named(state, strikers[0], seat)} next" if strikers else ""), rule="RS.FGT.3")
        units = state.units
        if units[command.unit].owner != seat:
            raise Refused(f"{unit_named(state, command.unit, seat)} is another player's unit", rule="RS.FGT.3")
        foe = foe_of(fight, command.unit)
        weapon = next((w for w in melee_weapons(state, command.unit, foe) if w.name == command.weapon), None)
        if weapon is None:
            raise Malformed(f"{unit_named(state, command.unit, seat)} has no melee weapon {command.weapon!r} the tables read", field="weapon")
        self.rules.start_attack(t, command.unit, weapon, foe, fight.models[command.unit], "assault",
                                then={"kind": "fight"})

    # -- appliers (the attack's own ones, shooting.py's, count through `Heresy.fight_counts`: `fight_counted`) ---

    @evolves("FightBegan")
    def _fight_began(self, state: GameState, data: own.FightBegan, entry: ev.Entry) -> GameState:
        fight = HeresyFight(units=tuple(data["units"]), initiative_steps=tuple(data["initiative_steps"]),
                            initiative=Frozen(data["initiative"]), step=None, striking=(), struck=(),
                            models=Frozen(), caused=Frozen({uid: 0 for uid in data["units"]}), over=False)
        step = replace(common.heresy_step(state), fight=fight)
        if editions.fixed(state, "RS.FGT.2"):  # each fights once a phase, as its combat goes on
            step = replace(step, fought=tuple(dict.fromkeys((*(step.fought or ()), *data["units"]))))
        return replace(state, step=step)

    @evolves("InitiativeStepBegan")
    def _initiative_step(self, state: GameState, data: own.InitiativeStepBegan, entry: ev.Entry) -> GameState:
        step = common.heresy_step(state)
        fight = _fight_of(step)
        fight = replace(fight, step=data["initiative"], striking=tuple(data["striking"]), struck=(),
                        models=Frozen(data["models"]))
        return replace(state, step=replace(step, fight=fight))

    @evolves("FightResolved")
    def _fight_resolved(self, state: GameState, data: own.FightResolved, entry: ev.Entry) -> GameState:
        step = common.heresy_step(state)
        return replace(state, step=replace(step, fight=replace(_fight_of(step), over=True)))


def _fight_of(step: HeresyStep) -> HeresyFight:
    if step.fight is None:
        raise ValueError("no fight has begun in this step")
    return step.fight
