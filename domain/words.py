"""The players' words (CONTRACT.md "In the players' words"): how an event reads as a sentence.

Each event as read carries `text`, the event as a player says it, with the players' and units' names:
"Bob's Boyz (8 of 10) failed their battle-shock test: 3 on 2D6 against Ld 7". The sentences are data beside the
events, one entry a kind: `domain/texts.py` for the kinds more than one ruleset logs (beside domain/events.py's
`SHARED`), each ruleset's `texts.py` for its own (beside its `events.py`), named by the ruleset as
`event_texts`, as its payload types are named `event_payloads`. A text reads its names from `Words`: the state
just before the event and just after it (so a unit's count after its casualties, a unit's name before it was
removed), and the entry itself. Texts are not hashed: like `undone`, a reader is given them.
"""
from __future__ import annotations

import re
import string
from collections.abc import Callable, Iterable, Mapping, Sized
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any, TypeVar

from warlog.domain import army
from warlog.domain import events as ev
from warlog.domain.army import attached_models_of
from warlog.domain.rules import editions
from warlog.domain.state import GameState, Unit, Weapon

ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:-]*[A-Za-z0-9]")  # what may be a unit's id inside a sentence
Text = Callable[..., str]  # (Words, the kind's own payload TypedDict) -> the sentence
T = TypeVar("T", bound=Text)
# the fixes of edition 4 by which the reasons a game stores name its units where they held their ids
NAMED = ("RS.MOV.4/named", "HH.REACT.1/named", "RS.CHG.3", "RS.FGT.4", "AA.CHG.1/named", "HH.MOV.2/named")


class Texts(dict[str, Text]):
    """One sentence a kind of event: its words in a table (`plainly`, each a `Plain`), one of several words
    (`chosen`), or, where a sentence is more than its event's fields named, the function
    `@texts.says("UnitSelected")` marks. `namers`: how the module's words name a field, beside `NAMERS`."""

    def __init__(self, namers: Mapping[str, Namer] | None = None) -> None:
        super().__init__()
        self.namers = {**NAMERS, **(namers or {})}

    def says(self, *kinds: str) -> Callable[[T], T]:
        def mark(function: T) -> T:
            for kind in kinds:
                if kind in self:
                    raise ValueError(f"{kind} has a text already")
                self[kind] = function
            return function
        return mark

    def plainly(self, sentences: Mapping[str, str]) -> None:
        """The kinds whose sentence only names its event's fields, each by its words (`Plain`):
        `texts.plainly({"Conceded": "{seat:player} conceded the game"})`."""
        for kind, words in sentences.items():
            self.says(kind)(Plain(words, self.namers))

    def chosen(self, kind: str, by: Callable[[Any], object], sentences: Mapping[object, str]) -> None:
        """A kind whose sentence is one of several plain ones, chosen by what `by` reads of its event (`Chosen`):
        `texts.chosen("PiledIn", lambda d: float(d["distance"]) == 0, {True: "{unit:unit} stayed where it was",
        False: "{unit:unit} piled in {distance:inches}"})`; the one under "else" for any other answer."""
        self.says(kind)(Chosen(by, {key: Plain(words, self.namers) for key, words in sentences.items()}))


def listed(items: Iterable[str], last: str = "and") -> str:
    """'a', 'a and b', 'a, b and c'."""
    words = [str(item) for item in items]
    if len(words) <= 1:
        return words[0] if words else "none"
    return f"{', '.join(words[:-1])} {last} {words[-1]}"


