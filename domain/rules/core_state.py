"""How the events every ruleset shares change the state: the appliers of the core events (creation, muster,
the round and its steps, rolls, casualties, statuses, the end)."""
from __future__ import annotations

from typing import Any

from warlog.domain import army
from warlog.domain.rules.basics import _last_roll, applies
from warlog.domain.rules.flow import Flow


class CoreState(Flow):
    """A part of every `Ruleset` (rules/flow.py): the core events' appliers."""

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
            # AA.PP.2: never carried over; only the step after a count uses them
            state["pass_points"] = {"A": 0, "B": 0}
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
