"""The one attack driver every ruleset that shoots or fights uses: `resolve` replayed batch by batch, its decisions
recorded as events, its dice asked with the ruleset's `request_roll` (server dice at once, table dice awaited).

A part, not a base class: a ruleset holds one (`self.attacks = AttackDriver(self, ...)`) and calls it (`declare_attack`,
`attack_rolled`, `attack_reading`, `batch_done`, `weapon_hazard`); the driver calls the ruleset back only through
`AttackRules`, so a small fake of it drives an attack alone (tests/unit/test_attack_driver_part.py).

The attack's context (`attack_roll`, carried by the roll request and by a pause) is plain data: the attack's ids,
its profile (`to_data`), the batches rolled so far, how many decisions are recorded, the faces of a batch still
being rolled (a batch of more than `dice.MAX_DICE` dice comes in several rolls) and what the ruleset adds (heresy:
`then`, what follows the attack). A ruleset supplies only what differs:

- as `AttackRules`, the hooks every ruleset answers: `request_roll` and `casualties` (the flow's),
  `attack_party(units, uid)`, the units the target stands with (its attached leader), read line by line (the
  state's typed units), and `attack_finished(t, context, outcome)`, what follows the attack;
- as the driver's keywords, what some rulesets add: `resolved_fields`, the outcome's fields `AttackResolved`
  names, in order; `resolved_extra(profile, outcome)`, what it adds after the lines (heresy: a vehicle's hull
  points); `batch_rolled(t, context, need, faces)`, where an attack may pause between batches for a choice
  (reference: Command Re-roll, EXT.CP.1), so each request carries its `Need` and a whole batch goes to it (it
  goes on with `batch_done`); `hazard_suffered(t, uid, facts)`, what a HAZARDOUS roll after a weapon's last
  target (`weapon_hazard`) costs.

The defender's pick of the group that saves next (RS.ATK.3, `Need("allocate")`) is offered as `AllocationOffered`.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol, cast

from typing_extensions import TypedDict, Unpack

from warlog.domain import dice, rolls
from warlog.domain import events as ev
from warlog.domain.attacks.allocation import Standing, Wounds, fnp_rolled_for
from warlog.domain.attacks.contract import target_from
from warlog.domain.attacks.lines import line_standing, with_lines
from warlog.domain.attacks.profile import ModelLine, Profile, Target, from_data
from warlog.domain.attacks.sequence import Outcome, Progress, resolve
from warlog.domain.attacks.steps import (
    ATTACKER,
    FNP_STEPS,
    HAZARDOUS,
    READ_STEPS,
    Decision,
    Need,
    hazard,
    hazardous,
    reading,
    sustained_parts,
)
from warlog.domain.rules import editions
from warlog.domain.rules.flow import CasualtyNote, wounded_note
from warlog.domain.state import GameState, Unit
from warlog.domain.words import unit_title

if TYPE_CHECKING:
    from warlog.domain.game import Table


class Following(TypedDict, total=False):
    """What rides along with an attack's dice (`declare_attack`'s keywords): heresy's `then`, what follows the
    attack (`ev.AttackRoll.then`)."""

    then: ev.JSONObject | None

STEP_EVENTS = {"attacks": "AttacksRolled", "hit": "HitsScored", "hit_reroll": "HitsRerolled",
               "sustained": "SustainedHitsScored", "wound": "WoundsScored", "wound_reroll": "WoundsRerolled",
               "save": "SavesRolled", "damage": "DamageInflicted", "feel_no_pain": "FeelNoPainRolled",
               "mortal_damage": "MortalWoundsInflicted", "mortal_feel_no_pain": "FeelNoPainRolled",
               "hazardous": "HazardousRolled", "allocate": "GroupAllocated"}  # by Need.step (heresy's roll purposes)
DECISION_EVENTS = {**STEP_EVENTS, "mortal_wounds": "MortalWoundsInflicted"}  # by Decision.step: what each step decided
ROLLED_STEPS = tuple(step for step in STEP_EVENTS if step != "allocate")  # the purposes of the rolls it asks for


def need_data(need: Need) -> list[Any]:
    """A `Need` as JSON (an event's data): `Need(*data)` reads it back."""
    return [*need[:-1], list(need.among)]


class AttackRules(Protocol):
    """What the driver asks of the ruleset that holds it."""

    def request_roll(self, t: Table, seat: str, purpose: str, spec: str, rule: str, unit: str,
                     **context: object) -> None:
        """A roll for `unit`, rolled now with server dice (its outcome fed to `attack_rolled` at once), else
        awaited from `seat`; `context` rides along with it (JSON)."""

    def casualties(self, t: Table, uid: str, models: int, wounds: int, rule: str,
                   **extra: Unpack[CasualtyNote]) -> None:
        """The models and wounds `uid` lost (RS.ATK.4), recorded."""

    def attack_party(self, units: Mapping[str, Unit], uid: str) -> list[str]:
        """The target `uid` and the units it stands with (its attached leader), in the order its lines are read."""

    def attack_finished(self, t: Table, context: ev.AttackRoll, outcome: Outcome) -> None:
        """What follows an attack, once its losses are recorded."""


BatchRolled = Callable[["Table", ev.AttackRoll, Need, list[int]], None]
HazardSuffered = Callable[["Table", str, Mapping[str, Any]], None]
ResolvedExtra = Callable[[Profile, Outcome], dict[str, Any]]
RESOLVED_FIELDS = ("hits", "wounds", "failed_saves", "wounds_lost", "models_destroyed")


def nothing_more(profile: Profile, outcome: Outcome) -> dict[str, Any]:
    """`AttackResolved` adds nothing after the lines."""
    return {}


class AttackDriver:
    """A ruleset's part (beside its `request_roll`, `casualties` and `t.emit`): one attack from its declaration to
    its outcome, every step's dice fed in by the server or by the table. `rules`: the ruleset it calls back; the
    keywords: what that ruleset adds (the module's docstring)."""

    def __init__(self, rules: AttackRules, *, resolved_fields: tuple[str, ...] = RESOLVED_FIELDS,
                 resolved_extra: ResolvedExtra = nothing_more, batch_rolled: BatchRolled | None = None,
                 hazard_suffered: HazardSuffered | None = None) -> None:
        self.rules = rules
        self.resolved_fields = resolved_fields
        self.resolved_extra = resolved_extra
        self.batch_rolled = batch_rolled  # None: no attack pauses between batches, each goes on at once
        self.hazard_suffered = hazard_suffered

    def declare_attack(self, t: Table, attack: ev.AttackDeclared, rule: str, by: str | None = None,
                       **extra: Unpack[Following]) -> None:
        """Declare one weapon's attack (`AttackDeclared`: its ids, what the ruleset says of it, its profile as
        data, for replay and for its odds), then roll it step by step from the first; `extra` rides along. `by`:
        the attacking seat, where another seat's request declares it (an attack following one just resolved)."""
        t.emit("AttackDeclared", attack, rule, by)
        ids = ev.AttackIds(attacker=attack["attacker"], target=attack["target"], weapon=attack["weapon"])
        context = ev.AttackRoll(attack=ids, profile=attack["profile"], batches=[], decided=0, faces=[])
        if "then" in extra:  # heresy: what follows the attack
            context["then"] = extra["then"]
        self.attack_goes_on(t, context)

    def attack_goes_on(self, t: Table, context: ev.AttackRoll) -> None:
        """Replay the attack with the dice so far (the module is pure); record what it decided since, then ask
        for the next dice (the attacker's, or the defender's saves), offer the defender's pick, or apply its
        outcome."""
        progress = resolve(from_data(context["profile"]), context["batches"])
        context = record_decisions(t, progress, context)
        need = progress.need
        if need is not None and need.step != "hazardous" and self.fallen(t.state, context):
            self.attack_ended(t, context, progress)  # RS.ATK.4/fallen: no dice for a unit no longer there
        elif need is None:
            if progress.outcome is None:  # pragma: no cover -- resolve gives the outcome once nothing is needed
                raise ValueError("an attack needing nothing more has an outcome")
            self.attack_done(t, context, progress.outcome)
        elif need.step == "allocate":  # RS.ATK.3: the defender's pick, not a roll
            self.offer_allocation(t, context, need)
        else:  # one roll, or several of at most MAX_DICE dice that make up one batch
            ids = context["attack"]
            roller = ids["attacker"] if need.seat == ATTACKER else ids["target"]
            count = min(dice.MAX_DICE, need.number - len(context["faces"]))
            extra = {"need": need_data(need)} if self.batch_rolled is not None else {}
            self.rules.request_roll(t, t.state.units[roller].owner, need.step,
                                    str(dice.DiceExpr(count, need.sides)), need.rule, roller, attack_roll=context,
                                    batch=need.number, **extra)

    def attack_reading(self, request: ev.RollRequested, apart: GameState | None = None) -> rolls.Reading | None:
        """What a die of the attack's roll asked for must reach (`steps.reading`): the hit, wound, save or Feel
        No Pain the attack waits for (a save's or Feel No Pain's model line as the attack replayed so far names
        it); a Command Re-roll's die as the step it re-rolls. `apart`, the state where a Feel No Pain roll is
        read die by die (`fnp_apart`), the game's units named from it; else as the damage's line alone reads it."""
        context = request["context"]
        if "weapon_hazard" in context:  # rolled after the weapon's last attack (`weapon_hazard`)
            return HAZARDOUS
        if "attack_reroll" in context:
            step, roll = context["attack_reroll"]["need"][0], context["attack_reroll"]["attack_roll"]
        else:
            step, roll = request["purpose"], context["attack_roll"]
        if apart is not None and step in FNP_STEPS and "attack_reroll" not in context:
            profile = from_data(roll["profile"])
            wounds = resolve(profile, roll["batches"]).wounds
            if wounds is not None:
                party = self.struck(apart.units, roll["attack"]["target"], profile)
                return fnp_apart(apart, party, profile.target, wounds, request["unit"], roll["faces"])
        if step not in READ_STEPS:
            return None
        profile = from_data(roll["profile"])
        need = resolve(profile, roll["batches"]).need if step in ("save", "feel_no_pain") else None
        return reading(profile, step, None if need is None else need.line)

    def attack_rolled(self, t: Table, request: ev.RollRequested, roll: ev.DiceRolled) -> None:
        """A roll of the attack's dice is in: a re-roll goes back into its batch; a batch not yet whole waits
        for its next roll; a whole one goes on (or may pause, `batch_rolled`)."""
        if "attack_reroll" in request["context"]:  # EXT.CP.1: a Command Re-roll of one roll of the batch
            self.attack_rerolled(t, request, roll)
            return
        if "weapon_hazard" in request["context"]:
            self.weapon_hazard_rolled(t, request, roll)
            return
        context = cast(ev.AttackRoll, request["context"]["attack_roll"])  # as attack_goes_on asked for it
        faces = context["faces"] + roll["faces"]
        if len(faces) < request["context"]["batch"]:
            self.attack_goes_on(t, {**context, "faces": faces})
            return
        need = request["context"].get("need")  # a roll asked for before choices were offered carries none
        if need is None or self.batch_rolled is None:
            self.batch_done(t, context, faces)
            return
        self.batch_rolled(t, context, Need(*need), faces)

    def weapon_hazard(self, t: Table, ids: ev.AttackIds, models: int) -> None:
        """EXT.WPN.HAZARDOUS once the weapon has attacked every target its models picked (RS.SHO.2, each model's
        weapon a weapon): one D6 a model that attacked with it, in one roll by its player, rather than one roll a
        target (its attacks' profiles say `hazard_after`). A unit of more than `dice.MAX_DICE` models rolls that
        many. Only a ruleset that says what the roll costs (`hazard_suffered`) rolls it: asked before any roll is
        requested, so a ruleset without the hook records nothing it cannot resolve."""
        self._hazard_hook()
        uid = ids["attacker"]
        unit = t.state.units[uid]
        self.rules.request_roll(t, unit.owner, "hazardous", str(dice.DiceExpr(min(models, dice.MAX_DICE), 6)),
                                "EXT.WPN.HAZARDOUS", uid, weapon_hazard={**ids, "keywords": sorted(unit.keywords)})

    def weapon_hazard_rolled(self, t: Table, request: ev.RollRequested, roll: ev.DiceRolled) -> None:
        context = request["context"]["weapon_hazard"]
        ids = ev.AttackIds(attacker=context["attacker"], target=context["target"], weapon=context["weapon"])
        decision = hazard(context["keywords"], roll["faces"])
        read = rolls.read(roll["faces"], request["spec"], HAZARDOUS)
        t.emit("HazardousRolled", {**ids, "step": "hazardous", **decision.facts,
                                   **{k: v for k, v in read.items() if k not in decision.facts}}, "EXT.WPN.HAZARDOUS")
        self._hazard_hook()(t, ids["attacker"], decision.facts)

    def _hazard_hook(self) -> HazardSuffered:
        """What a HAZARDOUS roll after a weapon's last target costs, as the ruleset says (`hazard_suffered`); a
        ruleset built without it (heresy: none of its weapons is rolled for after its last target) never rolls one."""
        if self.hazard_suffered is None:
            raise NotImplementedError(f"{type(self.rules).__name__} rolls no HAZARDOUS weapon after its last target")
        return self.hazard_suffered

    def batch_done(self, t: Table, context: ev.AttackRoll, faces: list[int]) -> None:
        """A whole batch is in: it joins those rolled so far and the attack goes on."""
        self.attack_goes_on(t, {**context, "batches": [*context["batches"], list(faces)], "faces": []})

    def attack_rerolled(self, t: Table, request: ev.RollRequested, roll: ev.DiceRolled) -> None:
        """CORE.DICE.2: the new face(s) replace the old in the batch, before any modifier; then the attack goes on."""
        reroll = request["context"]["attack_reroll"]
        context, die = reroll["attack_roll"], reroll["die"]
        faces = list(reroll["batch"])
        was = faces[die:die + len(roll["faces"])]
        faces[die:die + len(roll["faces"])] = roll["faces"]
        t.emit("AttackRollRerolled", {**context["attack"], "step": reroll["need"][0], "die": die, "was": was,
                                      "now": list(roll["faces"]), "batch": faces, "rules": ["CORE.DICE.2", "EXT.CP.1"]},
               "CORE.DICE.2")
        self.batch_done(t, context, faces)

    def offer_allocation(self, t: Table, context: ev.AttackRoll, need: Need) -> None:
        """RS.ATK.3: the groups tied for the next wounds, for the defending seat to pick."""
        ids = context["attack"]
        profile = from_data(context["profile"])
        t.emit("AllocationOffered", {**ids, "kind": "allocate", "seat": t.state.units[ids["target"]].owner,
                                     "unit": ids["target"], "step": "allocate",
                                     "choices": [{"line": line, "model": profile.target.lines[line].name}
                                                 for line in need.among],
                                     "need": need_data(need), "attack_roll": context}, "RS.ATK.3")

    def struck(self, units: Mapping[str, Unit], target: str, profile: Profile) -> list[str]:
        """The units the attack at `target` was declared at (`struck`), read from its ruleset's party now."""
        return struck(units, self.rules.attack_party(units, target), profile)

    def fallen(self, state: GameState, context: ev.AttackRoll) -> bool:
        """RS.ATK.4/fallen: every unit the attack struck (the target and the leader attached to it as declared,
        `struck`) was destroyed while it waited, recorded at the table: the attack has nothing left to strike."""
        if not editions.fixed(state, "RS.ATK.4/fallen"):
            return False
        return all(state.units[uid].models_alive <= 0
                   for uid in self.struck(state.units, context["attack"]["target"], from_data(context["profile"])))

    def attack_ended(self, t: Table, context: ev.AttackRoll, progress: Progress) -> None:
        """RS.ATK.4/fallen: the attack ends where it stands once its target is destroyed: it asks no more dice of
        either seat, and its `AttackResolved` says it ended (`ended`) with what it scored so far; it took nothing
        from a unit that was no longer there (its lines as they stand). Then what follows the attack."""
        ids = context["attack"]
        profile = from_data(context["profile"])
        units = t.state.units
        together = self.struck(units, ids["target"], profile)
        outcome = so_far(profile, progress.decisions)
        lines = {uid: dict(zip(("alive", "taken"), line_standing(units[uid]))) for uid in together}
        t.emit("AttackResolved", {**ids, **{field: getattr(outcome, field) for field in self.resolved_fields},
                                  "lines": lines, **self.resolved_extra(profile, outcome), "ended": "destroyed"},
               "RS.ATK.4")
        self.rules.attack_finished(t, context, outcome)
        situation = profile.situation
        if hazardous(profile) and situation.models and not situation.hazard_after and outcome.attacks \
                and self.hazard_suffered is not None:  # EXT.WPN.HAZARDOUS: the weapon was used all the same
            self.weapon_hazard(t, ids, situation.models)

    def attack_done(self, t: Table, context: ev.AttackRoll, outcome: Outcome) -> None:
        """RS.ATK.4: the losses line by line, on the target and its attached leader; then what follows."""
        units = t.state.units
        ids = context["attack"]
        profile = from_data(context["profile"])
        paused = editions.fixed(t.state, "RS.ATK.4/paused")  # then the units it was declared at
        together = self.struck(units, ids["target"], profile) if paused else self.rules.attack_party(units, ids["target"])
        before, after = lines_after(units, together, profile, outcome)
        now = None
        if paused:  # what it took from each line laid over the unit as it stands (RS.ATK.4/paused)
            now = {uid: still_standing(units[uid]) for uid in together}
            after = {uid: laid_over(units[uid], before[uid], after[uid]) for uid in together}
        t.emit("AttackResolved", {**ids, **{field: getattr(outcome, field) for field in self.resolved_fields},
                                  "lines": after, **self.resolved_extra(profile, outcome)}, "RS.ATK.4")
        record_losses(self.rules, t, together, before, after, now)
        self.rules.attack_finished(t, context, outcome)


def so_far(profile: Profile, decisions: Sequence[Decision]) -> Outcome:
    """What an attack ended before its last step (RS.ATK.4/fallen) scored: its attacks, hits, wounds and failed
    saves as its decisions so far say; nothing lost, its target no longer there to lose it."""
    facts: dict[str, int] = {}
    for decision in decisions:
        for key, field in SCORED.get(decision.step, ()):
            facts[field] = facts.get(field, 0) + decision.facts[key]
    return Outcome(facts.get("attacks", 0), facts.get("hits", 0), facts.get("critical_hits", 0),
                   facts.get("wounds", 0), facts.get("critical_wounds", 0), facts.get("devastating", 0),
                   facts.get("failed_saves", 0), 0, 0, 0, Standing.of(profile.target))


SCORED = {"attacks": (("attacks", "attacks"),), "hit": (("hits", "hits"), ("criticals", "critical_hits")),
          "sustained": (("extra_hits", "hits"),),
          "wound": (("wounds", "wounds"), ("criticals", "critical_wounds"), ("devastating", "devastating")),
          "save": (("failed", "failed_saves"),)}  # Decision.step: (its fact, the Outcome's field it adds to)


def fnp_apart(state: GameState, party: Sequence[str], target: Target, wounds: Wounds, unit: str,
              before: Sequence[int] = ()) -> rolls.Reading:
    """EXT.FNP: a Feel No Pain roll against `wounds` on `party` (the unit and its attached leader, `target` their
    model lines), read die by die against the FEEL NO PAIN X+ of the model each wound would be lost by, the dice
    no wound needs unused (rules/editions.py, EXT.FNP/read); `before`: the faces of the same roll already in (a
    roll past `dice.MAX_DICE` dice). Where a die is read for another unit than the roll's own `unit`, each die
    names whose it is ("Bob's Master")."""
    owners = [uid for uid in party for _ in state.units[uid].models]  # the unit of each model line

    def against(faces: Sequence[int]) -> list[rolls.Against]:
        dice = fnp_rolled_for(target, wounds, [*before, *faces])[len(before):]
        named = any(owners[line] != unit for line, _ in dice)
        return [rolls.Against(needed, unit_title(state, owners[line], counts=False) if named else "")
                for line, needed in dice]

    return rolls.Reading("Feel No Pain", each=True, noun="ignored wound", ones_fail=False, apart=against)


def standing_target(units: Mapping[str, Unit], together: Sequence[str]) -> Target:
    """The target unit and its attached leader, line by line as they stand (`line_standing`, RS.ATK.3)."""
    standing = [line_standing(units[m]) for m in together]
    return target_from([units[m] for m in together], alive=[s[0] for s in standing],
                       wounds_taken=[s[1] for s in standing])


def keep_lines(state: GameState, data: ev.AttackResolved) -> GameState:
    """After an attack: each unit's model lines as it left them (`line_standing` reads them for the next)."""
    for uid, lines in data["lines"].items():
        state = state.with_unit(uid, with_lines(state.units[uid], lines))
    return state


def record_decisions(t: Table, progress: Progress, context: ev.AttackRoll) -> ev.AttackRoll:
    """Record what the attack module decided since the last batch, one event a step (the rule that decided it
    cited); the attack's context counts the decisions recorded."""
    ids = context["attack"]
    decided = progress.decisions[context["decided"]:]
    for i, decision in enumerate(decided):
        extra = {"rules": list(decision.rules)} if len(decision.rules) > 1 else {}
        then = decided[i + 1] if i + 1 < len(decided) else None
        t.emit(DECISION_EVENTS.get(decision.step, "AttackStep"), {**ids, "step": decision.step, **decision.facts,
                                                                 **extra, **said(context, decision, then)},
               decision.rules[0])
    return {**context, "decided": len(progress.decisions)}


def said(context: ev.AttackRoll, decision: Decision, then: Decision | None = None) -> dict[str, Any]:
    """What the dice of a hit, wound, save or hazardous step mean (domain/rolls.py), read as the step's table
    reads them; its `needed` where the step's facts carry none of their own. Nothing for a step rolling no dice.
    A hit roll whose SUSTAINED HITS follow at once (`then`, no die to roll for them) says what they add."""
    facts = decision.facts
    if decision.step not in READ_STEPS or "dice" not in facts:
        return {}
    faces = facts["dice"]
    profile = from_data(context["profile"])
    read = rolls.read(faces, str(dice.DiceExpr(len(faces), 6)) if faces else "0",
                      reading(profile, decision.step, facts.get("line")))
    if then is not None and then.step == "sustained" and then.facts["extra_hits"]:
        amounts = " + ".join(str(part) for part in sustained_parts(profile)[0])
        read["text"] += f": SUSTAINED HITS {amounts} adds {then.facts['extra_hits']}"
    return {k: v for k, v in read.items() if k not in facts}


Before = dict[str, tuple[ModelLine, ...]]  # unit -> the target's lines of it as the attack began
After = dict[str, dict[str, list[int]]]  # unit -> its lines as the attack left them (`AttackResolved`'s JSON)


def lines_after(units: Mapping[str, Unit], together: Sequence[str], profile: Profile,
                outcome: Outcome) -> tuple[Before, After]:
    """The target's model lines before the attack and after it (models alive, the wounded model's lost wounds),
    unit by unit of the target and its attached leader."""
    after: After = {}
    before: Before = {}
    position = 0
    for uid in together:
        lines = len(units[uid].models)
        after[uid] = {"alive": list(outcome.standing.alive[position:position + lines]),
                      "taken": list(outcome.standing.taken[position:position + lines])}
        before[uid] = profile.target.lines[position:position + lines]
        position += lines
    return before, after


def struck(units: Mapping[str, Unit], party: list[str], profile: Profile) -> list[str]:
    """The units whose model lines the attack's profile holds, in its order: `party` (`attack_party` now) where
    its lines are the profile's, else the target and the leader attached to it where the attack was declared at
    both. They differ where a leader fell or returned, or a bodyguard fell, while the attack waited for its dice."""
    lines = len(profile.target.lines)
    if sum(len(units[uid].models) for uid in party) == lines:
        return party
    target = party[0]
    declared = [target]
    for uid, unit in units.items():
        if unit.leader_of == target and len(units[target].models) + len(unit.models) == lines:
            declared.append(uid)
    return declared


def laid_over(unit: Unit, before: Sequence[ModelLine], after: Mapping[str, list[int]]) -> dict[str, list[int]]:
    """A unit's lines (`AttackResolved`'s) once the wounds the attack took from each of its lines as declared
    (`before` to `after`) are lost by that line as it stands now (`line_standing`): what the table recorded while
    the attack waited (casualties, wounds, models returned) stays, the wounded model losing its wounds first
    (RS.ATK.3), a line's wounds lost with its last model. Where nothing was recorded meanwhile, `after` itself."""
    alive, taken = line_standing(unit)
    for line, was in enumerate(before):
        left = max(0, alive[line] * was.W - taken[line] - struck_off(was, after, line))
        alive[line] = -(-left // was.W)
        taken[line] = alive[line] * was.W - left
    return {"alive": alive, "taken": taken}


def struck_off(was: ModelLine, after: Mapping[str, list[int]], line: int) -> int:
    """The wounds the attack took from a model line as it was declared (`was`): those it had left, less those
    `after` leaves it."""
    return (was.count * was.W - was.wounds_taken) - (after["alive"][line] * was.W - after["taken"][line])


def still_standing(unit: Unit) -> tuple[int, int]:
    """What a unit has left to lose as it stands: its models alive and their wounds left (`line_standing`)."""
    alive, taken = line_standing(unit)
    return unit.models_alive, wounds_left(unit, alive, taken)


def wounds_left(unit: Unit, alive: Sequence[int], taken: Sequence[int]) -> int:
    """The wounds the unit's models have left, line by line."""
    return sum(n * line.wounds - lost for n, lost, line in zip(alive, taken, unit.models))


def record_losses(rules: AttackRules, t: Table, together: Sequence[str], before: Before, after: After,
                  now: Mapping[str, tuple[int, int]] | None = None) -> None:
    """RS.ATK.4: each unit's models and wounds lost in the attack, recorded as casualties.

    The attack is resolved against its target as it was declared (its profile's lines, `before`); what the table
    recorded while it waited for its dice (casualties, wounds, models returned) is not in them. With `now` (a game
    judged by RS.ATK.4/paused: what each unit had to lose as it stood, `still_standing`), `after` are its lines
    with the attack's losses laid over it (`laid_over`), and it loses what they differ by, never more than it has;
    else (a game created before the fix) its models alive less those the attack left, which counted the models
    recorded meanwhile too, and could be a negative count, and the wounds the attack took from its declared lines."""
    for uid in together:
        unit = t.state.units[uid]
        if now is not None:
            models, wounds = now[uid]
            lost = models - sum(after[uid]["alive"])
            wounds -= wounds_left(unit, after[uid]["alive"], after[uid]["taken"])
        else:
            wounds = sum(struck_off(was, after[uid], line) for line, was in enumerate(before[uid]))
            lost = unit.models_alive - sum(after[uid]["alive"])
        if lost > 0 or wounds > 0:
            rules.casualties(t, uid, lost, wounds, "RS.ATK.4", **wounded_note(t.state, uid, after[uid]["taken"]))
