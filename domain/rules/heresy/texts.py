"""The sentences of the kinds only `heresy` logs (its events.py), one entry a kind (domain/words.py says how a
text reads its names; domain/texts.py holds the shared kinds')."""
from __future__ import annotations

from warlog.domain import texts
from warlog.domain.rules.heresy import events as own
from warlog.domain.rules.heresy.common import REACTION_RANGE
from warlog.domain.texts import against_ld, crossing, dangerous
from warlog.domain.words import Texts, Words, humane, inches, listed, plural

MOVED = {"normal": "after a normal move", "rush": "after a rush", "stationary": "having stayed stationary",
         "arrived": "having arrived from reserves this turn", "none": "without having moved"}
REACTIONS = {"move": "reaction move", "snap_shots": "snap shots"}
TEXTS = Texts({  # how its plain sentences name a field, beside the shared kinds' (domain/texts.py)
    **texts.NAMERS,
    "moved": lambda w, moved: MOVED.get(moved, humane(moved)),  # how a unit moved before it shot (HH.MOV.5)
    # the dice a fall back rolls (HH.ROUT.2): "D6 + Initiative 4", or "D6" for a unit of no Initiative bonus
    "fall_back_roll": lambda w, initiative: f"D6 + Initiative {initiative}" if initiative else "D6",
})
say = TEXTS.says


def nearby(w: Words, uids: list[str]) -> str:
    """', ending within 12" of Bob's B Militia and B Scouts' (HH.REACT.1: the enemy units that may react)."""
    return f", ending within {inches(REACTION_RANGE)} of {w.sides(uids)}" if uids else ""


# -- movement (HH.MOV.*) --------------------------------------------------------------------------------------

@say("UnitMoved")
def _moved(w: Words, d: own.UnitMoved) -> str:
    if d["move"] == "stationary":
        return f"{w.unit(d['unit'])} remained stationary"
    verb = "rushed" if d["move"] == "rush" else "moved"
    allowance = f" of its {inches(d['allowance'])}" if "allowance" in d else ""
    distance = f" {inches(d['distance'])}{allowance}" if "distance" in d else ""
    return f"{w.unit(d['unit'])} {verb}{distance}{crossing(d)}{nearby(w, d.get('near', []))}"


@say("DangerousTerrainTested")
def _dangerous(w: Words, d: own.DangerousTerrainTested) -> str:
    fails = "a 1" if d["fails_on"] == 1 else f"{d['fails_on']} or less"
    failed = "none failed" if not d["failed"] else f"{d['failed']} failed"
    return (f"{w.unit_name(d['unit'])} took {plural(d['tests'], 'dangerous terrain test')}, failing on {fails}: "
            f"{failed}")


# -- reactions (HH.REACT.1, HH.RES.4) -------------------------------------------------------------------------

@say("ReactionOffered")
def _offered(w: Words, d: own.ReactionOffered) -> str:
    if d["kind"] == "move" and d.get("claimed"):
        return (f"{w.player(d['seat'])} claimed a reaction: {w.unit_name(d['unit'])} was within "
                f"{inches(REACTION_RANGE)} of {w.unit_name(d['against'])} at the end of its move")
    if d["kind"] == "move":
        up_to = f" up to {inches(d['up_to'])} toward or away from it" if "up_to" in d else ""
        return f"{w.unit_name(d['unit'])} may react to the move of {w.unit_name(d['against'])}:{up_to or ' a move'}"
    if d["kind"] == "snap_shots":
        return f"{w.player(d['seat'])} may fire snap shots at {w.unit_name(d['against'])}, which entered play nearby"
    return f"{w.player(d['seat'])} may react to {w.unit_name(d['against'])} with {humane(d['kind'])}"


