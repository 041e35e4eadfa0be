"""Choices in the middle of an attack: Command Re-roll of an attack roll just made (EXT.CP.1, CORE.DICE.2) and
the defender's choice of the group that saves next (RS.ATK.3).

An attack resolves as a replay of its dice batches (`domain.attacks.resolve`); a choice pauses it between two
batches. The pause is an event (`CommandRerollOffered`, `AllocationOffered`) that keeps the attack's context
(profile, batches so far, the batch just rolled), so it works alike with server dice (every batch rolled in one
command until a pause) and table dice. The answer appends the batch (the re-rolled one, or the pick) and the
attack goes on.

Conventions where RULES.md is silent:
- EXT.CP.1: after each hit, wound, save, damage or hazard batch, the seat that rolled it (the attacker; the
  defender for its own saves) is offered Command Re-roll when it has the CP, has not used it this phase and its
  unit (the attacker, or the target) is not battle-shocked (RS.CMD.3), and one roll of the batch failed (damage:
  is below its most; `domain.attacks.rerollable_rolls`). Otherwise the attack does not pause.
  `command_reroll` names the roll by the index of its (first) die in the batch as rolled; `keep_dice` keeps
  the batch. The new face replaces the old before any modifier (CORE.DICE.2); the re-roll is never re-rolled.
- Analytics: both faces were rolled and both count among the dice of that purpose (as a charge re-roll does);
  the attack's own luck reads its outcome, with the new face, against the odds of the attack without a
  Command Re-roll.
- RS.ATK.3: when several model groups tie for the next wounds (none wounded, e.g. two non-CHARACTER lines), the
  defending seat picks one (`allocate`, by the line's index in the target as `AttackDeclared` lists it); with a
  single legal group the attack does not pause.

`AttackChoices` is a part of `Reference` (rules/parts.py): `command_reroll`, `keep_dice` and `allocate` are dispatched
to it and its `CommandRerollOffered`, `AllocationOffered`, `AttackRollKept` and `AllocationChosen` are applied by it
(none of them marked by `Reference` or the core); `Reference` passes it the attack driver's `batch_rolled` hook and
asks it by name what an attack paused awaits and offers (`attack_pause`, `pause_awaiting`, `pause_actions`). It
asks its ruleset (`ChoiceRules`) for the attack driver (`attacks`, `Shooting`'s), to request a roll and whom a
stratagem may target (the part `CommandPhase`'s).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol, cast

from warlog.domain import dice
from warlog.domain import events as ev
from warlog.domain.attacks import ATTACKER, Need, from_data, rerollable_rolls, roll_size
from warlog.domain.attacks.driver import AttackDriver, need_data
from warlog.domain.rules import actions as act
from warlog.domain.rules.actions import Action
from warlog.domain.rules.basics import Awaiting, evolves, held_by
from warlog.domain.rules.reference import events as own
from warlog.domain.rules.reference.commands import Allocate, CommandReroll, KeepDice
from warlog.domain.rules.reference.common import STRATAGEMS
from warlog.domain.rules.ruleset import Part, handles
from warlog.domain.rulings import Refused
from warlog.domain.state import JSON, Frozen, GameState, ReferenceStep, freeze, thaw
from warlog.domain.state.values import replace
from warlog.domain.words import die_title, faces, line_title, listed, player_name, unit_named

if TYPE_CHECKING:
    from warlog.domain.game import Table

REROLL = "Command Re-roll"
Pause = dict[str, Any]  # a paused attack: the event's data that paused it (`CommandRerollOffered`, ...), JSON


_THAWED: list[tuple[JSON, Pause]] = []  # the pause last read and its JSON: a state's offers, awaiting and ruling
# read the same paused attack several times, and thawing its whole roll each time was a tenth of an attack's write


def _thawed(pause: JSON) -> Pause:
    """A paused attack's JSON (read, never changed, by its readers), made once while the pause is the same value."""
    kept = _THAWED[0] if _THAWED else None
    if kept is not None and kept[0] is pause:
        return kept[1]
    made = cast(Pause, thaw(pause))
    _THAWED[:] = [(pause, made)]
    return made


class ChoiceRules(Protocol):
    """What an attack's choices ask of their ruleset: the attack driver that goes on after a choice, a Command
    Re-roll's roll, and whom a stratagem may target (EXT.CP.1, RS.CMD.3)."""

    @property
    def attacks(self) -> AttackDriver:
        """The attack driver (`Shooting`'s): a batch done goes on through its `batch_done`."""

    def request_roll(self, t: Table, seat: str, purpose: str, spec: str, rule: str, unit: str,
                     **context: object) -> None:
        """A roll the rules call for, for `unit`: rolled now with server dice, else awaited from `seat`."""

    def stratagem_targets(self, state: GameState, seat: str) -> list[str]:
        """The seat's units a stratagem may target now."""


