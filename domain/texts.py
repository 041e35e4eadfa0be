"""The sentences of the kinds more than one ruleset logs (domain/events.py's `SHARED`), one entry a kind
(domain/words.py says how a text reads its names). Each ruleset's own kinds have theirs in its `texts.py`."""
from __future__ import annotations

from typing import TypedDict

from warlog.domain import events as ev
from warlog.domain.army import attached_models_of, partner_of
from warlog.domain.rules import editions
from warlog.domain.words import (
    Namer,
    Texts,
    Words,
    activated_for,
    faces,
    humane,
    inches,
    listed,
    plural,
    purpose,
    status_called,
    step_called,
    step_name,
    strength_called,
    the,
)


def seqs(values: list[int]) -> str:
    return f"event {values[0]}" if len(values) == 1 else f"events {values[0]}–{values[-1]}"


def attack(w: Words, d: ev.AttackIds) -> str:
    """"The Relic bolter of Alice's Vets against Bob's Guard"."""
    return f"{the(d['weapon'])} of {w.unit_name(d['attacker'])} against {w.unit_name(d['target'])}"


# -- what many sentences say alike, of every ruleset ----------------------------------------------------------

def because(w: Words, reason: str | None, said: str = ": {}") -> str:
    """The reason an event gives, as the sentence puts it after what happened (": regrouped", or `said`'s way,
    " ({})"); nothing where it gives none."""
    return said.format(w.names(reason)) if reason else ""


def slain(models: int) -> str:
    """", 2 models slain" after the wounds lost, where any model was; nothing where none was."""
    return f", {plural(models, 'model')} slain" if models else ""


def against_ld(total: int, ld: object) -> str:
    """A Leadership roll (a regroup, a battle-shock or Leadership test): "7 on 2D6 against Ld 8"."""
    return f"{total} on 2D6 against Ld {ld}"


class Crossing(TypedDict, total=False):
    """What a move crossed, as the kinds of every move log it (HH.MOV.3, 4: its terrain, its coherency)."""

    difficult: bool
    dangerous: int
    coherency_lost: bool


def dangerous(d: Crossing) -> str:
    """"2 models through dangerous terrain"."""
    return f"{plural(d.get('dangerous', 0), 'model')} through dangerous terrain"


def crossing(d: Crossing) -> str:
    """" (through difficult terrain, 2 models through dangerous terrain and out of coherency)" after a move;
    nothing for a move over open ground in coherency."""
    how = ["through difficult terrain"] if d.get("difficult") else []
    if d.get("dangerous"):
        how.append(dangerous(d))
    if d.get("coherency_lost"):
        how.append("out of coherency")
    return f" ({listed(how)})" if how else ""


def reserve_roll(w: Words, d: ev.ReserveArriving | ev.ReserveDelayed) -> str:
    """": 4 against 3+" after a reserve roll's result; nothing where the event logs no roll."""
    return f": {d['total']} against {d['needed']}+" if "total" in d and "needed" in d else ""


# how the sentences of every ruleset name a field beside words.NAMERS (each ruleset's texts.py adds its own)
NAMERS: dict[str, Namer] = {
    "purpose": lambda w, name: purpose(name), "seqs": lambda w, values: seqs(values),
    "strength": lambda w, band: strength_called(band), "slain": lambda w, models: slain(models),
    "because": lambda w, reason: because(w, reason),  # ": failed a battle-shock test"; nothing where none is given
    "aside": lambda w, reason: because(w, reason, " ({})"),  # the reason in brackets: " (failed a battle-shock test)"
    "step": lambda w, sub_phase, none="": step_called(sub_phase) or none,  # {sub_phase:step this phase}
    "in_step": lambda w, sub_phase: f" in {step_called(sub_phase)}" if sub_phase else "",  # " in Move Units"
    "player_or_both": lambda w, seat: w.player(seat) if seat else w.both,
    "hash": lambda w, digest: f"{digest[:12]}…",  # a hash as a receipt shows it
    "roster": lambda w, units: listed(str(u.get("name") or u.get("id")) for u in units),  # the units as mustered
    # the whole event, {event:...}: what reads more than one field
    "step_name": lambda w, d: step_name(d["phase"], d["sub_phase"]),  # "Move Units (Movement phase)"
    "attack": attack, "reserve_roll": reserve_roll,
    "against_ld": lambda w, d: against_ld(d["total"], d["ld"]),  # "7 on 2D6 against Ld 8"
}
SHARED = Texts(NAMERS)
say = SHARED.says


