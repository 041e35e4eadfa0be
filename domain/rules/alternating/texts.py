"""The sentences of the kinds only `alternating` logs (its events.py), one entry a kind (domain/words.py says how
a text reads its names; domain/texts.py holds the shared kinds')."""
from __future__ import annotations

from warlog.domain import texts
from warlog.domain.rules.alternating import events as own
from warlog.domain.texts import against_ld
from warlog.domain.words import Texts, Words, humane, listed, plural, step_called

COUNTS = {"movement_pass_points": "movement", "shooting_pass_points": "shooting"}  # what a count is for
OUTCOMES = {"damaged": "damaged", "immobilised": "immobilised instead of losing its last hull point",
            "wrecked": "wrecked"}


def step(sub_phase: str | None) -> str:
    """'Declare Shooting', as the rules name the sub-phase; 'this phase' where none is named."""
    return step_called(sub_phase) or "this phase"


def claims(w: Words, units: list[own.CountedUnit], how: str) -> list[str]:
    """Units left out of a count (or counted in): "Alice's A Assault left out by Alice: no enemy in range"."""
    said = []
    for item in units:
        by = "" if item["by"] == "service" else f" by {w.player(item['by'])}"
        service = f", though the service leaves it out for {item['service_reason']}" if item.get("service_reason") \
            else ""
        said.append(f"{w.unit_name(item['unit'])} {how}{by}: {w.names(item['reason'])}{service}")
    return said


def shots(weapon: dict[str, object]) -> str:
    """One weapon of an overwatch: "8 shots with Boltgun from 8 models" ("D3 shots ... from each of" where rolled)."""
    models = plural(int(str(weapon["models"])), "model")
    fired = weapon["shots"]
    if isinstance(fired, int):
        return f"{plural(fired, 'shot')} with {weapon['name']} from {models}"
    return f"{weapon['shots_per_model']} shots with {weapon['name']} from each of {models}"


TEXTS = Texts({  # how its plain sentences name a field, beside the shared kinds' (domain/texts.py)
    **texts.NAMERS,
    "shots": lambda w, weapons: listed(shots(weapon) for weapon in weapons),  # an overwatch's weapons
    "sides_counted": lambda w, uids: w.sides(uids, counts=True),  # "Alice's A Squad (4 of 5) against Bob's ..."
    "standing": lambda w, uids: f" for {w.sides(uids)}" if uids else "",  # the units a combat left, if any
    "outcome": lambda w, outcome: OUTCOMES.get(outcome, humane(outcome)),  # what a vehicle's hit did
})
say = TEXTS.says


# -- pass points and goes (AA.PP.*, AA.SPP.1, AA.ACT.*) -------------------------------------------------------

@say("CountConfirmed")
def _count_confirmed(w: Words, d: own.CountConfirmed) -> str:
    what = COUNTS.get(d["sub_phase"] or "", step(d["sub_phase"]))
    changes = [f"leaving out {w.unit_name(uid)} ({w.names(why)})" for uid, why in d["exclude"].items()]
    changes += [f"counting {w.unit_name(uid)} in ({w.names(why)})" for uid, why in d["include"].items()]
    how = ", " + listed(changes) if changes else " as the service counts it"
    return f"{w.player(d['seat'])} confirmed their {what} pass-point count{how}"


@say("PassPointsCalculated")
def _pass_points(w: Words, d: own.PassPointsCalculated) -> str:
    what = COUNTS.get(d["sub_phase"], step(d["sub_phase"]))
    counts = ", ".join(f"{w.player(seat)} {'counts ' if not i else ''}{n}"
                       for i, (seat, n) in enumerate(d["counts"].items()))
    getting = [(seat, n) for seat, n in d["pass_points"].items() if n]
    result = listed(f"{w.player(seat)} gets {n}" for seat, n in getting) if getting else "neither gets any"
    notes = claims(w, d["excluded"], "left out") + claims(w, d["included"], "counted in")
    return f"Pass points for {what}: {counts}, so {result}{' (' + '; '.join(notes) + ')' if notes else ''}"


