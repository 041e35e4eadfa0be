"""The sentences of the kinds only `reference` logs (its events.py `EVENTS`), one entry a kind (domain/words.py says
how a text reads its names; domain/texts.py has the shared kinds')."""
from __future__ import annotations

from warlog.domain import events as ev
from warlog.domain.rules.reference import events as own
from warlog.domain.rules.reference.common import STRATAGEMS, members_of
from warlog.domain.texts import against_ld, attack, because, slain
from warlog.domain.words import (
    STRENGTH,
    Namer,
    Texts,
    Words,
    faces,
    humane,
    inches,
    lasting,
    listed,
    owns,
    phase_called,
    plural,
    status_called,
)

TEXTS = Texts()
say = TEXTS.says

ROLLS = {"hit": "hit roll", "wound": "wound roll", "save": "saving throw", "damage": "damage roll",
         "mortal_damage": "damage roll", "hazardous": "Hazardous roll", "feel_no_pain": "Feel No Pain roll",
         "mortal_feel_no_pain": "Feel No Pain roll", "sustained": "Sustained Hits roll"}
DEFENDER_ROLLS = ("save", "feel_no_pain", "mortal_feel_no_pain", "allocate")  # the target's seat rolls these
STAGES = {"pile_in": "piling in", "fight": "fighting", "consolidate": "consolidating"}


def roll_name(step: str) -> str:
    """An attack step's roll as the table calls it: 'hit roll', 'saving throw'."""
    return ROLLS.get(step, f"{humane(step)} roll")


def the_roll(w: Words, d: ev.AttackStep, dice: list[int], aside: str = "") -> str:
    """"the hit roll of 1, 3 and 5 for the Relic bolter of Alice's Vets against Bob's Guard" (`aside` after its
    dice)."""
    return f"the {roll_name(d['step'])} of {faces(dice)}{aside} for {attack(w, d)}"


def roller(w: Words, d: ev.AttackStep) -> str:
    """The player who rolls this step of the attack: the target's for saves, the attacker's otherwise."""
    uid = d["target"] if d["step"] in DEFENDER_ROLLS else d["attacker"]
    unit = w.after.units.get(uid)
    return w.player(unit.owner) if unit is not None else w.actor


def until(w: Words, value: str, seat: str | None = None) -> str:
    """'the end of the phase', or 'the start of Bob's next turn'."""
    return lasting(value, w.player(seat) if seat else None)


def effect_name(effect: str) -> str:
    """'Smokescreen', or 'the battle-shocked status' (a status given for a while)."""
    return f"the {status_called(effect.removeprefix('status '))} status" if effect.startswith("status ") else effect


def weapon_of(w: Words, d: ev.AttackIds) -> str:
    """"Alice's Vets' Relic bolter" (where the target is named already)."""
    return f"{owns(w.unit_name(d['attacker']))} {d['weapon']}"


NAMERS: dict[str, Namer] = {  # how its plain sentences name a field beside words.NAMERS
    "is_are": lambda w, uids: "is" if len(uids) == 1 else "are",  # the verb after units: "Bob's Boyz is"
    "name_only": lambda w, uid: w.unit_name(uid, owner=False),  # a unit whose owner the sentence named already
}


# -- the command phase: turns, CP, battle-shock, stratagems -----------------------------------------------------

@say("TurnStarted")
def _turn_started(w: Words, d: own.TurnStarted) -> str:
    ended = (f"; what lasted until the end of the turn is over for {w.units(d['expired'])}"
             if d["expired"] else "")
    return f"{w.player(d['seat'])}'s turn began (battle round {d['battle_round']}){ended}"


@say("CommandPointGained")
def _cp_gained(w: Words, d: own.CommandPointGained) -> str:
    had = w.before.cp[d["seat"]] if w.before is not None else 0
    return f"{w.player(d['seat'])} gained {d['cp'] - had} CP (now {d['cp']})"


