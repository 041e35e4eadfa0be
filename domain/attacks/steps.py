"""The steps of one attack as pure functions over a `Profile` and the dice (RS.ATK.1-4, EXT.*).

Each function takes the faces the players (or the server) rolled and returns a `Decision`: what
it decided, as plain data, and the rule IDs that decided it. `sequence` strings them together and
says which dice each step needs (`Need`); the functions here never roll.
"""
from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from warlog.domain import dice, rolls
from warlog.domain.attacks import tables
from warlog.domain.attacks.abilities import effects
from warlog.domain.attacks.allocation import Standing, damage_met, lose_wounds
from warlog.domain.attacks.memo import per_profile
from warlog.domain.attacks.profile import Profile

ATTACKER, DEFENDER = "attacker", "defender"
FNP_STEPS = ("feel_no_pain", "mortal_feel_no_pain")  # the Feel No Pain rolls (EXT.FNP): damage's, mortal wounds'


class Need(NamedTuple):  # a NamedTuple, not a frozen dataclass: made thousands of times in a Monte Carlo
    """Dice the next step waits for: `number` dice of `sides`, rolled by the attacker's or defender's seat."""

    step: str  # "attacks", "hit", "hit_reroll", "sustained", "wound", "wound_reroll", "save", "damage",
    #            "feel_no_pain", "mortal_damage", "mortal_feel_no_pain", "hazardous"; "allocate" (not dice: the
    #            defender's choice of group, 1..sides, when `Situation.defender_allocates`)
    number: int  # not `count`, which would hide tuple.count (a Need is a tuple)
    sides: int
    seat: str  # ATTACKER or DEFENDER
    rule: str
    line: int | None = None  # the target's model line it is for (saves, Feel No Pain)
    among: tuple[int, ...] = ()  # "allocate": the tied lines the defender picks from (1..sides, in this order)

    @property
    def spec(self) -> str:
        return str(dice.DiceExpr(self.number, self.sides))


class Decision(NamedTuple):
    step: str
    rules: tuple[str, ...]
    facts: dict[str, Any]

    def to_data(self) -> dict[str, Any]:
        return {"step": self.step, "rules": list(self.rules), **self.facts}


def wound_needed(strength: int, toughness: int) -> int:
    """RS.ATK.2's wound table (the convention RULES.md gives)."""
    if strength >= 2 * toughness:
        return 2
    if strength > toughness:
        return 3
    if strength == toughness:
        return 4
    if 2 * strength <= toughness:
        return 6
    return 5


def capped(modifier: int) -> int:
    """EXT.MOD.1: hit and wound rolls take at most +1 or -1 in total."""
    return max(-1, min(1, modifier))


def _rules(*groups: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(rule for group in groups for rule in group))


# -- number of attacks ------------------------------------------------------------------------------

@per_profile
def attack_parts(profile: Profile) -> tuple[list[dice.DiceExpr], tuple[str, ...]]:
    """The dice expressions whose sum is the number of attacks: A, then BLAST / RAPID FIRE, each per model."""
    extra = effects(profile.weapon.keywords, "extra_attacks", profile)
    per_model = [profile.weapon.attacks, *(dice.parse(amount) for _, amount in extra)]
    return per_model, tuple(rule for rule, _ in extra)


def part_needs(parts: Sequence[dice.DiceExpr], times: int, step: str, seat: str, rule: str) -> list[Need]:
    """One Need per dice part (constants need none): `times` copies of each part."""
    return [Need(step, part.count * times, part.sides, seat, rule) for part in parts
            if not part.is_constant and times > 0]


def part_totals(parts: Sequence[dice.DiceExpr], times: int, rolled: Sequence[Sequence[int]]) -> list[int]:
    """The `times` totals of a sum of parts, from the faces of `part_needs` in order (one list per Need)."""
    totals = [0] * times
    batches = iter(rolled)
    for part in parts:
        faces = [] if part.is_constant or times == 0 else list(next(batches))
        for i in range(times):
            totals[i] += part.modifier + sum(faces[i * part.count:(i + 1) * part.count])
    return totals


@per_profile
def attack_needs(profile: Profile) -> list[Need]:
    parts, _ = attack_parts(profile)
    return part_needs(parts, profile.situation.models, "attacks", ATTACKER, _attack_rule(profile))


