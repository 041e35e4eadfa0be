"""What the service answers, as the OpenAPI document states it: one model per shape on the wire.

These models document; they do not serialize. The routes answer the JSON the domain and the projections build
(CONTRACT.md fixes it), and the document says what that JSON is, so that a client generated from
`/openapi.json` (openapi-python-client, openapi-typescript, datamodel-code-generator) reads every answer as typed
values. `tests/e2e/test_answers_match_the_document.py` holds each answer of played games, and the answers
recorded by older code, to these schemas; schemathesis checks them against every answer it draws.

A field the answer leaves out where it does not apply is `X | SkipJsonSchema[None] = absent()`: optional,
never null. A field that is always there but may be null is `X | None` without a default.
"""
from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, RootModel
from pydantic.json_schema import SkipJsonSchema

from warlog.api.schemas import COMPONENTS, ModelLine, Options, Status, Unit
from warlog.api.sentences import HEX64
from warlog.domain.integrity import FORMS
from warlog.domain.rolls import Outcome
from warlog.domain.rules import registry
from warlog.domain.rules.results import By

Seat = Literal["A", "B"]
Hex64 = Annotated[str, Field(pattern=HEX64, description="a SHA-256 digest, 64 lower-case hex digits")]
Seq = Annotated[int, Field(ge=1, description="an event's seq: its place in the game log, from 1")]
Version = Annotated[int, Field(ge=1, description="the seq of the game's latest event (undone ones included)")]
Link = Annotated[str, Field(description="the path of an event's audit, /games/{game_id}/audit/{seq}")]
Damage = Literal[FORMS]  # type: ignore[valid-type]


def _no_default(schema: dict[str, Any]) -> None:
    schema.pop("default", None)


def absent(**kwargs: Any) -> Any:
    """A field left out where it does not apply: not required, never null (and no `default: null` stated)."""
    return Field(None, json_schema_extra=_no_default, **kwargs)


class Answer(BaseModel):
    """A JSON object the service builds with exactly these fields."""

    model_config = ConfigDict(extra="forbid")


class OpenAnswer(BaseModel):
    """A JSON object with these fields and, by design, possibly more (a ruleset's own, a problem's extensions)."""

    model_config = ConfigDict(extra="allow")


# -- the log ---------------------------------------------------------------------------------------------------


class EventData(RootModel[dict[str, Any]]):
    """The event type's own fields, as that event recorded them (CONTRACT.md "Reading"): strings, integers,
    booleans, null, lists and objects, never floats (a measured distance is a string such as "7.5"). Every roll
    event carries `spec`, `sides`, `faces`, `total` and `purpose` (server rolls their `counter` too); `ActionUndone`
    and `ActionRedone` carry `seqs`. Each of the service's event types has fields of its own, so this stays an
    object of them; `GET /audit/{seq}` explains one event's fields in words."""


class Event(Answer):
    """One entry of the hash-chained game log, the same in every answer and stream (CONTRACT.md "Reading")."""

    seq: Seq
    type: str = Field(description="the event type, e.g. PassPointSpent, RollMade, ActionUndone")
    at: datetime = Field(description="when the service stamped it: ISO-8601 UTC with milliseconds")
    by: Seat | None = Field(description="the seat whose request made it; null for the game's creation")
    rule: str | None = Field(description="the RULES.md rule it applies")
    data: EventData
    undone: bool = Field(description="whether the latest ActionUndone/ActionRedone naming it is an ActionUndone, as "
                                     "of this answer (a stream sends each event as appended: false). Not hashed")
    text: str = Field(title="What happened", description=(
        "the event as a player reads it, with the players' and units' names (\"Bob's Boyz (8 of 10) failed their "
        "battle-shock test: 3 on 2D6 against Ld 7.\"); each ruleset's sentences live beside its events. Not hashed"))
    prev_hash: Hex64 = Field(description="the previous event's hash (64 zeros for the first)")
    hash: Hex64 = Field(description="SHA-256 of the event's canonical JSON without `hash`, `undone` and `text`")
    request: Hex64 | SkipJsonSchema[None] = absent(
        description="SHA-256 of the canonical JSON of the request that made it (the command as sent, the seat, the "
                    "Idempotency-Key), hashed with the event; events stored before request digests have none")