# -- the game, its rounds and steps -----------------------------------------------------------------------------

@say("GameCreated")
def _created(w: Words, d: ev.GameCreated) -> str:
    players = listed(f"{name} ({seat})" for seat, name in d["players"].items())
    dice = "the service rolls the dice" if d["dice"] == "server" else "the players roll their own dice"
    article = "An" if d["ruleset"][:1].lower() in "aeiou" else "A"
    return f"{article} {d['ruleset']} game between {players} was created; {dice}"


SHARED.plainly({
    "ArmyMustered": "{seat:player} mustered {units:plural unit}: {units:roster}",
    "GameStarted": "{both} began their game with {starting_strength:plural unit} on the table",
})


# how a result was decided, after its score: "Bob won 45–30 on victory points (MSN.END.1)"
DECIDED = {"vp": "on victory points", "destroyed": "on points destroyed"}
# why a game ended, as a result logged before results were whole says it: "(after the last battle round)"
ENDED = {"battle_rounds": "after the last battle round", "wipeout": "by wipe-out", "concede": "by concession"}


@say("GameEnded")
def _ended(w: Words, d: ev.GameEnded) -> str:
    winner, by = d["winner"], d.get("by")
    if by is None:  # a result logged before results were whole (rules/editions.py)
        who = f"{w.player(winner)} won" if winner else "neither won"
        return f"{w.both}'s game ended ({ENDED.get(d['reason'], humane(d['reason']))}): {who}"
    loser = None if winner is None else "B" if winner == "A" else "A"
    score = d.get("score") or {}
    cited = f" ({d.get('rule')})"
    if by in DECIDED:
        points = f"{score.get(winner or 'A', 0)}–{score.get(loser or 'B', 0)}"
        who = f"{w.player(winner)} won" if winner else f"{w.both} drew"
        return f"{who} {points} {DECIDED[by]}{cited}"
    if by == "wipeout":
        if winner is None:
            return f"Neither of {w.both} has a unit left on the battlefield: a draw{cited}"
        return f"{w.player(winner)} won: {w.player(loser)} has no unit left on the battlefield{cited}"
    if by == "concession":
        return f"{w.player(loser)} conceded: {w.player(winner)} won{cited}"
    return f"{w.player(loser)}'s time ran out: {w.player(winner)} won{cited}"


SHARED.plainly({
    "BattleRoundStarted": "Battle round {battle_round} began for {both}",
    "BattleRoundEnded": "Battle round {battle_round} ended for {both}; the round's receipt is its head hash, "
                        "{head_hash:hash}",
    "StepStarted": "{event:step_name} began for {active_seat:player_or_both}",
    "StepSkipped": "{sub_phase:step The step} was skipped for {both}: {reason:names}",
    "PhaseEnded": "{active_seat:player} ended {event:step_name}",
    "FirstGoes": "{seat:player} goes first{sub_phase:in_step}: {reason:names}",
})


@say("OrderChosen")
def _order_chosen(w: Words, d: ev.OrderChosen) -> str:
    """"Alice chose to go first in Move Units", "Alice chose to let Bob go first in Declare Shooting"."""
    who = "to go" if d["first"] == w.entry["by"] else f"to let {w.player(d['first'])} go"
    return f"{w.actor} chose {who} first in {step_called(d['sub_phase'])}"


@say("RollOffNeeded")
def _roll_off_needed(w: Words, d: ev.RollOffNeeded) -> str:
    what = d.get("for") or (step_called(d["sub_phase"]) if d["sub_phase"] else "the order")
    if d["choice"]:
        decides = f"who chooses for {what}"
    else:  # the winner goes first, no choice (AA.MOV.2)
        decides = f"who goes first in {what}" if d["sub_phase"] and not d.get("for") else what
    return f"{w.both} roll off to decide {decides}"