class AttackChoices(Part[ChoiceRules]):
    """A part of `Reference`: the attack driver's `batch_rolled` hook answered here (the driver's `batch_done`
    fed), the pauses' awaiting, actions and commands."""

    @staticmethod
    def attack_pause(state: GameState) -> Pause | None:
        """The attack paused now (as the event that paused it wrote it), or None."""
        if state.rolls or state.step is None:
            return None
        pause = ReferenceStep.of(state.step).attack_pause
        return None if pause is None else dict(_thawed(pause))

    def command_reroll_open(self, state: GameState, seat: str, uid: str) -> bool:
        """EXT.CP.1 with RS.CMD.3: the CP, not used this phase, the unit standing and not battle-shocked."""
        used = (ReferenceStep.of(state.step).stratagems or Frozen()).get(seat, ())
        targets = self.rules.stratagem_targets(state, seat)  # the part CommandPhase's (command.py)
        return state.cp[seat] >= STRATAGEMS[REROLL] and uid in targets and REROLL not in used

    def batch_rolled(self, t: Table, context: ev.AttackRoll, need: Need, faces: list[int]) -> None:
        """A whole batch is in: offer Command Re-roll where it could change something, else go on."""
        state = t.state
        ids = context["attack"]
        uid = ids["attacker"] if need.seat == ATTACKER else ids["target"]
        seat = state.units[uid].owner
        choices = rerollable_rolls(from_data(context["profile"]), need, faces)
        if choices and self.command_reroll_open(state, seat, uid):
            t.emit("CommandRerollOffered", {**ids, "kind": "reroll", "seat": seat, "unit": uid, "step": need.step,
                                            "batch": list(faces), "choices": choices, "need": need_data(need),
                                            "attack_roll": context}, "EXT.CP.1")
            return
        self.rules.attacks.batch_done(t, context, faces)

    def pause_awaiting(self, state: GameState) -> Awaiting | None:
        """What an attack paused awaits (a Command Re-roll or the defender's group), or None."""
        pause = self.attack_pause(state)
        if pause is None:
            return None
        action = "allocate" if pause["kind"] == "allocate" else \
            "command_reroll" if self.command_reroll_open(state, pause["seat"], pause["unit"]) else "keep_dice"
        return {"seat": pause["seat"], "action": action, "unit": pause["unit"],
                "choice": {"step": pause["step"], "batch": pause.get("batch"), "choices": pause["choices"]}}

    # -- actions and commands ------------------------------------------------------------

    def pause_actions(self, state: GameState, seat: str) -> list[Action]:
        pause = self.attack_pause(state)
        if pause is None or pause["seat"] != seat:
            return []
        if pause["kind"] == "allocate":
            return [act.action("allocate", "RS.ATK.3", f"choose which group of {unit_named(state, pause['unit'], seat)} saves next: "
                               + listed((str(c["model"]) for c in pause["choices"]), "or"), ["line"],
                               line=self.line_choice(state, pause))]
        roll = f"the {pause['step'].replace('_', ' ')} roll ({faces(pause['batch'])})"
        offered = [act.action("keep_dice", "EXT.CP.1", f"keep {roll} and go on")]
        if self.command_reroll_open(state, seat, pause["unit"]):
            offered.insert(0, act.action(
                "command_reroll", "EXT.CP.1", f"Command Re-roll (1 CP): re-roll one die of {roll}", ["die"],
                die=act.choice(((i, die_title(i, pause["batch"][i])) for i in pause["choices"]), "die",
                               description="the die to re-roll, by its place in the roll as rolled")))
        return offered

    @staticmethod
    def line_choice(state: GameState, pause: Pause) -> act.Schema:
        """RS.ATK.3: the target's model groups that tie, each by its models' name, how many stand as the attack
        found them of how many the army list gave the line (the target's own, or its attached unit's)."""
        lines = from_data(pause["attack_roll"]["profile"]).target.lines
        target = state.units.get(pause["unit"])
        led = target.leader_of if target is not None else None
        listed = {line.name: line.count for uid, unit in state.units.items() for line in unit.models
                  if pause["unit"] in (uid, unit.leader_of) or uid == led}

        def title(index: int) -> str:
            line = lines[index]
            return line_title(line.name, line.count, max(line.count, listed.get(line.name, line.count)))
        return act.choice(((c["line"], title(c["line"])) for c in pause["choices"]), "model_line",
                          description="the group of the target's models that saves next")

    def _pause_of(self, state: GameState, seat: str, kind: str, rule: str) -> Pause:
        pause = self.attack_pause(state)
        if pause is None or pause["kind"] != kind:
            wanted = "a group to save" if kind == "allocate" else "a re-roll"
            raise Refused(f"no attack waits for {wanted} now", rule=rule)
        held_by(pause["seat"], seat, rule, f"{player_name(state, pause['seat'])} chooses here")
        return pause

    @handles("command_reroll")
    def command_reroll(self, t: Table, seat: str, command: CommandReroll) -> None:
        state = t.state
        pause = self._pause_of(state, seat, "reroll", "EXT.CP.1")
        if not self.command_reroll_open(state, seat, pause["unit"]):
            raise Refused(f"Command Re-roll needs {STRATAGEMS[REROLL]} CP, once a phase, for a unit that is not "
                          "battle-shocked", rule="EXT.CP.1")
        if command.die not in pause["choices"]:
            raise Refused(f"die {command.die} is no roll here that a re-roll could change; choose one of "
                          f"{pause['choices']}", rule="CORE.DICE.2")
        need = Need(*pause["need"])
        size = roll_size(from_data(pause["attack_roll"]["profile"]), need.step) or 1
        t.emit("StratagemUsed", {"seat": seat, "name": REROLL, "unit": pause["unit"], "cp": STRATAGEMS[REROLL],
                                 "cp_left": state.cp[seat] - STRATAGEMS[REROLL],
                                 "roll": {"step": need.step, "die": command.die,
                                          "was": pause["batch"][command.die:command.die + size]}}, "EXT.CP.1")
        self.rules.request_roll(t, seat, need.step, str(dice.DiceExpr(size, need.sides)), "CORE.DICE.2", pause["unit"],
                          attack_reroll={"die": command.die, "batch": pause["batch"], "need": pause["need"],
                                         "attack_roll": pause["attack_roll"]})

    @handles("keep_dice")
    def keep_dice(self, t: Table, seat: str, command: KeepDice) -> None:
        pause = self._pause_of(t.state, seat, "reroll", "EXT.CP.1")
        context = pause["attack_roll"]
        t.emit("AttackRollKept", {**context["attack"], "step": pause["step"], "seat": seat, "batch": pause["batch"]},
               "EXT.CP.1")
        self.rules.attacks.batch_done(t, context, pause["batch"])

    @handles("allocate")
    def allocate(self, t: Table, seat: str, command: Allocate) -> None:
        pause = self._pause_of(t.state, seat, "allocate", "RS.ATK.3")
        lines = [c["line"] for c in pause["choices"]]
        if command.line not in lines:
            raise Refused(f"line {command.line} is not one of the groups the wounds may go to next: {lines} "
                          "(wounded models first, CHARACTER groups last)", rule="RS.ATK.3")
        context = pause["attack_roll"]
        t.emit("AllocationChosen", {**context["attack"], "seat": seat, "line": command.line,
                                    "model": next(c["model"] for c in pause["choices"] if c["line"] == command.line)},
               "RS.ATK.3")
        self.rules.attacks.batch_done(t, context, [lines.index(command.line) + 1])  # the pick goes in as its batch

    # -- appliers ------------------------------------------------------------------------

    @evolves("CommandRerollOffered", "AllocationOffered")
    def _offered(self, state: GameState, data: own.CommandRerollOffered | own.AllocationOffered,
                 entry: ev.Entry) -> GameState:
        return paused(state, data)

    @evolves("AttackRollKept", "AllocationChosen")
    def _chosen(self, state: GameState, data: own.AttackRollKept | own.AllocationChosen, entry: ev.Entry) -> GameState:
        return paused(state, None)


def paused(state: GameState, pause: Mapping[str, object] | None) -> GameState:
    """The step with the attack paused (`pause`: the event's data), or no longer paused (None). The event's data is
    what thawing the frozen pause would make again: it is kept as the pause's JSON (`_thawed`), so the offers,
    awaiting and view of the state it leaves read it without thawing a whole roll."""
    frozen = freeze(pause)
    if pause is not None:
        _THAWED[:] = [(frozen, cast(Pause, pause))]
    return replace(state, step=replace(ReferenceStep.of(state.step), attack_pause=frozen))