class ActionAnswer(Answer):
    """A write's answer: the events this one action appended (CONTRACT.md "Commands", "Undo and redo")."""

    version: Version
    events: list[Event] = Field(description="the events this request appended, oldest first")
    view: State = Field(description=(
        "this seat's GET /state as it reads right after this write (`actions`, `anytime`, `undo_request` "
        "included), so a client needs no read after its own tap (CONTRACT.md \"One request a tap\"). An "
        "Idempotency-Key replay carries the view its first answer carried: the game as that write left it"))


class Unmapped(Answer):
    path: str = Field(description="where in the roster file, e.g. roster/forces/0/selections/3/profiles/2")
    what: str = Field(description="what could not be mapped there, or which convention was assumed")


class RosterImport(Answer):
    format: Literal["rosz", "ros", "json"]
    units: list[str] = Field(description="the ids of the units read from the file")
    unmapped: list[Unmapped]


class MusterAnswer(ActionAnswer):
    """The muster's answer (ArmyMustered); from a roster file also `import`: what was read and what was not."""

    import_: RosterImport | SkipJsonSchema[None] = absent(alias="import", description="a roster file's import")
    renamed: dict[str, str] = Field(description=(
        "unit ids of this army that the other army already uses (a mirror match), each renamed as the muster "
        "stored it: {\"assault-squad-1\": \"assault-squad-1-b\"} (then -b2, -b3, ... where that too is taken), its "
        "`embarked_in` and `leader_of` following; {} when nothing was renamed. The same army beside the same "
        "other army is renamed the same way every time; the ArmyMustered event records it as `renamed`"))


def roster_readers(schema: dict[str, Any]) -> None:
    """The rulesets that read roster files when the document is built, as the registry lists them."""
    from warlog.api.rosters import readers  # here: api/rosters reads the request models this module's read

    schema["enum"] = [name for name in registry.names() if name in readers()]


class RosterSummary(Answer):
    """What the roster says the list costs, read against the units converted."""

    points: int = Field(ge=0, description="the units' `points` summed (MSN.END.1 scores a game without objectives "
                                          "by the points destroyed)")
    stated_points: int | None = Field(description="the roster's own points total as the file states it (null where "
                                                  "it states none); where it differs from `points`, `unmapped` says so")
    costs: dict[str, float] = Field(description="the roster's other cost types by the name it writes (PL, CP, "
                                                "Detachment Points, a faction's own …): its stated totals, else "
                                                "its selections' sum")


class RosterConversion(Answer):
    """POST /rosters/convert: the roster file read as the contract's units, no game touched."""

    format: Literal["rosz", "ros", "json"]
    ruleset: str = Field(json_schema_extra=roster_readers)
    units: list[Unit] = Field(description="each with the `points` the roster gives it (null where none)")
    unmapped: list[Unmapped]
    summary: RosterSummary


class EventsPage(Answer):
    events: list[Event] = Field(description="oldest first, at most `limit` of them")
    last_seq: int = Field(ge=0, description="the game's latest seq, whatever the page holds")


# -- games -----------------------------------------------------------------------------------------------------


class Tokens(BaseModel):
    A: str = Field(description="seat A's token: reads the game and acts for seat A")
    B: str = Field(description="seat B's token")
    spectator: str = Field(description="reads only (late by `spectator_delay_s`, if set)")


class CreatedGame(BaseModel):
    """POST /games's answer (serialized through this model: the service keeps to its fields)."""

    game_id: str = Field(description="the game's id (a UUID)")
    version: Version
    tokens: Tokens
    dice_commitment: str | None = Field(description="server dice: sha256 of the secret seed, 64 hex digits; null "
                                                    "at a table-dice game")


# -- the state -------------------------------------------------------------------------------------------------