@say("RollOff")
def _roll_off(w: Words, d: ev.RollOff) -> str:
    rolled = ", ".join(f"{w.player(seat)} {face}" for seat, face in d["dice"].items())
    if d["tie"] or d["winner"] is None:
        return f"Roll-off for {step_called(d['sub_phase'])}: {rolled}, a tie, rolled again"
    return f"Roll-off for {step_called(d['sub_phase'])}: {rolled}; {w.player(d['winner'])} won"


# -- dice and requests ------------------------------------------------------------------------------------------

SHARED.plainly({
    "RollRequested": "{seat:player} is to roll {spec} for {purpose:purpose} ({unit:unit_name})",
    "EntropyAdded": "{seat:player} added their own randomness to the server's dice",
    "Conceded": "{seat:player} conceded the game",  # MSN.END.3, in every ruleset (rules/core.py)
})


@say("DiceRolled")
def _dice_rolled(w: Words, d: ev.DiceRolled) -> str:
    for_unit = f" ({w.unit_name(d['unit'])})" if d["unit"] else ""  # as RollRequested says it: one "for" a sentence
    what = f'"{d["purpose"]}"' if d.get("free") else purpose(d["purpose"])
    rolled = f"{w.player(d['seat'])} rolled {d['spec']} for {what}{for_unit}: {faces(d['faces'])} (total {d['total']})"
    # nothing it must reach (or logged before rolls said so); a roll whose dice each reach their own number (EXT.FNP)
    # has no one `needed`, and says what it means all the same
    if "text" not in d or (d.get("needed") is None and d.get("successes") is None):
        return rolled
    return f"{rolled}; {d['text']}"  # what it means: "…; Charge: 7 on 2D6 against 9\": fails"


# -- units ------------------------------------------------------------------------------------------------------

@say("UnitSelected")
def _selected(w: Words, d: ev.UnitSelected) -> str:
    how = next((activated_for(key, str(d[key])) for key in ("move", "shooting", "fight", "escape", "pile_in")
                if d.get(key)), "")
    moved = f", {inches(d['distance'])}" if d.get("distance") else ""
    where = f" in {step_called(d['sub_phase'])}" if d.get("sub_phase") else ""
    acts = "" if d.get("act", True) else " (without acting)"
    return f"{w.player(d['seat'])} activated {w.unit(d['unit'])}{where}{(' ' + how) if how else ''}{moved}{acts}"


@say("StatusGained", "StatusLost")
def _status(w: Words, d: ev.StatusGained | ev.StatusLost) -> str:
    """"Bob's Boyz (8 of 10) is now Battle-shocked: failed a battle-shock test" (its reason left out where it only
    says the status again: "regrouped")."""
    said = status_called(d["status"])
    now = "is now" if w.entry["type"] == "StatusGained" else "is no longer"
    reason = "" if humane(d["reason"]) in (said, humane(d["status"])) else because(w, d["reason"])
    return f"{w.unit(d['unit'])} {now} {said}{reason}"


@say("StrengthChanged")
def _strength(w: Words, d: ev.StrengthChanged) -> str:
    """"Bob's Boyz is now below half strength: 4 of 10 models left"; a unit of one model, whose band its wounds
    decide (CORE.STR.2), with its wounds: "Bob's Rhino is now at half strength: 2 of 4 wounds left"; a leader and
    its bodyguard, one unit while attached (CORE.STR.1), named together, bodyguard first, with the models alive of
    both: "Bob's Guard and Captain are now below half strength: 1 of 6 models left"."""
    unit = w.after.units.get(d["unit"])
    partner = attached_partner(w, d)
    if d["starting_strength"] == 1 and d["models_alive"] > 0 and unit is not None and unit.wounds_lost is not None:
        wounds = unit.total_wounds
        left = f"{max(0, wounds - unit.wounds_lost)} of {plural(wounds, 'wound')}"
    else:  # a game created before CORE.STR.2/attached stored the part's own models: its band counted both's
        alive = d["models_alive"] if partner is None or "attached" in d else attached_models_of(w.after.units,
                                                                                                d["unit"])
        left = f"{alive} of {plural(d['starting_strength'], 'model')}"
    if partner is None:
        return f"{w.unit_name(d['unit'])} is now {strength_called(d['to'])}: {left} left"
    leader = d["unit"] if w.after.units[d["unit"]].leader_of == partner else partner
    bodyguard = partner if leader == d["unit"] else d["unit"]
    return f"{w.sides([bodyguard, leader])} are now {strength_called(d['to'], two=True)}: {left} left"


