"""Who is engaged with whom: the engagements an army starts with (SVC.SETUP), a charge or a consolidation that
engages (RS.CHG.3, RS.FGT.4), a fall back, a consolidation or a destruction that ends them (RS.MOV.4, RS.FGT.4,
CORE.STR.2). Both sides of an engagement know it (`engaged_with`, kept sorted); a unit left with nobody engaged
with it loses its engaged statuses.

`Engagement` is a part of `Reference` (rules/parts.py): its events are applied by it; the phases that engage or
disengage units call it (`engage`, `disengage`), and `Reference` asks it by name before `start_game`
(`start_game`), after `GameStarted` is applied (`started`) and after casualties are recorded (`casualties`)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from warlog.domain import events as ev
from warlog.domain import words
from warlog.domain.rules import editions
from warlog.domain.rules.basics import evolves
from warlog.domain.rules.flow import StatusNote
from warlog.domain.rules.reference import events as own
from warlog.domain.rules.reference.common import members_of
from warlog.domain.rules.ruleset import Part, alive
from warlog.domain.rulings import Refused
from warlog.domain.state import Frozen, GameState, Unit
from warlog.domain.state.values import replace

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from warlog.domain.game import Table


def by(state: GameState, uid: str, foe: Unit, reason: str) -> str:
    """Why an enemy unit left engaged with nobody by `uid` is no longer engaged, as its status's reason stores it: the
    unit named as the players know it ("Alice's Tactical Squad fell back", RS.MOV.4/named of edition 4), its id in a
    game created before."""
    if editions.fixed(state, "RS.MOV.4/named"):
        return f"{words.unit_named(state, uid, foe.owner)} {reason}"
    return f"{uid} {reason}"


class EngageRules(Protocol):
    """What the engagement part asks of its ruleset: a unit engaged or no longer engaged changes its statuses."""

    def change_status(self, t: Table, uid: str, status: str, value: bool, rule: str,
                      **extra: Unpack[StatusNote]) -> None:
        """Record the unit's status gained or lost (nothing when it already is so)."""


class Engagement(Part[EngageRules]):
    """A part of `Reference`: who is engaged with whom, for the phases that engage or disengage units (charge,
    fight, movement)."""

    @staticmethod
    def start_game(state: GameState) -> None:
        """SVC.SETUP, before the game starts (`Reference.start_game`): an army names only units of the game as
        those it starts engaged with."""
        foreign = words.foreign_engagement(state)
        if foreign is not None:
            raise Refused(foreign, rule="SVC.SETUP")

    def engage(self, t: Table, units: list[str], targets: list[str], rule: str, reason: str) -> None:
        everyone = [u for target in targets for u in members_of(t.state.units, target)]
        engaging: own.UnitsEngaged = {"units": units, "with": everyone, "reason": reason}
        t.emit("UnitsEngaged", engaging, rule)
        for uid in units + everyone:
            self.rules.change_status(t, uid, "engaged", True, rule, reason=reason)

    def disengage(self, t: Table, uid: str, rule: str, reason: str) -> None:
        """The unit is no longer engaged; an enemy left with nobody engaged with it is unengaged too."""
        foes = list(t.state.units[uid].engaged_with)
        ended: own.EngagementEnded = {"unit": uid, "with": foes, "reason": reason}
        t.emit("EngagementEnded", ended, rule)
        for other_uid in [uid, *foes]:
            unit = t.state.units[other_uid]
            if not unit.engaged_with and alive(unit):
                for status in ("engaged", "locked_in_combat"):
                    self.rules.change_status(t, other_uid, status, False, rule,
                                             reason=reason if other_uid == uid else by(t.state, uid, unit, reason))

    def casualties(self, t: Table, uid: str, rule: str) -> None:
        """After the ruleset recorded casualties by `rule` (`Reference.casualties`): a unit destroyed ends its
        engagement."""
        unit = t.state.units[uid]
        if not alive(unit) and unit.engaged_with:  # the rule that destroyed it ends its engagement (CORE.STR.2
            # was cited before the fix, rules/editions.py: it names the strength bands, not what removed the models)
            self.disengage(t, uid, rule if editions.fixed(t.state, "CORE.STR.2") else "CORE.STR.2", "was destroyed")

    # -- appliers ------------------------------------------------------------------------

    @staticmethod
    def started(state: GameState) -> GameState:
        """After `GameStarted` is applied (`Reference._started`): both sides of each engagement the armies name
        know it, and are engaged."""
        near = {uid: list(unit.engaged_with) for uid, unit in state.units.items()}
        for uid in near:  # the army names whom it starts engaged with; both sides know
            for foe in near[uid]:
                if uid not in near[foe]:
                    near[foe].append(uid)
        return replace(state, units=Frozen({uid: _engaged_at_start(unit, sorted(near[uid]))
                                            for uid, unit in state.units.items()}))

    @evolves("UnitsEngaged")
    def _engaged(self, state: GameState, data: own.UnitsEngaged, entry: ev.Entry) -> GameState:
        near: dict[str, list[str]] = {}
        for uid in data["units"]:
            for foe in data["with"]:
                for a, b in ((uid, foe), (foe, uid)):
                    known = near.setdefault(a, list(state.units[a].engaged_with))
                    if b not in known:
                        known.append(b)
                        known.sort()
        for uid, known in near.items():
            state = state.with_unit(uid, replace(state.units[uid], engaged_with=tuple(known)))
        return state

    @evolves("EngagementEnded")
    def _disengaged(self, state: GameState, data: own.EngagementEnded, entry: ev.Entry) -> GameState:
        uid = data["unit"]
        state = state.with_unit(uid, replace(state.units[uid], engaged_with=()))
        for foe in data["with"]:
            unit = state.units[foe]
            state = state.with_unit(foe, replace(unit, engaged_with=tuple(u for u in unit.engaged_with if u != uid)))
        return state


def _engaged_at_start(unit: Unit, near: list[str]) -> Unit:
    """SVC.SETUP: the unit engaged with those its army (or the enemy's) names, and so `engaged`."""
    if near and "engaged" not in unit.statuses:
        return replace(unit, engaged_with=tuple(near), statuses=tuple(sorted((*unit.statuses, "engaged"))))
    return replace(unit, engaged_with=tuple(near)) if tuple(near) != unit.engaged_with else unit
