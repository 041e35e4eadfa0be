"""Combats (AA.CC.1): chosen alternately by either player, fought, and ended when one side is gone."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from warlog.domain.rules.alternating.common import LOCKED, on_table
from warlog.domain.rules.ruleset import Ruleset, alive, applies
from warlog.domain.rulings import Malformed, Refused

if TYPE_CHECKING:
    from warlog.domain.game import Table


class Combats(Ruleset):
    """A part of `Alternating` (its methods read the others' through `self`)."""

    @staticmethod
    def combat_foes(state: dict[str, Any], uid: str) -> list[str]:
        """Enemy units a locked unit with no known combat may name as its opponents: locked, not yet fought."""
        owner = state["units"][uid]["owner"]
        return [foe for foe, unit in state["units"].items()
                if unit["owner"] != owner and on_table(unit) and not unit["turn"].get("fought")
                and any(s in unit["statuses"] for s in LOCKED)]

    def _end_combats(self, t: Table) -> bool:
        """AA.CC.1: a combat is in progress while both sides have a unit standing in it, locked."""
        units = t.state["units"]
        for cid, combat in t.state["combats"].items():
            standing = [u for u in combat["units"]
                        if alive(units[u]) and any(s in units[u]["statuses"] for s in LOCKED)]
            if len({units[u]["owner"] for u in standing}) == 2:
                continue
            t.emit("CombatEnded", {"combat": cid, "units": standing, "reason": "no enemy unit left in it"},
                   "AA.CC.1")
            for uid in standing:
                for status in LOCKED:
                    self.change_status(t, uid, status, False, "AA.CC.1", reason="its combat ended")
            return True
        return False

    def _selected_resolve_combats(self, t: Table, seat: str, uid: str, act: bool, targets: list[str],
                                  distance: str | None) -> None:
        state = t.state
        known = self._combat_of(state, uid)
        if targets and (known is None or not set(targets) <= set(state["combats"][known]["units"])):
            t.emit("CombatJoined", {"units": [uid, *targets], "reason": "named when the combat was chosen"},
                   "AA.CC.1")
        combat = self._combat_of(state, uid)
        t.emit("CombatFought", {"combat": combat, "chosen": uid, "seat": seat,
                                "units": state["combats"][combat]["units"]}, "AA.CC.1")

    def _check_combat(self, state: dict[str, Any], uid: str, targets: list[str]) -> None:
        if self._combat_of(state, uid) is None and not targets:
            raise Malformed(f"the service knows no combat of {uid}: name the enemy units in it (targets)",
                            field="targets")
        for target in targets:
            if not alive(state["units"][target]):
                raise Refused(f"{target} is destroyed and fights no combat", rule="AA.CC.1")
            if state["units"][target]["turn"].get("fought"):
                raise Refused(f"{target}'s combat was already fought this turn", rule="AA.CC.1")
            if not any(s in state["units"][target]["statuses"] for s in LOCKED):
                raise Refused(f"{target} is not locked in combat", rule="AA.CC.1")

    @staticmethod
    def _combat_of(state: dict[str, Any], uid: str) -> str | None:
        return next((cid for cid, combat in state["combats"].items() if uid in combat["units"]), None)

    @applies("CombatJoined")
    def _combat(self, state: dict[str, Any], data: dict[str, Any], entry: dict[str, Any]) -> None:
        members = set(data["units"])
        units = state["units"]
        for cid in [cid for cid, c in state["combats"].items() if members & set(c["units"])]:
            # a unit that left its combat since (no longer locked, or destroyed) does not come along
            members |= {u for u in state["combats"].pop(cid)["units"]
                        if alive(units[u]) and any(s in units[u]["statuses"] for s in LOCKED)}
        state["combats"][f"combat-{entry['seq']}"] = {"units": sorted(members), "fought": False}

    @applies("CombatEnded")
    def _combat_ended(self, state: dict[str, Any], data: dict[str, Any], entry: dict[str, Any]) -> None:
        state["combats"].pop(data["combat"], None)

    @applies("CombatFought")
    def _fought(self, state: dict[str, Any], data: dict[str, Any], entry: dict[str, Any]) -> None:
        state["step"]["last"] = data["seat"]
        state["combats"][data["combat"]]["fought"] = True
        for uid in data["units"]:
            state["units"][uid]["turn"]["fought"] = True