PURPOSES = {"hit": "hit rolls", "wound": "wound rolls", "save": "saves", "charge": "a charge", "overwatch": "overwatch",
            "roll_off": "a roll-off", "battle_shock": "a battle-shock test", "advance": "an Advance",
            "regroup": "a regroup roll", "reserve": "a reserve roll", "leadership": "a Leadership test",
            "fight_leadership": "a lost fight's Leadership test", "hazard": "a Desperate Escape",
            "feel_no_pain": "Feel No Pain", "mortal_feel_no_pain": "Feel No Pain against mortal wounds",
            "feel_no_pain_mortal": "Feel No Pain against mortal wounds", "attacks": "the number of attacks",
            "overwatch_shots": "the number of overwatch shots", "fall_back": "the fall-back distance",
            "dangerous_terrain": "dangerous terrain tests", "damage": "damage", "hazardous": "Hazardous rolls",
            "hit_reroll": "hit re-rolls", "wound_reroll": "wound re-rolls",  # TWIN-LINKED, a re-roll (attacks/steps)
            "mortal_damage": "the mortal wounds' damage",  # DEVASTATING WOUNDS with a D of dice (attacks/steps)
            }  # a roll's purpose as the rules call the roll

# a phase, and a sub-phase, as the rules name it (RS's phases; AA.MOV.1, AA.SHO.1, AA.ASL.1; HH.MOV.0)
PHASES = {"command": "Command", "movement": "Movement", "shooting": "Shooting", "charge": "Charge", "fight": "Fight",
          "assault": "Assault", "end_of_round": "End of Round"}
STEPS = {"move_fleeing": "Move Fleeing Units", "movement_pass_points": "Movement Pass Point Calculation",
         "move_units": "Move Units", "shooting_pass_points": "Shooting Pass Point Calculation",
         "declare_shooting": "Declare Shooting", "run": "Run", "select_charges": "Select Charging Units",
         "resolve_combats": "Resolve Combats", "score_objectives": "Objective Scoring", "reserves": "Reserves",
         "move": "Move", "rout": "Rout"}
# a status as the rules say a unit is it ("is now Battle-shocked", "is no longer Locked in Combat")
STATUSES = {"battle_shocked": "Battle-shocked", "locked_in_combat": "Locked in Combat", "routed": "Routed",
            "pinned": "Pinned", "suppressed": "Suppressed", "stationary": "Stationary", "falling_back": "falling back",
            "gone_to_ground": "Gone to Ground", "immobilised": "Immobilised", "no_weapons_left": "left with no weapons",
            "regrouped": "regrouped", "engaged": "engaged"}
# a unit's strength (CORE.STR.2) as said: "Bob's Boyz is now below half strength"
STRENGTH = {"full": "at full strength", "below_starting": "below its starting strength", "half": "at half strength",
            "below_half": "below half strength", "destroyed": "destroyed"}
# ... and of a leader and its bodyguard, named as the two they are: "Bob's Guard and Captain are now ..."
STRENGTH_OF_TWO = {**STRENGTH, "below_starting": "below their starting strength"}
# how a unit is activated (RS.MOV.1, RS.MOV.4, RS.SHO.1, RS.FGT.2): "activated Bob's Boyz for an Advance"
ACTIVATIONS = {"move": {"normal": "a Normal move", "advance": "an Advance", "fall_back": "a Fall Back",
                        "remain_stationary": "a Remain Stationary move", "disembark": "a disembark move",
                        "ingress": "an Ingress move"},
               "shooting": {"normal": "Normal shooting", "assault": "Assault shooting",
                            "close_quarters": "Close-quarters shooting", "indirect": "Indirect shooting"},
               "fight": {"normal": "a Normal fight", "overrun": "an Overrun fight"},
               "escape": {"ordered": "an Ordered Retreat", "desperate": "a Desperate Escape"}}


# how a game's result was decided (RULES.md MSN.END.1-3, MSN.CLK.1): "Decided on victory points"
DECIDED_BY = {"vp": "on victory points", "destroyed": "on points of enemy units destroyed",
              "wipeout": "by wiping out the enemy army", "concession": "by concession", "time": "on time: a clock ran out"}


DRAWN_BY = {"wipeout": "by a wipe-out: neither side has a unit left"}  # a draw where the words above name a winner


def decided(by: str, draw: bool = False) -> str:
    """How a result was decided, as a sentence's start: 'Decided on victory points' (GET /state's `result.how`)."""
    return f"Decided {(draw and DRAWN_BY.get(by)) or DECIDED_BY.get(by, humane(by))}"