@say("BattleShockTested")
def _battle_shock(w: Words, d: own.BattleShockTested) -> str:
    result = "passed" if d["passed"] else "failed"
    again = " re-rolled" if d["rerolled"] else ""
    band = f", {STRENGTH[d['strength']]}," if d["strength"] in STRENGTH and d["strength"] != "full" else ""
    return f"{w.unit(d['unit'])}{band} {result} their{again} battle-shock test: {against_ld(d['total'], d['ld'])}"


@say("StratagemUsed")
def _stratagem(w: Words, d: own.StratagemUsed) -> str:
    roll = d.get("roll")
    what = f", to re-roll a {roll_name(roll['step'])} of {faces(roll['was'])}" if roll else ""
    return (f"{w.player(d['seat'])} used {d['name']} on {w.unit_name(d['unit'])} for {d['cp']} CP "
            f"({d['cp_left']} left){what}")


@say("EffectStarted")
def _effect_started(w: Words, d: own.EffectStarted) -> str:
    whose = f"{w.player(d['active_seat'])}'s "
    when = f"in {phase_called(d['phase'], whose)}" if d["active_seat"] and d["phase"] else "before the first turn"
    return (f"{w.player(d['by'])} gave {w.unit_name(d['unit'])} {effect_name(d['effect'])} {when}, until "
            f"{until(w, d['until'], d['by'])}{because(w, d.get('reason'))}")


@say("EffectEnded")
def _effect_ended(w: Words, d: own.EffectEnded) -> str:
    name = effect_name(d["effect"])
    return f"{name[:1].upper()}{name[1:]} on {w.unit_name(d['unit'])} ended: {w.names(d['reason'])}"


@say("ObjectivesControlled")
def _objectives(w: Words, d: own.ObjectivesControlled) -> str:
    said = []
    for marker, control in d["objectives"].items():
        oc = w.seats(control["oc"])
        holder = control["controlled_by"]
        said.append(f"{w.player(holder) if holder else 'nobody'} holds {humane(marker)} (OC {oc})")
    return f"{w.player(d['seat'])} counted the objectives: {listed(said) if said else 'none'}"


@say("VictoryPointsScored")
def _vp(w: Words, d: own.VictoryPointsScored) -> str:
    held = [humane(marker) for marker in d["objectives"]]
    if not held:
        return f"{w.player(d['seat'])} scored no VP, holding no objective (total {d['total']} VP)"
    capped = "at most 15 a turn; " if d["vp"] < 5 * len(held) else ""
    return f"{w.player(d['seat'])} scored {d['vp']} VP for {listed(held)} ({capped}total {d['total']} VP)"


# -- movement ---------------------------------------------------------------------------------------------------

TEXTS.plainly({
    "UnitEmbarked": "{unit:unit} embarked in {transport:name_only} ({attested})",
}, NAMERS)


@say("AdvanceRolled")
def _advance(w: Words, d: own.AdvanceRolled) -> str:
    again = " re-rolled its advance and" if d["rerolled"] else ""
    return f"{w.unit(d['unit'])}{again} rolled {d['total']} to advance: it may move up to {inches(d['max_move'])}"


@say("HazardsRolled")
def _hazards(w: Words, d: own.HazardsRolled) -> str:
    if not d["failures"]:
        return f"{w.unit_name(d['unit'])} made their Desperate Escape without loss: no die rolled a 1 or 2"
    return (f"{owns(w.unit_name(d['unit']))} Desperate Escape: {plural(d['failures'], 'die', 'dice')} rolled 1 or 2, "
            f"{plural(d['mortal_wounds'], 'mortal wound')}")


@say("MortalWoundsIgnored")
def _mortal_wounds_ignored(w: Words, d: own.MortalWoundsIgnored) -> str:
    cause = "Desperate Escape" if d["cause"] == "RS.MOV.4" else "Hazardous weapon"
    members = members_of(w.after.units, d["unit"]) if d["unit"] in w.after.units else [d["unit"]]
    whose = f"Feel No Pain of {w.sides(members)}" if len(members) > 1 else f"{owns(w.unit_name(d['unit']))} Feel No Pain"
    return f"{whose} against the {cause}'s {plural(d['mortal_wounds'], 'mortal wound')}: {d['ignored']} ignored, " \
           f"{d['lost']} to lose"  # a leader and its bodyguard: each model's own Feel No Pain (EXT.FNP)