def _attack_rule(profile: Profile) -> str:
    return "RS.FGT.3" if profile.weapon.melee else "RS.SHO.2"


def number_of_attacks(profile: Profile, rolled: Sequence[Sequence[int]] = ()) -> Decision:
    parts, _ = attack_parts(profile)
    models = profile.situation.models
    total = sum(part_totals(parts, models, rolled))
    rules, per_model = _attack_facts(profile)
    return Decision("attacks", rules, {"attacks": max(0, total), "models": models, "per_model": list(per_model)})


@per_profile
def _attack_facts(profile: Profile) -> tuple[tuple[str, ...], tuple[str, ...]]:
    parts, rules = attack_parts(profile)
    return _rules([_attack_rule(profile)], rules), tuple(str(p) for p in parts)


# -- hit roll (RS.ATK.1) ----------------------------------------------------------------------------

def _modifier(profile: Profile, hook: str) -> tuple[int, tuple[str, ...]]:
    """The situation's own modifier and the abilities' (`hook`, "hit_modifier" or "wound_modifier"), capped at
    ±1 (EXT.MOD.1, cited when the cap bites), with the rules that gave them."""
    found = effects(profile.weapon.keywords, hook, profile)
    raw = getattr(profile.situation, hook) + sum(v for _, v in found)
    return capped(raw), tuple(r for r, _ in found) + (("EXT.MOD.1",) if raw != capped(raw) else ())


@per_profile
def hit_modifier(profile: Profile) -> tuple[int, tuple[str, ...]]:
    return _modifier(profile, "hit_modifier")


@per_profile
def automatic_hits(profile: Profile) -> bool:
    return bool(effects(profile.weapon.keywords, "automatic_hits", profile))


@per_profile
def hit_needed(profile: Profile) -> int:
    """The roll a hit needs: the weapon's skill (modern), or the heresy tables' by BS, WS against WS, snap shots."""
    if profile.tables == tables.MODERN:
        return profile.weapon.skill
    if profile.situation.snap_shots:
        return 6
    if profile.weapon.melee:
        return tables.melee_needed(profile.weapon.skill, profile.target.WS)
    return tables.ranged_needed(profile.weapon.skill)


def hit_result(profile: Profile, face: int, modifier: int) -> int:
    """0 miss, 1 hit, 2 critical hit: an unmodified 6 (or critical_hit_on) always hits, a 1 always fails.
    The heresy tables know no critical hits: a hit is 1."""
    if face == 1:
        return 0
    if profile.tables != tables.MODERN:
        return 1 if face + modifier >= hit_needed(profile) else 0
    if face >= profile.situation.critical_hit_on or face == 6:
        return 2
    return 1 if face + modifier >= profile.weapon.skill else 0


def hits_to_reroll(profile: Profile, faces: Sequence[int]) -> list[int]:
    """CORE.DICE.2: the hit dice the attacker's re-roll takes (before modifiers are read)."""
    table = _hit_table(profile)
    return _to_reroll(profile.situation.reroll_hits, faces, lambda f: table[f] == 0)


@per_profile
def _hit_table(profile: Profile) -> tuple[int, ...]:
    modifier, _ = hit_modifier(profile)
    return (0, *(hit_result(profile, f, modifier) for f in range(1, 7)))


def _to_reroll(policy: str | None, faces: Sequence[int], failed: Callable[[int], bool]) -> list[int]:
    if policy == "ones":
        return [i for i, f in enumerate(faces) if f == 1]
    if policy == "failed":
        return [i for i, f in enumerate(faces) if failed(f)]
    return []


def rerolled(faces: Sequence[int], indexes: Sequence[int], new_faces: Sequence[int]) -> list[int]:
    out = list(faces)
    for i, face in zip(indexes, new_faces, strict=True):
        out[i] = face
    return out


def hit_roll(profile: Profile, attacks: int, faces: Sequence[int] = (), rerolled_dice: Sequence[int] = ()) -> Decision:
    """RS.ATK.1 (EXT.WPN.TORRENT, EXT.WPN.HEAVY, EXT.MOD.1): hits and critical hits of the final faces."""
    if automatic_hits(profile):  # CORE.DICE.1: not rolled, so never a critical
        return Decision("hit", ("EXT.WPN.TORRENT", "CORE.DICE.1"),
                        {"attacks": attacks, "hits": attacks, "criticals": 0, "automatic": True})
    modifier, rules = hit_modifier(profile)
    table = _hit_table(profile)
    results = [table[f] for f in faces]
    return Decision("hit", _rules(("RS.ATK.1",), rules, ("CORE.DICE.2",) if rerolled_dice else ()),
                    {"attacks": attacks, "dice": list(faces), "rerolled": list(rerolled_dice),
                     "needed": hit_needed(profile), "modifier": modifier,
                     "hits": len(results) - results.count(0), "criticals": results.count(2), "automatic": False})