class SeatCounts(Answer):
    A: int
    B: int


class SeatFlags(Answer):
    A: bool
    B: bool


class SeatNames(Answer):
    A: str
    B: str


class AwaitedRoll(Answer):
    """A roll the game waits for (CONTRACT.md "Dice"): that seat answers `{"type": "roll", "dice": [...]}`."""

    purpose: str = Field(description="what it decides, e.g. battle_shock, charge, regroup, hit")
    unit: str | None = Field(description="the unit it is for")
    spec: str = Field(description="the dice expression, e.g. 2D6")
    rule: str = Field(description="the RULES.md rule that calls for it")


class QueuedRoll(AwaitedRoll):
    """A roll triggered and waiting its turn (CORE.SEQ.1); the first is the one `awaiting` names."""

    seat: Seat


class AttackChoice(Answer):
    """Reference: an attack paused for a Command Re-roll or for the defender's choice of group."""

    step: str = Field(description="the attack step paused: hit, wound, save, damage or hazard")
    batch: list[int] | None = Field(description="the faces of the batch a Command Re-roll may re-roll from")
    choices: list[int] = Field(description="what may be chosen: dice indices (command_reroll) or model line indices "
                                           "(allocate)")


class Awaiting(OpenAnswer):
    """Who must act and how (CONTRACT.md "Reading"). A ruleset's own prompt may carry fields of its own."""

    seat: Seat | None = Field(description="who must act; null when either seat may (start_game, roll_off) or while "
                                          "both still have to (confirm_count)")
    action: str = Field(description="the type of an offered action whenever it names a seat: start_game, roll_off, "
                                    "choose_order, confirm_count, select, roll, end_phase, a ruleset's own prompt "
                                    "(react, pile_in, consolidate, ...), or none once the game has ended")
    unit: str | SkipJsonSchema[None] | None = absent(description="the unit the prompt is about")
    rule: str | SkipJsonSchema[None] = absent(description="the rule that prompts it")
    reaction: str | SkipJsonSchema[None] = absent(description="a reaction window's kind (overwatch, move, "
                                                              "snap_shots)")
    against: str | SkipJsonSchema[None] = absent(description="the enemy unit a reaction answers")
    roll: AwaitedRoll | SkipJsonSchema[None] = absent(description="`action` roll: the roll awaited")
    choice: AttackChoice | SkipJsonSchema[None] = absent(description="reference: a paused attack's choice")
    text: str = Field(description=(
        "what the game waits for in a sentence, to the reader: \"The game waits for you to roll 2D6 for a charge.\" "
        "to the awaited seat, the players by name to the other seat and to a spectator (\"The game waits for Bob to "
        "end the phase.\")"))


PHASE_TITLE = ("where the game is, as the rules name it: \"Move Units (Movement phase)\", \"Command phase\"; null "
               "before the first phase")


class LastRoll(Answer):
    """A roll, and what it means (CONTRACT.md "Rolls that say what they mean"): the four last fields are null
    where the roll's event was logged before rolls said so."""

    seq: Seq
    purpose: str
    faces: list[int]
    total: int | None
    seat: Seat | None
    unit: str | None
    needed: int | None = Field(description="the face each die must reach, or the total the roll must reach; "
                                           "null when none")
    outcomes: list[Outcome] | None = Field(
        description="one per face: success, critical, fail, rerolled (a roll-off tied: rolled again) or unused "
                    "(nothing reads it)")
    successes: int | None = Field(description="the dice that succeeded; null when the roll counts none (a free "
                                              "roll, a total)")
    text: str | None = Field(description='the outcome in a sentence: "Hit roll: 4 hits of 12 at 3+, 2 of them '
                                         'critical"')
    purpose_title: str = Field(description='what the roll is for, as the rules call the roll: "hit rolls", "a '
                                           'Desperate Escape", "Feel No Pain against mortal wounds"')


class RoundHead(Answer):
    """The head recorded at the end of a battle round: keep it, and `GET /verify?head=` tells whether the log still
    extends it."""

    battle_round: int
    seq: int
    head_hash: Hex64


