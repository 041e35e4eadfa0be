"""What every phase of `reference` reads, of the typed state's units: engagement, the battlefield, attached units,
and the turn flags (`turn_of`, `with_turns`, `remember_roll`)."""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence

from warlog.domain.attacks.lines import line_standing
from warlog.domain.rules import editions
from warlog.domain.rules.basics import Lasts
from warlog.domain.rules.objectives import named_near
from warlog.domain.rules.reference import events as own
from warlog.domain.rules.ruleset import alive
from warlog.domain.state import GameState, ReferenceTurn, Reroll, Unit, freeze
from warlog.domain.state.values import replace
from warlog.domain.words import unit_named

# how long each status lasts in this ruleset (GET /state's datasheets say it beside the status)
STATUS_ENDS: Mapping[str, Lasts] = {
    "battle_shocked": Lasts("until it passes a battle-shock test in its player's Command phase", "RS.CMD.2"),
    "engaged": Lasts("while an enemy unit is within engagement range of it", "RS.MOV.2"),
}

ENGAGED = ("engaged", "locked_in_combat")
STRATAGEMS = {  # EXT.CP.1: core stratagems and their CP; only Command Re-roll changes what the service rolls
    "Command Re-roll": 1, "Counter-offensive": 2, "Epic Challenge": 1, "Insane Bravery": 1, "Grenade": 1,
    "Tank Shock": 1, "Rapid Ingress": 1, "Fire Overwatch": 1, "Go to Ground": 1, "Smokescreen": 1,
    "Heroic Intervention": 1,
}
REROLLABLE = ("charge", "advance", "battle_shock")  # EXT.CP.1 rolls whose result still waits to be used


def on_battlefield(unit: Unit) -> bool:
    """CORE.OFF.1: neither in reserves nor embarked, and not destroyed."""
    return alive(unit) and not unit.in_reserves and not unit.embarked_in


def engaged(unit: Unit) -> bool:
    """Engaged with an enemy unit (`engaged_with`), or holding a status that says so (`ENGAGED`)."""
    return bool(unit.engaged_with) or any(status in unit.statuses for status in ENGAGED)


def leader_of(units: Mapping[str, Unit], uid: str) -> str | None:
    """The leader attached to this bodyguard, while both stand."""
    if not alive(units[uid]):
        return None
    return next((lid for lid, u in units.items() if u.leader_of == uid and alive(u)), None)


def attached_to(units: Mapping[str, Unit], uid: str) -> str | None:
    """The bodyguard a standing leader is attached to, while it stands: the two are one unit (CORE.STR.1)."""
    bodyguard = units[uid].leader_of
    if bodyguard and bodyguard in units and alive(units[bodyguard]) and alive(units[uid]):
        return bodyguard
    return None


def members_of(units: Mapping[str, Unit], uid: str) -> list[str]:
    """The unit and its attached leader: selected, moved and tested together."""
    leader = leader_of(units, uid)
    return [uid, leader] if leader else [uid]


def battle_shocked(state: GameState, uid: str) -> bool:
    """CORE.DESC.1: the unit is battle-shocked if one of its models is: an attached unit (leader and bodyguard,
    CORE.STR.1) is, whichever of them holds the status, named as either. A game created before the fix
    (rules/editions.py, RS.CMD.3) read each part alone."""
    units = state.units
    if not editions.fixed(state, "RS.CMD.3"):
        return "battle_shocked" in units[uid].statuses
    return any("battle_shocked" in units[m].statuses for m in members_of(units, attached_to(units, uid) or uid))


def foes(state: GameState, seat: str) -> Iterator[tuple[str, Unit]]:
    """The enemy units on the battlefield that can be named (targeted, charged): an attached leader is not one
    of them, its bodyguard names the unit they form (CORE.STR.1)."""
    units = state.units
    return ((uid, u) for uid, u in units.items()
            if u.owner != seat and on_battlefield(u) and not attached_to(units, uid))