@per_profile
def sustained_parts(profile: Profile) -> tuple[list[dice.DiceExpr], tuple[str, ...]]:
    found = effects(profile.weapon.keywords, "extra_hits_on_critical", profile)
    return [dice.parse(amount) for _, amount in found], tuple(r for r, _ in found)


def sustained_hits(profile: Profile, criticals: int, rolled: Sequence[Sequence[int]] = ()) -> Decision:
    """EXT.WPN.SUSTAINED: X extra hits per critical hit (X may be rolled, e.g. D3)."""
    parts, rules = sustained_parts(profile)
    extra = sum(part_totals(parts, criticals, rolled)) if parts else 0
    return Decision("sustained", rules, {"criticals": criticals, "extra_hits": extra})


@per_profile
def lethal(profile: Profile) -> bool:
    return bool(effects(profile.weapon.keywords, "critical_hit_wounds", profile))


# -- wound roll (RS.ATK.2) --------------------------------------------------------------------------

@per_profile
def wound_modifier(profile: Profile) -> tuple[int, tuple[str, ...]]:
    return _modifier(profile, "wound_modifier")


@per_profile
def critical_wound_on(profile: Profile) -> tuple[int, tuple[str, ...]]:
    """EXT.WPN.ANTI lowers the unmodified roll that is a critical wound (6 otherwise; heresy: none, 7)."""
    if profile.tables != tables.MODERN:
        return tables.CANNOT, ()
    found = effects(profile.weapon.keywords, "critical_wound_on", profile)
    return min([6, *(v for _, v in found)]), tuple(r for r, _ in found)


@per_profile
def wound_target(profile: Profile) -> int:
    """The roll a wound needs: RS.ATK.2's table, or the heresy chart (7: cannot wound). Against a vehicle's
    armour value (heresy), the D6 an armour penetration roll needs for a glancing hit (below 1: any)."""
    if profile.tables == tables.MODERN:
        return wound_needed(profile.weapon.S, profile.target.toughness)
    if profile.target.AV is not None:
        return profile.target.AV - profile.weapon.S
    return tables.wound_needed(profile.weapon.S, profile.target.toughness)


def wound_result(profile: Profile, face: int, needed: int, modifier: int, critical_on: int) -> int:
    """0 fail, 1 wound, 2 critical wound: an unmodified critical always wounds, an unmodified 1 always fails.
    Heresy: no critical wounds; against a vehicle, 1 is a glancing hit and 2 a penetrating one."""
    if profile.tables != tables.MODERN and profile.target.AV is not None:
        return tables.penetration(face, profile.weapon.S, profile.target.AV)
    if face == 1:
        return 0
    if profile.tables != tables.MODERN:
        return 1 if face + modifier >= needed else 0
    if face >= critical_on:
        return 2
    return 1 if face + modifier >= needed else 0


@per_profile
def wound_reroll_policy(profile: Profile) -> tuple[str | None, tuple[str, ...]]:
    found = effects(profile.weapon.keywords, "reroll_wounds", profile)
    if profile.situation.reroll_wounds == "failed" or not found:
        return profile.situation.reroll_wounds, ()
    return "failed", tuple(r for r, _ in found)  # TWIN-LINKED re-rolls every failed wound roll


def wounds_to_reroll(profile: Profile, faces: Sequence[int]) -> list[int]:
    table = _wound_table(profile)
    return _to_reroll(wound_reroll_policy(profile)[0], faces, lambda f: table[f] == 0)


@per_profile
def _wound_table(profile: Profile) -> tuple[int, ...]:
    needed = wound_target(profile)
    modifier, _ = wound_modifier(profile)
    critical_on, _ = critical_wound_on(profile)
    return (0, *(wound_result(profile, f, needed, modifier, critical_on) for f in range(1, 7)))