class GameResult(Answer):
    """How the game ended (RULES.md MSN): who won or a draw, how it was decided, the score and the rule."""

    reason: str = Field(description="why the game ended: battle_rounds, concede, wipeout or time")
    winner: Seat | None = Field(description="the seat that won; null at a draw")
    draw: bool = Field(description="true when neither seat won (MSN.END.1: equal scores; MSN.END.2: both wiped out)")
    by: By = Field(
        description="what decided it: vp or destroyed after the last battle round (MSN.END.1), wipeout "
                    "(MSN.END.2), concession (MSN.END.3), time (MSN.CLK.1)")
    score: SeatCounts = Field(description="each seat's score as it stood: VP where the game has objectives, "
                                          "else the points of the enemy units destroyed (MSN.END.1)")
    rule: str = Field(description="the rule that decided the result, e.g. MSN.END.1")
    how: str = Field(description="how it was decided, in words: 'Decided on victory points', 'Decided by concession'")


class SeatClock(Answer):
    """MSN.CLK.1: one seat's chess clock."""

    used_s: float = Field(description="seconds of this seat's time used, up to the latest event (`since`)")
    left_s: float = Field(description="seconds left of `options.clock_minutes`, at the latest event")
    out: bool = Field(description="its time has run out (with `options.clock_loses` it loses at the end of its "
                                  "current action)")
    running: bool = Field(description="its time runs now: the game waits for this seat")
    since: str | None = Field(description="while `running`, the time its clock runs from (the latest event's "
                                          "`at`): a client ticks `used_s` and `left_s` on from it; else null")


class SeatClocks(Answer):
    A: SeatClock
    B: SeatClock


class EffectSince(Answer):
    battle_round: int
    phase: str | None


class UnitEffect(Answer):
    """CORE.PER.1/2 (reference): what lasts a while on a unit, since when and until when."""

    effect: str
    by: Seat
    until: str = Field(description="end_of_phase, end_of_turn, end_of_battle_round or start_of_next_turn")
    until_title: str = Field(description='how long it lasts, in words: "until the start of Bob\'s next turn"')
    since_seq: Seq
    since: EffectSince


class ModelLineStanding(ModelLine):
    """A model line as it stands: its profile as mustered, and what is left of it."""

    alive: int = Field(title="Alive", description="models of the line still alive, of its `count`")
    wounds_left: int | None = Field(title="Wounds left", description="wounds left on its wounded model; null when "
                                                                      "none of its models is wounded")


class WeaponSheet(Answer):
    """A weapon as the unit's datasheet prints it."""

    name: str
    type: Literal["ranged", "melee"]
    kind: Literal["rapid_fire", "heavy", "assault", "pistol", "salvo"] | None
    keywords: list[str]
    profile: dict[str, str] = Field(description=(
        "its characteristics in the players' notation, in datasheet order, each only where the roster states it: "
        "\"Range\" ('24\"' or \"Melee\"), \"A\" (attacks, a dice expression), \"BS\" or \"WS\" (\"3+\"), "
        "\"S\", \"AP\" (\"-1\"), \"D\" (damage, a dice expression)"))


class StatusDetail(Answer):
    """A status a unit has, in words, and how long it lasts."""

    status: Status
    title: str = Field(description='the status as the rules say a unit is it, e.g. "Battle-shocked", "Locked in '
                                   'Combat", "Gone to Ground"')
    until: str = Field(description="how long it lasts, e.g. \"until the end of the turn\"")
    rule: str = Field(description="the RULES.md rule that ends it")