def not_a_unit_alone(state: GameState, seat: str, uids: Iterable[str]) -> tuple[str, str] | None:
    """(rule, why) when one of these is a leader attached to a standing bodyguard: it is named as that unit (`seat`:
    whom the answer is for)."""
    units = state.units
    for uid in uids:
        bodyguard = attached_to(units, uid) if uid in units else None
        if bodyguard:
            leader, unit = unit_named(state, uid, seat), unit_named(state, bodyguard, seat)
            return ("CORE.STR.1", f"{leader} is attached to {unit}: they are one unit; name {unit} "
                                  "(wounds go to the leader last, RS.ATK.3)")
    return None


def is_monster_or_vehicle(unit: Unit) -> bool:
    return bool({"MONSTER", "VEHICLE"} & set(unit.keywords))


def all_monster_or_vehicle(units: Mapping[str, Unit], uid: str) -> bool:
    """RS.MOV.4's x3: every model of the (attached) unit is MONSTER or VEHICLE."""
    return all(is_monster_or_vehicle(units[m]) for m in members_of(units, uid))


def objective_control(state: GameState, claims: Mapping[str, Sequence[str]]) -> dict[str, own.Control]:
    """EXT.OBJ.1: each marker goes to the seat whose models within range (attested) sum the higher OC, every
    model line's own OC for the models of it standing (a sergeant's OC 2 beside troopers' 1); battle-shocked
    models count OC 0. A leader and its bodyguard are one unit while attached (CORE.STR.1): in a game judged by the
    fix of EXT.OBJ.1 (rules/editions.py) naming either counts both, once."""
    units = state.units
    result: dict[str, own.Control] = {}
    for marker, named in claims.items():
        near = named_near(state, named, "EXT.OBJ.1") if editions.fixed(state, "EXT.OBJ.1") else named
        oc = {"A": 0, "B": 0}
        for uid in near:
            unit = units[uid]
            if on_battlefield(unit) and not battle_shocked(state, uid):  # RS.CMD.3: the whole attached unit
                alive, _ = line_standing(unit)
                oc[unit.owner] += sum(n * (line.OC or 0) for n, line in zip(alive, unit.models))
        result[marker] = own.Control(oc=oc, units=list(near),
                                     controlled_by=None if oc["A"] == oc["B"] else max(oc, key=oc.__getitem__))
    return result


def turn_of(unit: Unit) -> ReferenceTurn:
    """The unit's reference turn flags."""
    return ReferenceTurn.of(unit.turn)


def remained_stationary(state: GameState, unit: Unit) -> bool:
    """EXT.WPN.HEAVY's Remained Stationary (RS.MOV.1): selected to Remain Stationary, or never selected to move in
    this turn's Movement phase (a game created before the fix, rules/editions.py, only the former)."""
    move = turn_of(unit).move
    return move == "remain_stationary" or (move is None and editions.fixed(state, "EXT.WPN.HEAVY"))


def with_turns(state: GameState, uids: Iterable[str], change: Callable[[ReferenceTurn], ReferenceTurn]) -> GameState:
    """The state with these units' turn flags changed alike (a charge made, Fights First gained, ...)."""
    for uid in uids:
        unit = state.units[uid]
        state = state.with_unit(uid, replace(unit, turn=change(turn_of(unit))))
    return state


def remember_roll(unit: Unit, data: Mapping[str, object], purpose: str, context: Mapping[str, object]) -> Unit:
    """EXT.CP.1: the unit with the roll just made kept, to be re-rolled once (CORE.DICE.2) while its result waits
    to be used; or, a roll that may not be, with none kept."""
    assert purpose in REROLLABLE
    if data.get("rerollable"):
        reroll = Reroll(purpose=purpose, spec="2D6" if purpose != "advance" else "D6", context=freeze(dict(context)))
        return replace(unit, turn=replace(turn_of(unit), reroll=reroll))
    return replace(unit, turn=replace(turn_of(unit), reroll=None))
