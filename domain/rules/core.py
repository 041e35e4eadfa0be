"""The commands every ruleset knows (CONTRACT.md "Commands": set-up, rolls, roll-offs, recorded facts) and
the well-formedness that needs the game (unknown units 404, table dice 422)."""
from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, cast

from warlog.domain import army, dice, rolls, words
from warlog.domain import commands as cmd
from warlog.domain import events as ev
from warlog.domain.attacks.lines import wounds_recorded
from warlog.domain.rules import editions
from warlog.domain.rules.basics import HEX, SEATS, handles, other
from warlog.domain.rules.flow import Flow, wounded_note
from warlog.domain.rulings import Malformed, NotFound, Refused
from warlog.domain.state import GameState
from warlog.domain.words import listed, player_name, purpose, unit_named, whose

if TYPE_CHECKING:
    from warlog.domain.game import Table


class CoreCommands(Flow):
    """A part of every `Ruleset` (rules/flow.py): its methods read the ruleset's others through `self`."""

    def validate(self, state: GameState, seat: str, command: cmd.Command) -> None:
        """Well-formedness that needs the game: unknown units (404), table dice (422)."""
        uid = getattr(command, "unit", None)
        if uid is not None and uid not in state.units:
            raise NotFound(f"no unit {uid!r} in this game", field="unit")
        spec = self._parse(command.spec) if isinstance(command, cmd.FreeRoll) else None  # 422 with any dice
        if state.dice != "table":
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
        elif isinstance(command, cmd.Roll) and state.rolls:
            expr = dice.parse(state.rolls[0].spec)
            awaited = state.rolls[0]
            what = f"the roll the game awaits ({awaited.spec} for {purpose(awaited.purpose)})"
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
    def _check_dice(expr: dice.DiceExpr, faces: Iterable[int]) -> list[int]:
        try:
            return dice.check_table_dice(expr, list(faces))
        except dice.TableDiceError as error:
            raise Malformed(f"dice: {error}", field="dice") from None

    def _check_roll_off_dice(self, faces: object) -> None:
        if not isinstance(faces, dict) or set(faces) != set(SEATS):
            raise Malformed("roll_off dice must be {\"A\": face, \"B\": face}", field="dice")
        for seat in SEATS:
            self._check_dice(dice.parse("D6"), [faces[seat]])

    @handles("add_entropy")
    def add_entropy(self, t: Table, seat: str, command: cmd.AddEntropy) -> None:
        if not HEX.match(command.entropy) or len(command.entropy) % 2:
            raise Malformed("entropy must be an even number of hex digits (at most 256)", field="entropy")
        if t.state.entropy[seat]:
            raise Refused("you added your entropy already: each player adds it once", rule="SVC.SETUP")
        if t.state.dice != "server":
            raise Refused("entropy only mixes into server dice; this game rolls at the table",
                          rule="SVC.DICE.SERVER")
        t.emit("EntropyAdded", ev.EntropyAdded(seat=seat, entropy=command.entropy), "SVC.SETUP")

    @handles("start_game")
    def start_game(self, t: Table, seat: str, command: cmd.StartGame) -> None:
        missing = sorted((s for s in SEATS if not t.state.mustered[s]), key=lambda s: s != seat)  # you first
        if missing:
            who = ["you" if s == seat else player_name(t.state, s) for s in missing]
            have = "has" if who != ["you"] and len(who) == 1 else "have"
            raise Refused(f"{listed(who)} {have} not mustered an army", rule="SVC.SETUP")
        foreign = words.foreign_engagement(t.state) if editions.fixed(t.state, "SVC.SETUP") else None
        if foreign is not None:  # named before the other army was mustered (army.check_engaged)
            raise Refused(foreign, rule="SVC.SETUP")
        t.emit("GameStarted", ev.GameStarted(starting_strength=army.starting_strengths_of(t.state.units)), "CORE.STR.1")
        self.start_round(t, 1)

    @handles("free_roll")
    def free_roll(self, t: Table, seat: str, command: cmd.FreeRoll) -> None:
        if not command.purpose or len(command.purpose) > 200:
            raise Malformed("purpose: say what the roll is for (1..200 characters)", field="purpose")
        self.roll(t, command.spec, command.purpose, None, seat, command.dice, free=True)

    @handles("concede")
    def concede(self, t: Table, seat: str, command: cmd.Concede) -> None:
        t.emit("Conceded", {"seat": seat}, "SVC.ENDED")
        self.end_game(t, "concede", winner=other(seat))

    @handles("roll_off")
    def roll_off(self, t: Table, seat: str, command: cmd.RollOff) -> None:
        seen = t.state
        step = self.step(seen)
        if self.awaiting(seen)["action"] != "roll_off" or step is None:
            raise Refused("no roll-off is awaited now", rule="CORE.DICE.3")
        if command.dice is not None:
            faces = [command.dice["A"], command.dice["B"]]
            extra: dict[str, Any] = {}
        else:
            faces, counter = t.server_roll(dice.parse("2D6"))
            extra = {"counter": counter}
        winner = dice.roll_off_winner(*faces)
        names = {s: seen.players.get(s) or f"player {s}" for s in SEATS}
        t.emit("RollOff", {"purpose": "roll_off", "sub_phase": step.name or step.phase, "spec": "2D6",
                           "sides": 6, "faces": faces, "dice": {"A": faces[0], "B": faces[1]},
                           "winner": winner, "tie": winner is None, **extra,
                           **rolls.roll_off(faces, names, winner)}, "CORE.DICE.3")

    @handles("choose_order")
    def choose_order(self, t: Table, seat: str, command: cmd.ChooseOrder) -> None:
        seen = t.state
        step = self.step(seen)
        if command.first not in SEATS:
            raise Malformed("first must be \"A\" or \"B\"", field="first")
        awaiting = self.awaiting(seen)
        if awaiting["action"] != "choose_order" or step is None:
            raise Refused("no choice of order is awaited now",
                          rule=(step.order_rule or step.rule) if step else "CORE.DICE.3")
        if awaiting["seat"] != seat:
            raise Refused("only the roll-off winner chooses who goes first", rule=step.order_rule)
        t.emit("OrderChosen", ev.OrderChosen(sub_phase=step.name or step.phase, first=command.first), step.order_rule)

    @handles("roll")
    def roll_awaited(self, t: Table, seat: str, command: cmd.Roll) -> None:
        if t.state.dice == "server":
            raise Refused("server dice: the service rolls every die itself", rule="SVC.DICE.SERVER")
        if not t.state.rolls:
            step = self.step(t.state)
            raise Refused("no roll is awaited now", rule=(step.play_rule or step.rule) if step else "CORE.DICE.1")
        request = t.state.rolls[0]
        if request.seat != seat:
            raise Refused(f"the roll the game awaits ({request.spec} for {purpose(request.purpose)}) is "
                          f"{whose(t.state, request.seat)} to make", rule=request.rule)
        self.resolve_request(t, cast(ev.RollRequested, request.to_json()), list(command.dice or ()))

    @handles("record_casualties")
    def record_casualties(self, t: Table, seat: str, command: cmd.RecordCasualties) -> None:
        unit = t.state.units[command.unit]
        if command.models < 0 or command.wounds < 0 or (command.models == 0 and command.wounds == 0):
            raise Malformed("give models (removed) or wounds (lost), at least one of them positive",
                            field="models")
        self._check_rule(command.rule)
        if unit.models_alive <= 0:
            raise Refused(f"{unit_named(t.state, command.unit, seat)} is already destroyed", rule="CORE.STR.2")
        removed = min(command.models, unit.models_alive)
        if command.wounds and editions.fixed(t.state, "CORE.STR.2/wounds"):  # the datasheet shows the wounds
            lines, slain = wounds_recorded(unit, removed, command.wounds)
            note = wounded_note(t.state, command.unit, lines.taken)
            note["attested_by"], note["lines"] = seat, ev.ModelLines(alive=list(lines.alive), taken=list(lines.taken))
            self.casualties(t, command.unit, removed + slain, command.wounds, command.rule or "CORE.STR.2", **note)
            return
        self.casualties(t, command.unit, removed, command.wounds, command.rule or "CORE.STR.2", attested_by=seat)

    @handles("set_status")
    def set_status(self, t: Table, seat: str, command: cmd.SetStatus) -> None:
        if command.status not in army.STATUSES:
            raise Malformed(f"unknown status {command.status!r}", field="status")
        if command.duration is not None and not self.durations:
            raise Malformed(f"the {self.name} ruleset records a status as a fact, without a duration",
                            field="duration")
        self._check_rule(command.rule)
        if command.value and t.state.units[command.unit].models_alive <= 0 \
                and editions.fixed(t.state, "CORE.STR.2/status"):
            raise Refused(f"{unit_named(t.state, command.unit, seat)} is already destroyed", rule="CORE.STR.2")
        self.change_status(t, command.unit, command.status, command.value, command.rule or "CORE.DESC.1",
                           reason=command.reason, attested_by=seat)

    @staticmethod
    def _check_rule(rule: str | None) -> None:
        if rule is not None and not re.match(r"^(CORE|AA|RS|HH|SVC|EXT)\.[A-Z0-9_.]+$", rule):
            raise Malformed(f"rule {rule!r} is not a RULES.md ID", field="rule")
