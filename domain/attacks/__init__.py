"""The attack sequence as one pure module: profile, abilities and modifiers in; the steps and their dice out.

RS.ATK.1-4 (hit, wound, save, damage), EXT.MOD.1 and the EXT.WPN.* / EXT.FNP abilities of RULES.md.
No I/O, no clock, no randomness of its own: dice come in from outside, one batch at a time.

Modules:
    profile    Weapon, Situation, ModelLine, Target, Profile (frozen values); to_data / from_data (JSON)
    abilities  keyword parser and the ABILITIES table (keyword -> hooks citing its EXT rule)
    steps      the steps as pure functions, each returning a Decision (facts + rule IDs)
    allocation Standing, the allocation order, the group the next wounds go to and the groups tied for them
    memo       per_profile: what a question about a frozen profile or target answered, kept on it
    sequence   attack_sequence (the steps in order), resolve (replay the dice so far), simulate
    odds       distribution (exact odds of the outcome), luck (mid-p percentile of an outcome), attack_luck
    contract   weapon_from / target_from / profile_from: the state's typed units and weapons as a Profile
    driver     AttackDriver: the one driver of an attack, a part each ruleset that shoots or fights holds
               (events, dice from server or table, the pending step carried with the roll request); it calls
               the ruleset back through AttackRules, and takes what a ruleset adds as keywords

A whole attack driven step by step with fixed dice (what the rules do through `request_roll`:
each `Need` says the step, how many dice of what, and whether the attacker's or the defender's
seat rolls them; in table mode the defender's saves and Feel No Pain come from the defending seat):

    >>> from warlog.domain.attacks import ModelLine, Profile, Situation, Target, Weapon, resolve
    >>> bolter = Weapon.of("bolt rifle", A=2, skill=3, S=4, AP=-1, D=1, keywords=["[SUSTAINED HITS 1]"])
    >>> squad = Target((ModelLine("Intercessor", 4, W=2, T=4, Sv=3),
    ...                 ModelLine("Captain", 1, W=5, T=4, Sv=2, InSv=4, keywords=frozenset({"CHARACTER"}))))
    >>> attack = Profile(bolter, squad, Situation(models=2))
    >>> resolve(attack).need                            # 2 models x A2: four hit dice from the attacker
    Need(step='hit', number=4, sides=6, seat='attacker', rule='RS.ATK.1', line=None, among=())
    >>> step = resolve(attack, [[6, 3, 2, 1]])          # a critical hit (+1 SUSTAINED) and a hit
    >>> [d.facts.get("hits", d.facts.get("extra_hits")) for d in step.decisions[1:]]
    [2, 1]
    >>> step.need.step, step.need.number
    ('wound', 3)
    >>> step = resolve(attack, [[6, 3, 2, 1], [4, 5, 2]])  # S4 v T4 wounds on 4+
    >>> step.need                                       # the defender saves for the Intercessors first
    Need(step='save', number=2, sides=6, seat='defender', rule='RS.ATK.3', line=0, among=())
    >>> done = resolve(attack, [[6, 3, 2, 1], [4, 5, 2], [2, 5]])  # 3+ save at AP-1 needs 4+
    >>> done.need is None, done.outcome.wounds_lost, done.outcome.standing.taken
    (True, 1, (1, 0))
    >>> [(d.step, d.rules) for d in done.decisions][-1]
    ('damage', ('RS.ATK.4',))

Conventions where RULES.md is silent (each also said where it is applied):
- RS.ATK.2: the wound roll reads the T of the first living non-CHARACTER line (the bodyguard's).
- RS.ATK.3/4: saves are rolled for one group (model line) at a time, as many dice as wounds left;
  results are assigned lowest first; when the group's last model is destroyed, the results not yet
  assigned are not used and those wounds are rolled again against the next group.
- EXT.FNP: one D6 per wound that would be lost, in order; dice past a destroyed model are unused.
- EXT.WPN.DEVASTATING: the mortal wounds (D, MELTA included) are applied after the attack's other
  wounds, in allocation order, spilling over.
- Re-rolls (TWIN-LINKED, `Situation.reroll_*`) take every failed die (or every 1), never a success.
- Command Re-roll (EXT.CP.1) is the rules' to offer: `rerollable_rolls(profile, need, faces)` names the rolls
  of a batch just made that one re-roll could change; the rules replace them in the batch before `resolve`
  reads it, so the replay sees the final faces (re-rolls come before modifiers, CORE.DICE.2).
- RS.ATK.3 with `Situation.defender_allocates`: where several groups tie for the next wounds (none wounded,
  two non-CHARACTER lines), the sequence asks for a Need("allocate", 1, n): the defender's pick 1..n of
  `tied_groups` (no die: the rules ask the defending seat). `distribution` reads the odds in the target's
  allocation order; `as_allocated(profile, picks)` makes the groups the defender picked that order, so an
  attack's odds follow its defender's allocation (the analytics read them so); `simulate` picks at random.

The rules keep the profile (`to_data(profile)`) and the batches rolled so far with the pending roll and call
`resolve(profile, batches)` again when the next batch arrives: replay gives the same decisions.
The same profile gives the exact odds, so the luck of that attack is read against its own:

    >>> from warlog.domain.attacks import distribution, luck
    >>> odds = distribution(attack)
    >>> round(sum(odds.wounds_lost.values()), 9)
    1.0
    >>> 0 < luck(odds.wounds_lost, 1)["luck_percentile"] < 100
    True
"""
from warlog.domain.attacks.abilities import ABILITIES, Ability, Keyword, effects, parse_keyword, parse_keywords
from warlog.domain.attacks.allocation import Standing, allocation_order, lose_wounds, next_group, tied_groups
from warlog.domain.attacks.contract import feel_no_pain, profile_from, target_from, weapon_from
from warlog.domain.attacks.odds import Odds, Unsupported, as_allocated, attack_luck, distribution, luck
from warlog.domain.attacks.profile import ModelLine, Profile, Situation, Target, Weapon, from_data, to_data
from warlog.domain.attacks.sequence import DiceMismatch, Outcome, Progress, attack_sequence, resolve, simulate
from warlog.domain.attacks.steps import (
    ATTACKER,
    DEFENDER,
    REROLLABLE_STEPS,
    Decision,
    Need,
    rerollable_rolls,
    roll_size,
)

__all__ = [
    "ABILITIES",
    "ATTACKER",
    "DEFENDER",
    "REROLLABLE_STEPS",
    "Ability",
    "Decision",
    "DiceMismatch",
    "Keyword",
    "ModelLine",
    "Need",
    "Odds",
    "Outcome",
    "Profile",
    "Progress",
    "Situation",
    "Standing",
    "Target",
    "Unsupported",
    "Weapon",
    "allocation_order",
    "as_allocated",
    "attack_luck",
    "attack_sequence",
    "distribution",
    "effects",
    "feel_no_pain",
    "from_data",
    "lose_wounds",
    "luck",
    "next_group",
    "parse_keyword",
    "parse_keywords",
    "profile_from",
    "rerollable_rolls",
    "resolve",
    "roll_size",
    "simulate",
    "target_from",
    "tied_groups",
    "to_data",
    "weapon_from",
]
