"""Splitting a unit before the battle (CORE.SPL.1, CORE.STR.1).

Conventions where RULES.md is silent:
- A seat splits one of its mustered units during set-up, before `start_game` (battle round 1 has not begun), so
  each part's starting strength is its own models when the game starts (CORE.STR.1).
- `split` names how many models form the new part (1 to all but one); they are taken from the unit's model lines
  last first (a sergeant listed first stays in the first part). The new part's id is the unit's id with `-2`
  appended (then `-3`, … if that id is taken); its name is the unit's with " (2)". It keeps the unit's
  keywords, abilities, weapons, statuses, reserves and transport.
- CORE.SPL.1: a unit can be split once and neither part can be split again. A leader, a unit with a leader
  attached to it, a transport with units embarked and a unit of one model are not split.
- CORE.OTH.1: the two parts are "other" units of each other from then on (each selected, targeted and limited
  on its own), which `UnitSplit` cites beside CORE.SPL.1 and CORE.STR.1.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from warlog.domain import events as ev
from warlog.domain.rules import actions as act
from warlog.domain.rules.actions import Action
from warlog.domain.rules.basics import evolves, seat_units
from warlog.domain.rules.reference import events as own
from warlog.domain.rules.reference.commands import Split
from warlog.domain.rules.ruleset import Part, handles
from warlog.domain.rulings import Refused
from warlog.domain.state import GameState
from warlog.domain.state.values import replace
from warlog.domain.words import not_yours, unit_named

if TYPE_CHECKING:
    from warlog.domain.game import Table


class Splitting(Part[object]):
    """A part of `Reference` (its set-up): it reads nothing of the ruleset. `Reference` names `split` among its
    `setup_commands` and answers `setup_actions` with this part's."""

    setup_commands = ("split",)

    @staticmethod
    def unsplittable(state: GameState, uid: str) -> str | None:
        """Why CORE.SPL.1 (or this convention) keeps this unit whole, or None."""
        units = state.units
        unit = units[uid]
        if unit.split_from or unit.split_into:
            return "a unit is split once, and its parts cannot be split again"
        if unit.model_count < 2:
            return "a unit of one model cannot be split"
        if unit.leader_of or any(u.leader_of == uid for u in units.values()):
            return "a leader and the unit it leads are not split"
        if any(u.embarked_in == uid for u in units.values()):
            return "a transport with units embarked is not split"
        return None

    def setup_actions(self, state: GameState, seat: str) -> list[Action]:
        """A split offered for each unit of a mustered seat that may be split."""
        offered = []
        for uid, unit in seat_units(state, seat):
            if self.unsplittable(state, uid) is None:
                total = unit.model_count
                offered.append(act.action(
                    "split", "CORE.SPL.1", f"split {unit_named(state, uid)} into two units before the battle (once; each part's "
                    "starting strength its own)", ["unit", "models"], unit=act.const(uid),
                    models=act.integer(1, total - 1, "models that form the new unit (from the last model lines)")))
        return offered

    @handles("split")
    def split(self, t: Table, seat: str, command: Split) -> None:
        state = t.state
        if state.status != "setup":
            raise Refused("a unit is split before the battle begins, in set-up", rule="CORE.SPL.1")
        unit = state.units[command.unit]
        if unit.owner != seat:
            raise Refused(not_yours(state, command.unit, seat), rule="CORE.SPL.1")
        why = self.unsplittable(state, command.unit)
        if why:
            raise Refused(why, rule="CORE.SPL.1")
        counts = [line.count for line in unit.models]
        if type(command.models) is not int or not 0 < command.models < sum(counts):
            raise Refused(f"the new unit takes 1 to {sum(counts) - 1} of the {sum(counts)} models: each part keeps "
                          "at least one", rule="CORE.SPL.1")
        moving, left = [0] * len(counts), command.models
        for i in reversed(range(len(counts))):  # the last model lines first
            moving[i] = min(counts[i], left)
            left -= moving[i]
        new, n = f"{command.unit}-2", 2
        while new in state.units:
            n += 1
            new = f"{command.unit}-{n}"
        t.emit("UnitSplit", own.UnitSplit(unit=command.unit, new_unit=new, seat=seat, moved=moving,
                                          kept=[c - m for c, m in zip(counts, moving)], models=sum(counts) - sum(moving),
                                          new_models=sum(moving), rules=["CORE.SPL.1", "CORE.STR.1", "CORE.OTH.1"]),
               "CORE.SPL.1")

    @evolves("UnitSplit")
    def _split(self, state: GameState, data: own.UnitSplit, entry: ev.Entry) -> GameState:
        uid, new = data["unit"], data["new_unit"]
        unit = state.units[uid]
        models = tuple(replace(line, count=n) for line, n in zip(unit.models, data["moved"]) if n)
        strength = sum(line.count for line in models)
        # the new part as a unit mustered (`Unit.mustered`): its own models alive, statuses and turn
        part = replace(unit, id=new, name=f"{unit.name} (2)", models=models, models_alive=strength,
                       starting_strength=strength, wounds_lost=0, statuses=tuple(sorted(set(unit.statuses))),
                       arriving=False, selected=False, turn=type(unit.turn)(), split_from=uid)
        kept = tuple(replace(line, count=n) for line, n in zip(unit.models, data["kept"]) if n)
        left = sum(line.count for line in kept)
        unit = replace(unit, models=kept, models_alive=left, starting_strength=left, split_into=new)
        return state.with_unit(uid, unit).with_unit(new, part)
