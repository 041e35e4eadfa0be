"""The interpreter every ruleset shares: phases and steps declared as data, rolls asked for through
`awaiting`, the legal actions, and the automatic transitions run through one loop with a guard. The commands
every ruleset knows live in rules/core.py, the core events' appliers in rules/core_state.py.

A ruleset subclasses `Ruleset`, declares its `round_layout`, and adds
`@handles("command")` and `@applies("EventType")` methods; handlers decide and
emit, appliers only change the state.

The interpreter reads the typed state (`GameState`). A ruleset's hooks and its own readers get the state as the
ruleset reads it (`Seen`): the `GameState` once it says `typed_state = True`, until then the dict view of it
(domain/state/bridge.py); `typed_of` gives the interpreter the typed state from either.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, TypeAlias

from warlog.domain import army, dice
from warlog.domain import commands as cmd
from warlog.domain import events as ev
from warlog.domain.rules import actions as act
from warlog.domain.rules.actions import Action
from warlog.domain.rules.basics import SEATS, Step, alive
from warlog.domain.rules.rosters import RosterReading
from warlog.domain.rulings import Refused
from warlog.domain.state import GameState
from warlog.domain.state.bridge import StateView, read_back, typed_of

if TYPE_CHECKING:
    from warlog.domain.game import Table


# The state as a ruleset's hooks read it: the `GameState` (`typed_state`), or the bridge's dict view of it. Any,
# as each ruleset's overrides name the one they read, until every ruleset reads the typed state.
Seen: TypeAlias = Any


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
    typed_state: ClassVar[bool] = False  # its handlers and hooks read the GameState, not the bridge's dict view
    handlers: ClassVar[dict[str, Callable[..., Any]]] = {}  # each subclass gets its own (__init_subclass__)
    appliers: ClassVar[dict[str, Callable[..., Any]]] = {}
    evolving: ClassVar[frozenset[str]] = frozenset()  # the event types whose applier returns the next GameState

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.handlers, cls.appliers = {}, {}
        evolving: set[str] = set()
        for klass in reversed(cls.__mro__):
            for value in vars(klass).values():
                if hasattr(value, "_handles"):
                    cls.handlers[value._handles] = value
                if hasattr(value, "_applies"):
                    cls.appliers[value._applies] = value
                    evolving.discard(value._applies)
                if hasattr(value, "_evolves"):
                    cls.appliers[value._evolves] = value
                    evolving.add(value._evolves)
        cls.evolving = frozenset(evolving)

    def seen(self, t: Table) -> Seen:
        """The state as this ruleset's hooks read it (the bridge)."""
        return t.game.seen_by(self)

    # -- layout --------------------------------------------------------------------------

    def round_layout(self, state: Seen) -> list[Step]:
        raise NotImplementedError("each ruleset declares its round")  # pragma: no cover

    def step(self, state: Seen) -> Step | None:
        typed = typed_of(state)
        if typed.status != "in_progress" or typed.pos is None:
            return None
        return self.round_layout(state)[typed.pos]

    def check_army(self, units: list[dict[str, Any]]) -> None:
        """Hook: characteristics this ruleset's rules read that a unit must state (422 naming the field)."""

    # -- applying events -----------------------------------------------------------------

    def apply(self, state: GameState | None, entry: dict[str, Any], view: Callable[[], StateView]) -> GameState:
        """The state after `entry`: a typed applier returns it; a dict applier (the bridge) changes the `view`
        of the state, which is read back."""
        applier = self.appliers.get(entry["type"])
        if applier is None:
            if state is None:
                raise ValueError(f"a {entry['type']} before the game was created")
            return state
        if entry["type"] in self.evolving:
            new: GameState = applier(self, state, entry["data"], entry)
            return new
        seen = view()
        applier(self, seen, entry["data"], entry)
        return read_back(seen)

    # -- deciding ------------------------------------------------------------------------

    def handle(self, t: Table, seat: str, command: cmd.Command) -> None:
        state = t.typed
        if getattr(command, "dice", None) is not None and state.dice == "server":
            raise Refused("server dice: the service rolls every die; send no \"dice\"", rule="SVC.DICE.SERVER")
        handler = self.handlers.get(command.type)
        if handler is None:  # a command of another ruleset: well formed, and none of this game's rules (409)
            raise Refused(f"the {self.name} ruleset has no command {command.type!r}: GET /state lists what this "
                          "seat may send", rule=self.awaited_rule(self.seen(t)))
        setup_only = command.type in ("add_entropy", "start_game")
        if setup_only and state.status != "setup":
            raise Refused(f"{command.type} belongs to set-up; the game has started", rule="SVC.SETUP")
        if not setup_only and command.type not in ("concede", *self.setup_commands) and state.status == "setup":
            raise Refused(f"{command.type} waits until the game has started (start_game)", rule="SVC.SETUP")
        handler(self, t, seat, command)

    # -- shared building blocks ----------------------------------------------------------

    def roll(self, t: Table, spec: str, purpose: str, rule: str | None, seat: str | None,
             faces: Sequence[int] | None = None, unit: str | None = None, **extra: Any) -> dict[str, Any]:
        """Record one roll: server dice now, or the table's faces already checked."""
        expr = dice.parse(spec)
        data: dict[str, Any] = {"purpose": purpose, "spec": str(expr), "sides": expr.sides}
        if faces is None and expr.sides == 0:
            faces = []  # a constant ("7"): no die is drawn, so no counter is spent and there is nothing to prove
        elif faces is None:
            faces, data["counter"] = t.server_roll(expr)
        data.update(faces=list(faces), total=sum(faces) + expr.modifier, seat=seat, unit=unit, **extra)
        return t.emit("DiceRolled", data, rule, by=seat)

    def request_roll(self, t: Table, seat: str, purpose: str, spec: str, rule: str,
                     unit: str | None = None, **context: Any) -> None:
        """A roll the rules call for: rolled now with server dice, else awaited from `seat`."""
        request = {"seat": seat, "purpose": purpose, "spec": spec, "rule": rule, "unit": unit,
                   "context": context}
        if t.typed.dice == "server":
            self.resolve_request(t, request, None)
        else:
            t.emit("RollRequested", request, rule, by=None)

    def resolve_request(self, t: Table, request: dict[str, Any], faces: list[int] | None) -> None:
        entry = self.roll(t, request["spec"], request["purpose"], request["rule"], request["seat"],
                          faces, request["unit"], awaited=faces is not None)
        self.on_roll(t, request, entry["data"])

    def on_roll(self, t: Table, request: dict[str, Any], roll: dict[str, Any]) -> None:
        raise Refused(f"nothing resolves a {request['purpose']} roll here", rule=request["rule"])

    def casualties(self, t: Table, uid: str, models: int, wounds: int, rule: str, **extra: Any) -> None:
        before = army.strength_of(t.typed.units, uid)
        t.emit("CasualtiesRecorded", {"unit": uid, "models": models, "wounds": wounds, **extra}, rule)
        units = t.typed.units
        after = army.strength_of(units, uid)
        if after != before:
            t.emit("StrengthChanged", {"unit": uid, "from": before, "to": after,
                                       "models_alive": units[uid].models_alive,
                                       "starting_strength": units[uid].starting_strength}, "CORE.STR.2")
        if after == "destroyed":
            t.emit("UnitDestroyed", ev.UnitDestroyed(unit=uid), "CORE.STR.2")
            # its passengers are no longer inside anything: on the battlefield (CORE.OFF.1), where the
            # players set them up, and from now on counted, selected and shot at as any other unit
            units = t.typed.units
            for passenger in sorted(p for p, unit in units.items()
                                    if unit.embarked_in == uid and unit.models_alive > 0):
                t.emit("UnitDisembarked", ev.UnitDisembarked(unit=passenger, transport=uid,
                                           reason="its transport was destroyed"), "CORE.OFF.1")

    def change_status(self, t: Table, uid: str, status: str, value: bool, rule: str, **extra: Any) -> None:
        has = status in t.typed.units[uid].statuses
        if has == value:
            return
        t.emit("StatusGained" if value else "StatusLost", {"unit": uid, "status": status, **extra}, rule)

    def start_round(self, t: Table, battle_round: int) -> None:
        t.emit("BattleRoundStarted", ev.BattleRoundStarted(battle_round=battle_round), self.round_rule)
        self.enter(t, 0)

    round_rule = "CORE.SEQ.1"

    def enter(self, t: Table, pos: int) -> None:
        """Enter step `pos` of the round; its `begin` decides what it awaits or skips."""
        step = self.round_layout(self.seen(t))[pos]
        t.emit("StepStarted", ev.StepStarted(phase=step.phase, sub_phase=step.name, active_seat=step.active,
                               pos=pos, settled=step.kind in ("count", "phase"),
                               pass_points=step.pass_points), step.rule)
        self.begin(t, step)

    def begin(self, t: Table, step: Step) -> None:
        """Hook: a step's on_begin (roll-offs, reserve rolls, skips)."""

    def settle(self, t: Table, step: Step) -> None:
        """Hook: once a step's opening rolls are in, decide its roll-off, first seat or skip."""
        raise NotImplementedError(f"{self.name} has no settle for {step.kind}")  # pragma: no cover

    def step_over(self, state: Seen, step: Step) -> bool:
        return False

    def progress(self, t: Table, step: Step) -> bool:
        """Hook: an automatic move inside a settled step (e.g. a reaction nobody can make); True if it emitted."""
        return False

    def advance(self, t: Table) -> None:
        """Run automatic transitions until someone has to act (a loop with a guard)."""
        for _ in range(500):
            state = self.seen(t)
            step = self.step(state)
            typed = t.typed
            if step is None or typed.rolls:
                return
            if typed.step is None or not typed.step.settled:
                self.settle(t, step)
                continue
            if self.progress(t, step):
                continue
            if not self.step_over(state, step):
                return
            self.end_step(t, step)
        raise RuntimeError("automatic transitions did not settle")  # pragma: no cover

    def end_step(self, t: Table, step: Step) -> None:
        pos = (t.typed.pos or 0) + 1
        if pos < len(self.round_layout(self.seen(t))):
            self.enter(t, pos)
            return
        self.end_round(t)

    def end_round(self, t: Table) -> None:
        battle_round = t.typed.battle_round
        t.emit("BattleRoundEnded", ev.BattleRoundEnded(battle_round=battle_round, head_hash=t.game.head), self.round_rule)
        if battle_round >= t.typed.options.battle_rounds:
            self.end_game(t, "battle_rounds", winner=self.winner(self.seen(t)))
        else:
            self.start_round(t, battle_round + 1)

    def winner(self, state: Seen) -> str | None:
        """Hook: who won once the last battle round is over (None: no winner, or a draw)."""
        return None

    def end_game(self, t: Table, reason: str, winner: str | None) -> None:
        seed = t.game.seed if t.typed.dice == "server" else None
        t.emit("GameEnded", ev.GameEnded(reason=reason, winner=winner, server_seed=seed), "SVC.ENDED")

    # -- reading -------------------------------------------------------------------------

    def awaiting(self, state: Seen) -> dict[str, Any]:
        typed = typed_of(state)
        if typed.status == "ended":
            return {"seat": None, "action": "none"}
        if typed.status == "setup":
            return {"seat": None, "action": "start_game"}
        if typed.rolls:
            request = typed.rolls[0]
            return {"seat": request.seat, "action": "roll",
                    "roll": {"purpose": request.purpose, "unit": request.unit, "spec": request.spec,
                             "rule": request.rule}}
        return self.step_awaiting(state, self.step(state))

    def step_awaiting(self, state: Seen, step: Step | None) -> dict[str, Any]:
        return {"seat": step.active if step else None, "action": "end_phase"}

    def eligible(self, state: Seen, uid: str) -> bool:
        return False

    # -- legal actions (CONTRACT.md "Legal actions"): what judges a command, as data ------------

    def actions(self, state: Seen, seat: str) -> list[Action]:
        """Every command this seat may send now that moves the game on, each with its body's schema."""
        typed = typed_of(state)
        if typed.status == "ended":
            return []
        if typed.status == "setup":
            ready = typed.mustered.A and typed.mustered.B
            start = [act.action("start_game", "CORE.STR.1", "start the game: battle round 1 begins")] if ready else []
            return start + (self.setup_actions(state, seat) if typed.mustered[seat] else [])
        if typed.rolls:
            request = typed.rolls[0]
            if request.seat != seat:
                return []
            unit = f" ({request.unit})" if request.unit else ""
            return [act.action("roll", request.rule,
                               f"roll {request.spec} for the {request.purpose.replace('_', ' ')} roll{unit}",
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
    def roll_off_action(state: Seen) -> Action:
        """CORE.DICE.3, from either seat; at the table one seat enters both seats' dice."""
        if typed_of(state).dice == "server":
            return act.action("roll_off", "CORE.DICE.3", "roll off: the service rolls a D6 for each seat")
        die = act.integer(1, 6)
        both = {"type": "object", "additionalProperties": False, "required": list(SEATS),
                "properties": {seat: {**die, "description": f"seat {seat}'s D6"} for seat in SEATS}}
        return act.action("roll_off", "CORE.DICE.3", "roll off: enter each seat's D6", ["dice"], dice=both)

    def setup_actions(self, state: Seen, seat: str) -> list[Action]:
        """Hook: the ruleset's own set-up actions for a seat whose army is mustered (`setup_commands`)."""
        return []

    def play_actions(self, state: Seen, seat: str, awaiting: dict[str, Any]) -> list[Action]:
        """Hook: the ruleset's own actions once no roll, roll-off or choice of order is awaited."""
        if awaiting["action"] == "end_phase" and awaiting["seat"] == seat:
            step = self.step(state)
            return [self.end_phase_action(step)] if step is not None else []
        return []

    @staticmethod
    def end_phase_action(step: Step) -> Action:
        name = (step.name or step.phase).replace("_", " ")
        return act.action("end_phase", step.rule, f"end the {name} {'sub-phase' if step.name else 'phase'}")

    def anytime(self, state: Seen, seat: str) -> list[str]:
        """The command types open besides the actions (record-only, free rolls, concede), not judged by them."""
        typed = typed_of(state)
        if typed.status == "ended":
            return []
        if typed.status == "setup":
            return ["concede", "add_entropy"] if typed.dice == "server" and not typed.entropy[seat] \
                else ["concede"]
        return list(self.anytime_commands)

    def records(self, state: Seen, seat: str) -> list[Action]:
        """Forms for the record-only `anytime` commands (what the table resolved): not judged by these schemas,
        offered so a client need not know their shapes. The ruleset adds its own."""
        typed = typed_of(state)
        if typed.status != "in_progress":
            return []
        standing = [uid for uid, unit in typed.units.items() if alive(unit)]
        if not standing:
            return []
        return [
            act.action("record_casualties", "CORE.STR.2", "record models removed as casualties", ["unit", "models"],
                       unit=act.one_of(standing), models=act.integer(1, 500, "models removed")),
            act.action("record_casualties", "CORE.STR.2", "record wounds a model lost", ["unit", "wounds"],
                       unit=act.one_of(standing), wounds=act.integer(1, 100, "wounds lost")),
            act.action("set_status", "CORE.DESC.1", "record a status gained or lost", ["unit", "status", "value"],
                       unit=act.one_of(standing), status=act.one_of(sorted(army.STATUSES)),
                       value=act.boolean("gained (true) or lost (false)"), reason=act.text(200, "why")),
        ]

    def awaited_rule(self, state: Seen) -> str:
        """The rule behind what the game awaits now: cited when a command is no offered action."""
        typed = typed_of(state)
        if typed.status == "setup":
            return "SVC.SETUP"
        if typed.rolls:
            return typed.rolls[0].rule
        step = self.step(state)
        return (step.play_rule or step.rule) if step else "SVC.ENDED"


