"""Who is engaged with whom: the engagements an army starts with (SVC.SETUP), a charge or a consolidation that
engages (RS.CHG.3, RS.FGT.4), a fall back, a consolidation or a destruction that ends them (RS.MOV.4, RS.FGT.4,
CORE.STR.2). Both sides of an engagement know it (`engaged_with`, kept sorted); a unit left with nobody engaged
with it loses its engaged statuses."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from warlog.domain import commands as cmd
from warlog.domain.rules.igougo import Igougo
from warlog.domain.rules.reference.common import members
from warlog.domain.rules.ruleset import Ruleset, alive, applies, handles
from warlog.domain.rulings import Refused

if TYPE_CHECKING:
    from warlog.domain.game import Table


class Engagement(Igougo):
    """Mixed into `Reference`, and the base of the phases that engage or disengage units (charge, fight, movement)."""

    @handles("start_game")
    def start_game(self, t: Table, seat: str, command: cmd.StartGame) -> None:
        units = t.state["units"]
        for uid, unit in units.items():
            for foe in unit.get("engaged_with", []):
                if foe not in units or units[foe]["owner"] == unit["owner"]:
                    raise Refused(f"{uid}'s engaged_with names {foe!r}, which is no enemy unit", rule="SVC.SETUP")
        super().start_game(t, seat, command)

    def engage(self, t: Table, units: list[str], targets: list[str], rule: str, reason: str) -> None:
        everyone = [u for target in targets for u in members(t.state["units"], target)]
        t.emit("UnitsEngaged", {"units": units, "with": everyone, "reason": reason}, rule)
        for uid in units + everyone:
            self.change_status(t, uid, "engaged", True, rule, reason=reason)

    def disengage(self, t: Table, uid: str, rule: str, reason: str) -> None:
        """The unit is no longer engaged; an enemy left with nobody engaged with it is unengaged too."""
        units = t.state["units"]
        foes = list(units[uid].get("engaged_with", []))
        t.emit("EngagementEnded", {"unit": uid, "with": foes, "reason": reason}, rule)
        for other_uid in [uid, *foes]:
            if not units[other_uid].get("engaged_with") and alive(units[other_uid]):
                for status in ("engaged", "locked_in_combat"):
                    self.change_status(t, other_uid, status, False, rule,
                                       reason=reason if other_uid == uid else f"{uid} {reason}")

    def casualties(self, t: Table, uid: str, models: int, wounds: int, rule: str, **extra: Any) -> None:
        super().casualties(t, uid, models, wounds, rule, **extra)
        if not alive(t.state["units"][uid]) and t.state["units"][uid].get("engaged_with"):
            self.disengage(t, uid, "CORE.STR.2", "was destroyed")

    # -- appliers ------------------------------------------------------------------------

    @applies("GameStarted")
    def _started(self, state: dict[str, Any], data: dict[str, Any], entry: dict[str, Any]) -> None:
        Ruleset._started(self, state, data, entry)
        units = state["units"]
        for uid, unit in units.items():  # the army names whom it starts engaged with; both sides know
            for foe in unit.setdefault("engaged_with", []):
                if uid not in units[foe].setdefault("engaged_with", []):
                    units[foe]["engaged_with"].append(uid)
        for unit in units.values():
            unit["engaged_with"].sort()
            if unit["engaged_with"] and "engaged" not in unit["statuses"]:
                unit["statuses"] = sorted(unit["statuses"] + ["engaged"])

    @applies("UnitsEngaged")
    def _engaged(self, state: dict[str, Any], data: dict[str, Any], entry: dict[str, Any]) -> None:
        units = state["units"]
        for uid in data["units"]:
            for foe in data["with"]:
                for a, b in ((uid, foe), (foe, uid)):
                    near = units[a].setdefault("engaged_with", [])
                    if b not in near:
                        near.append(b)
                        near.sort()

    @applies("EngagementEnded")
    def _disengaged(self, state: dict[str, Any], data: dict[str, Any], entry: dict[str, Any]) -> None:
        units = state["units"]
        units[data["unit"]]["engaged_with"] = []
        for foe in data["with"]:
            units[foe]["engaged_with"] = [u for u in units[foe].get("engaged_with", []) if u != data["unit"]]
