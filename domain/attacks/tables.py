"""The tables an attack is read against, by era: `modern` (RS.ATK.1-4, the reference sheet) or `heresy`.

A `Profile` names its tables (`Profile.tables`, "modern" by default); the steps ask this module the
roll each die needs and leave the sequence alone, so both eras share the attack's order, its dice
and its exact odds (`odds.distribution`).

`modern` is RULES.md's own (RS.ATK.1: the weapon's skill is the roll needed; RS.ATK.2's wound table;
RS.ATK.3: Sv + |AP|). `heresy` is the older era's, which RULES.md does not state (seed 002 details
neither Shooting nor Assault): these are the classic tables of that era, applied as conventions.

- To hit, shooting (RS.ATK.1's step): the weapon's skill is the firer's BS; the roll needed is 7 - BS,
  at best 2+ (a BS of 6 or more gives no re-roll here). Snap shots (HH.RES.4) hit only on a 6.
- To hit, melee: the striker's WS against the foe's WS (`Target.WS`): higher than the foe's: 3+;
  at most the foe's and at least half of it: 4+; the foe's WS more than twice the striker's: 5+.
- No critical hits or critical wounds: a 6 is a hit or a wound like any success.
- To wound (RS.ATK.2's step): S against T: S >= T+2: 2+; T+1: 3+; T: 4+; T-1: 5+; T-2 or T-3: 6+;
  S <= T-4 cannot wound (`needed` 7). An unmodified 1 always fails.
- Vehicles (`Target.AV`, the armour value of the facing the players attest): the wound step is an
  armour penetration roll, one D6 + S per hit: above AV a penetrating hit, equal a glancing hit,
  below nothing (no automatic success or failure). Glancing and penetrating hits alike are saved
  only by an invulnerable save, and each unsaved one takes D hull points (1 unless the roster says;
  `hull_points` is the line's W). What a penetrating hit does beyond that (the era's vehicle damage
  table: crew shaken, immobilised, explodes) is the table's to record, not this module's.
- Saves (RS.ATK.3's step): AP on the 1-6 scale, lower is better, 0 for none ("-"): the armour save
  Sv+ is taken unless 1 <= AP <= Sv; an invulnerable save is always taken; the better one applies;
  an unmodified 1 always fails.
- Damage (RS.ATK.4's step): each unsaved wound takes D wounds from one model (D is 1 unless the
  roster's profile gives more); the excess is lost.
- Weapon abilities: the era's special rules (its weapon types, twin-linked, rending, blast) are not
  the EXT.* abilities; a heresy profile carries none (the rules build it without keywords), so the
  number of shots is the weapon's A (its type's shots, as the roster import reads them).
"""
from __future__ import annotations

MODERN, HERESY = "modern", "heresy"
TABLES = (MODERN, HERESY)
CANNOT = 7  # a roll needed of 7: no D6 makes it


def ranged_needed(bs: int) -> int:
    """Heresy to-hit by BS: 7 - BS, at best 2+."""
    return max(2, min(CANNOT, 7 - bs))


def melee_needed(ws: int, foe_ws: int | None) -> int:
    """Heresy to-hit in melee, WS against WS (an unknown foe's WS reads as the striker's own: 4+)."""
    foe = ws if foe_ws is None else foe_ws
    if ws > foe:
        return 3
    if foe > 2 * ws:
        return 5
    return 4


def wound_needed(strength: int, toughness: int) -> int:
    """Heresy's wound chart, S against T (7: cannot wound)."""
    difference = strength - toughness
    if difference >= 2:
        return 2
    if difference >= -1:
        return 4 - difference
    if difference >= -3:
        return 6
    return CANNOT


def penetration(face: int, strength: int, armour: int) -> int:
    """One armour penetration die: 0 nothing, 1 glancing (D6 + S = AV), 2 penetrating (above AV)."""
    total = face + strength
    return 2 if total > armour else 1 if total == armour else 0


def armour_save(sv: int | None, ap: int) -> int:
    """Heresy armour save: Sv+, none (7) when the weapon's AP (1-6) is Sv or better."""
    if sv is None:
        return CANNOT
    return CANNOT if 1 <= ap <= sv else sv