class UnitState(Answer):
    """One unit as the table stands (CONTRACT.md "Reading"), with its datasheet ("In the players' words")."""

    owner: Seat
    name: str
    models_alive: int
    starting_strength: int = Field(description="CORE.STR.1")
    strength: Literal["full", "below_starting", "half", "below_half", "destroyed"] = Field(description="CORE.STR.2")
    strength_title: str = Field(description='`strength` as a player says the unit is (CORE.STR.2): "at full '
                                            'strength", "below its starting strength", "at half strength", "below '
                                            'half strength", "destroyed"')
    wounds_lost: int = Field(description="wounds lost by its wounded model")
    statuses: list[Status]
    selected: bool = Field(description="picked in the current sub-phase")
    eligible: bool = Field(description="may be selected now")
    in_reserves: bool
    arriving: bool
    embarked_in: str | None
    engaged_with: list[str] = Field(description="the enemy units it is engaged with (heresy: Locked in Combat with), "
                                                "as its army named them or a charge or a fight made them; both sides "
                                                "name each other")
    action: str | None = Field(description="reference: the action it started this turn (RS.CMD.3)")
    effects: list[UnitEffect]
    keywords: list[str]
    abilities: list[str]
    models: list[ModelLineStanding] = Field(description="its model lines: profile, models alive, a wounded model's "
                                                        "wounds left")
    weapons: list[WeaponSheet] = Field(description="its weapons with their profiles and keywords")
    leader_of: str | None = Field(description="the unit it leads (attached to), if any")
    led_by: str | None = Field(description="the unit leading it, if any")
    status_details: list[StatusDetail] = Field(description="each of `statuses` in words, with how long it lasts")
    points: int | None = Field(description="what its army list says it costs (MSN.END.1 scores a destroyed unit by "
                                           "it); null where the army does not say")


class CommandSchema(RootModel[dict[str, Any]]):
    """A JSON Schema (2020-12) of a whole command body, in the contract's subset ("Legal actions"): type,
    properties, required, additionalProperties, const, enum, minimum, maximum, minLength, maxLength, items,
    minItems, maxItems, uniqueItems, title, description, and a choice with titles: `oneOf` of entries holding
    only `const` and `title` (the value sent, what a player reads), with `format` saying what it names (unit,
    weapon, seat, objective, model_line, die: a die of `last_roll` by its index). Every field has a `title`, its
    label. A schema, not a value: hand it to a JSON Schema validator or form renderer. Any instance of it, sent
    at once by this seat, is accepted."""


class ActionOffered(Answer):
    """One command this seat may send now (CONTRACT.md "Legal actions")."""

    type: str = Field(description="the command type")
    rule: str = Field(description="the RULES.md rule it follows")
    title: str = Field(description="its button, in the players' words (\"Shoot\")")
    summary: str = Field(description="one line a player reads")
    body_schema: CommandSchema = Field(alias="schema")


class ObjectiveMarker(Answer):
    """An objective marker of the game (EXT.OBJ.1, MSN.OBJ.1)."""

    id: str = Field(description="what a command names it by (its name in `options.objectives`)")
    name: str = Field(description="what a player reads: \"Objective 2 (centre)\"")


