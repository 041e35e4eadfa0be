"""The current-phase projection: what `GET /state` serves (CONTRACT.md "Reading"), read off the typed state."""
from __future__ import annotations

import threading
from dataclasses import fields
from typing import Any

from warlog.domain import army, rolls
from warlog.domain.attacks.lines import line_standing
from warlog.domain.game import Game
from warlog.domain.rules import clock, results
from warlog.domain.rules.basics import PLAYERS_CLEAR, Lasts
from warlog.domain.rules.registry import find_ruleset
from warlog.domain.rules.ruleset import Ruleset
from warlog.domain.state import GameState, LastRoll, Result, Unit, Weapon
from warlog.domain.state.turns import OtherTurn
from warlog.domain.words import (
    awaited_said,
    decided,
    lasting,
    objective_title,
    player_name,
    purpose,
    stage_title,
    status_called,
    strength_called,
)


def result_view(result: Result | None) -> dict[str, Any] | None:
    """A game's result as every answer shows it (`/state`, `/summary`, the overlay): its JSON and how it was decided
    in words (`how`: "Decided on victory points")."""
    return None if result is None else {**result.to_json(), "how": decided(result.by, result.draw)}


def roll_view(roll: LastRoll | None) -> dict[str, Any] | None:
    """A roll as the answers show it: what it means (domain/rolls.py) null where its event, logged before rolls
    said so, does not say (or where the roll has no `needed`, no `successes`), and what it is for as the rules call
    the roll (`purpose_title`: "a Desperate Escape")."""
    if roll is None:
        return None
    return {**roll.to_json(), **{key: getattr(roll, key) for key in rolls.KEYS},
            "outcomes": None if roll.outcomes is None else list(roll.outcomes),
            "purpose_title": purpose(roll.purpose)}


def vp_view(ruleset: Ruleset, state: GameState) -> dict[str, int] | None:
    """Each seat's victory points where the game scores them (EXT.VP.1, MSN.OBJ.1); None where it does not."""
    if ruleset.keeps_vp or state.vp is not None or ruleset.scored_by(state) == "vp":
        return dict(state.vp.items()) if state.vp is not None else {"A": 0, "B": 0}
    return None


def started_action(unit: Unit) -> str | None:
    """Reference: the action the unit started this turn (RS.CMD.3); a plugin's turn keeps its flags as JSON."""
    turn = unit.turn
    action = turn.flags.get("action") if isinstance(turn, OtherTurn) else getattr(turn, "action", None)
    return action if isinstance(action, str) else None


def model_lines(unit: Unit) -> list[dict[str, Any]]:
    """Each model line as it stands: its profile as mustered, `alive` of its `count`, and `wounds_left` on its
    wounded model (null: none is wounded), as the next attack would read them (`line_standing`, RS.ATK.3)."""
    alive, taken = line_standing(unit)
    return [{**line.to_json(), "alive": alive[i], "wounds_left": line.wounds - taken[i] if taken[i] else None}
            for i, line in enumerate(unit.models)]


def weapon_sheet(weapon: Weapon) -> dict[str, Any]:
    """A weapon as a datasheet prints it: its profile's characteristics in the players' notation, in datasheet
    order ("Range": '24"', "A": "2", "BS": "3+", "S": "4", "AP": "-1", "D": "1"; what the roster leaves unstated is
    left out), its kind and its keywords."""
    skill = "BS" if weapon.type == "ranged" else "WS"
    profile = {"Range": "Melee" if weapon.type == "melee" else (f'{weapon.range}"' if weapon.range is not None else None),
               "A": weapon.A, skill: f"{weapon.skill}+" if weapon.skill is not None else None,
               "S": None if weapon.S is None else str(weapon.S),
               "AP": None if weapon.AP is None else str(weapon.AP), "D": weapon.D}
    return {"name": weapon.name, "type": weapon.type, "kind": weapon.kind, "keywords": list(weapon.keywords),
            "profile": {key: value for key, value in profile.items() if value is not None}}