def attached_partner(w: Words, d: ev.StrengthChanged) -> str | None:
    """The leader or bodyguard a `StrengthChanged` measures the unit with (CORE.STR.1): the one it names as
    `attached`; in a game created before CORE.STR.2/attached, whose band counted a standing partner's models but
    called a part destroyed with its own last model, the partner standing, unless it says the part was
    destroyed."""
    if "attached" in d or editions.fixed(w.after, "CORE.STR.2/attached"):
        return d.get("attached")
    partner = partner_of(w.after.units, d["unit"])
    if partner is None or d["to"] == "destroyed" or not w.after.units[partner].models_alive:
        return None
    return partner


@say("CasualtiesRecorded")
def _casualties(w: Words, d: ev.CasualtiesRecorded) -> str:
    lost = [plural(d["models"], "model")] if d["models"] else []
    if d["wounds"]:
        lost.append(plural(d["wounds"], "wound"))
    return f"{w.unit(d['unit'])} lost {listed(lost) if lost else 'nothing'}{because(w, d.get('reason'), ' ({})')}"


SHARED.plainly({
    "UnitDestroyed": "{unit:unit_name} was destroyed",
    "UnitDisembarked": "{unit:unit} disembarked from {transport:name_only}{reason:because}",
    "ReserveArriving": "{unit:unit_name} arrives from reserves{event:reserve_roll}",  # its reserve roll's result
    "ReserveDelayed": "{unit:unit_name} stays in reserve{event:reserve_roll}",
})


@say("ReserveArrived")
def _arrived(w: Words, d: ev.ReserveArrived) -> str:
    moved = f", moving {inches(d['distance'])}" if d.get("distance") else ""
    edge = " from the table edge" if d.get("from_edge") else ""
    return f"{w.unit(d['unit'])} arrived from reserves{edge}{moved}{crossing(d)}"  # heresy's rush: HH.MOV.3, 4


# -- charges ----------------------------------------------------------------------------------------------------

@say("ChargeDeclared")
def _charge_declared(w: Words, d: ev.ChargeDeclared) -> str:
    distance = f", {inches(d['distance'])} away" if d.get("distance") else ""
    return f"{w.unit(d['unit'])} declared a charge against {w.units(d['targets'])}{distance}"


@say("ChargeRolled")
def _charge_rolled(w: Words, d: ev.ChargeRolled) -> str:
    against = f" against {inches(d['distance'])}" if d.get("distance") else ""
    if d.get("target"):
        against = f" at {w.unit_name(d['target'])}{against}"
    made = {True: ": it reaches", False: ": it falls short"}.get(d["reached"], "") if "reached" in d else ""
    return f"{w.unit_name(d['unit'])} rolled {d['total']} for its charge{against}{made}"


@say("ChargeResolved")
def _charge_resolved(w: Words, d: ev.ChargeResolved) -> str:
    roll = f" ({d['total']} against {inches(d['distance'])})" if d["total"] is not None and d["distance"] else ""
    result = "made its charge into" if d["success"] else "failed its charge against"
    return f"{w.unit_name(d['unit'])} {result} {w.units(d['targets'])}{roll}{because(w, d.get('reason'))}"


# -- attacks (the attack driver's, every ruleset that shoots or fights) -----------------------------------------

@say("AttackDeclared")
def _attack_declared(w: Words, d: ev.AttackDeclared) -> str:
    abilities = f" ({listed(d['abilities'])})" if d.get("abilities") else ""
    return (f"{w.unit_name(d['attacker'])} attacked {w.unit(d['target'])} with {d['weapon']}{abilities}, "
            f"{plural(d['models'], 'model')} attacking")


