"""The interpreter every ruleset shares: phases and steps declared as data,
the commands every ruleset knows, rolls asked for through `awaiting`, and the
automatic transitions run through one loop with a guard.

A ruleset subclasses `Ruleset`, declares its `round_layout`, and adds
`@handles("command")` and `@applies("EventType")` methods; handlers decide and
emit, appliers only mutate the state dict.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Callable, Iterator

from warlog.domain import army, dice
from warlog.domain import commands as cmd
from warlog.domain.rules import actions as act
from warlog.domain.rules.actions import Action
from warlog.domain.rulings import Malformed, NotFound, Refused

SEATS = ("A", "B")
HEX = re.compile(r"^[0-9a-fA-F]{0,256}$")


def other(seat: str) -> str:
    return "B" if seat == "A" else "A"


def handles(command_type: str) -> Callable:
    def mark(fn: Callable) -> Callable:
        fn._handles = command_type  # type: ignore[attr-defined]
        return fn
    return mark


def applies(event_type: str) -> Callable:
    def mark(fn: Callable) -> Callable:
        fn._applies = event_type  # type: ignore[attr-defined]
        return fn
    return mark


@dataclass(frozen=True)
class Step:
    """One sub-phase (or a phase without sub-phases) and how it is played."""

    phase: str
    name: str | None
    kind: str                     # "count" | "alternate" | "fleeing" | "phase"
    rule: str                     # the rule that starts and orders it (cited by StepStarted)
    play_rule: str = ""           # the rule its selections follow (cited by refusals)
    order_rule: str = ""          # the rule behind its roll-off and choice of order
    pass_points: bool = False
    declare_done: bool = True
    active: str | None = None     # the active seat in IGOUGO turns


class Ruleset:
    name = ""
    anytime_commands: tuple[str, ...] = ("free_roll", "record_casualties", "set_status", "concede")
    setup_commands: tuple[str, ...] = ()
    keeps_vp = False  # victory points are scored, and GET /state shows them (reference: EXT.VP.1)
    durations = False  # set_status may give a status for a stated time (reference: CORE.PER.1)  # a ruleset's own commands of set-up, judged by their handlers and actions
    handlers: dict[str, Callable] = {}
    appliers: dict[str, Callable] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.handlers, cls.appliers = {}, {}
        for klass in reversed(cls.__mro__):
            for value in vars(klass).values():
                if hasattr(value, "_handles"):
                    cls.handlers[value._handles] = value
                if hasattr(value, "_applies"):
                    cls.appliers[value._applies] = value

    # -- layout --------------------------------------------------------------------------

    def round_layout(self, state: dict[str, Any]) -> list[Step]:
        raise NotImplementedError("each ruleset declares its round")  # pragma: no cover

    def step(self, state: dict[str, Any]) -> Step | None:
        if state["status"] != "in_progress" or state["pos"] is None:
            return None
        return self.round_layout(state)[state["pos"]]

    def check_army(self, units: list[dict[str, Any]]) -> None:
        """Hook: characteristics this ruleset's rules read that a unit must state (422 naming the field)."""

    # -- applying events -----------------------------------------------------------------

    def apply(self, state: dict[str, Any], entry: dict[str, Any]) -> None:
        applier = self.appliers.get(entry["type"])
        if applier is not None:
            applier(self, state, entry["data"], entry)

    # -- deciding ------------------------------------------------------------------------

    def validate(self, state: dict[str, Any], seat: str, command: cmd.Command) -> None:
        """Well-formedness that needs the game: unknown units (404), table dice (422)."""
        uid = getattr(command, "unit", None)
        if uid is not None and uid not in state["units"]:
            raise NotFound(f"no unit {uid!r} in this game", field="unit")
        spec = self._parse(command.spec) if isinstance(command, cmd.FreeRoll) else None  # 422 with any dice
        if state["dice"] != "table":
            return  # dice sent in server mode are refused by the rules (SVC.DICE.SERVER)
        faces = getattr(command, "dice", None)
        if isinstance(command, cmd.RollOff):
            if faces is None:
                raise Malformed('table dice: roll_off needs "dice": {"A": face, "B": face}, one D6 each',
                                field="dice")
            self._check_roll_off_dice(faces)
            return
        if faces is not None and not isinstance(command, (cmd.FreeRoll, cmd.Roll)):
            raise Malformed(f"{command.type} carries no dice; only roll_off, roll and free_roll do", field="dice")
        if spec is not None:
            expr, what = spec, "this roll"
        elif isinstance(command, cmd.Roll) and state["rolls"]:
            expr = dice.parse(state["rolls"][0]["spec"])
            what = f"the awaited {state['rolls'][0]['purpose']} roll"
        else:
            return
        if faces is None:
            raise Malformed(f'table dice: {what} needs {dice.needs_text(expr)} in "dice"', field="dice")
        self._check_dice(expr, faces)

    @staticmethod
    def _parse(spec: str) -> dice.DiceExpr:
        try:
            return dice.parse(spec)
        except dice.DiceSpecError as error:
            raise Malformed(f"spec: {error}", field="spec") from None

    @staticmethod
    def _check_dice(expr: dice.DiceExpr, faces: Any) -> list[int]:
        try:
            return dice.check_table_dice(expr, list(faces))
        except dice.TableDiceError as error:
            raise Malformed(f"dice: {error}", field="dice") from None

    def _check_roll_off_dice(self, faces: Any) -> None:
        if not isinstance(faces, dict) or set(faces) != set(SEATS):
            raise Malformed("roll_off dice must be {\"A\": face, \"B\": face}", field="dice")
        for seat in SEATS:
            self._check_dice(dice.parse("D6"), [faces[seat]])

    def handle(self, t: Any, seat: str, command: cmd.Command) -> None:
        state = t.state
        if getattr(command, "dice", None) is not None and state["dice"] == "server":
            raise Refused("server dice: the service rolls every die; send no \"dice\"", rule="SVC.DICE.SERVER")
        handler = self.handlers.get(command.type)
        if handler is None:  # a command of another ruleset: well formed, and none of this game's rules (409)
            raise Refused(f"the {self.name} ruleset has no command {command.type!r}: GET /state lists what this "
                          "seat may send", rule=self.awaited_rule(state))
        setup_only = command.type in ("add_entropy", "start_game")
        if setup_only and state["status"] != "setup":
            raise Refused(f"{command.type} belongs to set-up; the game has started", rule="SVC.SETUP")
        if not setup_only and command.type not in ("concede", *self.setup_commands) and state["status"] == "setup":
            raise Refused(f"{command.type} waits until the game has started (start_game)", rule="SVC.SETUP")
        handler(self, t, seat, command)

    # -- the commands every ruleset knows ------------------------------------------------

    @handles("add_entropy")
    def add_entropy(self, t: Any, seat: str, command: cmd.AddEntropy) -> None:
        if not HEX.match(command.entropy) or len(command.entropy) % 2:
            raise Malformed("entropy must be an even number of hex digits (at most 256)", field="entropy")
        if t.state["entropy"][seat]:
            raise Refused("each seat adds entropy once", rule="SVC.SETUP")
        if t.state["dice"] != "server":
            raise Refused("entropy only mixes into server dice; this game rolls at the table",
                          rule="SVC.DICE.SERVER")
        t.emit("EntropyAdded", {"seat": seat, "entropy": command.entropy}, "SVC.SETUP")

    @handles("start_game")
    def start_game(self, t: Any, seat: str, command: cmd.StartGame) -> None:
        missing = [s for s in SEATS if not t.state["mustered"][s]]
        if missing:
            raise Refused(f"seat {' and '.join(missing)} has not mustered an army", rule="SVC.SETUP")
        t.emit("GameStarted", {"starting_strength": army.starting_strengths(t.state["units"])}, "CORE.STR.1")
        self.start_round(t, 1)

    @handles("free_roll")
    def free_roll(self, t: Any, seat: str, command: cmd.FreeRoll) -> None:
        if not command.purpose or len(command.purpose) > 200:
            raise Malformed("purpose: say what the roll is for (1..200 characters)", field="purpose")
        self.roll(t, command.spec, command.purpose, None, seat, command.dice, free=True)

    @handles("concede")
    def concede(self, t: Any, seat: str, command: cmd.Concede) -> None:
        t.emit("Conceded", {"seat": seat}, "SVC.ENDED")
        self.end_game(t, "concede", winner=other(seat))

    @handles("roll_off")
    def roll_off(self, t: Any, seat: str, command: cmd.RollOff) -> None:
        step = self.step(t.state)
        if self.awaiting(t.state)["action"] != "roll_off" or step is None:
            raise Refused("no roll-off is awaited now", rule="CORE.DICE.3")
        if command.dice is not None:
            faces = [command.dice["A"], command.dice["B"]]
            extra: dict[str, Any] = {}
        else:
            faces, counter = t.server_roll(dice.parse("2D6"))
            extra = {"counter": counter}
        winner = dice.roll_off_winner(*faces)
        t.emit("RollOff", {"purpose": "roll_off", "sub_phase": step.name or step.phase, "spec": "2D6",
                           "sides": 6, "faces": faces, "dice": {"A": faces[0], "B": faces[1]},
                           "winner": winner, "tie": winner is None, **extra}, "CORE.DICE.3")

    @handles("choose_order")
    def choose_order(self, t: Any, seat: str, command: cmd.ChooseOrder) -> None:
        step = self.step(t.state)
        if command.first not in SEATS:
            raise Malformed("first must be \"A\" or \"B\"", field="first")
        awaiting = self.awaiting(t.state)
        if awaiting["action"] != "choose_order" or step is None:
            raise Refused("no choice of order is awaited now",
                          rule=(step.order_rule or step.rule) if step else "CORE.DICE.3")
        if awaiting["seat"] != seat:
            raise Refused("only the roll-off winner chooses who goes first", rule=step.order_rule)
        t.emit("OrderChosen", {"sub_phase": step.name or step.phase, "first": command.first}, step.order_rule)

    @handles("roll")
    def roll_awaited(self, t: Any, seat: str, command: cmd.Roll) -> None:
        if t.state["dice"] == "server":
            raise Refused("server dice: the service rolls every die itself", rule="SVC.DICE.SERVER")
        if not t.state["rolls"]:
            step = self.step(t.state)
            raise Refused("no roll is awaited now", rule=(step.play_rule or step.rule) if step else "CORE.DICE.1")
        request = t.state["rolls"][0]
        if request["seat"] != seat:
            raise Refused(f"seat {request['seat']} makes the awaited {request['purpose']} roll",
                          rule=request["rule"])
        self.resolve_request(t, request, list(command.dice or ()))

    @handles("record_casualties")
    def record_casualties(self, t: Any, seat: str, command: cmd.RecordCasualties) -> None:
        unit = t.state["units"][command.unit]
        if command.models < 0 or command.wounds < 0 or (command.models == 0 and command.wounds == 0):
            raise Malformed("give models (removed) or wounds (lost), at least one of them positive",
                            field="models")
        self._check_rule(command.rule)
        if unit["models_alive"] <= 0:
            raise Refused(f"{command.unit} is already destroyed", rule="CORE.STR.2")
        removed = min(command.models, unit["models_alive"])
        self.casualties(t, command.unit, removed, command.wounds, command.rule or "CORE.STR.2", attested_by=seat)

    @handles("set_status")
    def set_status(self, t: Any, seat: str, command: cmd.SetStatus) -> None:
        if command.status not in army.STATUSES:
            raise Malformed(f"unknown status {command.status!r}", field="status")
        if command.duration is not None and not self.durations:
            raise Malformed(f"the {self.name} ruleset records a status as a fact, without a duration",
                            field="duration")
        self._check_rule(command.rule)
        self.change_status(t, command.unit, command.status, command.value, command.rule or "CORE.DESC.1",
                           reason=command.reason, attested_by=seat)

    @staticmethod
    def _check_rule(rule: str | None) -> None:
        if rule is not None and not re.match(r"^(CORE|AA|RS|HH|SVC|EXT)\.[A-Z0-9_.]+$", rule):
            raise Malformed(f"rule {rule!r} is not a RULES.md ID", field="rule")

    # -- shared building blocks ----------------------------------------------------------

    def roll(self, t: Any, spec: str, purpose: str, rule: str | None, seat: str | None,
             faces: list[int] | None = None, unit: str | None = None, **extra: Any) -> dict[str, Any]:
        """Record one roll: server dice now, or the table's faces already checked."""
        expr = dice.parse(spec)
        data: dict[str, Any] = {"purpose": purpose, "spec": str(expr), "sides": expr.sides}
        if faces is None and expr.sides == 0:
            faces = []  # a constant ("7"): no die is drawn, so no counter is spent and there is nothing to prove
        elif faces is None:
            faces, data["counter"] = t.server_roll(expr)
        data.update(faces=list(faces), total=sum(faces) + expr.modifier, seat=seat, unit=unit, **extra)
        return t.emit("DiceRolled", data, rule, by=seat)

    def request_roll(self, t: Any, seat: str, purpose: str, spec: str, rule: str,
                     unit: str | None = None, **context: Any) -> None:
        """A roll the rules call for: rolled now with server dice, else awaited from `seat`."""
        request = {"seat": seat, "purpose": purpose, "spec": spec, "rule": rule, "unit": unit,
                   "context": context}
        if t.state["dice"] == "server":
            self.resolve_request(t, request, None)
        else:
            t.emit("RollRequested", request, rule, by=None)

    def resolve_request(self, t: Any, request: dict[str, Any], faces: list[int] | None) -> None:
        entry = self.roll(t, request["spec"], request["purpose"], request["rule"], request["seat"],
                          faces, request["unit"], awaited=faces is not None)
        self.on_roll(t, request, entry["data"])

    def on_roll(self, t: Any, request: dict[str, Any], roll: dict[str, Any]) -> None:
        raise Refused(f"nothing resolves a {request['purpose']} roll here", rule=request["rule"])

    def casualties(self, t: Any, uid: str, models: int, wounds: int, rule: str, **extra: Any) -> None:
        units = t.state["units"]
        before = army.unit_strength(units, uid)
        t.emit("CasualtiesRecorded", {"unit": uid, "models": models, "wounds": wounds, **extra}, rule)
        after = army.unit_strength(units, uid)
        if after != before:
            t.emit("StrengthChanged", {"unit": uid, "from": before, "to": after,
                                       "models_alive": units[uid]["models_alive"],
                                       "starting_strength": units[uid]["starting_strength"]}, "CORE.STR.2")
        if after == "destroyed":
            t.emit("UnitDestroyed", {"unit": uid}, "CORE.STR.2")
            # its passengers are no longer inside anything: on the battlefield (CORE.OFF.1), where the
            # players set them up, and from now on counted, selected and shot at as any other unit
            for passenger in sorted(p for p, unit in units.items()
                                    if unit.get("embarked_in") == uid and unit["models_alive"] > 0):
                t.emit("UnitDisembarked", {"unit": passenger, "transport": uid,
                                           "reason": "its transport was destroyed"}, "CORE.OFF.1")

    def change_status(self, t: Any, uid: str, status: str, value: bool, rule: str, **extra: Any) -> None:
        has = status in t.state["units"][uid]["statuses"]
        if has == value:
            return
        t.emit("StatusGained" if value else "StatusLost", {"unit": uid, "status": status, **extra}, rule)

    def start_round(self, t: Any, battle_round: int) -> None:
        t.emit("BattleRoundStarted", {"battle_round": battle_round}, self.round_rule)
        self.enter(t, 0)

    round_rule = "CORE.SEQ.1"

    def enter(self, t: Any, pos: int) -> None:
        """Enter step `pos` of the round; its `begin` decides what it awaits or skips."""
        step = self.round_layout(t.state)[pos]
        t.emit("StepStarted", {"phase": step.phase, "sub_phase": step.name, "active_seat": step.active,
                               "pos": pos, "settled": step.kind in ("count", "phase"),
                               "pass_points": step.pass_points}, step.rule)
        self.begin(t, step)

    def begin(self, t: Any, step: Step) -> None:
        """Hook: a step's on_begin (roll-offs, reserve rolls, skips)."""

    def settle(self, t: Any, step: Step) -> None:
        """Hook: once a step's opening rolls are in, decide its roll-off, first seat or skip."""
        raise NotImplementedError(f"{self.name} has no settle for {step.kind}")  # pragma: no cover

    def step_over(self, state: dict[str, Any], step: Step) -> bool:
        return False

    def progress(self, t: Any, step: Step) -> bool:
        """Hook: an automatic move inside a settled step (e.g. a reaction nobody can make); True if it emitted."""
        return False

    def advance(self, t: Any) -> None:
        """Run automatic transitions until someone has to act (a loop with a guard)."""
        for _ in range(500):
            state = t.state
            step = self.step(state)
            if step is None or state["rolls"]:
                return
            if not state["step"]["settled"]:
                self.settle(t, step)
                continue
            if self.progress(t, step):
                continue
            if not self.step_over(state, step):
                return
            self.end_step(t, step)
        raise RuntimeError("automatic transitions did not settle")  # pragma: no cover

    def end_step(self, t: Any, step: Step) -> None:
        state = t.state
        pos = state["pos"] + 1
        if pos < len(self.round_layout(state)):
            self.enter(t, pos)
            return
        self.end_round(t)

    def end_round(self, t: Any) -> None:
        state = t.state
        t.emit("BattleRoundEnded", {"battle_round": state["battle_round"], "head_hash": t.game.head},
               self.round_rule)
        if state["battle_round"] >= state["options"]["battle_rounds"]:
            self.end_game(t, "battle_rounds", winner=self.winner(state))
        else:
            self.start_round(t, state["battle_round"] + 1)

    def winner(self, state: dict[str, Any]) -> str | None:
        """Hook: who won once the last battle round is over (None: no winner, or a draw)."""
        return None

    def end_game(self, t: Any, reason: str, winner: str | None) -> None:
        seed = t.game.seed if t.state["dice"] == "server" else None
        t.emit("GameEnded", {"reason": reason, "winner": winner, "server_seed": seed}, "SVC.ENDED")

    # -- reading -------------------------------------------------------------------------

    def awaiting(self, state: dict[str, Any]) -> dict[str, Any]:
        if state["status"] == "ended":
            return {"seat": None, "action": "none"}
        if state["status"] == "setup":
            return {"seat": None, "action": "start_game"}
        if state["rolls"]:
            request = state["rolls"][0]
            return {"seat": request["seat"], "action": "roll",
                    "roll": {k: request[k] for k in ("purpose", "unit", "spec", "rule")}}
        return self.step_awaiting(state, self.step(state))

    def step_awaiting(self, state: dict[str, Any], step: Step | None) -> dict[str, Any]:
        return {"seat": step.active if step else None, "action": "end_phase"}

    def eligible(self, state: dict[str, Any], uid: str) -> bool:
        return False

    # -- legal actions (CONTRACT.md "Legal actions"): what judges a command, as data ------------

    def actions(self, state: dict[str, Any], seat: str) -> list[Action]:
        """Every command this seat may send now that moves the game on, each with its body's schema."""
        if state["status"] == "ended":
            return []
        if state["status"] == "setup":
            ready = all(state["mustered"].values())
            start = [act.action("start_game", "CORE.STR.1", "start the game: battle round 1 begins")] if ready else []
            return start + (self.setup_actions(state, seat) if state["mustered"][seat] else [])
        if state["rolls"]:
            request = state["rolls"][0]
            if request["seat"] != seat:
                return []
            unit = f" ({request['unit']})" if request.get("unit") else ""
            return [act.action("roll", request["rule"],
                               f"roll {request['spec']} for the {request['purpose'].replace('_', ' ')} roll{unit}",
                               ["dice"], dice=act.table_dice(dice.parse(request["spec"])))]
        awaiting = self.awaiting(state)
        if awaiting["action"] == "roll_off":
            return [self.roll_off_action(state)]
        if awaiting["action"] == "choose_order":
            if awaiting["seat"] != seat:
                return []
            step = self.step(state)
            return [act.action("choose_order", step.order_rule or step.rule, "choose who goes first",
                               ["first"], first=act.one_of(SEATS))]
        return self.play_actions(state, seat, awaiting)

    @staticmethod
    def roll_off_action(state: dict[str, Any]) -> Action:
        """CORE.DICE.3, from either seat; at the table one seat enters both seats' dice."""
        if state["dice"] == "server":
            return act.action("roll_off", "CORE.DICE.3", "roll off: the service rolls a D6 for each seat")
        die = act.integer(1, 6)
        both = {"type": "object", "additionalProperties": False, "required": list(SEATS),
                "properties": {seat: {**die, "description": f"seat {seat}'s D6"} for seat in SEATS}}
        return act.action("roll_off", "CORE.DICE.3", "roll off: enter each seat's D6", ["dice"], dice=both)

    def setup_actions(self, state: dict[str, Any], seat: str) -> list[Action]:
        """Hook: the ruleset's own set-up actions for a seat whose army is mustered (`setup_commands`)."""
        return []

    def play_actions(self, state: dict[str, Any], seat: str, awaiting: dict[str, Any]) -> list[Action]:
        """Hook: the ruleset's own actions once no roll, roll-off or choice of order is awaited."""
        if awaiting["action"] == "end_phase" and awaiting["seat"] == seat:
            step = self.step(state)
            return [self.end_phase_action(step)]
        return []

    @staticmethod
    def end_phase_action(step: Step) -> Action:
        name = (step.name or step.phase).replace("_", " ")
        return act.action("end_phase", step.rule, f"end the {name} {'sub-phase' if step.name else 'phase'}")

    def anytime(self, state: dict[str, Any], seat: str) -> list[str]:
        """The command types open besides the actions (record-only, free rolls, concede), not judged by them."""
        if state["status"] == "ended":
            return []
        if state["status"] == "setup":
            return ["concede", "add_entropy"] if state["dice"] == "server" and not state["entropy"][seat] \
                else ["concede"]
        return list(self.anytime_commands)

    def records(self, state: dict[str, Any], seat: str) -> list[Action]:
        """Forms for the record-only `anytime` commands (what the table resolved): not judged by these schemas,
        offered so a client need not know their shapes. The ruleset adds its own."""
        if state["status"] != "in_progress":
            return []
        standing = [uid for uid, unit in state["units"].items() if alive(unit)]
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

    def awaited_rule(self, state: dict[str, Any]) -> str:
        """The rule behind what the game awaits now: cited when a command is no offered action."""
        if state["status"] == "setup":
            return "SVC.SETUP"
        if state["rolls"]:
            return state["rolls"][0]["rule"]
        step = self.step(state)
        return (step.play_rule or step.rule) if step else "SVC.ENDED"

    # -- state appliers ------------------------------------------------------------------

    @applies("GameCreated")
    def _created(self, state: dict[str, Any], data: dict[str, Any], entry: dict[str, Any]) -> None:
        state.update(
            game_id=data["game_id"], ruleset=data["ruleset"], players=data["players"], dice=data["dice"],
            options=data["options"], dice_commitment=data["dice_commitment"], status="setup",
            battle_round=0, phase=None, sub_phase=None, active_seat=None, pos=None,
            pass_points={"A": 0, "B": 0}, declared_done={"A": False, "B": False}, cp={"A": 0, "B": 0},
            entropy={"A": "", "B": ""}, mustered={"A": False, "B": False}, units={}, step={},
            rolls=[], combats={}, result=None, last_roll=None, destroyed=[],
        )

    @applies("ArmyMustered")
    def _mustered(self, state: dict[str, Any], data: dict[str, Any], entry: dict[str, Any]) -> None:
        seat = data["seat"]
        state["units"] = {uid: u for uid, u in state["units"].items() if u["owner"] != seat}
        for unit in data["units"]:
            state["units"][unit["id"]] = army.new_unit_state(seat, unit)
        state["mustered"][seat] = True

    @applies("EntropyAdded")
    def _entropy(self, state: dict[str, Any], data: dict[str, Any], entry: dict[str, Any]) -> None:
        state["entropy"][data["seat"]] = data["entropy"]

    @applies("GameStarted")
    def _started(self, state: dict[str, Any], data: dict[str, Any], entry: dict[str, Any]) -> None:
        state["status"] = "in_progress"
        for uid, strength in data["starting_strength"].items():
            state["units"][uid]["starting_strength"] = strength

    @applies("BattleRoundStarted")
    def _round(self, state: dict[str, Any], data: dict[str, Any], entry: dict[str, Any]) -> None:
        state["battle_round"] = data["battle_round"]
        for unit in state["units"].values():
            unit["turn"] = {}
        for combat in state["combats"].values():
            combat["fought"] = False

    @applies("StepStarted")
    def _step(self, state: dict[str, Any], data: dict[str, Any], entry: dict[str, Any]) -> None:
        if not data.get("pass_points"):
            state["pass_points"] = {"A": 0, "B": 0}  # AA.PP.2: never carried over; only the step after a count uses them
        state.update(phase=data["phase"], sub_phase=data["sub_phase"], active_seat=data["active_seat"],
                     pos=data["pos"], declared_done={"A": False, "B": False})
        state["step"] = {"roll_off": None, "winner": None, "first": None, "last": None,
                         "confirmed": {"A": None, "B": None}, "calculated": False, "skipped": False,
                         "settled": data.get("settled", False)}
        for unit in state["units"].values():
            unit["selected"] = False

    @applies("StepSkipped")
    def _skipped(self, state: dict[str, Any], data: dict[str, Any], entry: dict[str, Any]) -> None:
        state["step"].update(skipped=True, settled=True)

    @applies("RollOffNeeded")
    def _roll_off_needed(self, state: dict[str, Any], data: dict[str, Any], entry: dict[str, Any]) -> None:
        state["step"].update(roll_off={"choice": data["choice"]}, settled=True)

    @applies("RollOff")
    def _roll_off(self, state: dict[str, Any], data: dict[str, Any], entry: dict[str, Any]) -> None:
        state["last_roll"] = _last_roll(data, entry)
        winner = data["winner"]
        step = state["step"]
        if winner is None or step.get("roll_off") is None:
            return
        step["winner"] = winner
        if not step["roll_off"]["choice"]:
            step["first"] = winner

    @applies("OrderChosen")
    def _order(self, state: dict[str, Any], data: dict[str, Any], entry: dict[str, Any]) -> None:
        state["step"]["first"] = data["first"]

    @applies("FirstGoes")
    def _first_goes(self, state: dict[str, Any], data: dict[str, Any], entry: dict[str, Any]) -> None:
        state["step"].update(first=data["seat"], settled=True)

    @applies("DiceRolled")
    def _rolled(self, state: dict[str, Any], data: dict[str, Any], entry: dict[str, Any]) -> None:
        if not data.get("free"):  # a free roll changes nothing but the log (CONTRACT.md)
            state["last_roll"] = _last_roll(data, entry)
        else:  # kept aside for the overlay, which shows the table's latest roll; not part of GET /state
            state["last_free_roll"] = _last_roll(data, entry)
        if data.get("awaited"):
            state["rolls"].pop(0)

    @applies("RollRequested")
    def _requested(self, state: dict[str, Any], data: dict[str, Any], entry: dict[str, Any]) -> None:
        state["rolls"].append(dict(data))

    @applies("CasualtiesRecorded")
    def _casualties(self, state: dict[str, Any], data: dict[str, Any], entry: dict[str, Any]) -> None:
        unit = state["units"][data["unit"]]
        unit["models_alive"] = max(0, unit["models_alive"] - data["models"])
        unit["wounds_lost"] = unit.get("wounds_lost", 0) + data["wounds"]
        if unit["starting_strength"] == 1 and unit["wounds_lost"] >= army.total_wounds(unit):
            unit["models_alive"] = 0

    @applies("ReserveArriving")
    def _arriving(self, state: dict[str, Any], data: dict[str, Any], entry: dict[str, Any]) -> None:
        state["units"][data["unit"]]["arriving"] = True  # AA.RES.1, HH.RES.1: it comes on when selected

    @applies("UnitDisembarked")
    def _disembarked(self, state: dict[str, Any], data: dict[str, Any], entry: dict[str, Any]) -> None:
        state["units"][data["unit"]]["embarked_in"] = None

    @applies("UnitDestroyed")
    def _destroyed(self, state: dict[str, Any], data: dict[str, Any], entry: dict[str, Any]) -> None:
        unit = state["units"][data["unit"]]
        unit["models_alive"] = 0
        if data["unit"] not in state["destroyed"]:
            state["destroyed"].append(data["unit"])

    @applies("StatusGained")
    def _gained(self, state: dict[str, Any], data: dict[str, Any], entry: dict[str, Any]) -> None:
        statuses = state["units"][data["unit"]]["statuses"]
        statuses.append(data["status"])
        statuses.sort()

    @applies("StatusLost")
    def _lost(self, state: dict[str, Any], data: dict[str, Any], entry: dict[str, Any]) -> None:
        statuses = state["units"][data["unit"]]["statuses"]
        if data["status"] in statuses:
            statuses.remove(data["status"])

    @applies("BattleRoundEnded")
    def _round_head(self, state: dict[str, Any], data: dict[str, Any], entry: dict[str, Any]) -> None:
        """The head each seat may keep: `verify?head=` later says whether the log still extends it."""
        state.setdefault("round_heads", []).append(
            {"battle_round": data["battle_round"], "seq": entry["seq"] - 1, "head_hash": data["head_hash"]})

    @applies("GameEnded")
    def _ended(self, state: dict[str, Any], data: dict[str, Any], entry: dict[str, Any]) -> None:
        state.update(status="ended", rolls=[], result={"reason": data["reason"], "winner": data["winner"]})


def _last_roll(data: dict[str, Any], entry: dict[str, Any]) -> dict[str, Any]:
    return {"seq": entry["seq"], "purpose": data["purpose"], "faces": data["faces"],
            "total": data.get("total"), "seat": entry["by"] or data.get("seat"), "unit": data.get("unit")}


def inches(value: Any, field: str, maximum: int) -> str:
    """A distance the players measured (CORE.DIST.1): a JSON number in 0..maximum, recorded as a string."""
    if type(value) not in (int, float) or not 0 <= value <= maximum:  # type(): a boolean is no distance
        raise Malformed(f"{field} is the inches measured, a number from 0 to {maximum}", field=field)
    if value == 0:
        return "0"  # not "-0" for a -0.0
    text = format(Decimal(repr(value)).normalize(), "f") if isinstance(value, float) else str(value)
    return text if "." not in text else text.rstrip("0").rstrip(".")


def units_of(state: dict[str, Any], seat: str) -> Iterator[tuple[str, dict[str, Any]]]:
    return ((uid, u) for uid, u in state["units"].items() if u["owner"] == seat)


def alive(unit: dict[str, Any]) -> bool:
    return unit["models_alive"] > 0