def status_details(ruleset: Ruleset, unit: Unit) -> list[dict[str, Any]]:
    """Each status the unit has, in words, with how long it lasts: its `title` as the rules say a unit is it
    ("Battle-shocked", "Locked in Combat", `status_called`), and a stated time where an effect gave it
    (CORE.PER.1), else as the ruleset's table says (`status_ends`)."""
    details = []
    for status in unit.statuses:
        effect = next((e for e in unit.effects or () if e.status == status), None)
        lasts = (Lasts(f"until {lasting(effect.until)}", "CORE.PER.1" if effect.stated else "CORE.PER.2")
                 if effect is not None else ruleset.status_ends.get(status, PLAYERS_CLEAR))
        said = status_called(status)
        details.append({"status": status, "title": said[:1].upper() + said[1:], "until": lasts.until,
                        "rule": lasts.rule})
    return details


def unit_view(state: GameState, uid: str, eligible: bool, ruleset: Ruleset, led_by: str | None,
              engaged: tuple[str, ...] = ()) -> dict[str, Any]:
    """A unit as GET /state shows it: its counters, and its datasheet (CONTRACT.md "In the players' words");
    `led_by`: the unit leading it, if any; `engaged`: the enemy units it is engaged with (`Ruleset.engaged_with`)."""
    unit = state.units[uid]
    strength = army.strength_of(state.units, uid)
    return {"owner": unit.owner, "name": unit.name, "models_alive": unit.models_alive,
            "starting_strength": unit.starting_strength, "strength": strength,
            "strength_title": strength_called(strength),  # as a player says it: "below half strength"
            "wounds_lost": unit.wounds_lost or 0, "statuses": list(unit.statuses),
            "selected": unit.selected, "eligible": eligible, "in_reserves": unit.in_reserves,
            "arriving": unit.arriving, "embarked_in": unit.embarked_in, "engaged_with": list(engaged),
            "action": started_action(unit),
            # CORE.PER.1/2 (reference): what lasts for a while, since when and until when
            "effects": [{"effect": e.effect, "by": e.by, "until": e.until,
                         "until_title": f"until {lasting(e.until, player_name(state, e.by))}", "since_seq": e.seq,
                         "since": {"battle_round": e.battle_round, "phase": e.phase}}
                        for e in unit.effects or ()],
            # its datasheet: what a player reads off the unit's card
            "keywords": list(unit.keywords), "abilities": list(unit.abilities), "models": model_lines(unit),
            "weapons": [weapon_sheet(weapon) for weapon in unit.weapons], "leader_of": unit.leader_of,
            "led_by": led_by, "status_details": status_details(ruleset, unit),
            "points": results.points_of(state, unit)}  # a split unit's part: its share (MSN.END.1)


class UnitViews:
    """Each unit's view kept from the last time its game was read, while what it reads stays the very values it was:
    the typed state keeps a unit the same object until an event changes it, so a write that touches one unit (or
    none: a free roll) makes one unit's view again, not every unit's datasheet. Kept strongly (an identity compared
    is never a reused one), a bounded number of units."""

    def __init__(self, size: int = 8192) -> None:
        self.size = size
        self._kept: dict[tuple[str, str], tuple[Unit, Unit | None, bool, str | None, tuple[str, ...],
                                                dict[str, Any]]] = {}
        self._lock = threading.Lock()

    def view(self, state: GameState, uid: str, eligible: bool, ruleset: Ruleset, led_by: str | None) -> dict[str, Any]:
        unit = state.units[uid]
        engaged = ruleset.engaged_with(state, uid)  # read off other units too: compared, not kept by identity
        partner_uid = unit.leader_of or led_by  # its strength counts its leader or bodyguard (army.strength_of)
        partner = state.units.get(partner_uid) if partner_uid else None
        key = (state.game_id, uid)
        kept = self._kept.get(key)
        if (kept is not None and kept[0] is unit and kept[1] is partner and kept[2] == eligible and kept[3] == led_by
                and kept[4] == engaged):
            return kept[5]
        made = unit_view(state, uid, eligible, ruleset, led_by, engaged)
        with self._lock:
            if len(self._kept) >= self.size:
                self._kept.clear()
            self._kept[key] = (unit, partner, eligible, led_by, engaged, made)
        return made


