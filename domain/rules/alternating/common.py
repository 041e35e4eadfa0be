"""`alternating`'s constants and the questions about a unit its parts share (see `__init__.py`)."""
from __future__ import annotations

from collections.abc import Mapping

from warlog.domain import army, dice
from warlog.domain.rules import actions as act
from warlog.domain.rules.basics import Lasts
from warlog.domain.rules.ruleset import Step, alive
from warlog.domain.state import GameState, Status, Unit, Weapon

# how long each status lasts in this ruleset (GET /state's datasheets say it beside the status)
STATUS_ENDS: Mapping[str, Lasts] = {
    "falling_back": Lasts("until it regroups in Move Fleeing Units", "AA.MOV.2"),
    "regrouped": Lasts("until the end of the turn", "AA.MOV.2"),
    "locked_in_combat": Lasts("until its combat ends", "AA.CC.1"),
    "immobilised": Lasts("for the rest of the game", "AA.VEH.2"),
}

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
# MSN.OBJ.1: a round scored ends with the objectives counted, by the `end_phase` of either seat (rules/objectives.py),
# in a sub-phase of the round's last phase (CONTRACT.md names alternating's phases: movement, shooting, assault); a
# game created before edition 6 counts them in a phase of their own, `end_of_round`, as it did
SCORED_LAYOUT = [*LAYOUT, Step("assault", "score_objectives", "phase", "MSN.OBJ.1", "MSN.OBJ.1")]
SCORED_LAYOUT_BEFORE_6 = [*LAYOUT, Step("end_of_round", "score_objectives", "phase", "MSN.OBJ.1", "MSN.OBJ.1")]
RESULT_RULE = {"movement_pass_points": "AA.PP.2", "shooting_pass_points": "AA.SPP.1"}
TURN_RULE = {"move_fleeing": "AA.MOV.2", "move_units": "AA.ACT.3", "declare_shooting": "AA.ACT.3",
             "run": "AA.RUN.1", "select_charges": "AA.CHG.1", "resolve_combats": "AA.CC.1"}
HOLD_REFUSAL = {"run": ("AA.RUN.1", "a unit selected to run counts as having run; it cannot opt out"),
                "resolve_combats": ("AA.CC.1", "a combat chosen is fought"),
                "move_fleeing": ("AA.MOV.2", "a fleeing unit selected is resolved: its regroup roll decides"),
                "select_charges": ("AA.CHG.1", "a unit selected here declares a charge; to declare no more "
                                               "charges, declare done")}
LOCKED: tuple[Status, ...] = ("locked_in_combat", "engaged")
# AA.PP.1 "otherwise unable to move": locked in combat
UNABLE_TO_MOVE: tuple[Status, ...] = ("pinned", "gone_to_ground", *LOCKED)
RESERVE_ARRIVES_ON = 3  # AA.RES.1 convention: a D6, arriving on 3+
MAX_CHARGE = 12  # inches: the 2D6 charge roll can reach no further
REASON = act.text(200, "why (what the table sees)")
SUMMARY = {"move_fleeing": "resolve a fleeing unit: its regroup roll, then it falls back or regroups",
           "move_units": "select a unit to move (one that does not act moves zero)",
           "declare_shooting": "select a unit to shoot (one that does not act holds fire and may still run)",
           "run": "select a unit to run or move flat out (it counts as having run)",
           "select_charges": "declare a charge: the unit, its targets and the distance measured to them",
           "resolve_combats": "choose a combat to fight"}


def sub_phase(step: Step) -> str:
    """The name of a step of the alternating round: every one is a named sub-phase (LAYOUT)."""
    if step.name is None:
        raise ValueError(f"a step of the {step.phase} phase without a sub-phase is no step of this round")
    return step.name


def immobile(unit: Unit) -> bool:
    """AA.PP.1: immobilised by damage or inherently immobile (Movement 0)."""
    return army.unit_is_vehicle(unit) and (
        "immobilised" in unit.statuses or all(m.M == 0 for m in unit.models))  # M null: unknown


def on_table(unit: Unit) -> bool:
    return alive(unit) and not unit.in_reserves


def regrouped_slow(unit: Unit) -> bool:
    return "regrouped" in unit.statuses and not army.unit_has_ability(unit, "ATSKNF")


def fire_points(state: GameState, unit: Unit) -> bool:
    transport = state.units.get(unit.embarked_in or "")
    return transport is None or bool(transport.transport and transport.transport.fire_points)


def movement_exclusion(state: GameState, unit: Unit) -> str | None:
    """AA.PP.1 and AA.RES.1: why the service leaves a unit out of the movement count."""
    statuses = unit.statuses
    if unit.in_reserves:
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


def shooting_exclusion(state: GameState, unit: Unit) -> str | None:
    """AA.SPP.1: why the service leaves a unit out of the shooting count."""
    statuses = unit.statuses
    if unit.in_reserves:
        return "in reserves"
    if not army.unit_ranged_weapons(unit):
        return "no ranged weapons"
    if "no_weapons_left" in statuses:
        return "no weapons left"
    if "pinned" in statuses:
        return "pinned"
    if locked(unit):
        return "locked in combat"
    if unit.embarked_in and not fire_points(state, unit):
        return "embarked without fire points"
    return None


def locked(unit: Unit) -> bool:
    """Locked in a combat (AA.CC.1): either status says so."""
    return any(status in unit.statuses for status in LOCKED)


def overwatch_shots(weapon: Weapon | Mapping[str, object]) -> str:
    """AA.OW.1: several shots fire one fewer; a single shot (and Rapid Fire) fires one. `weapon`: the unit's, or
    a profile given as the roster's JSON (`kind`, `A`)."""
    kind: object
    shots: object
    if isinstance(weapon, Weapon):
        kind, shots = weapon.kind, weapon.A
    else:
        kind, shots = weapon.get("kind"), weapon.get("A", "1")
    if kind == "rapid_fire":
        return "1"
    expr = dice.parse(str(shots))
    if expr.is_constant:
        return str(max(1, expr.modifier - 1))
    return str(dice.DiceExpr(expr.count, expr.sides, expr.modifier - 1))


def overwatch_block(state: GameState, unit: Unit) -> str | None:
    """Why a charged unit fires no overwatch: gone, or unable to shoot (AA.SPP.1's list) or falling back."""
    if not on_table(unit):
        return "destroyed or off the table"
    if "falling_back" in unit.statuses:
        return "falling back"
    return shooting_exclusion(state, unit)


def _chunks(total: int, size: int) -> list[int]:
    return [min(size, total - start) for start in range(0, total, size)]