def purpose(name: str) -> str:
    """A roll's purpose as the rules call the roll: 'regroup' -> 'a regroup roll' (else its name as words)."""
    return PURPOSES.get(name, humane(name))


def phase_called(phase: str | None, the: str = "the ") -> str:
    """'the Shooting phase' (after `the`: "Bob's Shooting phase"); 'the next step' where none is named."""
    return f"{the}{PHASES.get(phase, humane(phase))} phase" if phase else "the next step"


def step_called(name: str | None) -> str:
    """A sub-phase by its name in the rules ('Move Units'), or a phase a step is named by ('the Command phase');
    '' where none is named."""
    if not name:
        return ""
    if name in STEPS or name not in PHASES:
        return STEPS.get(name, humane(name))
    return phase_called(name)


def step_name(phase: str | None, sub_phase: str | None, the: str = "the ") -> str:
    """'the Movement phase' or 'Move Units (Movement phase)', as the rules name them (after `the`: 'Movement
    phase', as a heading names it)."""
    if sub_phase and sub_phase != phase:
        return f"{step_called(sub_phase)} ({phase_called(phase, the='')})" if phase \
            else step_called(sub_phase)
    return phase_called(phase, the)


def stage_title(phase: str | None, sub_phase: str | None) -> str | None:
    """Where the game is, as a heading says it (GET /state's `phase_title`): 'Move Units (Movement phase)', 'Command
    phase'; None before the first phase."""
    return step_name(phase, sub_phase, the="") if phase or sub_phase else None


def status_called(status: str) -> str:
    """A status as a player says a unit is it: 'Battle-shocked', 'Locked in Combat', 'falling back'."""
    return STATUSES.get(status, humane(status))


def strength_called(band: str, two: bool = False) -> str:
    """A unit's strength band (CORE.STR.2) as a player says the unit is: 'below_half' -> 'below half strength';
    `two`: of a leader and its bodyguard named together ('below their starting strength')."""
    return (STRENGTH_OF_TWO if two else STRENGTH).get(band, humane(band))


def activated_for(key: str, kind: str) -> str:
    """How a unit is activated, as the rules name it: ('move', 'advance') -> 'for an Advance'."""
    said = ACTIVATIONS.get(key, {}).get(kind)
    return f"for {said}" if said else f"to {humane(key)} ({humane(kind)})"


def owns(name: str) -> str:
    """The possessive of a unit's name: "Bob's Boyz'", "Alice's Captain's"."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def the(name: str) -> str:
    """A name after the definite article: "the Boltgun", but "The Wolf Blade" as it is (never "the The …")."""
    return name if name[:4].lower() == "the " else f"the {name}"


def plural(count: int, one: str, many: str | None = None) -> str:
    """'1 model', '3 models', '0 hits' ('many' where the plural is not one + s)."""
    return f"{count} {one if count == 1 else (many or one + 's')}"


def humane(name: str | None) -> str:
    """A snake_case name as words: 'move_units' -> 'move units', 'battle_shocked' -> 'battle-shocked'."""
    if not name:
        return ""
    return name.replace("battle_shock", "battle-shock").replace("_", " ")


def ordinal(n: int) -> str:
    """1 -> '1st', 2 -> '2nd', 11 -> '11th', 23 -> '23rd'."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def inches(distance: object) -> str:
    """A distance as the table says it: '7"', '4.5"', '2.76"' (a measured one to the hundredth, not the 16 digits
    a ruler never shows; what is not a number as it is)."""
    try:
        value = Decimal(str(distance)).quantize(Decimal("0.01")).normalize()
    except InvalidOperation:
        return f'{distance}"'
    return f'{value:f}"'


UNTIL = {"end_of_phase": "the end of the phase", "end_of_turn": "the end of the turn",
         "end_of_battle_round": "the end of the battle round", "start_of_next_turn": "the start of the next turn"}


def lasting(until: str, player: str | None = None) -> str:
    """When an effect that lasts a stated time ends (CORE.PER.1): 'the end of the phase', 'the start of Bob's next
    turn' (with the player whose turn it waits for)."""
    if until == "start_of_next_turn" and player:
        return f"the start of {player}'s next turn"
    return UNTIL.get(until, humane(until))


