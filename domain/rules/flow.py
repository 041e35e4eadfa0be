"""The interpreter every ruleset shares: phases and steps declared as data, rolls asked for through
`awaiting`, the legal actions, and the automatic transitions run through one loop with a guard. The commands
every ruleset knows live in rules/core.py, the core events' appliers in rules/core_state.py.

A ruleset subclasses `Ruleset`, declares its `round_layout`, and adds
`@handles("command")` and `@evolves("EventType")` methods; handlers decide and
emit, appliers only change the state. It names the parts it is composed of (`parts`, rules/parts.py): their
marked methods join its dispatch tables, each run on its part, and the hooks below that a part answers the
ruleset delegates to it by name (`self.part(Kind).hook(...)`).

The interpreter, every ruleset's handlers, hooks and appliers read the typed state (`GameState`, domain/state/);
an applier (`@evolves`) returns the next one.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar, cast

from typing_extensions import TypedDict, Unpack

from warlog.domain import army, dice, rolls, texts
from warlog.domain import commands as cmd
from warlog.domain import events as ev
from warlog.domain.rules import actions as act
from warlog.domain.rules import editions, results
from warlog.domain.rules.actions import Action
from warlog.domain.rules.basics import SEATS, Awaiting, Lasts, Step, alive, other
from warlog.domain.rules.parts import Marks, Part, bound, collect, joined
from warlog.domain.rules.rosters import RosterReading
from warlog.domain.rulings import Refused
from warlog.domain.state import GameState
from warlog.domain.words import Text, humane, phase_called, player_name, purpose, step_called, unit_named

if TYPE_CHECKING:
    from warlog.domain.game import Table


P = TypeVar("P", bound=Part[Any])


class RollNote(TypedDict, total=False):
    """What a roll's event may say besides its dice (`ev.DiceRolled`): the table's faces were awaited, or it is a
    free roll."""

    awaited: bool
    free: bool


class CasualtyNote(TypedDict, total=False):
    """What a `CasualtiesRecorded` may say besides its counts: the seat that attested it, why, the model lines
    the wounds recorded leave (`record_casualties`), and the wounds its wounded model has lost after them."""

    attested_by: str
    reason: str
    lines: ev.ModelLines
    wounds_lost: int


def strength(state: GameState, uid: str) -> str:
    """CORE.STR.2: the unit's strength band. A game judged by CORE.STR.2/attached (rules/editions.py) reads a leader
    and its bodyguard as the one unit they form while attached (CORE.STR.1), destroyed once neither stands; an
    earlier one read each part's own models as destroyed with its last."""
    if editions.fixed(state, "CORE.STR.2/attached"):
        return army.attached_strength_of(state.units, uid)
    return army.strength_of(state.units, uid)


def strength_changed(seen: GameState, state: GameState, uid: str) -> ev.StrengthChanged | None:
    """CORE.STR.2: the `StrengthChanged` of `uid` from the state `seen` to `state` (casualties, models returned),
    None where its band is the same. In a game judged by CORE.STR.2/attached the unit's models alive are those of
    the unit it forms with its leader or bodyguard, whom `attached` names where it stood before the change."""
    before, after = strength(seen, uid), strength(state, uid)
    if after == before:
        return None
    unit = state.units[uid]
    if not editions.fixed(state, "CORE.STR.2/attached"):
        return {"unit": uid, "from": before, "to": after, "models_alive": unit.models_alive,
                "starting_strength": unit.starting_strength}
    changed: ev.StrengthChanged = {"unit": uid, "from": before, "to": after,
                                   "models_alive": army.attached_models_of(state.units, uid),
                                   "starting_strength": unit.starting_strength}
    partner = army.partner_of(seen.units, uid)
    if partner is not None and alive(seen.units[partner]):
        changed["attached"] = partner
    return changed


def wounded_note(state: GameState, uid: str, taken: Sequence[int]) -> CasualtyNote:
    """CORE.STR.2/wounded: what a `CasualtiesRecorded` of a unit of more than one model (or an attached leader)
    says its counter `wounds_lost` is: its wounded model's lost wounds, as its model lines show them after (`taken`,
    line by line), not every wound it lost added up; a one-model unit's adds up, its one model's."""
    if state.units[uid].starting_strength == 1 or not editions.fixed(state, "CORE.STR.2/wounded"):
        return {}
    return {"wounds_lost": sum(taken)}