@dataclass(frozen=True)
class _WoundSetup:
    needed: int
    modifier: int
    critical_on: int
    table: tuple[int, ...]
    devastating: bool
    precision: bool
    rules: tuple[str, ...]
    toughness: int


@per_profile
def _wound_setup(profile: Profile) -> _WoundSetup:
    toughness = profile.target.toughness
    modifier, mod_rules = wound_modifier(profile)
    critical_on, anti_rules = critical_wound_on(profile)
    precision = profile.situation.precision_line is not None and bool(
        effects(profile.weapon.keywords, "precision", profile))
    return _WoundSetup(wound_target(profile), modifier, critical_on, _wound_table(profile),
                       bool(effects(profile.weapon.keywords, "critical_wound_mortal", profile)), precision,
                       _rules(["RS.ATK.2"], mod_rules, anti_rules, wound_reroll_policy(profile)[1]), toughness)


def wound_roll(profile: Profile, faces: Sequence[int], lethal_hits: int = 0, rerolled_dice: Sequence[int] = (),
               precision_dice: int = 0) -> Decision:
    """RS.ATK.2 (EXT.WPN.LETHAL, EXT.WPN.ANTI, EXT.WPN.LANCE, EXT.WPN.TWIN, EXT.WPN.DEVASTATING).

    `lethal_hits` critical hits wounded automatically (not critical wounds, CORE.DICE.1). The first
    `precision_dice` faces are the wound rolls of critical hits (EXT.WPN.PRECISION).
    """
    setup = _wound_setup(profile)
    table = setup.table
    results = [table[f] for f in faces]
    criticals = results.count(2)
    mortal = criticals if setup.devastating else 0
    rolled_wounds = len(results) - results.count(0)
    precision = 0
    if setup.precision:
        precision = lethal_hits + sum(1 for r in results[:precision_dice]
                                      if r == 1 or (r == 2 and not setup.devastating))
    rules = setup.rules
    if lethal_hits or rerolled_dice or mortal:
        rules = _rules(rules, ["EXT.WPN.LETHAL"] if lethal_hits else [], ["CORE.DICE.2"] if rerolled_dice else [],
                       ["EXT.WPN.DEVASTATING"] if mortal else [])
    facts = {"dice": list(faces), "rerolled": list(rerolled_dice), "needed": setup.needed,
             "modifier": setup.modifier, "critical_on": setup.critical_on, "S": profile.weapon.S,
             "T": setup.toughness, "wounds": rolled_wounds + lethal_hits, "criticals": criticals,
             "lethal": lethal_hits, "devastating": mortal, "to_save": rolled_wounds - mortal + lethal_hits,
             "precision": precision}
    if profile.tables != tables.MODERN:
        facts["tables"] = profile.tables
        if profile.target.AV is not None:  # an armour penetration roll: D6 + S against the facing's AV
            facts.update(AV=profile.target.AV, T=None, penetrating=criticals, glancing=rolled_wounds - criticals,
                         criticals=0)
    return Decision("wound", rules, facts)


# -- saves and damage (RS.ATK.3 / RS.ATK.4) -------------------------------------------------------

@per_profile
def save_needed(profile: Profile, line: int) -> tuple[int, int | None]:
    """RS.ATK.3: the armour save after AP, and the invulnerable save (the better applies). Heresy: Sv+ unless
    the AP (1-6) is Sv or better; a vehicle's armour value takes no armour save, only an invulnerable one."""
    model = profile.target.lines[line]
    if profile.tables != tables.MODERN:
        armour = tables.CANNOT if profile.target.AV is not None else tables.armour_save(model.Sv, profile.weapon.AP)
        return armour, model.InSv
    return (model.Sv or 7) + abs(profile.weapon.AP), model.InSv


def saved(profile: Profile, line: int, face: int) -> bool:
    return _saves(profile, line)[face]


@per_profile
def _saves(profile: Profile, line: int) -> tuple[bool, ...]:
    """Face -> saved, for faces 0..6 (0 unused): an unmodified 1 always fails."""
    armour, invulnerable = save_needed(profile, line)
    return (False, False, *(f >= armour or (invulnerable is not None and f >= invulnerable)
                            for f in range(2, 7)))