@say("DamageAllocated")
def _damage_allocated(w: Words, d: own.DamageAllocated) -> str:
    kind = "mortal wound" if d["mortal"] else "damage"
    amount = sum(d["damage"])
    took = plural(amount, kind) if d["mortal"] else f"{amount} damage"
    return f"{w.unit_name(d['unit'])} took {took}: {plural(d['applied'], 'wound')} lost{slain(d['models_destroyed'])}"


# -- engagement, charge and fight -------------------------------------------------------------------------------

TEXTS.plainly({
    "UnitsEngaged": "{units:units} {units:is_are} now engaged with {with:units} ({reason:names})",
    "UnitFought": "{seat:player} is done fighting with {unit:unit}",
}, NAMERS)


@say("EngagementEnded")
def _engagement_ended(w: Words, d: own.EngagementEnded) -> str:
    foes = f" with {w.units(d['with'])}" if d["with"] else ""
    return f"{w.unit_name(d['unit'])} {w.names(d['reason'])}: no longer engaged{foes}"


@say("FightsFirstGained")
def _fights_first(w: Words, d: own.FightsFirstGained) -> str:
    ends = "the end of the turn" if d["until"] == "end of turn" else f"the {d['until']}"
    return f"{w.unit_name(d['unit'])} fights first until {ends}, having charged"


@say("FightEligible")
def _fight_eligible(w: Words, d: own.FightEligible) -> str:
    if not d["units"]:
        players = list(w.after.players.values())
        nobody = f"Neither {players[0]} nor {players[1]}" if len(players) == 2 else f"None of {w.both}"
        return f"{nobody} has a unit that may fight: none is {w.names(d['reason'])}"
    return f"{w.units(d['units'])} may fight: {w.names(d['reason'])}"


@say("PiledIn")
def _piled_in(w: Words, d: own.PiledIn) -> str:
    if float(d["distance"]) == 0:
        return f"{w.unit(d['unit'])} stayed where it was (piled in 0\")"
    return f"{w.unit(d['unit'])} piled in {inches(d['distance'])}"


@say("Consolidated")
def _consolidated(w: Words, d: own.Consolidated) -> str:
    unit, moved = w.unit(d["unit"]), inches(d.get("distance", "0"))
    if d["mode"] == "engaging":
        return f"{unit} consolidated {moved} into {w.units(d.get('targets', []))}"
    if d["mode"] == "objective":
        return f"{unit} consolidated {moved} onto objective {humane(d.get('objective'))}"
    if d["mode"] == "ongoing":
        return f"{unit} consolidated {moved}, staying in the fight"
    return f"{unit} did not consolidate"


@say("FightStageEnded")
def _stage_ended(w: Words, d: own.FightStageEnded) -> str:
    done = f"{w.both} are done {STAGES.get(d['stage'], humane(d['stage']))}"
    if d["next"] == "done":
        return f"{done}: the fighting is over this phase"
    if d["stage"] == "consolidate":
        return f"{done}; the units the consolidations drew in fight next"
    return f"{done}; next they {humane(d['next'])}"


# -- the attack's pauses and steps (RS.ATK.3, EXT.CP.1, the attack driver's reference kinds) ----------------------

@say("CommandRerollOffered")
def _reroll_offered(w: Words, d: own.CommandRerollOffered) -> str:
    if d["step"] in ("damage", "mortal_damage"):
        could = f"{plural(len(d['choices']), 'roll')} below its most"
    else:
        could = f"the failed {listed(str(d['batch'][i]) for i in d['choices'] if i < len(d['batch']))}"
    return (f"{w.player(d['seat'])} may spend {STRATAGEMS['Command Re-roll']} CP on a Command Re-roll of "
            f"{the_roll(w, d, d['batch'], f' ({could})')}, or keep it")