def faces(values: Iterable[int]) -> str:
    """Dice as read out: '3, 4 and 6'."""
    return listed(str(v) for v in values)


def player_name(state: GameState, seat: str) -> str:
    """The seat's player by name ('Bob'); 'player A' only where the game names no player."""
    return named_player(state.players, seat)


def named_player(players: Mapping[str, str], seat: str) -> str:
    """`player_name` from the game's players (seat -> name) as its creation stores them, where no state is at hand
    (a damaged log's report)."""
    return players.get(seat) or f"player {seat}"


def whose(state: GameState, seat: str | None) -> str:
    """Whose go, turn or phase a refusal says it is, by the player's name: "Bob's" ("it is Bob's go"); "neither
    player's" where the game awaits no seat."""
    return f"{player_name(state, seat)}'s" if seat else "neither player's"


def who_does(state: GameState, seat: str, to: str, verb: str) -> str:
    """The player a refusal to `to` says acts, with the verb: "Bob chooses", or "you choose" where it is `to`."""
    return f"you {verb}" if seat == to else f"{player_name(state, seat)} {verb}s"


AWAITED = {"start_game": "start the game", "roll_off": "roll off", "choose_order": "choose who goes first",
           "confirm_count": "confirm the count", "select": "select a unit", "end_phase": "end the phase",
           "resolve_charge": "resolve the charge", "pile_in": "pile in", "consolidate": "consolidate",
           "end_fight": "end the unit's fight", "charge_move": "make the charge move",
           "enter": "bring a unit into play", "command_reroll": "use a Command Re-roll or keep the dice",
           "keep_dice": "keep the dice", "allocate": "choose which group saves next"}


def doing(action: str) -> str:
    """An awaited action as a player does it: 'pile in', 'end the unit's fight' (`AWAITED`)."""
    return AWAITED.get(action, humane(action))


def awaited(state: GameState, awaiting: Mapping[str, object], to: str) -> str:
    """What the game waits for (GET /state's `awaiting`) as a refusal to `to` says it: "the game waits for Bob to
    roll 2D6 for the charge", "... for you to end the phase", "... for both players to confirm the count"."""
    action, seat = str(awaiting.get("action")), awaiting.get("seat")
    if action == "none":
        return "the game has ended"
    roll = awaiting.get("roll")
    if action == "roll" and isinstance(roll, Mapping):
        said = f"roll {roll.get('spec')} for {purpose(str(roll.get('purpose')))}"
    else:
        said = doing(action)
    if isinstance(seat, str):
        actor = "you" if seat == to else player_name(state, seat)
    else:
        actor = "both players" if action == "confirm_count" else "either player"
    return f"the game waits for {actor} to {said}"


def awaited_said(state: GameState, awaiting: Mapping[str, object], to: str | None) -> str:
    """What the game waits for as GET /state's `awaiting.text` says it to the reader `to` (a seat, or None: a
    spectator, who reads names): "The game waits for you to roll 2D6 for a charge."."""
    return sentence(awaited(state, awaiting, to or ""))


def shown_name(state: GameState, uid: str) -> str:
    """The unit's name as players tell it from the others: its roster name, and where another unit of the same
    player has the same name (two "Boyz"), its place among them in the army's order ("Boyz 2")."""
    unit = state.units[uid]
    same = [other for other, u in state.units.items() if u.owner == unit.owner and u.name == unit.name]
    return unit.name if len(same) == 1 else f"{unit.name} {same.index(uid) + 1}"


def unit_title(state: GameState, uid: str, owner: bool = True, counts: bool = True) -> str:
    """'Bob's Boyz (8 of 10)': the unit by name (its owner's name first, where `owner`) and, where `counts` and for
    a unit of more than one model, the models left of those it started with (its attached leader or bodyguard
    counted, as its starting strength counts them, CORE.STR.1); the id only for a unit the state does not hold."""
    unit = state.units.get(uid)
    if unit is None:
        return uid
    name = f"{player_name(state, unit.owner)}'s {shown_name(state, uid)}" if owner else shown_name(state, uid)
    if not counts or unit.starting_strength <= 1:
        return name
    return f"{name} ({attached_models_of(state.units, uid)} of {unit.starting_strength})"


