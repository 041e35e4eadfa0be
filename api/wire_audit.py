"""What the audit and the analytics answer, as the OpenAPI document states it (api/wire.py's models of the rest).

Like api/wire.py's, these models document; they do not serialize: the projections build the JSON.
"""
from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field
from pydantic.json_schema import SkipJsonSchema

from warlog.api.schemas import Armour
from warlog.api.wire import Answer, Event, GameResult, Link, Seat, Seq, Version, absent

# -- the audit -------------------------------------------------------------------------------------------------


class RuleText(Answer):
    id: str
    section: str | None
    seed_file: str | None
    summary: str | None = Field(description="the rule in a line; null for an ID the catalogue does not know")


class RuleCatalogue(Answer):
    """GET /rules: every rule warlog cites."""

    rules: list[RuleText]


class RulesetCard(Answer):
    """One ruleset as a start page offers it."""

    name: str = Field(description="what `POST /games` takes as `ruleset`")
    title: str = Field(description="the game and editions it models")
    summary: str = Field(description="how it plays, in a line")
    rosters: bool = Field(description="it reads roster files (`POST /rosters/convert`, `POST /armies`)")


class RulesetList(Answer):
    """GET /rulesets: the rulesets a game may be played by."""

    rulesets: list[RulesetCard]


class SentRecord(Answer):
    """The request that made the event: the command as the service recorded it, who sent it, when."""

    command: dict[str, Any] | None = Field(description=(
        "the command as recorded: its `type` and every field of that command type, defaults filled in (a muster's "
        "is {type: muster, units: n}); null for the game's creation"))
    endpoint: str = Field(description="e.g. POST commands, POST undo, POST /games")
    by: Seat | None
    at: datetime
    action_seqs: list[int] = Field(description="every seq of the action it belongs to")
    action_link: Link


class Die(Answer):
    seat: Seat | None
    face: int
    sides: int
    counts: bool = Field(description="false for a die a re-roll replaced")
    rerolled: bool
    replaced: bool
    critical: bool


class Reroll(Answer):
    die: int = Field(description="the die's index in the batch")
    face: int
    replaced: bool


class SeatEntropy(Answer):
    A: str
    B: str


class DiceProof(Answer):
    """Server dice: everything a judge needs to re-derive the faces (CONTRACT.md "Server dice")."""

    counter: int
    dice_commitment: str | None
    game_id: str
    entropy: SeatEntropy
    derivation: str
    message_block_0: str
    server_seed: str | None = Field(description="revealed once the game has ended")
    verified: bool | None = Field(description="once revealed: whether the seed re-derives these faces")
    how_to_check: str


class AuditDice(Answer):
    purpose: str | None
    spec: str | None
    sides: int | None
    faces: list[int]
    total: int | None
    seat: Seat | None
    unit: str | None
    source: Literal["server", "table"]
    dice: list[Die]
    rerolls: list[Reroll]
    proof: DiceProof | SkipJsonSchema[None] = absent(description="server dice only")


class ProfileLine(Answer):
    """A model line as mustered, with the characteristics it states."""

    name: str | None
    count: int
    M: int | SkipJsonSchema[None] = absent()
    T: int | SkipJsonSchema[None] = absent()
    Sv: int | SkipJsonSchema[None] = absent()
    InSv: int | SkipJsonSchema[None] = absent()
    W: int | SkipJsonSchema[None] = absent()
    Ld: int | SkipJsonSchema[None] = absent()
    OC: int | SkipJsonSchema[None] = absent()
    BS: int | SkipJsonSchema[None] = absent()
    WS: int | SkipJsonSchema[None] = absent()
    I: int | SkipJsonSchema[None] = absent()  # noqa: E741 (the Initiative characteristic's name)
    A: int | SkipJsonSchema[None] = absent()
    hull_points: int | SkipJsonSchema[None] = absent()
    armour: Armour | SkipJsonSchema[None] = absent()


class UnitProfile(Answer):
    """A unit's characteristics as they stood when the event happened."""

    name: str | None
    owner: Seat
    keywords: list[str]
    abilities: list[str]
    Ld: int | None
    models: list[ProfileLine]
    statuses_at_muster: list[str]
    mustered_at: Link


class Attested(Answer):
    """A fact a seat attested (the table saw it), beside what the service judged."""

    by: str | None = Field(description="the seat that attested it")
    fact: str
    reason: str | SkipJsonSchema[None] = absent()
    service_reason: str | SkipJsonSchema[None] | None = absent()
    value: str | SkipJsonSchema[None] = absent(description="a distance measured at the table")
    faces: list[int] | SkipJsonSchema[None] = absent(description="dice rolled at the table")
    values: dict[str, Any] | SkipJsonSchema[None] = absent(description="the event's own fields, as attested")


class AuditFacts(Answer):
    characteristics: dict[str, UnitProfile] = Field(description="the units the event names, by unit id")
    used: dict[str, Any] = Field(description="the fields of the event's data the rule read (a subset of `data`)")
    attested: list[Attested]


class EventLink(Answer):
    seq: Seq
    type: str
    why: str
    link: Link


class EventAudit(Answer):
    """GET /audit/{seq}: why that event happened."""

    game_id: str
    seq: Seq
    link: Link
    event: Event
    sent: SentRecord
    rule: RuleText | None
    also: list[RuleText] = Field(description="the other rules it applies")
    dice: AuditDice | None
    facts: AuditFacts
    causes: list[EventLink] = Field(description="the earlier events it depends on, nearest reason first")
    undo_history: list[EventLink] = Field(description="the undo requests, answers, undos and redos that touched it")


