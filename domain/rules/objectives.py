"""Objective markers and the victory points they score, shared by the rulesets that keep them (RULES.md MSN, EXT).

- The markers are the game's `options.objectives` (their names); the players attest which units stand within
  range of each (CORE.DIST.1), in the `control` of the command that scores them: a map of marker to unit ids
  (`near_schema`, judged by `check_claims`).
- A seat scores 5 VP for each marker it controls, at most 15 at a time (`VP_PER_MARKER`, `VP_CAP`), logged as
  `VictoryPointsScored` with its new total, which `state.vp` keeps; GET /state shows it, and after the last battle
  round the higher VP wins (MSN.END.1, rules/results.py).
- MSN.OBJ.1 (`alternating`, `heresy`: their part `Objectives`): at the end of each battle round from round 2, the
  command that ends the round (`end_phase`) names the units within 3" of each marker; a seat controls a marker
  when it has more models there than the opponent, where vehicles, units falling back or Routed, and embarked
  units count 0 (`ObjectivesHeld`); then each seat scores.
- A leader and its bodyguard are one unit while attached (CORE.STR.1): in a game judged by MSN.OBJ.1/attached (and
  EXT.OBJ.1 in reference), naming either names the unit they form (`named_near`): both parts' models (OC) count,
  once, and the unit counts none while one of its parts falls back or is Routed (CORE.DESC.1).
- EXT.OBJ.1 and EXT.VP.1 (`reference`, reference/command.py): the active seat's claims at the end of its Command
  phase, control summed by OC; the same claims, the same schema and the same VP.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Protocol

from typing_extensions import TypedDict

from warlog.domain import army
from warlog.domain import events as ev
from warlog.domain.rules import actions as act
from warlog.domain.rules import editions
from warlog.domain.rules.actions import Action, Schema
from warlog.domain.rules.basics import SEATS, Step, alive, evolves
from warlog.domain.rules.parts import Part
from warlog.domain.rulings import Refused
from warlog.domain.state import GameState, PerSeat, Unit
from warlog.domain.state.values import replace
from warlog.domain.words import Texts, Words, listed, objective_title, plural

if TYPE_CHECKING:
    from warlog.domain.game import Table

VP_PER_MARKER, VP_CAP = 5, 15  # a marker controlled scores 5 VP; at most 15 at a time (EXT.VP.1, MSN.OBJ.1)
NO_VP = PerSeat(0, 0)
RANGE = '3"'  # MSN.OBJ.1: models within 3" of a marker


class VictoryPointsScored(TypedDict):
    """EXT.VP.1, MSN.OBJ.1: what a seat scored for the markers it controls, and its total since."""

    seat: str
    objectives: list[str]
    vp: int
    total: int


class MarkerCount(TypedDict):
    """MSN.OBJ.1: one marker: the models each seat has within range, the units named near it, those of them that
    count no models and why, and the seat that controls it (or none)."""

    models: dict[str, int]
    units: list[str]
    uncounted: dict[str, str]
    controlled_by: str | None


class ObjectivesHeld(TypedDict):
    """MSN.OBJ.1: the markers as counted at the end of a battle round, from the units a seat attested near each."""

    battle_round: int
    objectives: dict[str, MarkerCount]
    attested_by: str


EVENTS: dict[str, type] = {"ObjectivesHeld": ObjectivesHeld, "VictoryPointsScored": VictoryPointsScored}


# -- what every ruleset that scores markers shares -------------------------------------------------------------

def markers(state: GameState) -> tuple[str, ...]:
    return state.options.objectives or ()


def near_schema(state: GameState) -> Schema:
    """The `control` field: for each marker, the units the players measured within range of it (a unit standing on
    the battlefield; one embarked or in reserves is not there to be near anything, CORE.OFF.1)."""
    near = [uid for uid, unit in state.units.items() if alive(unit) and not unit.in_reserves
            and not unit.embarked_in]
    return act.keyed(markers(state), act.subset(near, 0, "units with models within range"),
                     "for each objective marker, the units within range of it (measured at the table)")


def check_claims(state: GameState, claims: Mapping[str, Sequence[str]], rule: str) -> None:
    """Each marker claimed is one of the game's, each unit named one of the game's."""
    for marker, near in claims.items():
        if marker not in markers(state):
            raise Refused(f"no objective marker {marker!r} in this game", rule=rule)
        for uid in near:
            if uid not in state.units:
                raise Refused(f"no unit {uid!r} in this game", rule=rule)


def attached_unit(state: GameState, uid: str) -> list[str]:
    """CORE.STR.1: the unit `uid` forms with its attached leader or bodyguard still standing, bodyguard first (a unit
    alone: itself)."""
    partner = army.partner_of(state.units, uid)
    if partner is None or not alive(state.units[partner]):
        return [uid]
    return [partner, uid] if state.units[uid].leader_of == partner else [uid, partner]


def named_near(state: GameState, near: Sequence[str], fix: str) -> list[str]:
    """The units named near a marker, each once; in a game judged by `fix` (MSN.OBJ.1/attached, EXT.OBJ.1), a part
    of an attached unit named brings the other part with it: the unit they form counts whole, and once."""
    named = list(dict.fromkeys(near))
    if not editions.fixed(state, fix):
        return named
    return list(dict.fromkeys(member for uid in named for member in attached_unit(state, uid)))


def holder(counts: Mapping[str, int]) -> str | None:
    """The seat with more (models, OC) at a marker; None when equal."""
    return None if counts["A"] == counts["B"] else max(SEATS, key=lambda seat: counts[seat])


def score(t: Table, seat: str, held: list[str], rule: str) -> None:
    """The seat scores for the markers it controls: 5 VP each, at most 15 (its total kept in `state.vp`)."""
    scored = min(VP_CAP, VP_PER_MARKER * len(held))
    t.emit("VictoryPointsScored", VictoryPointsScored(seat=seat, objectives=held, vp=scored,
                                                      total=(t.state.vp or NO_VP)[seat] + scored), rule)


# -- MSN.OBJ.1: the markers scored at the end of each battle round ---------------------------------------------

def uncounted(unit: Unit, statuses: Sequence[str] | None = None) -> str | None:
    """MSN.OBJ.1: why a unit named near a marker counts no models there (None: it counts its models alive);
    `statuses`: those of the attached unit it is a part of, where they are read together (CORE.DESC.1)."""
    statuses = unit.statuses if statuses is None else statuses
    if not alive(unit):
        return "destroyed"
    if army.unit_is_vehicle(unit):
        return "a vehicle"
    if unit.embarked_in or unit.in_reserves:
        return "not on the battlefield"
    if "falling_back" in statuses:
        return "falling back"
    if "routed" in statuses:
        return "Routed"
    return None


def held_by_models(state: GameState, claims: Mapping[str, Sequence[str]]) -> dict[str, MarkerCount]:
    """MSN.OBJ.1: each marker of the game goes to the seat with more models within range of it (an attached unit
    whole, MSN.OBJ.1/attached)."""
    result: dict[str, MarkerCount] = {}
    for marker in markers(state):
        near = named_near(state, claims.get(marker, ()), "MSN.OBJ.1/attached")
        counts, left_out = {"A": 0, "B": 0}, {}
        for uid in near:
            unit = state.units[uid]
            why = uncounted(unit, unit_statuses(state, uid))
            if why is None:
                counts[unit.owner] += unit.models_alive
            else:
                left_out[uid] = why
        result[marker] = MarkerCount(models=counts, units=near, uncounted=left_out, controlled_by=holder(counts))
    return result


def unit_statuses(state: GameState, uid: str) -> list[str] | None:
    """CORE.DESC.1: the statuses of the attached unit `uid` is a part of, its standing parts' together, in a game
    judged by MSN.OBJ.1/attached (None: the part's own)."""
    if not editions.fixed(state, "MSN.OBJ.1/attached"):
        return None
    return [status for member in attached_unit(state, uid) for status in state.units[member].statuses]


class ObjectiveRules(Protocol):
    """What the round's objectives read of their ruleset: its round (the last step of it ends it scored)."""

    def round_layout(self, state: GameState) -> list[Step]:
        """The steps of the battle round being played."""


class Objectives(Part[ObjectiveRules]):
    """A part of `alternating` and `heresy` (MSN.OBJ.1): the command that ends a battle round from round 2 names
    the units near each marker, and both seats score; `VictoryPointsScored` is applied by it. The ruleset asks it
    by name: `scores_round` (its layout), `ends_round`, `round_end_action` where the round ends, and its
    `end_phase` (the ruleset's own mark) calls `check_round_end` before it emits and `score_round` after."""

    def scores_round(self, state: GameState) -> bool:
        """This round ends with the markers scored: a game with objectives, from battle round 2, created under
        MSN.OBJ.1 (an older game goes on as it began, rules/editions.py)."""
        return bool(markers(state)) and state.battle_round >= 2 and editions.fixed(state, "MSN.OBJ.1")

    def ends_round(self, state: GameState, step: Step | None) -> bool:
        """The step is the round's last, and the round is scored."""
        return step is not None and self.scores_round(state) and state.pos == len(self.rules.round_layout(state)) - 1

    def round_end_action(self, state: GameState, ending: str) -> Action:
        """The round's last `end_phase` (`ending`: what it ends, "the Assault phase"), naming the units near each
        marker."""
        return act.action("end_phase", "MSN.OBJ.1", f"end {ending}, naming the units within {RANGE} of each "
                          f"objective: each seat scores {VP_PER_MARKER} VP for each one where it has more models",
                          control=near_schema(state))

    def check_round_end(self, state: GameState, step: Step | None, control: Mapping[str, Sequence[str]] | None) -> None:
        """Before anything is emitted: `control` only where the round ends scored, naming the game's markers and
        units."""
        if control is None:
            return
        if not self.ends_round(state, step):
            raise Refused("objectives are scored by the command that ends the battle round, from battle round 2",
                          rule="MSN.OBJ.1")
        check_claims(state, control, "MSN.OBJ.1")

    def score_round(self, t: Table, seat: str, control: Mapping[str, Sequence[str]] | None) -> None:
        """MSN.OBJ.1: the markers as the players attested them, then each seat's VP."""
        state = t.state
        held = held_by_models(state, control or {})
        t.emit("ObjectivesHeld", ObjectivesHeld(battle_round=state.battle_round, objectives=held, attested_by=seat),
               "MSN.OBJ.1")
        for scorer in SEATS:
            score(t, scorer, [marker for marker, one in held.items() if one["controlled_by"] == scorer], "MSN.OBJ.1")

    @evolves("VictoryPointsScored")
    def _vp_scored(self, state: GameState, data: VictoryPointsScored, entry: ev.Entry) -> GameState:
        return replace(state, vp=(state.vp or NO_VP).replace(data["seat"], data["total"]))


# -- in the players' words --------------------------------------------------------------------------------------

TEXTS = Texts()


@TEXTS.says("ObjectivesHeld")
def _held(w: Words, d: ObjectivesHeld) -> str:
    names = markers(w.after)
    said = []
    for marker, one in d["objectives"].items():
        models = one["models"]
        who = one["controlled_by"]
        count = f"{models['A']} models to {models['B']}" if who != "B" else f"{models['B']} models to {models['A']}"
        left = [f"{w.sides(uids)} {'count' if len(uids) > 1 else 'counts'} none, {why}"
                for uids, why in uncounted_said(w, one["uncounted"])]
        said.append(f"{w.player(who) if who else 'nobody'} holds {objective_title(names, marker)} ({count}"
                    f"{'; ' + '; '.join(left) if left else ''})")
    return (f"At the end of battle round {d['battle_round']} {w.player(d['attested_by'])} counted the models within "
            f"{RANGE} of each objective: {listed(said)}")


def uncounted_said(w: Words, left_out: Mapping[str, str]) -> list[tuple[list[str], str]]:
    """The units that counted none, each with why: a leader and its bodyguard left out for one reason said as the
    one unit they form ("Alice's Guard and Captain"), in a game judged by MSN.OBJ.1/attached."""
    said: list[tuple[list[str], str]] = []
    for uid, why in left_out.items():
        if said and editions.fixed(w.after, "MSN.OBJ.1/attached") and said[-1][1] == why \
                and uid in w.after.units and army.partner_of(w.after.units, uid) in said[-1][0]:
            said[-1][0].append(uid)
        else:
            said.append(([uid], why))
    return said


@TEXTS.says("VictoryPointsScored")
def _scored(w: Words, d: VictoryPointsScored) -> str:
    if not d["objectives"]:
        return f"{w.player(d['seat'])} scored no VP, holding no objective (total {d['total']} VP)"
    held = [objective_title(markers(w.after), marker) for marker in d["objectives"]]
    capped = f"at most {VP_CAP} a round; " if d["vp"] < VP_PER_MARKER * len(held) else ""
    return (f"{w.player(d['seat'])} scored {d['vp']} VP for holding {plural(len(held), 'objective')}: "
            f"{listed(held)} ({capped}total {d['total']} VP)")