def unit_named(state: GameState, uid: str, seat: str | None = None) -> str:
    """A unit as an offered action's summary names it: by its name ('Assault Squad'), its owner's name first where
    it is not `seat`'s ("at the charging Bob's Boyz"); `unit_title` without the models' count."""
    unit = state.units.get(uid)
    return unit_title(state, uid, owner=unit is not None and seat is not None and unit.owner != seat, counts=False)


def foreign_engagement(state: GameState) -> str | None:
    """SVC.SETUP at `start_game` (`army.foreign_engagement`), the refusal in the players' words, or None: "Alice's
    Legion cannot start engaged with 'militia': Bob's army has no unit of that id" (the id as mustered, which no
    unit's name stands for), or "... with Alice's Scouts, a unit of its own army"."""
    found = army.foreign_engagement(state.units)
    if found is None:
        return None
    uid, foe = found
    named = unit_title(state, uid, counts=False)
    if foe in state.units:
        return (f"{named} cannot start engaged with {unit_title(state, foe, counts=False)}, a unit of its own army "
                "(only with an enemy unit)")
    enemy = next((seat for seat in ("A", "B") if seat != state.units[uid].owner), "B")
    return f"{named} cannot start engaged with {foe!r}: {player_name(state, enemy)}'s army has no unit of that id"


def not_yours(state: GameState, uid: str, seat: str) -> str:
    """A refusal of a command `seat` sent about another player's unit: "Bob's Boyz is another player's unit"."""
    return f"{unit_named(state, uid, seat)} is another player's unit"


def weapon_title(weapon: Weapon) -> str:
    """'Bolt rifle (24", A2, S4, AP-1, D1)': the weapon by name with its profile."""
    reach = inches(weapon.range) if weapon.type == "ranged" and weapon.range is not None else weapon.type
    profile = [reach, f"A{weapon.A}", *([f"S{weapon.S}"] if weapon.S is not None else []),
               *([f"AP{weapon.AP}"] if weapon.AP is not None else []), f"D{weapon.D}"]
    return f"{weapon.name} ({', '.join(profile)})"


def objective_title(names: Iterable[str], name: str) -> str:
    """'Objective 2 (centre)': a marker by its place among the game's objectives and its name."""
    number = next((i for i, other in enumerate(names, 1) if other == name), None)
    return f"Objective {number} ({name})" if number is not None else f"Objective ({name})"


def die_title(index: int, face: int | None) -> str:
    """'the 3rd die: a 1': a die of a roll by its place as rolled and its face."""
    return f"the {ordinal(index + 1)} die: a {face}" if face is not None else f"the {ordinal(index + 1)} die"


def line_title(name: str, alive: int, count: int) -> str:
    """'Sergeant (1 of 1)': a model line by its models' name, models alive of those it started with."""
    return f"{name} ({alive} of {count})"


def camel_words(kind: str) -> str:
    """'BattleShockTested' -> 'battle shock tested' (the words of a kind no text names yet)."""
    return re.sub(r"(?<!^)(?=[A-Z])", " ", kind).lower()