class StoryEvent(Event):
    link: Link
    sent_by: Seat | None = Field(description="the seat whose request made it")


class RollBrief(Answer):
    seq: Seq
    purpose: str
    unit: str | None
    seat: Seat | None
    faces: list[int]
    total: int | None
    counter: int | None
    undone: bool
    link: Link


class ReplacedRoll(Answer):
    undone: RollBrief
    replaced_by: RollBrief | None


class Story(Answer):
    """GET /audit?unit=&seat=: a unit's or a seat's whole story."""

    game_id: str
    unit: str | None
    seat: Seat | None
    events: list[StoryEvent]
    undos: list[EventLink]
    replaced_rolls: list[ReplacedRoll]


# -- analytics -------------------------------------------------------------------------------------------------


class AnalyticsGame(Answer):
    game_id: str
    ruleset: str
    dice: Literal["server", "table"]
    created_at: datetime
    player_a: str | None
    player_b: str | None
    battle_rounds: int | None
    dice_commitment: str | None


class DiceLuck(Answer):
    """One seat's dice of one purpose against the exact distribution of their total."""

    sides: int
    dice: int = Field(description="the dice counted (standing, not undone)")
    faces: dict[str, int] = Field(description="how often each face came up, by face (\"1\" .. sides)")
    total: int
    expected_total: str = Field(description="the fair dice's mean total, a fraction such as 7/2")
    better: Literal["high", "low"]
    p_at_least_this_good: float | None
    luck_percentile: float | None = Field(description="mid-p percentile: 50 is average luck")
    method: Literal["exact", "normal approximation"] | None
    undone_dice: int
    rerolled_dice: int


class PassPointTally(Answer):
    earned: int
    spent: int


class UnitsDestroyed(Answer):
    count: int
    units: list[str]


class Luck(Answer):
    p_at_least_this_good: float
    luck_percentile: float


class AttackLuck(Answer):
    """One resolved attack (reference) against its own exact odds."""

    seq: Seq
    seat: Seat | None
    attacker: str
    target: str
    weapon: str
    wounds_lost: Luck | int = Field(description="the luck of the wounds it caused (the count itself where its odds "
                                                "are unsupported)")
    models_destroyed: Luck | int = Field(description="the luck of the models it destroyed (the count itself where "
                                                     "its odds are unsupported)")
    unsupported: str | SkipJsonSchema[None] = absent(description="why no exact odds are given")


class Analytics(Answer):
    """GET /analytics: luck, tempo and losses of this game."""

    game_id: str
    version: Version
    game: AnalyticsGame
    dice: dict[str, dict[str, DiceLuck]] = Field(description="by seat (\"-\": no seat), then by roll purpose")
    pass_points: dict[str, PassPointTally] = Field(description="by seat")
    activations: dict[str, dict[str, int]] = Field(description="units selected, by seat, then by phase")
    units_destroyed: dict[str, UnitsDestroyed] = Field(description="by the seat that lost them")
    attacks: list[AttackLuck]


class SeatSummary(Answer):
    """One seat's side of GET /summary (RULES.md MSN): its score, losses and gains by battle round, luck and time."""

    player: str = Field(description="the player's name")
    score: int = Field(description="its score as the game is scored (`scored_by`): VP, or the points it destroyed")
    vp: int = Field(description="victory points scored so far (0 where the game scores none)")
    vp_by_round: list[int] = Field(description="VP scored in each battle round, from round 1 (the round under way "
                                               "so far)")
    units_lost: int = Field(description="its units destroyed so far")
    models_lost: int = Field(description="its models destroyed so far")
    units_lost_by_round: list[int] = Field(description="its units destroyed in each battle round, from round 1")
    models_lost_by_round: list[int] = Field(description="its models destroyed in each battle round, from round 1")
    units_destroyed: int = Field(description="enemy units it destroyed")
    models_destroyed: int = Field(description="enemy models it destroyed")
    points_destroyed: int = Field(description="MSN.END.1: the points of the enemy units it destroyed (a unit's "
                                              "`points`, else 1 per model)")
    dice_rolled: int = Field(description="its dice that stand (not undone)")
    luck_percentile: float | None = Field(description=(
        "its dice luck: the analytics' mid-p percentiles of its roll purposes weighted by their dice; 50 is average "
        "luck, above 50 luckier; null with no die rolled"))
    time_used_s: float = Field(description="MSN.CLK.1: seconds the game waited for this seat, from the events' "
                                           "timestamps (paused while an undo request waited), with or without a clock")


class Summary(Answer):
    """GET /summary: the game's result and how it came about, per seat (CONTRACT.md "In the players' words")."""

    game_id: str
    ruleset: str
    version: Version
    status: Literal["setup", "in_progress", "ended"]
    battle_round: int
    battle_rounds: int
    scored_by: Literal["vp", "destroyed"] = Field(description=(
        "MSN.END.1: how the game is scored: vp where it has objectives (or its ruleset keeps a score), else the "
        "points of the enemy units destroyed"))
    result: GameResult | None = Field(description="the result once the game has ended, as `state.result`")
    text: str = Field(description="the result in a sentence (\"Bob won 45–30 on victory points (MSN.END.1)\"), or "
                                  "the score so far while the game is under way")
    seats: dict[Seat, SeatSummary]


ANSWERS: tuple[type[BaseModel], ...] = (EventAudit, Story, Analytics, Summary, RuleCatalogue, RulesetList)