class StatusNote(TypedDict, total=False):
    """What a `StatusGained` or `StatusLost` says besides its unit and status: why, who attested it, the foe."""

    reason: str
    attested_by: str
    foe: str


class Flow:
    name = ""     # what POST /games names it by (rules/registry.py lists them)
    title = ""    # what a player reads: the game and editions it models
    summary = ""  # one line on how it plays
    anytime_commands: tuple[str, ...] = ("free_roll", "record_casualties", "set_status", "concede")
    setup_commands: tuple[str, ...] = ()
    keeps_vp = False  # victory points are scored, and GET /state shows them (reference: EXT.VP.1)
    durations = False  # set_status may give a status for a stated time (reference: CORE.PER.1)
    commands: tuple[type[cmd.Command], ...] = ()  # its own command classes beyond domain/commands.py's (registry)
    roster: RosterReading | None = None  # how it reads a roster file's units; none: it takes none
    event_payloads: ClassVar[Mapping[str, type]] = ev.SHARED  # kind -> its data's type (domain/events.py)
    event_texts: ClassVar[Mapping[str, Text]] = texts.SHARED  # kind -> its sentence (domain/texts.py, words.py)
    status_ends: ClassVar[Mapping[str, Lasts]] = {}  # status -> how long it lasts here (else PLAYERS_CLEAR)
    parts: ClassVar[tuple[type[Part[Any]], ...]] = ()  # what it is composed of besides its classes (rules/parts.py)
    handlers: ClassVar[Marks] = {}  # its own marks, unbound; each subclass gets its own (__init_subclass__)
    appliers: ClassVar[Marks] = {}
    handled_by: ClassVar[dict[str, type[Part[Any]]]] = {}  # the commands its parts answer, by part
    applied_by: ClassVar[dict[str, type[Part[Any]]]] = {}  # the event kinds its parts apply, by part

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        cls.handlers, cls.appliers = collect(cls)
        cls.handled_by = joined(cls.__name__, cls.handlers, cls.parts, "handlers")
        cls.applied_by = joined(cls.__name__, cls.appliers, cls.parts, "appliers")

    def __init__(self) -> None:
        """Its parts, each built with it; its dispatch tables bound once (used by every command and event)."""
        self._parts: dict[type[Part[Any]], Part[Any]] = {kind: kind(self) for kind in self.parts}
        self._handling = bound(self, self.handlers, self.handled_by, self._parts, "handlers")
        self._applying = bound(self, self.appliers, self.applied_by, self._parts, "appliers")

    def part(self, kind: type[P]) -> P:
        """Its part of this class (one of `parts`), as built with it: what a hook delegates to."""
        return cast(P, self._parts[kind])

    # -- layout --------------------------------------------------------------------------

    def round_layout(self, state: GameState) -> list[Step]:
        raise NotImplementedError("each ruleset declares its round")  # pragma: no cover

    def step(self, state: GameState) -> Step | None:
        """The step being played; None outside play, and between rounds (a new round's first event, before its
        first step starts: the last round's position may lie past this round's layout, which can be shorter)."""
        if state.status != "in_progress" or state.pos is None:
            return None
        kept = self._layout
        if kept is not None and kept[0] is state:  # a state's rulings ask for its step many times over
            layout = kept[1]
        else:
            layout = self.round_layout(state)
            self._layout = (state, layout)
        return layout[state.pos] if state.pos < len(layout) else None

    # the round's layout for the state it was last made for (a state is immutable: the layout stays true of it)
    _layout: tuple[GameState, list[Step]] | None = None

    def check_army(self, units: list[dict[str, Any]]) -> None:
        """Hook: characteristics this ruleset's rules read that a unit must state (422 naming the field). `units`:
        the army's JSON as sent, before it is read as units (the JSON boundary)."""

    # -- applying events -----------------------------------------------------------------

    def apply(self, state: GameState | None, entry: ev.Entry) -> GameState:
        """The state after `entry`, which its kind's applier returns (a kind no applier names changes nothing)."""
        applier = self._applying.get(entry["type"])
        if applier is None:
            if state is None:
                raise ValueError(f"a {entry['type']} before the game was created")
            return state
        new: GameState = applier(state, entry["data"], entry)
        return new

    # -- deciding ------------------------------------------------------------------------

    def handle(self, t: Table, seat: str, command: cmd.Command) -> None:
        state = t.state
        if getattr(command, "dice", None) is not None and state.dice == "server":
            raise Refused("server dice: the service rolls every die; send no \"dice\"", rule="SVC.DICE.SERVER")
        handler = self._handling.get(command.type)
        if handler is None:  # a command of another ruleset: well formed, and none of this game's rules (409)
            raise Refused(f"the {self.name} ruleset has no command {command.type!r}: GET /state lists what you "
                          "may send", rule=self.awaited_rule(t.state))
        setup_only = command.type in ("add_entropy", "start_game")
        if setup_only and state.status != "setup":
            raise Refused(f"{command.type} belongs to set-up; the game has started", rule="SVC.SETUP")
        if not setup_only and command.type not in ("concede", *self.setup_commands) and state.status == "setup":
            raise Refused(f"{command.type} waits until the game has started: start the game first", rule="SVC.SETUP")
        handler(t, seat, command)

    # -- shared building blocks ----------------------------------------------------------

    def roll(self, t: Table, spec: str, purpose: str, rule: str | None, seat: str | None,
             faces: Sequence[int] | None = None, unit: str | None = None, reading: rolls.Reading | None = None,
             **extra: Unpack[RollNote]) -> ev.Entry:
        """Record one roll: server dice now, or the table's faces already checked; what it means as `reading`
        (the rule asking for it says what it needs; none for a free roll) reads it (domain/rolls.py)."""
        expr = dice.parse(spec)
        data: dict[str, Any] = {"purpose": purpose, "spec": str(expr), "sides": expr.sides}
        if faces is None and expr.sides == 0:
            faces = []  # a constant ("7"): no die is drawn, so no counter is spent and there is nothing to prove
        elif faces is None:
            faces, data["counter"] = t.server_roll(expr)
        total = sum(faces) + expr.modifier
        data.update(faces=list(faces), total=total, seat=seat, unit=unit, **extra)
        if extra.get("free") or reading is None:  # nothing reads it: "2D6 for scatter: 3 and 5 (total 8)"
            said = rolls.free(faces, data["spec"], purpose if extra.get("free") else humane(purpose), total)
        else:
            said = rolls.read(faces, data["spec"], reading, total)
        data.update(said)
        return t.emit("DiceRolled", data, rule, by=seat)

    def request_roll(self, t: Table, seat: str, purpose: str, spec: str, rule: str, unit: str,
                     **context: object) -> None:
        """A roll the rules call for, for `unit`: rolled now with server dice, else awaited from `seat`. `context`:
        what its outcome will read, logged as given (JSON, `ev.RollRequested.context`)."""
        request = ev.RollRequested(seat=seat, purpose=purpose, spec=spec, rule=rule, unit=unit, context=context)
        if t.state.dice == "server":
            self.resolve_request(t, request, None)
        else:
            t.emit("RollRequested", request, rule, by=None)

    def resolve_request(self, t: Table, request: ev.RollRequested, faces: list[int] | None) -> None:
        entry = self.roll(t, request["spec"], request["purpose"], request["rule"], request["seat"],
                          faces, request["unit"], self.roll_reading(t.state, request), awaited=faces is not None)
        self.on_roll(t, request, cast(ev.DiceRolled, entry["data"]))  # the entry `roll` logged: a DiceRolled

    def roll_reading(self, state: GameState, request: ev.RollRequested) -> rolls.Reading | None:
        """What a roll the rules asked for needs, as the rule that reads it (`on_roll`) judges it; None: nothing
        the roll must reach (a total the players read)."""
        return None

    def on_roll(self, t: Table, request: ev.RollRequested, roll: ev.DiceRolled) -> None:
        raise Refused(f"nothing resolves a {request['purpose']} roll here", rule=request["rule"])

    def casualties(self, t: Table, uid: str, models: int, wounds: int, rule: str, **extra: Unpack[CasualtyNote]) -> None:
        seen = t.state
        t.emit("CasualtiesRecorded", {"unit": uid, "models": models, "wounds": wounds, **extra}, rule)
        changed = strength_changed(seen, t.state, uid)
        if changed is not None:
            t.emit("StrengthChanged", changed, "CORE.STR.2")
        units = t.state.units
        if units[uid].models_alive <= 0:  # this unit's own last model: it is destroyed (its leader may stand)
            t.emit("UnitDestroyed", ev.UnitDestroyed(unit=uid), "CORE.STR.2")
            # its passengers are no longer inside anything: on the battlefield (CORE.OFF.1), where the
            # players set them up, and from now on counted, selected and shot at as any other unit
            units = t.state.units
            for passenger in sorted(p for p, unit in units.items()
                                    if unit.embarked_in == uid and unit.models_alive > 0):
                t.emit("UnitDisembarked", ev.UnitDisembarked(unit=passenger, transport=uid,
                                           reason="its transport was destroyed"), "CORE.OFF.1")

    def change_status(self, t: Table, uid: str, status: str, value: bool, rule: str,
                      **extra: Unpack[StatusNote]) -> None:
        has = status in t.state.units[uid].statuses
        if has == value:
            return
        t.emit("StatusGained" if value else "StatusLost", {"unit": uid, "status": status, **extra}, rule)

    def start_round(self, t: Table, battle_round: int) -> None:
        t.emit("BattleRoundStarted", ev.BattleRoundStarted(battle_round=battle_round), self.round_cited(t.state))
        self.enter(t, 0)

    round_rule: str | None = None  # the rule of a battle round's structure, where RULES.md has one (AA.TURN.1)

    def round_cited(self, state: GameState) -> str | None:
        """What a battle round's start and end cite: the ruleset's round rule. RULES.md gives the reference and
        heresy rounds (a turn each) no ID of their own, so they cite none; games created before that fix cited
        CORE.SEQ.1, which orders rules triggered at once and governs no round."""
        if self.round_rule is None and not editions.fixed(state, "CORE.SEQ.1"):
            return "CORE.SEQ.1"
        return self.round_rule

    def enter(self, t: Table, pos: int) -> None:
        """Enter step `pos` of the round; its `begin` decides what it awaits or skips."""
        step = self.round_layout(t.state)[pos]
        t.emit("StepStarted", ev.StepStarted(phase=step.phase, sub_phase=step.name, active_seat=step.active,
                               pos=pos, settled=step.kind in ("count", "phase"),
                               pass_points=step.pass_points), step.rule)
        self.begin(t, step)

    def begin(self, t: Table, step: Step) -> None:
        """Hook: a step's on_begin (roll-offs, reserve rolls, skips)."""

    def settle(self, t: Table, step: Step) -> None:
        """Hook: once a step's opening rolls are in, decide its roll-off, first seat or skip."""
        raise NotImplementedError(f"{self.name} has no settle for {step.kind}")  # pragma: no cover

    def step_over(self, state: GameState, step: Step) -> bool:
        return False

    def progress(self, t: Table, step: Step) -> bool:
        """Hook: an automatic move inside a settled step (e.g. a reaction nobody can make); True if it emitted."""
        return False

    def advance(self, t: Table) -> None:
        """Run automatic transitions until someone has to act (a loop with a guard)."""
        for _ in range(500):
            state = t.state
            step = self.step(state)
            if step is None or state.rolls:
                return
            if state.step is None or not state.step.settled:
                self.settle(t, step)
                continue
            if self.progress(t, step):
                continue
            if not self.step_over(state, step):
                return
            self.end_step(t, step)
        raise RuntimeError("automatic transitions did not settle")  # pragma: no cover

    def end_step(self, t: Table, step: Step) -> None:
        pos = (t.state.pos or 0) + 1
        layout = self.round_layout(t.state)
        phase_over = pos >= len(layout) or (layout[pos].phase, layout[pos].active) != (step.phase, step.active)
        if phase_over and self.wiped_out(t):
            return
        if pos < len(layout):
            self.enter(t, pos)
            return
        self.end_round(t)

    def wiped_out(self, t: Table) -> bool:
        """MSN.END.2, at the end of a phase: a seat with nothing left on the battlefield or to come loses (both at
        once: a draw). True if the game so ended."""
        if not editions.fixed(t.state, "MSN.END.2"):
            return False
        gone = results.wiped_out(t.state)
        if not gone:
            return False
        self.end_game(t, "wipeout", winner=None if len(gone) == 2 else other(gone[0]))
        return True

    def end_round(self, t: Table) -> None:
        battle_round = t.state.battle_round
        t.emit("BattleRoundEnded", ev.BattleRoundEnded(battle_round=battle_round, head_hash=t.game.head),
               self.round_cited(t.state))
        if battle_round < t.state.options.battle_rounds:
            self.start_round(t, battle_round + 1)
        elif editions.fixed(t.state, "MSN.END.1"):  # the higher score wins, equal is a draw
            self.end_game(t, "battle_rounds",
                          winner=results.higher(results.score(t.state, self.scored_by(t.state))))
        else:  # as judged before MSN.END.1: the ruleset's own winner, if any
            self.end_game(t, "battle_rounds", winner=self.winner(t.state))

    def scored_by(self, state: GameState) -> results.Scored:
        """Hook: how a game is scored (MSN.END.1): by VP where it has objectives, else by what each seat destroyed.
        A ruleset whose own rules keep a score (a plugin's) answers "vp"."""
        return results.scored_by(state)

    def winner(self, state: GameState) -> str | None:
        """Hook of a game created before MSN.END.1 (rules/editions.py): who won once the last battle round is
        over (None: no winner, or a draw)."""
        return None

    def end_game(self, t: Table, reason: str, winner: str | None) -> None:
        """The game ends (SVC.ENDED). A game created under MSN.END logs its result whole: who won or a draw, how
        it was decided, the score and the rule, which the event cites."""
        seed = t.game.seed if t.state.dice == "server" else None
        ended = ev.GameEnded(reason=reason, winner=winner, server_seed=seed)
        if not editions.fixed(t.state, "MSN.END.1"):
            t.emit("GameEnded", ended, "SVC.ENDED")
            return
        scored = self.scored_by(t.state)
        by = results.by_of(reason, scored)
        rule = results.RULE_BY[by]
        points = results.score(t.state, scored)
        t.emit("GameEnded", ev.GameEnded(**ended, draw=winner is None, by=by,
                                         score=dict(points.items()), rule=rule), rule)

    # -- reading -------------------------------------------------------------------------

    def awaiting(self, state: GameState) -> Awaiting:
        """What the game waits for now (CONTRACT.md "Reading"). A state is immutable, so what it awaits is kept
        for the last state asked about (a view asks once a unit, through `eligible`); each caller gets its own
        copy of the top level."""
        kept = self._awaited
        if kept is None or kept[0] is not state:
            kept = self._awaited = (state, self.awaiting_now(state))
        return cast(Awaiting, dict(kept[1]))

    _awaited: tuple[GameState, Awaiting] | None = None

    def awaiting_now(self, state: GameState) -> Awaiting:
        if state.status == "ended":
            return {"seat": None, "action": "none"}
        if state.status == "setup":
            return {"seat": None, "action": "start_game"}
        if state.rolls:
            request = state.rolls[0]
            return {"seat": request.seat, "action": "roll",
                    "roll": {"purpose": request.purpose, "unit": request.unit, "spec": request.spec,
                             "rule": request.rule}}
        return self.step_awaiting(state, self.step(state))

    def step_awaiting(self, state: GameState, step: Step | None) -> Awaiting:
        return {"seat": step.active if step else None, "action": "end_phase"}

    def eligible(self, state: GameState, uid: str) -> bool:
        return False

    def engaged_with(self, state: GameState, uid: str) -> tuple[str, ...]:
        """The enemy units `uid` is engaged with as GET /state shows it: its `engaged_with`, which this ruleset
        keeps on both sides of an engagement."""
        return state.units[uid].engaged_with

    # -- legal actions (CONTRACT.md "Legal actions"): what judges a command, as data ------------

    def actions(self, state: GameState, seat: str) -> list[Action]:
        """Every command this seat may send now that moves the game on, each with its body's schema."""
        if state.status == "ended":
            return []
        if state.status == "setup":
            ready = state.mustered.A and state.mustered.B
            start = [act.action("start_game", "CORE.STR.1", "start the game: battle round 1 begins")] if ready else []
            return start + (self.setup_actions(state, seat) if state.mustered[seat] else [])
        if state.rolls:
            request = state.rolls[0]
            if request.seat != seat:
                return []
            unit = f" ({unit_named(state, request.unit, seat)})" if request.unit else ""
            return [act.action("roll", request.rule, f"roll {request.spec} for {purpose(request.purpose)}{unit}",
                               ["dice"], dice=act.table_dice(dice.parse(request.spec)))]
        awaiting = self.awaiting(state)
        if awaiting["action"] == "roll_off":
            return [self.roll_off_action(state)]
        if awaiting["action"] == "choose_order":
            if awaiting["seat"] != seat:
                return []
            step = self.step(state)
            if step is None:
                return []
            return [act.action("choose_order", step.order_rule or step.rule, "choose who goes first",
                               ["first"], first=act.one_of(SEATS))]
        return self.play_actions(state, seat, awaiting)

    @staticmethod
    def roll_off_action(state: GameState) -> Action:
        """CORE.DICE.3, from either seat; at the table one seat enters both seats' dice."""
        if state.dice == "server":
            return act.action("roll_off", "CORE.DICE.3", "roll off: the service rolls a D6 for each player")
        die = act.integer(1, 6)
        both = {"type": "object", "additionalProperties": False, "required": list(SEATS),
                "properties": {seat: {**die, "description": f"{player_name(state, seat)}'s D6"} for seat in SEATS}}
        return act.action("roll_off", "CORE.DICE.3", "roll off: enter each player's D6", ["dice"], dice=both)

    def setup_actions(self, state: GameState, seat: str) -> list[Action]:
        """Hook: the ruleset's own set-up actions for a seat whose army is mustered (`setup_commands`)."""
        return []

    def play_actions(self, state: GameState, seat: str, awaiting: Awaiting) -> list[Action]:
        """Hook: the ruleset's own actions once no roll, roll-off or choice of order is awaited."""
        if awaiting["action"] == "end_phase" and awaiting["seat"] == seat:
            step = self.step(state)
            return [self.end_phase_action(step)] if step is not None else []
        return []

    @staticmethod
    def end_phase_action(step: Step) -> Action:
        ending = f"the {step_called(step.name)} sub-phase" if step.name else phase_called(step.phase)
        return act.action("end_phase", step.rule, f"end {ending}")  # as the rules name it: "the Command phase"

    def anytime(self, state: GameState, seat: str) -> list[str]:
        """The command types open besides the actions (record-only, free rolls, concede), not judged by them."""
        if state.status == "ended":
            return []
        if state.status == "setup":
            return ["concede", "add_entropy"] if state.dice == "server" and not state.entropy[seat] \
                else ["concede"]
        return list(self.anytime_commands)

    def records(self, state: GameState, seat: str) -> list[Action]:
        """Forms for the record-only `anytime` commands (what the table resolved): not judged by these schemas,
        offered so a client need not know their shapes. The ruleset adds its own."""
        if state.status != "in_progress":
            return []
        standing = [uid for uid, unit in state.units.items() if alive(unit)]
        if not standing:
            return []
        return [
            act.action("record_casualties", "CORE.STR.2", "record models removed as casualties", ["unit", "models"],
                       unit=act.one_of(standing), models=act.integer(1, 500, "models removed")),
            act.action("record_casualties", "CORE.STR.2", "record wounds a model lost", ["unit", "wounds"],
                       unit=act.one_of(standing), wounds=act.integer(1, 100, "wounds lost")),
            act.action("set_status", "CORE.DESC.1", "record a status gained or lost", ["unit", "status", "value"],
                       unit=act.one_of(standing), status=act.one_of(sorted(army.STATUSES)),
                       value=act.boolean("whether the unit gains the status (or loses it)"), reason=act.text(200, "why")),
        ]

    def awaited_rule(self, state: GameState) -> str:
        """The rule behind what the game awaits now: cited when a command is no offered action."""
        if state.status == "setup":
            return "SVC.SETUP"
        if state.rolls:
            return state.rolls[0].rule
        step = self.step(state)
        return (step.play_rule or step.rule) if step else "SVC.ENDED"