class State(Answer):
    """GET /state: the current-phase projection (CONTRACT.md "Reading")."""

    game_id: str
    ruleset: str
    version: Version
    status: Literal["setup", "in_progress", "ended"]
    battle_round: int
    active_seat: Seat | None = Field(description="null in the joint turns of alternating")
    phase: str | None
    sub_phase: str | None
    phase_title: str | None = Field(description=PHASE_TITLE)
    awaiting: Awaiting
    pass_points: SeatCounts
    declared_done: SeatFlags
    cp: SeatCounts
    dice: Literal["server", "table"]
    players: SeatNames
    options: Options
    dice_commitment: str | None
    mustered: SeatFlags
    result: GameResult | None
    last_roll: LastRoll | None = Field(description="the latest roll (a free roll left out)")
    queue: list[QueuedRoll] = Field(description="CORE.SEQ.1: rolls triggered at once, in order; `awaiting` is the "
                                                "first")
    round_heads: list[RoundHead]
    units: dict[str, UnitState] = Field(description="every unit of both armies, by unit id")
    vp: SeatCounts | SkipJsonSchema[None] = absent(description="victory points scored so far, where the ruleset "
                                                               "keeps them (reference: EXT.VP.1) or the game scores "
                                                               "objectives (MSN.OBJ.1)")
    objectives: list[ObjectiveMarker] | SkipJsonSchema[None] = absent(
        description="the game's objective markers (`options.objectives`), in every ruleset; absent without them")
    clock: SeatClocks | SkipJsonSchema[None] = absent(description=(
        "MSN.CLK.1, with `options.clock_minutes`: each seat's time used and left, from the events' timestamps "
        "(paused while an undo request waits); left out of a game without a clock"))
    actions: list[ActionOffered] = Field(description=(
        "what this seat may send now that moves the game on; a command that is no instance of one of these schemas "
        "is refused. Empty for a spectator, a past state (`?at=`) and while an undo request waits"))
    anytime: list[str] = Field(description=(
        "the command types (and the endpoints undo, redo, approve, reject, withdraw, and muster: POST /armies in "
        "set-up) open now besides `actions`, judged by their own rules: free_roll, record_casualties, set_status, "
        "concede, add_entropy in set-up, the ruleset's record-only commands"))
    records: list[ActionOffered] = Field(description=(
        "forms for the record-only commands of `anytime` (casualties, statuses, the ruleset's own), so a client need "
        "not know their shapes; judged by their own rules, not by these schemas"))
    undo_request: PendingUndo | None = Field(None, json_schema_extra=_no_default, description=(
        "the undo request waiting for an answer (SVC.UNDO.PENDING: commands wait meanwhile), and whether this "
        "token's seat answers it (`approve`/`reject` in `anytime`; the seat that asked has `withdraw`); null when "
        "none waits. Left out of a past (`?at=`) or delayed state"))


# -- undo ------------------------------------------------------------------------------------------------------


class UndoNext(Answer):
    seqs: list[int] = Field(description="the seqs of the latest action not yet undone")
    action_by: Seat
    rolled_dice: bool
    needs_consent: bool = Field(description="true: POST /undo answers 202 and the other seat must approve")


class RedoNext(Answer):
    seqs: list[int]
    allowed: bool = Field(description="whether this token's seat may redo it")


class PendingUndo(Answer):
    requested_by: Seat
    seqs: list[int]
    you_answer: bool = Field(description="whether this token's seat approves or rejects it")


class UndoPreview(Answer):
    """GET /undo: what POST /undo and POST /redo would do now, for this token."""

    version: Version
    undo: UndoNext | None
    redo: RedoNext | None
    pending_request: PendingUndo | None


# -- the chain's check -----------------------------------------------------------------------------------------


class VerifyReport(Answer):
    """GET /verify: always this report (200), damaged or not (CONTRACT.md "Reading")."""

    chain_ok: bool = Field(description="false for every form of SVC.DAMAGED")
    events: int = Field(ge=0, description="the events checked")
    head_hash: Hex64 = Field(description="the hash of the latest event checked")
    first_bad_seq: int | None = Field(description="where the log is damaged")
    dice_ok: bool | None = Field(description="once the game has ended: whether every server roll re-derives from "
                                             "the revealed seed; null before")
    server_seed: Hex64 | None = Field(description="revealed once the game has ended")
    commands_ok: bool | None = Field(description="whether every stored request, played again, makes exactly the "
                                                 "events stored with it (null when the chain is broken)")
    first_unmatched_seq: int | None = Field(description="the first stored request that does not")
    commands_mismatch: str | SkipJsonSchema[None] = absent(description="why that request does not match")
    damage: Damage | SkipJsonSchema[None] = absent(description="the form of the damage, when chain_ok is false")
    detail: str | SkipJsonSchema[None] = absent(description="why it is damaged, when chain_ok is false")
    head: Hex64 | SkipJsonSchema[None] = absent(description="with ?head=: the head hash asked about")
    head_seq: int | SkipJsonSchema[None] | None = absent(description="with ?head=: the seq of that hash in the log")
    extends_head: bool | SkipJsonSchema[None] = absent(description="with ?head=: whether the log still extends it")