UNIT_VIEWS = UnitViews()


# what a state holds that GET /state never reads (the overlay's last free roll), or reads apart from the rest, each
# time (the clock, which runs): a write that changes nothing else (a free roll) leaves the rest of a view as it was
NOT_KEPT = frozenset({"last_free_roll", "clock"})
KEPT_FIELDS = tuple(f.name for f in fields(GameState) if f.name not in NOT_KEPT)


class KeptView(dict[str, Any]):
    """A seat's view drawn from the one `SeatViews` keeps: `rendered` is kept with it (the same dict while the view
    is kept), so what a renderer makes of the view's unchanged parts once serves every answer drawn from it
    (api/writing.py `Answered` writes the datasheets and offers once)."""

    rendered: dict[str, Any]


class SeatViews:
    """A seat's view of its live game kept from the last time it was read, while every state field it reads is the
    very value it was, the undo request is as it was and the seat is open to the same `anytime`: a state is made of
    immutable values, each kept the same object until an event changes it, so a free roll (which changes only the
    overlay's last free roll) makes no offer, datasheet or title again. What changes on every write (the version,
    the clock) is put in each time. Kept strongly, a bounded number of games."""

    def __init__(self, size: int = 1024) -> None:
        self.size = size
        self._kept: dict[tuple[str, str], tuple[tuple[object, ...], object, list[str], dict[str, Any],
                                                dict[str, Any]]] = {}
        self._lock = threading.Lock()

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()

    def view(self, game: Game, seat: str) -> dict[str, Any]:
        state, version = game.state, game.version  # one game's, however a write goes on meanwhile
        read = tuple(getattr(state, name) for name in KEPT_FIELDS)
        anytime = game.anytime(seat)
        key = (state.game_id, seat)
        kept = self._kept.get(key)
        if (kept is not None and kept[1] == game.pending_undo and kept[2] == anytime
                and all(a is b for a, b in zip(kept[0], read, strict=True))):
            made, rendered = kept[3], kept[4]
        else:
            made, rendered = state_view(state, 0, seat, game), {}
            with self._lock:
                if len(self._kept) >= self.size:
                    self._kept.clear()
                self._kept[key] = (read, game.pending_undo, anytime, made, rendered)  # a request is replaced, never changed
        view = KeptView(made)
        view["version"] = version
        view.rendered = rendered
        if state.options.clock_minutes is not None:  # MSN.CLK.1: it runs, so it is read each time
            view["clock"] = clock.shown(find_ruleset(state.ruleset), state, game.pending_undo is not None)
        return view


SEAT_VIEWS = SeatViews()


