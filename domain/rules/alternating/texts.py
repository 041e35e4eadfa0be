"""The sentences of the kinds only `alternating` logs (its events.py), one entry a kind (domain/words.py says how
a text reads its names; domain/texts.py holds the shared kinds')."""
from __future__ import annotations

from warlog.domain.rules.alternating import events as own
from warlog.domain.texts import against_ld, because
from warlog.domain.words import Texts, Words, faces, humane, listed, plural, step_called

TEXTS = Texts()
say = TEXTS.says

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
    "PassPointSpent": "{seat:player} spent a pass point in {sub_phase:step}: {remaining} left",
    "DeclaredDone": "{seat:player} declared done in {sub_phase:step}: they select no more units this phase",
}, {"step": lambda w, sub_phase: step(sub_phase)})


# -- fleeing units (AA.MOV.2) ---------------------------------------------------------------------------------

@say("RegroupPassed")
def _regroup_passed(w: Words, d: own.RegroupPassed) -> str:
    if "untested" in d:
        return f"{w.unit(d['unit'])} takes no regroup test ({d['untested']}) and no longer falls back"
    if d.get("automatic") or "total" not in d:
        return f"{w.unit(d['unit'])} regrouped automatically (And They Shall Know No Fear)"
    return f"{w.unit(d['unit'])} regrouped: {against_ld(d['total'], d.get('ld'))}"


@say("RegroupFailed")
def _regroup_failed(w: Words, d: own.RegroupFailed) -> str:
    return f"{w.unit(d['unit'])} failed to regroup: {against_ld(d['total'], d['ld'])}; it falls back and {d['fall_back']}"


# -- charges and overwatch (AA.CHG.1, AA.OW.1) ----------------------------------------------------------------

def shots(weapon: dict[str, object]) -> str:
    """One weapon of an overwatch: "8 shots with Boltgun from 8 models" ("D3 shots ... from each of" where rolled)."""
    models = plural(int(str(weapon["models"])), "model")
    fired = weapon["shots"]
    if isinstance(fired, int):
        return f"{plural(fired, 'shot')} with {weapon['name']} from {models}"
    return f"{weapon['shots_per_model']} shots with {weapon['name']} from each of {models}"


def charge_by(w: Words, d: own.OverwatchFired | own.OverwatchHeld) -> str:
    """"the charge by Bob's Boyz", the charge an overwatch answers."""
    return f"the charge by {w.unit_name(d['against'])}"


def fire(w: Words, d: own.OverwatchShotsRolled | own.OverwatchResolved) -> str:
    """"with Boltgun at Bob's Boyz", one weapon's overwatch at the charging unit."""
    return f"with {d['weapon']} at {w.unit_name(d['against'])}"


@say("OverwatchFired")
def _overwatch_fired(w: Words, d: own.OverwatchFired) -> str:
    return f"{w.unit(d['unit'])} fired overwatch against {charge_by(w, d)}: {listed(shots(weapon) for weapon in d['weapons'])}"


@say("OverwatchShotsRolled")
def _overwatch_shots_rolled(w: Words, d: own.OverwatchShotsRolled) -> str:
    return (f"{w.unit_name(d['unit'])} rolled {plural(d['shots'], 'overwatch shot')} {fire(w, d)} "
            f"({faces(d['shots_per_model'])} a model, one fewer than each rolled, at least one)")


@say("OverwatchResolved")
def _overwatch_resolved(w: Words, d: own.OverwatchResolved) -> str:
    return (f"Overwatch from {w.unit_name(d['unit'])} {fire(w, d)}: {plural(d['shots'], 'shot')}, rolled "
            f"{faces(d['faces'])}; the players read the hits")


@say("OverwatchHeld")
def _overwatch_held(w: Words, d: own.OverwatchHeld) -> str:
    if d["reason"] == "held by its player":
        return f"{w.unit_name(d['unit'])} held its overwatch against {charge_by(w, d)}"
    return f"{w.unit_name(d['unit'])} fires no overwatch against {charge_by(w, d)}: {w.names(d['reason'])}"


TEXTS.plainly({
    "ChargeRollCalled": "{seat:player} called for the charge roll of {unit:unit}, its overwatch resolved",
    "CombatJoined": "Combat joined: {units:sides} ({reason:names})",
})


@say("ChargeRollWithdrawn", "RegroupRollWithdrawn")
def _roll_withdrawn(w: Words, d: own.RollWithdrawn) -> str:
    roll = w.entry["type"].removesuffix("RollWithdrawn").lower()
    return f"The {roll} roll awaited from {w.player(d['seat'])} for {w.unit_name(d['unit'])} is withdrawn: {d['reason']}"


# -- combats (AA.CC.1) ----------------------------------------------------------------------------------------

@say("CombatFought")
def _combat_fought(w: Words, d: own.CombatFought) -> str:
    return (f"{w.player(d['seat'])} chose to fight the combat of {w.unit_name(d['chosen'])}: "
            f"{w.sides(d['units'], counts=True)}")


@say("CombatEnded")
def _combat_ended(w: Words, d: own.CombatEnded) -> str:
    standing = f" for {w.sides(d['units'])}" if d["units"] else ""
    return f"The combat ended{standing}: {w.names(d['reason'])}"


# -- what the table records (AA.VEH.1, AA.VEH.2, AA.RES.1) ----------------------------------------------------

@say("BlastHitResolved")
def _blast_hit(w: Words, d: own.BlastHitResolved) -> str:
    if d["centre_over_hull"]:
        how = f"at its full Strength {d['strength']}, the marker's centre hole over the hull"
    else:
        how = f"at Strength {d['strength']} (the weapon's {d['weapon_strength']} less 1), no part of the hull " \
              f"under the marker's centre hole"
    return f"{w.player(d['attested_by'])} recorded a Blast hit on {w.unit_name(d['unit'])} {how}"


@say("VehicleHit")
def _vehicle_hit(w: Words, d: own.VehicleHit) -> str:
    outcome = OUTCOMES.get(d["outcome"], humane(d["outcome"]))
    return (f"{w.player(d['attested_by'])} recorded a {d['hit']} hit on {w.unit_name(d['unit'])} for "
            f"{plural(d['hull_points'], 'hull point')}: {outcome}, {d['hull_points_left']} left")


@say("OngoingReservesEntered")
def _ongoing_reserves(w: Words, d: own.OngoingReservesEntered) -> str:
    return (f"{w.unit(d['unit'])} left the battlefield into Ongoing Reserves{because(w, d['reason'], ' ({})')}: "
            f"it arrives at the start of the next Move Units")