@say("AttackRollKept")
def _roll_kept(w: Words, d: own.AttackRollKept) -> str:
    return f"{w.player(d['seat'])} kept {the_roll(w, d, d['batch'])}"


@say("AttackRollRerolled")
def _rerolled(w: Words, d: own.AttackRollRerolled) -> str:
    return f"{roller(w, d)} re-rolled {the_roll(w, d, d['was'])}: now {faces(d['now'])}, so the roll reads {faces(d['batch'])}"


@say("AllocationOffered")
def _allocation_offered(w: Words, d: own.AllocationOffered) -> str:
    groups = listed((f"the {c['model']} group" for c in d["choices"]), last="or")
    return (f"{w.player(d['seat'])} chooses which group of {w.unit(d['unit'])} saves next against "
            f"{weapon_of(w, d)}: {groups}")


@say("AllocationChosen")
def _allocation_chosen(w: Words, d: own.AllocationChosen) -> str:
    return (f"{w.player(d['seat'])} chose the {d['model']} group of {w.unit_name(d['target'])} to save next against "
            f"{weapon_of(w, d)}")


@say("GroupAllocated")
def _group_allocated(w: Words, d: own.GroupAllocated) -> str:
    return (f"The wounds of {attack(w, d)} go to the {d['model']} group next "
            f"(of {plural(len(d['among']), 'group')} tied)")


@say("SustainedHitsScored")
def _sustained(w: Words, d: own.SustainedHitsScored) -> str:
    return (f"Sustained Hits for {attack(w, d)}: {plural(d['criticals'], 'critical hit')} "
            f"{'scores' if d['criticals'] == 1 else 'score'} {plural(d['extra_hits'], 'extra hit')}")


@say("MortalWoundsInflicted")
def _mortal_wounds(w: Words, d: own.MortalWoundsInflicted) -> str:
    # the rules that decided it: the entry's own where it names one alone (attacks/driver.py logs `rules` only for
    # more than one, a Feel No Pain beside it)
    rules = d.get("rules") or [str(w.entry["rule"])]
    source = "Devastating Wounds" if "EXT.WPN.DEVASTATING" in rules else "Mortal wounds"
    fnp = f" ({plural(d['feel_no_pain_dice'], 'Feel No Pain roll')})" if d["feel_no_pain_dice"] else ""
    return (f"{source} from {attack(w, d)}: {plural(d['mortal_wounds'], 'mortal wound')}, "
            f"{plural(d['wounds_lost'], 'wound')} lost{slain(d['models_destroyed'])}{fnp}")


# -- actions, splitting, reviving -------------------------------------------------------------------------------

@say("ActionStarted")
def _action_started(w: Words, d: own.ActionStarted) -> str:
    return (f"{w.player(d['seat'])}'s {w.unit_name(d['unit'], owner=False)} began the action {d['action']}, "
            f"which completes at {until(w, d['completes'], d['seat'])}")


TEXTS.plainly({
    "ActionCompleted": "{unit:unit_name} completed the action {action} at {at}",
    "ActionFailed": "{unit:unit_name} failed the action {action}: {reason:names}",
})


@say("UnitSplit")
def _split(w: Words, d: own.UnitSplit) -> str:
    return (f"{w.player(d['seat'])} split {w.unit_name(d['unit'], owner=False)} in two before the battle: "
            f"{w.unit_name(d['unit'], owner=False)} keeps {plural(d['models'], 'model')} and "
            f"{w.unit_name(d['new_unit'], owner=False)} takes {d['new_models']}")


@say("ModelsRevived")
def _revived(w: Words, d: own.ModelsRevived) -> str:
    return (f"{w.player(d['attested_by'])} returned {plural(d['models'], 'model')} to {w.unit(d['unit'])}, "
            f"{d['attested']}{because(w, d['reason'])}")