def state_view(state: GameState, version: int, seat: str | None = None,
               game: Game | None = None) -> dict[str, Any]:
    """`game`: the live game, whose seat gets its legal actions; a past or delayed state offers none."""
    ruleset = find_ruleset(state.ruleset)
    in_step = state.status == "in_progress"
    leaders = {unit.leader_of: uid for uid, unit in state.units.items() if unit.leader_of is not None}
    view: dict[str, Any] = {
        "game_id": state.game_id, "ruleset": state.ruleset, "version": version,
        "status": state.status, "battle_round": state.battle_round, "active_seat": state.active_seat,
        "phase": state.phase, "sub_phase": state.sub_phase, "phase_title": stage_title(state.phase, state.sub_phase),
        "awaiting": awaiting_view(state, ruleset, seat),
        "pass_points": dict(state.pass_points.items()), "declared_done": dict(state.declared_done.items()),
        "cp": dict(state.cp.items()), "dice": state.dice, "players": dict(state.players),
        "options": state.options.to_json(), "dice_commitment": state.dice_commitment,
        "mustered": dict(state.mustered.items()),
        "result": result_view(state.result),
        "last_roll": roll_view(state.last_roll),
        # CORE.SEQ.1: rules triggered at once wait in this order (the active player's first); `awaiting` is the head
        "queue": [{"seat": r.seat, "purpose": r.purpose, "unit": r.unit, "spec": r.spec, "rule": r.rule}
                  for r in state.rolls],
        # keep them: `verify?head=` checks the log extends them
        "round_heads": [head.to_json() for head in state.round_heads or ()],
        "units": {uid: UNIT_VIEWS.view(state, uid, in_step and ruleset.eligible(state, uid), ruleset, leaders.get(uid))
                  for uid in state.units},
    }
    vp = vp_view(ruleset, state)
    if vp is not None:
        view["vp"] = vp
    if state.options.clock_minutes is not None:  # MSN.CLK.1
        view["clock"] = clock.shown(ruleset, state, game is not None and game.pending_undo is not None)
    if state.options.objectives:  # the markers by id (what a command names) and name, in every ruleset
        view["objectives"] = [{"id": marker, "name": objective_title(state.options.objectives, marker)}
                              for marker in state.options.objectives]
    if seat is not None:
        view["actions"], view["anytime"], view["records"] = [], [], []
        if game is not None:  # the request waits in the live game's books: a past or delayed state has no key
            view["undo_request"] = pending_request(game, seat)
        if game is not None and seat in ("A", "B"):  # the live game offers a player's seat what it may do
            view["actions"] = [a.as_dict() for a in game.actions(seat)]
            view["anytime"] = game.anytime(seat)
            view["records"] = [a.as_dict() for a in game.records(seat, view["anytime"])]
    return view


def awaiting_view(state: GameState, ruleset: Ruleset, seat: str | None) -> dict[str, Any]:
    """What the game waits for, and that in a sentence to the reader (`text`): "you" to the awaited seat, the
    players by name to the other seat and to a spectator."""
    awaiting = ruleset.awaiting(state)
    return {**awaiting, "text": awaited_said(state, awaiting, seat if seat in ("A", "B") else None)}


def live_view(game: Game, seat: str) -> dict[str, Any]:
    """GET /state as `seat` reads the live game now: what GET /state answers a seat, and what a seat's write
    answers beside its events (`view`, CONTRACT.md "One request a tap")."""
    if seat not in ("A", "B"):
        return state_view(game.state, game.version, seat, game)
    return SEAT_VIEWS.view(game, seat)


def pending_request(game: Game, seat: str | None) -> dict[str, Any] | None:
    """The undo request waiting for an answer (SVC.UNDO.PENDING), and whether this seat answers it."""
    pending = game.pending_undo
    if pending is None:
        return None
    return {"requested_by": pending["seat"], "seqs": pending["seqs"],
            "you_answer": seat in ("A", "B") and seat != pending["seat"]}


def undo_view(game: Game, seat: str | None) -> dict[str, Any]:
    """What undo and redo would do now, for this seat."""
    undo = None
    if game.done and game.state.status != "ended":
        first, last, by, rolled = game.done[-1]
        immediate = seat == by and not rolled
        undo = {"seqs": list(range(first, last + 1)), "action_by": by, "rolled_dice": rolled,
                "needs_consent": not immediate}
    redo = None
    if game.redo_stack and game.state.status != "ended":
        first, last, _by, _rolled, undone_by = game.redo_stack[-1]
        redo = {"seqs": list(range(first, last + 1)), "allowed": seat == undone_by}
    return {"undo": undo, "redo": redo, "pending_request": pending_request(game, seat)}
