"""The sentences of the kinds only `reference` logs (its events.py `EVENTS`), one entry a kind (domain/words.py says
how a text reads its names; domain/texts.py has the shared kinds')."""
from __future__ import annotations

from warlog.domain import events as ev
from warlog.domain import texts
from warlog.domain.rules.reference import events as own
from warlog.domain.rules.reference.common import STRATAGEMS, members_of
from warlog.domain.texts import against_ld, attack, because, slain
from warlog.domain.words import (
    STRENGTH,
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

ROLLS = {"hit": "hit roll", "wound": "wound roll", "save": "saving throw", "damage": "damage roll",
         "mortal_damage": "damage roll", "hazardous": "Hazardous roll", "feel_no_pain": "Feel No Pain roll",
         "mortal_feel_no_pain": "Feel No Pain roll", "sustained": "Sustained Hits roll"}
DEFENDER_ROLLS = ("save", "feel_no_pain", "mortal_feel_no_pain", "allocate")  # the target's seat rolls these
STAGES = {"pile_in": "piling in", "fight": "fighting", "consolidate": "consolidating"}


def roll_name(step: str) -> str:
    """An attack step's roll as the table calls it: 'hit roll', 'saving throw'."""
    return ROLLS.get(step, f"{humane(step)} roll")


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


TEXTS = Texts({  # how its plain sentences name a field, beside the shared kinds' (domain/texts.py)
    **texts.NAMERS,
    "roll": lambda w, step: roll_name(step), "effect": lambda w, effect: effect_name(effect),
    "owns": lambda w, uid: owns(w.unit_name(uid)), "stage": lambda w, stage: STAGES.get(stage, humane(stage)),
    "foes": lambda w, uids: f" with {w.units(uids)}" if uids else "",  # " with Bob's Boyz"; nothing where none
    "groups": lambda w, choices: listed((f"the {c['model']} group" for c in choices), last="or"),  # model groups
    "roller": roller, "weapon_of": weapon_of,  # the whole event, {event:roller}
    "completes": lambda w, d: until(w, d["completes"], d["seat"]),  # when an action started completes
})
say = TEXTS.says


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


TEXTS.plainly({"EffectEnded": "{effect:effect} on {unit:unit_name} ended: {reason:names}"})


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

TEXTS.plainly({"UnitEmbarked": "{unit:unit} embarked in {transport:name_only} ({attested})"})


@say("AdvanceRolled")
def _advance(w: Words, d: own.AdvanceRolled) -> str:
    again = " re-rolled its advance and" if d["rerolled"] else ""
    return f"{w.unit(d['unit'])}{again} rolled {d['total']} to advance: it may move up to {inches(d['max_move'])}"


TEXTS.chosen("HazardsRolled", lambda d: bool(d["failures"]), {
    False: "{unit:unit_name} made their Desperate Escape without loss: no die rolled a 1 or 2",
    True: "{unit:owns} Desperate Escape: {failures:plural die/dice} rolled 1 or 2, {mortal_wounds:plural mortal "
          "wound}",
})


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
    "UnitsEngaged": "{units:units} {units:verb is/are} now engaged with {with:units} ({reason:names})",
    "EngagementEnded": "{unit:unit_name} {reason:names}: no longer engaged{with:foes}",
    "UnitFought": "{seat:player} is done fighting with {unit:unit}",
})
TEXTS.chosen("FightsFirstGained", lambda d: d["until"], {
    "end of turn": "{unit:unit_name} fights first until the end of the turn, having charged",
    "else": "{unit:unit_name} fights first until the {until}, having charged",
})


@say("FightEligible")
def _fight_eligible(w: Words, d: own.FightEligible) -> str:
    if not d["units"]:
        players = list(w.after.players.values())
        nobody = f"Neither {players[0]} nor {players[1]}" if len(players) == 2 else f"None of {w.both}"
        return f"{nobody} has a unit that may fight: none is {w.names(d['reason'])}"
    return f"{w.units(d['units'])} may fight: {w.names(d['reason'])}"


TEXTS.chosen("PiledIn", lambda d: float(d["distance"]) == 0, {
    True: "{unit:unit} stayed where it was (piled in 0\")",
    False: "{unit:unit} piled in {distance:inches}",
})
TEXTS.chosen("Consolidated", lambda d: d["mode"], {
    "engaging": "{unit:unit} consolidated {distance:inches} into {targets:units}",
    "objective": "{unit:unit} consolidated {distance:inches} onto objective {objective:humane}",
    "ongoing": "{unit:unit} consolidated {distance:inches}, staying in the fight",
    "else": "{unit:unit} did not consolidate",
})
TEXTS.chosen("FightStageEnded", lambda d: "over" if d["next"] == "done" else d["stage"], {
    "over": "{both} are done {stage:stage}: the fighting is over this phase",
    "consolidate": "{both} are done {stage:stage}; the units the consolidations drew in fight next",
    "else": "{both} are done {stage:stage}; next they {next:humane}",
})


# -- the attack's pauses and steps (RS.ATK.3, EXT.CP.1, the attack driver's reference kinds) ----------------------

@say("CommandRerollOffered")
def _reroll_offered(w: Words, d: own.CommandRerollOffered) -> str:
    if d["step"] in ("damage", "mortal_damage"):
        could = f"{plural(len(d['choices']), 'roll')} below its most"
    else:
        could = f"the failed {listed(str(d['batch'][i]) for i in d['choices'] if i < len(d['batch']))}"
    return (f"{w.player(d['seat'])} may spend {STRATAGEMS['Command Re-roll']} CP on a Command Re-roll of the "
            f"{roll_name(d['step'])} of {faces(d['batch'])} ({could}) for {attack(w, d)}, or keep it")


TEXTS.plainly({
    "AttackRollKept": "{seat:player} kept the {step:roll} of {batch:faces} for {event:attack}",
    "AttackRollRerolled": "{event:roller} re-rolled the {step:roll} of {was:faces} for {event:attack}: now "
                          "{now:faces}, so the roll reads {batch:faces}",
    "AllocationOffered": "{seat:player} chooses which group of {unit:unit} saves next against {event:weapon_of}: "
                         "{choices:groups}",
    "AllocationChosen": "{seat:player} chose the {model} group of {target:unit_name} to save next against "
                        "{event:weapon_of}",
    "GroupAllocated": "The wounds of {event:attack} go to the {model} group next (of {among:plural group} tied)",
    "SustainedHitsScored": "Sustained Hits for {event:attack}: {criticals:plural critical hit} {criticals:verb "
                           "scores/score} {extra_hits:plural extra hit}",
})


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

TEXTS.plainly({
    "ActionStarted": "{seat:player}'s {unit:name_only} began the action {action}, which completes at "
                     "{event:completes}",
    "ActionCompleted": "{unit:unit_name} completed the action {action} at {at}",
    "ActionFailed": "{unit:unit_name} failed the action {action}: {reason:names}",
    "UnitSplit": "{seat:player} split {unit:name_only} in two before the battle: {unit:name_only} keeps "
                 "{models:plural model} and {new_unit:name_only} takes {new_models}",
    "ModelsRevived": "{attested_by:player} returned {models:plural model} to {unit:unit}, {attested}{reason:because}",
})