@say("HitsScored")
def _hits(w: Words, d: ev.HitsScored) -> str:
    if d["automatic"]:
        return f"{attack(w, d)}: {plural(d['hits'], 'hit')}, hitting automatically"
    if "text" in d:  # what the roll means (domain/rolls.py), SUSTAINED HITS added included
        return f"{attack(w, d)}: {d['text'].removeprefix('Hit roll: ')}"
    crit = f", {d['criticals']} of them critical" if d["criticals"] else ""
    return f"{attack(w, d)}: {d['hits']} {'hit' if d['hits'] == 1 else 'hits'} of {d['attacks']} at {d['needed']}+{crit}"


@say("WoundsScored")
def _wounds(w: Words, d: ev.WoundsScored) -> str:
    crit = f", {d['criticals']} of them critical" if d["criticals"] else ""
    return (f"{attack(w, d)}: {plural(d['wounds'], 'wound')} of {len(d['dice'])} at {d['needed']}+ "
            f"(S{d['S']} against T{d['T']}){crit}" if d["T"] is not None else
            f"{attack(w, d)}: {plural(d['wounds'], 'wound')} of {len(d['dice'])} at {d['needed']}+{crit}")


SHARED.plainly({
    "AttacksRolled": "{event:attack}: {attacks:plural attack} from {models:plural model}",
    "SavesRolled": "{target:unit_name} saved {saved} of {dice:count} at {needed}+ ({model}) against {weapon:the} of "
                   "{attacker:unit_name}: {failed:plural failed save}",
    "DamageInflicted": "{event:attack}: {wounds_lost:plural wound} lost{models_destroyed:slain}",
})

SHARED.chosen("AttackResolved", lambda d: d.get("ended"), {  # RS.ATK.4/fallen: ended, its target destroyed meanwhile
    "destroyed": "{event:attack} ends: {target:unit_name} was destroyed before it was done; {hits:plural hit}, "
                 "{wounds:plural wound}, {failed_saves:plural failed save}",
    "else": "{event:attack} is done: {hits:plural hit}, {wounds:plural wound}, {failed_saves:plural failed save}; "
            "{target:unit} lost {wounds_lost:plural wound}{models_destroyed:slain}",
})


@say("HazardousRolled")
def _hazardous(w: Words, d: ev.HazardousRolled) -> str:
    harm = []
    if d["models_destroyed"]:
        harm.append(f"{plural(d['models_destroyed'], 'model')} slain")
    if d["mortal_wounds"]:
        harm.append(plural(d["mortal_wounds"], "mortal wound"))
    result = listed(harm) if harm else "no harm"
    return f"Hazardous for {w.unit_name(d['attacker'])}: {faces(d['dice'])}, {plural(d['ones'], 'one')}: {result}"


# -- undo -------------------------------------------------------------------------------------------------------

SHARED.plainly({
    "UndoRejected": "{rejected_by:player} refused {requested_by:player}'s undo; the action stands",
    "UndoWithdrawn": "{requested_by:player} withdrew their request to undo {seqs:seqs}",
    "ActionRedone": "{actor} brought back {seqs:seqs}",
})


@say("UndoRequested")
def _undo_requested(w: Words, d: ev.UndoRequested) -> str:
    """"Alice asked to undo Bob's action (event 12): Bob took it, so Bob must agree"; the other player agrees
    (SVC.UNDO.CONSENT), whoever took the action: "Alice asked to undo their own action (…): it rolled dice, so Bob
    must agree"."""
    asker = w.entry["by"]
    whose = "their own" if d["action_by"] == asker else f"{w.player(d['action_by'])}'s"
    agrees = w.player("B" if asker == "A" else "A")
    return f"{w.actor} asked to undo {whose} action ({seqs(d['seqs'])}): {w.names(d['reason'])}, so {agrees} must agree"


@say("ActionUndone")
def _undone(w: Words, d: ev.ActionUndone) -> str:
    if d.get("requested_by"):
        return (f"{w.player(d.get('approved_by') or w.entry['by'])} agreed to {w.player(d['requested_by'])}'s undo: "
                f"{seqs(d['seqs'])} undone")
    whose = f" ({w.player(d['action_by'])}'s action)" if d.get("action_by") else ""
    return f"{w.actor} undid {seqs(d['seqs'])}{whose}"