@dataclass(frozen=True, slots=True)
class Words:
    """What an event's sentence reads names from: the state before it (None before the game's creation), the
    state after it, and the entry."""

    before: GameState | None
    after: GameState
    entry: ev.Entry

    def player(self, seat: str | None) -> str:
        """The seat's player by name ('Bob'); the seat letter only where the game names no player."""
        if seat is None:
            return "the service"
        return player_name(self.after, seat)

    @property
    def both(self) -> str:
        """'Alice and Bob': the game's players, for what concerns both."""
        return listed(self.after.players.values())

    @property
    def actor(self) -> str:
        """Who the event is by: its `by` seat's player, or the service."""
        return self.player(self.entry["by"])

    def _unit(self, uid: str) -> Unit | None:
        state = self._holding(uid)
        return state.units[uid] if state is not None else None

    def _holding(self, uid: str) -> GameState | None:
        """The state the unit is read from: the one after the event, or before it for a unit it removed."""
        for state in (self.after, self.before):
            if state is not None and uid in state.units:
                return state
        return None

    def unit_name(self, uid: str | None, owner: bool = True) -> str:
        """'Bob's Boyz' (the owner's name first, where `owner`); the id only for a unit this game never had."""
        if uid is None:
            return "no unit"
        state = self._holding(uid)
        return uid if state is None else unit_title(state, uid, owner, counts=False)

    def unit(self, uid: str | None, owner: bool = True) -> str:
        """'Bob's Boyz (8 of 10)': its name and, for a unit of more than one model, the models left after the
        event of those it started with (with its attached leader or bodyguard, as its starting strength counts
        them, CORE.STR.1)."""
        state = self._holding(uid) if uid is not None else None
        if uid is None or state is None:
            return self.unit_name(uid, owner)
        return unit_title(state, uid, owner)

    def units(self, uids: Iterable[str], owner: bool = True, counts: bool = False) -> str:
        say = self.unit if counts else self.unit_name
        return listed(say(uid, owner) for uid in uids)

    def sides(self, uids: Iterable[str], counts: bool = False) -> str:
        """Units by name with each owner said once, side against side: "Bob's B Squad and B Tank", "Alice's A
        Transport against Bob's B Bunker and B Mob" (`counts`: each with its models left)."""
        by_owner: dict[str | None, list[str]] = {}
        for uid in uids:
            unit = self._unit(uid)
            by_owner.setdefault(unit.owner if unit else None, []).append(uid)
        said = []
        for owner, members in by_owner.items():
            names = listed((self.unit if counts else self.unit_name)(uid, owner=False) for uid in members)
            said.append(f"{self.player(owner)}'s {names}" if owner else names)
        return " against ".join(said)

    def names(self, text: str) -> str:
        """A sentence the rules wrote with unit ids in it ("charge by b-boyz-2", as a game created before edition
        4 stores it) with the units named in their place as `unit_name` names them, owner first and two units of
        one name told apart ("charge by Bob's Boyz 2"). A game judged by the fixes that store names (`NAMED`) has
        its sentence as stored: a word of a unit's name there ("Alice's Big boyz") is not read as the id of
        another unit ("boyz")."""
        units = self.after.units
        if not units or not text or all(editions.fixed(self.after, rule) for rule in NAMED):
            return text
        return ID.sub(lambda m: self.unit_name(m.group(0)) if m.group(0) in units else m.group(0), text)

    def seats(self, per_seat: Mapping[str, object]) -> str:
        """{'A': 2, 'B': 1} -> 'Alice 2, Bob 1'."""
        return ", ".join(f"{self.player(seat)} {value}" for seat, value in per_seat.items())


Namer = Callable[..., str]  # how a plain sentence names a field: (Words, its value[, the words its spec adds])


def number(value: int | Sized) -> int:
    """A count as a sentence says it: the number itself, or how many items a list or map holds."""
    return value if isinstance(value, int) else len(value)


NAMERS: dict[str, Namer] = {
    "player": lambda w, seat: w.player(seat), "unit": lambda w, uid: w.unit(uid),
    "unit_name": lambda w, uid: w.unit_name(uid), "units": lambda w, uids: w.units(uids),
    "sides": lambda w, uids: w.sides(uids), "names": lambda w, text: w.names(text),
    "humane": lambda w, name: humane(name), "inches": lambda w, distance: inches(distance),
    "faces": lambda w, values: faces(values), "listed": lambda w, items: listed(items),
    "name_only": lambda w, uid: w.unit_name(uid, owner=False),  # a unit whose owner the sentence named already
    "the": lambda w, name: the(name),  # {weapon:the}: "the Boltgun", "The Wolf Blade" (never "the The")
    "count": lambda w, items: str(len(items)),  # {dice:count}: "3"
    # {shots:plural shot}: "3 shots", {failures:plural die/dice}: "2 dice", {units:plural unit}: a list counted
    "plural": lambda w, count, one: plural(number(count), *one.split("/")),
    # {units:verb is/are}, {criticals:verb scores/score}: the verb agreeing with one or more
    "verb": lambda w, count, forms: forms.split("/")[0 if number(count) == 1 else 1],
}
AS_SAID = {"actor": lambda w: w.actor, "both": lambda w: w.both}  # what a plain sentence names beside its fields
EVENT = "event"  # the field that stands for the whole event: {event:attack} is attack(w, d)