def save_roll(profile: Profile, line: int, faces: Sequence[int]) -> Decision:
    """RS.ATK.3: one D6 per wound against this group; RS.ATK.4 assigns them lowest first."""
    ordered = sorted(faces)
    table = _saves(profile, line)
    failed = [table[f] for f in ordered].count(False)
    model, needed = _save_facts(profile, line)
    return Decision("save", ("RS.ATK.3",), {"line": line, "model": model.name, "dice": ordered,
                                            "saved": len(faces) - failed, "failed": failed, "Sv": model.Sv,
                                            "InSv": model.InSv, "AP": profile.weapon.AP, "needed": needed})


@per_profile
def _save_facts(profile: Profile, line: int) -> tuple[Any, int]:
    armour, invulnerable = save_needed(profile, line)
    return profile.target.lines[line], min(armour, invulnerable or 7)


@per_profile
def damage_parts(profile: Profile) -> tuple[list[dice.DiceExpr], tuple[str, ...]]:
    """D, plus MELTA X within half range, per failed save (or per devastating wound)."""
    found = effects(profile.weapon.keywords, "extra_damage", profile)
    return [profile.weapon.damage, *(dice.parse(a) for _, a in found)], tuple(r for r, _ in found)


def damage_amounts(profile: Profile, times: int, rolled: Sequence[Sequence[int]] = ()) -> list[int]:
    parts, _ = damage_parts(profile)
    return [max(0, amount) for amount in part_totals(parts, times, rolled)]


@per_profile
def fnp_of(profile: Profile, line: int) -> int | None:
    return profile.target.fnp_of(line)


def apply_damage(profile: Profile, standing: Standing, line: int, amounts: Sequence[int],
                 fnp_faces: Sequence[int] = ()) -> tuple[Decision, Standing, int]:
    """RS.ATK.4: each failed save's damage to one model of the group, in turn; no spill-over.

    Returns the decision, the new standing and how many failed saves were used: once the group's
    last model is destroyed the rest are not (their wounds go to the next group, rolled again).
    """
    met = damage_met(profile.target, standing, line, amounts, fnp_faces)
    standing, used = met.standing, met.used
    return (Decision("damage", _damage_rules(profile, line),
                     {"line": line, "damage": list(amounts[:used]), "wounds_lost": met.lost,
                      "models_destroyed": met.destroyed, "feel_no_pain_dice": len(met.rolled_for),
                      "group_destroyed": not standing.alive[line]}),
            standing, used)


@per_profile
def _damage_rules(profile: Profile, line: int) -> tuple[str, ...]:
    return _rules(["RS.ATK.4"], damage_parts(profile)[1], ["EXT.FNP"] if fnp_of(profile, line) else [])


def apply_mortal_wounds(profile: Profile, standing: Standing, amount: int,
                        fnp_faces: Sequence[int] = ()) -> tuple[Decision, Standing]:
    """EXT.WPN.DEVASTATING: mortal wounds, no save, spilling from model to model in allocation order."""
    standing, lost, destroyed, used = lose_wounds(profile.target, standing, -1, amount, fnp_faces, spill=True)
    rules = ("EXT.WPN.DEVASTATING",) + (("EXT.FNP",) if fnp_faces else ())
    return Decision("mortal_wounds", rules, {"mortal_wounds": amount, "wounds_lost": lost,
                                             "models_destroyed": destroyed, "feel_no_pain_dice": used}), standing


def any_fnp(profile: Profile, standing: Standing) -> bool:
    return any(fnp_of(profile, i) for i, n in enumerate(standing.alive) if n)


# -- after the attack -------------------------------------------------------------------------------

@per_profile
def hazardous(profile: Profile) -> bool:
    return bool(effects(profile.weapon.keywords, "hazardous", profile))


def hazardous_roll(profile: Profile, faces: Sequence[int]) -> Decision:
    """EXT.WPN.HAZARDOUS after the attack (`hazard`)."""
    return hazard(profile.situation.attacker_keywords, faces)


HAZARDOUS = rolls.Reading("Hazardous", 2, each=True, noun="pass")  # EXT.WPN.HAZARDOUS: each 1 fails


def hazard(attacker_keywords: Collection[str], faces: Sequence[int]) -> Decision:
    """EXT.WPN.HAZARDOUS: each 1 destroys a model that used the weapon (CHARACTER, MONSTER, VEHICLE: 3 mortal
    wounds)."""
    ones = sum(1 for f in faces if f == 1)
    tough = bool({"CHARACTER", "MONSTER", "VEHICLE"} & set(attacker_keywords))
    return Decision("hazardous", ("EXT.WPN.HAZARDOUS",),
                    {"dice": list(faces), "ones": ones, "models_destroyed": 0 if tough else ones,
                     "mortal_wounds": 3 * ones if tough else 0})


