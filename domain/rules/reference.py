"""`reference`: the reference sheet (seed 001, RULES.md RS.*): Command, Movement,
Shooting, Charge and Fight phases in each player's turn."""
from __future__ import annotations

from typing import Any

from domain import army
from domain.rules.flow import SEATS, Step, alive, applies, units_of
from domain.rules.igougo import Igougo
from domain.rules.registry import register


@register
class Reference(Igougo):
    name = "reference"
    phases = (("command", None, "RS.CMD.1"), ("movement", None, "RS.MOV.1"), ("shooting", None, "RS.SHO.1"),
              ("charge", None, "RS.CHG.1"), ("fight", None, "RS.FGT.2"))

    def begin(self, t: Any, step: Step) -> None:
        if step.phase != "command":
            return
        for seat in SEATS:  # RS.CMD.1: both players gain 1 CP
            t.emit("CommandPointGained", {"seat": seat, "cp": t.state["cp"][seat] + 1}, "RS.CMD.1")
        units = t.state["units"]
        for uid, unit in units_of(t.state, step.active):  # RS.CMD.2, CORE.OFF.1: reserves test too
            band = army.unit_strength(units, uid)
            if alive(unit) and ("battle_shocked" in unit["statuses"] or band in ("half", "below_half")):
                self.request_roll(t, step.active, "battle_shock", "2D6", "RS.CMD.2", uid,
                                  ld=army.leadership(unit), strength=band)

    def on_roll(self, t: Any, request: dict[str, Any], roll: dict[str, Any]) -> None:
        if request["purpose"] != "battle_shock":
            return super().on_roll(t, request, roll)
        uid, ld = request["unit"], request["context"]["ld"]
        passed = roll["total"] >= ld
        t.emit("BattleShockTested", {"unit": uid, "total": roll["total"], "ld": ld, "passed": passed,
                                     "strength": request["context"]["strength"]}, "RS.CMD.2")
        self.change_status(t, uid, "battle_shocked", not passed, "RS.CMD.2",
                           reason="failed a battle-shock test" if not passed else "passed a battle-shock test")

    @applies("CommandPointGained")
    def _cp(self, state: dict[str, Any], data: dict[str, Any], entry: dict[str, Any]) -> None:
        state["cp"][data["seat"]] = data["cp"]