@dataclass(frozen=True, slots=True)
class Plain:
    """A sentence that names its event's fields and says nothing else: a format string read from the event's
    data, each field named as its spec says, by a namer (a key of `namers`, `NAMERS` and the module's own).

    - "{unit:unit} was destroyed" is f"{w.unit(d['unit'])} was destroyed"; a field with no spec ("{remaining}")
      is said as it is, "{actor}" and "{both}" as `Words` names them.
    - Words after the namer's name are its argument: "{shots:plural overwatch shot}" is `plural(d['shots'],
      "overwatch shot")`, "{sub_phase:step this phase}" names the step or says "this phase" where none is named.
    - "{event:attack}" hands the namer the whole event, for a name read from several fields (`attack(w, d)`:
      "the Boltgun of Alice's Vets against Bob's Boyz").
    - A field the event leaves out (`NotRequired`) is None to its namer ("{reason:because}" says nothing then).

    A sentence whose words change with a value keeps that condition in one namer ("{criticals:verb
    scores/score}"); a kind whose sentence changes is chosen among plain ones (`Chosen`); one that is more than
    its fields named (a list built from them) is a function (`Texts.says`). tests/unit/test_plain_texts.py holds
    each field to its kind's payload type and each spec to a namer that takes its words."""

    words: str
    namers: Mapping[str, Namer]

    def __call__(self, w: Words, d: Mapping[str, Any]) -> str:
        return _Naming(w, self.namers).vformat(self.words, (), d)

    def fields(self) -> list[tuple[str, str]]:
        """(field, spec) of every field the sentence names: what a test holds to the kind's payload type."""
        return [(field, spec or "") for _, field, spec, _ in string.Formatter().parse(self.words) if field]


@dataclass(frozen=True, slots=True)
class Chosen:
    """A kind's sentence chosen among plain ones (`Plain`) by what `by` reads of its event, its one condition:
    the sentence under its answer, or under "else" where there is none."""

    by: Callable[[Any], object]
    sentences: Mapping[object, Plain]

    def __call__(self, w: Words, d: Mapping[str, Any]) -> str:
        answer = self.by(d)
        return (self.sentences[answer] if answer in self.sentences else self.sentences["else"])(w, d)


class _Naming(string.Formatter):
    def __init__(self, w: Words, namers: Mapping[str, Namer]) -> None:
        self.w, self.namers = w, namers

    def get_value(self, key: int | str, args: Any, kwargs: Mapping[str, Any]) -> Any:
        if key == EVENT:
            return kwargs
        return AS_SAID[key](self.w) if key in AS_SAID else kwargs.get(str(key))

    def format_field(self, value: Any, format_spec: str) -> str:
        if not format_spec:
            return format(value)
        namer, _, words = format_spec.partition(" ")
        return self.namers[namer](self.w, value, *([words] if words else []))


def fallback(words: Words) -> str:
    """The sentence of a kind no ruleset gives a text (a plugin's own kind it left without one)."""
    return f"{words.actor[:1].upper()}{words.actor[1:]}: {camel_words(words.entry['type'])}."


def sentence(text: str) -> str:
    """A text as a sentence: its first letter a capital, a full stop at its end."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."


def say(texts: Mapping[str, Text], words: Words) -> str:
    """The sentence of one event, by its kind's text (`fallback` where none is named)."""
    text = texts.get(words.entry["type"])
    return sentence(text(words, words.entry["data"]) if text is not None else fallback(words))