@say("ReactionMade")
def _made(w: Words, d: own.ReactionMade) -> str:
    if d["kind"] == "snap_shots":
        facing = f", at its {d['facing']} armour" if d.get("facing") else ""
        return (f"{w.unit_name(d['unit'])} fired snap shots with {listed(d.get('weapons', []))} at "
                f"{w.unit_name(d['against'])}, which entered play{facing}")
    distance = f" {inches(d['distance'])}" if "distance" in d else ""
    direction = {"toward": " toward it", "away": " away from it"}.get(d.get("direction") or "", "")
    up_to = f" (up to {inches(d['up_to'])}, its Initiative{' less 2 through difficult terrain' if d.get('difficult') else ''})" \
        if "up_to" in d else ""
    harmed = f", {dangerous(d)}" if d.get("dangerous") else ""
    coherency = ", out of coherency" if d.get("coherency_lost") else ""
    return (f"{w.unit_name(d['unit'])} reacted to {w.unit_name(d['against'])}, moving{distance}{direction}{up_to}"
            f"{harmed}{coherency}")


@say("ReactionDeclined")
def _declined(w: Words, d: own.ReactionDeclined) -> str:
    what = REACTIONS.get(d["kind"], humane(d["kind"]))
    who = w.unit_name(d["unit"]) if d["unit"] else w.player(d["seat"])
    return f"{who} made no {what} against {w.unit_name(d['against'])}: {w.names(d['reason'])}"


# -- shooting and the fight (HH.MOV.5, RS.FGT.3) --------------------------------------------------------------

TEXTS.plainly({"ShootingDeclared": "{unit:unit} declared shooting at {targets:sides}, {moved:moved}"})


@say("FightBegan")
def _fight_began(w: Words, d: own.FightBegan) -> str:
    fighters = " against ".join(f"{w.unit_name(uid)} ({plural(models(w, uid), 'model')}, I{d['initiative'][uid]})"
                                for uid in d["units"])
    steps = d["initiative_steps"]
    order = f"striking at Initiative {listed((str(i) for i in steps), 'then')}" if len(steps) > 1 else \
        f"both striking at Initiative {steps[0]}"
    return f"The fight began: {fighters}, {order}"


@say("InitiativeStepBegan")
def _initiative_step(w: Words, d: own.InitiativeStepBegan) -> str:
    striking = listed(f"{w.unit_name(uid)} with {plural(d['models'].get(uid, 0), 'model')}" for uid in d["striking"])
    return f"Initiative step {d['initiative']}: {striking} {'strikes' if len(d['striking']) == 1 else 'strike'}"


@say("FightResolved")
def _fight_resolved(w: Words, d: own.FightResolved) -> str:
    caused = ", ".join(f"{w.unit_name(uid)} caused {plural(d['wounds_caused'].get(uid, 0), 'wound')}"
                       for uid in d["units"])
    if d["destroyed"]:
        result = f"{w.units(d['destroyed'])} {'was' if len(d['destroyed']) == 1 else 'were'} destroyed"
    elif d["loser"]:
        result = f"{w.unit_name(d['loser'])} lost the fight and tests its Leadership"
    else:
        result = "a draw"
    return f"The fight is over: {caused}; {result}"


def models(w: Words, uid: str) -> int:
    unit = w.after.units.get(uid)
    return unit.models_alive if unit else 0


# -- routs (HH.ROUT.*) ----------------------------------------------------------------------------------------

@say("LeadershipTested")
def _leadership(w: Words, d: own.LeadershipTested) -> str:
    result = "passed" if d["passed"] else "failed"
    why = "for losing the fight" if d.get("for") == "it lost the fight" else \
        f"as {w.names(d['for'])}" if d.get("for") else "on reaching its table edge while falling back"
    return f"{w.unit(d['unit'])} {result} their Leadership test: {against_ld(d['total'], d['ld'])}, {why}"


TEXTS.plainly({"FallBackRolled": "{unit:unit} falls back {distance:inches} ({initiative:fall_back_roll})"})


@say("FellBack")
def _fell_back(w: Words, d: own.FellBack) -> str:
    distance = f" {inches(d['distance'])}" if d["distance"] is not None else ""
    edge = " and reached its table edge" if d["reached_edge"] else ""
    terrain = " through difficult terrain" if d.get("difficult") else ""
    harmed = f", {dangerous(d)}" if d.get("dangerous") else ""
    return f"{w.unit(d['unit'])} fell back{distance}{terrain}{edge}{harmed}{nearby(w, d['near'])}"