# -- the overlay -----------------------------------------------------------------------------------------------


class UnitsLost(Answer):
    A: list[str]
    B: list[str]


class OverlayRoll(LastRoll):
    """The newest roll as the overlay draws it: as GET /state's `last_roll` shows a roll, and its unit by name."""

    unit_name: str | None = Field(description="the unit it is for as the players name it (\"Boyz 2\" where a "
                                              "player has two Boyz); null where it is for none")


class OverlayResult(GameResult):
    """How the game ended, and the sentence the event that ended it says (its `text`)."""

    text: str | None = Field(description='the `GameEnded` event\'s `text`: "Bob conceded: Alice won (MSN.END.3)."')


class Overlay(Answer):
    """What a stream overlay draws."""

    game_id: str
    version: Version
    status: Literal["setup", "in_progress", "ended"]
    players: SeatNames
    battle_round: int
    battle_rounds: int | None
    phase: str | None
    sub_phase: str | None
    phase_title: str | None = Field(description=PHASE_TITLE)
    active_seat: Seat | None
    whose_go: Seat | None = Field(description="null when either seat may act")
    awaiting: str = Field(description="the state's `awaiting.action`")
    awaiting_text: str = Field(description="what the game waits for in a sentence, the players by name (as a "
                                           "spectator reads the state's `awaiting.text`)")
    pass_points: SeatCounts
    cp: SeatCounts
    vp: SeatCounts | SkipJsonSchema[None] = absent(description="victory points so far, where the game scores "
                                                               "them (as GET /state's `vp`); absent elsewhere")
    last_roll: OverlayRoll | None = Field(description="the newest roll, a free roll included: its faces, "
                                                      "`outcomes` (one a face), `needed`, `successes` and `text`")
    units_destroyed: UnitsLost = Field(description="unit ids, by the seat that lost them")
    units_destroyed_names: UnitsLost = Field(description="the same units by name, in the same order")
    result: OverlayResult | None = Field(description="null until the game has ended")


# -- refusals --------------------------------------------------------------------------------------------------


class Problem(OpenAnswer):
    """Every refusal and failure: RFC 9457 application/problem+json (CONTRACT.md "Conventions")."""

    type: str = Field(description="https://warlog.dev/problems/<kind>; a race lost ends in /conflict")
    title: str
    status: int = Field(ge=400, le=599)
    detail: str = Field(description="what is wrong and what to fix, in a sentence in the players' words (a capital "
                                    "or a backquoted name first, a full stop last; no type names)")
    rule: str | SkipJsonSchema[None] = absent(description="the rule that refused it")
    field: str | SkipJsonSchema[None] = absent(description=(
        "where one field is at fault: the JSON pointer (RFC 6901) of the body's field, as the body holds it "
        "(`/dice/0`, `/units/2/models/0/count`; for a roster file, its path in the roster: `/roster/forces/0`); or "
        "the name of the query parameter or header at fault (`after`, `Idempotency-Key`), which never begins with "
        "`/`. Absent where the body as a whole is at fault (not JSON, not a roster); where several fields are, "
        "the first of them (the detail names up to three)"))
    first_bad_seq: int | SkipJsonSchema[None] = absent(description="SVC.DAMAGED: the first seq whose stored event "
                                                                   "(or snapshot) fails the check")
    damage: Damage | SkipJsonSchema[None] = absent(description="SVC.DAMAGED: the form of the damage")


ANSWERS: tuple[type[BaseModel], ...] = (
    Event, ActionAnswer, MusterAnswer, RosterConversion, EventsPage, CreatedGame, State, UndoPreview, VerifyReport,
    Overlay, Problem)  # and api/wire_audit.py's ANSWERS


def answer(model: type[BaseModel], description: str, status: int = 200) -> dict[int | str, dict[str, Any]]:
    """A route's `responses` entry for an answer of `model` (its component, written in by api/openapi.py)."""
    return {status: {"description": description,
                     "content": {"application/json": {"schema": {"$ref": COMPONENTS + model.__name__}}}}}
