"""The rules' editions: a game keeps the rules it was created under.

A fix to a rule changes what a request makes. A game created before the fix goes on by the rules it began with
(its players agreed to them, and a rule never changes in the middle of a game), and `GET /verify` plays its stored
requests again by those same rules, so `commands_ok` stays what it was (domain/rerun.py). A new game records the
edition it is created under in its `GameCreated` (`edition`, in the hashed data); a game without the key was
created under edition 1.

Each fix that changes the events a request makes is one entry of `FIXES`, by the rule it fixes, with the
edition that brought it and what changed, in a sentence; a rule fixed again in a later edition has one more entry,
its key the rule's ID, a slash and a word for the later fix (`HH.REACT.1/latest`). A rule reads `fixed(state,
rule)`: whether this game is judged by the fix. A fix never changes how an event already logged is applied: replaying a log gives the same
state in every edition.
"""
from __future__ import annotations

from dataclasses import dataclass

from warlog.domain.state import GameState


@dataclass(frozen=True, slots=True)
class Fix:
    edition: int
    what: str


FIXES: dict[str, Fix] = {
    "MSN.END.1": Fix(2, "after the last battle round the seat with more VP, or else more destroyed, wins"),
    "MSN.END.2": Fix(2, "a seat with no unit left on the battlefield and none to come loses at the end of a phase"),
    "AA.CHG.1": Fix(2, "a charger destroyed while its charge roll is awaited has the roll withdrawn, and play goes on"),
    "AA.MOV.2": Fix(2, "a fleeing unit with no Leadership (a vehicle) takes no regroup test and stops falling back, "
                       "rather than failing a test against Ld 0"),
    "MSN.OBJ.1": Fix(2, "in alternating and heresy, the command that ends a battle round from round 2 names the units "
                        "near each objective, and each seat scores 5 VP a marker where it has more models"),
    "EXT.FNP": Fix(2, "Feel No Pain is rolled against mortal wounds outside an attack too (Desperate Escape, "
                      "HAZARDOUS)"),
    "CORE.REV.1": Fix(2, "a returned model comes back with its full W, not with the wounds the model lost before it "
                         "was destroyed"),
    "EXT.WPN.HEAVY": Fix(2, "a unit never selected in the Movement phase Remained Stationary: its HEAVY weapons hit "
                            "at +1"),
    "RS.CMD.3": Fix(2, "a leader and its bodyguard are one unit under battle-shock while either is (CORE.DESC.1): no "
                       "stratagem targets either, their models count OC 0, and they escape desperately (RS.MOV.4)"),
    "RS.CMD.2": Fix(2, "a battle-shock test is taken on the unit's best Leadership, the lowest Ld among its models and "
                       "its attached leader, not the highest"),
    "CORE.STR.2": Fix(2, "the engagement of a unit destroyed ends by the rule that destroyed it (RS.ATK.4, RS.MOV.4, ...), "
                         "not CORE.STR.2, which names the strength bands"),
    "EXT.WPN.BLAST": Fix(2, "a BLAST weapon is refused, and not offered, against a unit engaged with the attacker's "
                            "army, rather than attacking without its extra attacks"),
    "RS.SHO.2": Fix(2, "each model's weapon is a weapon: an attack's `targets` gives each model its own target, "
                       "in shooting and in fights, and each target's attack resolves on its own"),
    "RS.FGT.2": Fix(2, "heresy: units still Locked in Combat with each other at the start of an Assault phase fight "
                       "again, and a unit stays locked while one enemy it is locked with stands"),
    "HH.ROUT.3": Fix(2, "heresy: a unit with no Leadership (a vehicle) takes no Leadership test: at its table edge "
                        "it stays as one that passed, and losing a fight it does not test"),
    "HH.EMB.1": Fix(2, "heresy: a unit embarked in a transport may disembark in its Move sub-phase"),
    "HH.MOV.2": Fix(2, "heresy: a Pinned or Routed unit cannot declare a charge (a charge is a move)"),
    "HH.MOV.1": Fix(2, "a heresy unit selected that moves 0\" is Stationary, not moved"),
    "HH.REACT.1": Fix(2, "the reacting seat may claim a reaction move itself, terrain applies to it, and the "
                         "once-a-round cap is the option one_reaction_per_round"),
    "HH.MOV.3": Fix(2, "every heresy move attests that no model ends within 1\" of an enemy, on impassable terrain, "
                       "on another model or off the table; coherency counts on reaction moves and rushes into play"),
    "HH.MOV.4": Fix(2, "difficult and dangerous terrain count on a rush into play, and a move through terrain cites "
                       "HH.MOV.4"),
    "CORE.SEQ.1": Fix(3, "reference and heresy: a battle round's start and end cite no rule (RULES.md has no ID for "
                         "their rounds) rather than CORE.SEQ.1, which orders rules triggered at the same time"),
    # defects-h (issue 25's named defects)
    "SVC.SETUP": Fix(3, "a mustered engaged_with naming a unit of its own army, or one the other army (mustered) does "
                        "not have, is refused (422), and start_game is refused while one names no enemy unit"),
    "HH.REACT.1/latest": Fix(3, "heresy: a reaction the reacting seat claims answers the latest enemy move of the "
                                "sub-phase, the one that opened the chance to react, not any earlier move"),
    "EXT.WPN.HAZARDOUS": Fix(3, "a HAZARDOUS weapon whose models attack several targets (RS.SHO.2 `targets`) is "
                                "rolled for once, a D6 a model that attacked with it, after its last target, not once "
                                "a target"),
    # issue 25's named defects, fixed in edition 3 (a second fix of a rule already fixed takes the key
    # "RULE.ID/what": `fixed` reads the key, the rule cited stays RULE.ID)
    "AA.MOV.2/destroyed": Fix(3, "a fleeing unit destroyed while its regroup roll is awaited has the roll withdrawn, "
                                 "and play goes on"),
    "RS.MOV.4": Fix(3, "an attached unit's Desperate Escape deals its mortal wounds to the bodyguard's models first, "
                       "then the leader's (RS.ATK.3's order), not all to the bodyguard"),
    "EXT.FNP/every": Fix(3, "outside an attack, Feel No Pain rolls one die for every mortal wound (past 50 in more "
                            "rolls), each wound met by the Feel No Pain of the model it would be lost by"),
    "CORE.STR.2/wounds": Fix(3, "wounds recorded (record_casualties) are lost by one model, the wounded one first, "
                                "and the datasheet's model lines show them; a model that loses its last is removed"),
    "RS.ATK.4/mortal": Fix(3, "mortal wounds outside an attack (Desperate Escape, HAZARDOUS) are recorded as the wounds "
                              "lost (and models removed) on a unit of several models or an attached leader too, not "
                              "as nothing"),
    "CORE.STR.2/wounded": Fix(3, "a unit of several models or an attached leader: its wounds_lost, as its casualties "
                                 "leave it (an attack, wounds recorded, mortal wounds), is its wounded model's, as its "
                                 "model lines show, not every wound it lost added up"),
    # the players' words in what events store (CONTRACT.md "In the players' words")
    "SVC.UNDO.CONSENT": Fix(4, "an undo request of another player's action gives as its reason that player by name "
                               "(\"Bob took it\"), not \"the other seat took it\""),
    "CORE.PER.1": Fix(4, "an effect that lasts until the start of its giver's next turn ends with that player named "
                         "(\"the start of Alice's next turn has come\"), not \"the giving seat's\""),
    "RS.MOV.4/named": Fix(4, "when an engagement ends (a fall back, a consolidation, a destruction), an enemy unit "
                             "left engaged with nobody loses its statuses with the unit that ended it named in the "
                             "reason (\"Alice's Tactical Squad fell back\"), not by its id"),
    "HH.REACT.1/named": Fix(4, "heresy: a reaction window closed because the enemy unit left the battlefield names that "
                               "unit in its reason (\"Alice's Legion is no longer on the battlefield\"), not its id"),
    "RS.CHG.3": Fix(4, "a charge that reaches engages its targets with the charging unit named in the reason the "
                       "engagement and the statuses it sets store (\"charge by Alice's Assault Squad\"), not its id"),
    "RS.FGT.4": Fix(4, "an Engaging consolidation engages, and makes its fresh targets eligible to fight, with the "
                       "consolidating unit named in the reasons stored (\"consolidation by Alice's Assault Squad\"), "
                       "not its id"),
    "AA.CHG.1/named": Fix(4, "a charge that reaches locks the units in combat with the charging unit named in the "
                             "reason the statuses and CombatJoined store (\"charge by Alice's Assault Squad\"), not "
                             "its id"),
    "HH.MOV.2/named": Fix(4, "heresy: Locked in Combat gained by a charge that reached, or lost as the foe broke "
                             "from the fight, names the units in its reason (\"the charge of Alice's Legion reached "
                             "Bob's Militia\", \"Bob's Militia broke from the fight\"), not their ids"),
    # a Feel No Pain roll read as it is rolled
    "EXT.FNP/read": Fix(5, "a Feel No Pain roll is read die by die against the FEEL NO PAIN X+ of the model each "
                           "wound would be lost by (an attached unit's bodyguard and leader each their own, dice no "
                           "wound needs unused), not as the dice total or every die at one unit's X+"),
    # a disembarking attests what every move does
    "HH.EMB.1/clear": Fix(5, "heresy: a unit disembarking attests, as every move does (HH.MOV.3), that no model ends "
                             "within 1\" of an enemy model, on impassable terrain, on another model or off the "
                             "table"),
    # an audit of the results, scores and clock (RULES.md MSN), edition 6
    "MSN.END.1/split": Fix(6, "each part of a unit split before the battle (CORE.SPL.1) counts as a unit among the "
                              "points destroyed: the part that kept the unit's id counts its models too, and each part "
                              "is worth its share of the points its army states for the whole, not the whole each"),
    "RS.ATK.4/paused": Fix(6, "an attack's losses are those it took from the target it was declared at, never more "
                              "than each unit has as it stands: casualties recorded or models returned while it waited "
                              "for its dice no longer count in them (a negative count of models lost, a destroyed "
                              "unit brought back, a returned model slain), and a leader that fell or returned "
                              "meanwhile is struck as declared; the wounds it took from each model line are laid "
                              "over the line as it stands, so wounds recorded meanwhile are kept, not overwritten "
                              "by the attack's lines (its wounds fall on the model already wounded first)"),
    "CORE.STR.2/attached": Fix(6, "a leader and its bodyguard are one unit while attached (CORE.STR.1): the strength "
                                  "their casualties or returned models change is theirs together, its models alive "
                                  "both's and `attached` naming the other, and it is destroyed only once neither "
                                  "stands (the Captain alone is below half-strength), not each part on its own"),
    "RS.ATK.4/fallen": Fix(6, "an attack whose target (and the leader attached to it) was destroyed while it waited "
                              "for its dice ends there: it asks no more dice, no save of a unit no longer on the "
                              "table, and its resolution says it ended with what it scored so far"),
    "EXT.WPN.HAZARDOUS/left": Fix(6, "the models a HAZARDOUS roll slays are never more than its unit has left: "
                                     "casualties recorded while the attack waited for its dice no longer make it "
                                     "lose models it no longer has ('lost 3 models' of 1), nor a unit already "
                                     "destroyed destroyed again"),
    "MSN.OBJ.1/phase": Fix(6, "alternating counts a scored round's objectives in a sub-phase of its Assault phase "
                              "(`score_objectives`), not in a phase of its own (`end_of_round`), which CONTRACT.md does "
                              "not name"),
    "MSN.OBJ.1/attached": Fix(6, "a leader and its bodyguard are one unit while attached (CORE.STR.1): naming either "
                                 "near an objective counts both's models, once, and the unit counts none while either "
                                 "falls back or is Routed (CORE.DESC.1), not each part on its own"),
    "EXT.OBJ.1": Fix(6, "reference: a leader and its bodyguard are one unit while attached (CORE.STR.1): naming either "
                        "near an objective counts both's OC, once, not each part on its own"),
    "CORE.STR.2/status": Fix(6, "a destroyed unit (no models left) is refused a status gained (set_status), as it is "
                                "refused more casualties, rather than recorded as Pinned or Battle-shocked off the "
                                "table"),
    "CORE.PER.1/named": Fix(6, "reference: a status given for a while and lost as its effect ends gives as its reason "
                               "the effect in the players' words ('the falling back status ended: ...'), not its "
                               "field's name ('status falling_back ended: ...')"),
}

# the edition a game created now is judged by
CURRENT = max(fix.edition for fix in FIXES.values())


def fixed(state: GameState, rule: str) -> bool:
    """Whether this game is judged by the fix of `rule` (FIXES): it was created under the fix's edition or
    later."""
    return (state.edition or 1) >= FIXES[rule].edition


def created_under() -> dict[str, int]:
    """What a new game's `GameCreated` data records of its edition: nothing under edition 1 (as every game
    created before editions), else `edition`."""
    return {"edition": CURRENT} if CURRENT > 1 else {}
