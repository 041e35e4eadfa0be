"""What every turn-by-turn ruleset that shoots or fights (reference, heresy) shares: it holds the one attack driver
(`attacks`, domain/attacks/driver.py), and the rolls the driver asks for, the purposes its steps name
(`ROLLED_STEPS`), are read and resolved by the driver. A ruleset's own `roll_reading` and `on_roll` read its other
rolls and pass the rest on with `super()`."""
from __future__ import annotations

from abc import abstractmethod
from typing import TYPE_CHECKING

from warlog.domain import events as ev
from warlog.domain import rolls
from warlog.domain.attacks.driver import ROLLED_STEPS, AttackDriver
from warlog.domain.rules.igougo import Igougo
from warlog.domain.state import GameState

if TYPE_CHECKING:
    from warlog.domain.game import Table


class Attacking(Igougo):
    """Mixed into a ruleset's Shooting: the attack driver it holds, and the driver's rolls sent to it."""

    @property
    @abstractmethod
    def attacks(self) -> AttackDriver:
        """The attack driver, built by each ruleset's Shooting with what it adds (its hooks, the keywords)."""

    def roll_reading(self, state: GameState, request: ev.RollRequested) -> rolls.Reading | None:
        if request["purpose"] in ROLLED_STEPS:
            return self.attacks.attack_reading(request)
        return super().roll_reading(state, request)

    def on_roll(self, t: Table, request: ev.RollRequested, roll: ev.DiceRolled) -> None:
        if request["purpose"] in ROLLED_STEPS:
            self.attacks.attack_rolled(t, request, roll)
        else:
            super().on_roll(t, request, roll)