TEXTS.plainly({
    "PassPointSpent": "{seat:player} spent a pass point in {sub_phase:step this phase}: {remaining} left",
    "DeclaredDone": "{seat:player} declared done in {sub_phase:step this phase}: they select no more units this "
                    "phase",
})


# -- fleeing units (AA.MOV.2) ---------------------------------------------------------------------------------

@say("RegroupPassed")
def _regroup_passed(w: Words, d: own.RegroupPassed) -> str:
    if "untested" in d:
        return f"{w.unit(d['unit'])} takes no regroup test ({d['untested']}) and no longer falls back"
    if d.get("automatic") or "total" not in d:
        return f"{w.unit(d['unit'])} regrouped automatically (And They Shall Know No Fear)"
    return f"{w.unit(d['unit'])} regrouped: {against_ld(d['total'], d.get('ld'))}"


TEXTS.plainly({
    "RegroupFailed": "{unit:unit} failed to regroup: {event:against_ld}; it falls back and {fall_back}",
    "RegroupRollWithdrawn": "The regroup roll awaited from {seat:player} for {unit:unit_name} is withdrawn: {reason}",
})


# -- charges and overwatch (AA.CHG.1, AA.OW.1) ----------------------------------------------------------------

TEXTS.plainly({
    "OverwatchFired": "{unit:unit} fired overwatch against the charge by {against:unit_name}: {weapons:shots}",
    "OverwatchShotsRolled": "{unit:unit_name} rolled {shots:plural overwatch shot} with {weapon} at "
                            "{against:unit_name} ({shots_per_model:faces} a model, one fewer than each rolled, at "
                            "least one)",
    "OverwatchResolved": "Overwatch from {unit:unit_name} with {weapon} at {against:unit_name}: {shots:plural shot}, "
                         "rolled {faces:faces}; the players read the hits",
})
TEXTS.chosen("OverwatchHeld", lambda d: d["reason"], {
    "held by its player": "{unit:unit_name} held its overwatch against the charge by {against:unit_name}",
    "else": "{unit:unit_name} fires no overwatch against the charge by {against:unit_name}: {reason:names}",
})
TEXTS.plainly({
    "ChargeRollCalled": "{seat:player} called for the charge roll of {unit:unit}, its overwatch resolved",
    "ChargeRollWithdrawn": "The charge roll awaited from {seat:player} for {unit:unit_name} is withdrawn: {reason}",
    "CombatJoined": "Combat joined: {units:sides} ({reason:names})",
})


# -- combats (AA.CC.1) ----------------------------------------------------------------------------------------

TEXTS.plainly({
    "CombatFought": "{seat:player} chose to fight the combat of {chosen:unit_name}: {units:sides_counted}",
    "CombatEnded": "The combat ended{units:standing}: {reason:names}",
})


# -- what the table records (AA.VEH.1, AA.VEH.2, AA.RES.1) ----------------------------------------------------

@say("BlastHitResolved")
def _blast_hit(w: Words, d: own.BlastHitResolved) -> str:
    if d["centre_over_hull"]:
        how = f"at its full Strength {d['strength']}, the marker's centre hole over the hull"
    else:
        how = f"at Strength {d['strength']} (the weapon's {d['weapon_strength']} less 1), no part of the hull " \
              f"under the marker's centre hole"
    return f"{w.player(d['attested_by'])} recorded a Blast hit on {w.unit_name(d['unit'])} {how}"


TEXTS.plainly({
    "VehicleHit": "{attested_by:player} recorded a {hit} hit on {unit:unit_name} for {hull_points:plural hull "
                  "point}: {outcome:outcome}, {hull_points_left} left",
    "OngoingReservesEntered": "{unit:unit} left the battlefield into Ongoing Reserves{reason:aside}: it arrives at "
                              "the start of the next Move Units",
})