# -- what a roll of the attack needs (domain/rolls.py) ----------------------------------------------------------

READ_STEPS = ("hit", "hit_reroll", "wound", "wound_reroll", "save", "hazardous", "feel_no_pain")  # dice that each
# reach a number


def reading(profile: Profile, step: str, line: int | None = None) -> rolls.Reading | None:
    """What each die of an attack roll must reach, as the step's own table reads it (`_hit_table`,
    `_wound_table`, `_saves`, `hazardous_roll`); None for a roll nothing must reach (attacks, damage: totals)."""
    modern = profile.tables == tables.MODERN
    if step in ("hit", "hit_reroll"):
        modifier, _ = hit_modifier(profile)
        return rolls.Reading("Hit roll", hit_needed(profile), each=True, noun="hit", modifier=modifier,
                             critical_on=min(profile.situation.critical_hit_on, 6) if modern else None)
    if step in ("wound", "wound_reroll"):
        setup = _wound_setup(profile)
        if not modern and profile.target.AV is not None:  # D6 + S against AV: equal glances, above penetrates
            needed = profile.target.AV - profile.weapon.S
            return rolls.Reading("Armour penetration", needed, each=True, noun="hit", critical_on=needed + 1,
                                 ones_fail=False)
        return rolls.Reading("Wound roll", setup.needed, each=True, noun="wound", modifier=setup.modifier,
                             critical_on=setup.critical_on if modern else None)
    if step == "save" and line is not None:
        return rolls.Reading("Saves", _save_facts(profile, line)[1], each=True, noun="save")
    if step == "hazardous":
        return HAZARDOUS
    if step == "feel_no_pain" and line is not None and fnp_of(profile, line) is not None:  # EXT.FNP: X+ a wound
        return rolls.Reading("Feel No Pain", fnp_of(profile, line), each=True, noun="ignored wound", ones_fail=False)
    return None


# -- Command Re-roll (EXT.CP.1, CORE.DICE.2) ---------------------------------------------------------

REROLLABLE_STEPS = ("hit", "wound", "save", "damage", "mortal_damage", "hazardous")  # EXT.CP.1's attack rolls


def rerollable_rolls(profile: Profile, need: Need, faces: Sequence[int]) -> list[int]:
    """The rolls of a batch just made that one re-roll could change, as the index of each roll's first die.

    EXT.CP.1 names hit, wound, save, damage and hazard rolls. A roll is offered when it failed (a miss, a
    failed wound, a failed save, a hazard roll of 1) or, for damage, when its total is below its most. A
    roll made of several dice (2D6 damage) is re-rolled whole (CORE.DICE.2): its dice are `need.number`
    split evenly, and none is offered when the damage parts roll different numbers of dice. A roll the
    weapon's own re-roll already takes (TWIN-LINKED, a `reroll_*` policy) is not offered: no die is
    re-rolled twice (CORE.DICE.2)."""
    step = need.step
    if step == "hit" and not profile.situation.reroll_hits:
        table = _hit_table(profile)
        return [i for i, f in enumerate(faces) if table[f] == 0]
    if step == "wound" and not wound_reroll_policy(profile)[0]:
        table = _wound_table(profile)
        return [i for i, f in enumerate(faces) if table[f] == 0]
    if step == "save" and need.line is not None:
        table = _saves(profile, need.line)
        return [i for i, f in enumerate(faces) if not table[f]]
    if step == "hazardous":
        return [i for i, f in enumerate(faces) if f == 1]
    if step in ("damage", "mortal_damage"):
        size = roll_size(profile)
        if size is None:
            return []
        return [i for i in range(0, len(faces), size) if sum(faces[i:i + size]) < size * need.sides]
    return []


def roll_size(profile: Profile, step: str = "damage") -> int | None:
    """How many dice one roll of this step is (CORE.DICE.2: a 2D6 is re-rolled whole); None if it varies."""
    if step not in ("damage", "mortal_damage"):
        return 1
    counts = {part.count for part in damage_parts(profile)[0] if not part.is_constant}
    return counts.pop() if len(counts) == 1 else None
