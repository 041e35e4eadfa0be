"""`heresy`: the heresy movement rules (seed 002, RULES.md HH.*): Movement with
Reserves, Move and Rout sub-phases; Shooting and Assault are recorded phases."""
from __future__ import annotations

from typing import Any

from domain.rules.flow import Step, alive, applies, units_of
from domain.rules.igougo import Igougo
from domain.rules.registry import register


@register
class Heresy(Igougo):
    name = "heresy"
    phases = (("movement", "reserves", "HH.MOV.0"), ("movement", "move", "HH.MOV.1"),
              ("movement", "rout", "HH.ROUT.1"), ("shooting", None, "CORE.SEQ.1"), ("assault", None, "CORE.SEQ.1"))

    def begin(self, t: Any, step: Step) -> None:
        state = t.state
        if step.name == "reserves":  # HH.RES.1: each unit in reserves rolls a D6, arriving on 3+
            for uid, unit in units_of(state, step.active):
                if unit.get("in_reserves") and alive(unit):
                    self.request_roll(t, step.active, "reserve", "D6", "HH.RES.1", uid)
        elif step.name == "rout":  # HH.ROUT.1/2: routed units fall back 1D6 + Initiative
            for uid, unit in units_of(state, step.active):
                if alive(unit) and "routed" in unit["statuses"] and "locked_in_combat" not in unit["statuses"]:
                    initiative = max(m.get("I") or 0 for m in unit["models"])
                    self.request_roll(t, step.active, "fall_back", f"D6+{initiative}" if initiative else "D6",
                                      "HH.ROUT.2", uid)

    def on_roll(self, t: Any, request: dict[str, Any], roll: dict[str, Any]) -> None:
        uid, total = request["unit"], roll["total"]
        if request["purpose"] == "reserve":
            arrives = roll["faces"][0] >= 3
            t.emit("ReserveArrived" if arrives else "ReserveDelayed",
                   {"unit": uid, "total": total, "needed": 3}, "HH.RES.1")
        elif request["purpose"] == "fall_back":
            t.emit("FallBackRolled", {"unit": uid, "distance": str(total)}, "HH.ROUT.2")
        else:
            super().on_roll(t, request, roll)

    @applies("ReserveArrived")
    def _arrived(self, state: dict[str, Any], data: dict[str, Any], entry: dict[str, Any]) -> None:
        state["units"][data["unit"]]["in_reserves"] = False
