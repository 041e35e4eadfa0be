"""The payload of each kind of event (its `data`), one `TypedDict` a kind: what the event records, key by key.

An event's data stays the JSON dict it was logged as (what the hash chain covers, byte for byte): these types say
what it holds, for the appliers that read it (`data: events.UnitSelected`) and for mypy, and
`tests/golden/test_event_payloads.py` holds every event of the golden logs and of new games to them (pydantic,
strict, no key they do not name). `NotRequired` marks a key some events of the kind carry and others do not (a
ruleset's own, or one written only in some cases; a roll event's `needed`, `outcomes`, `successes` and `text`,
domain/rolls.py, which the events logged before rolls said what they mean lack). `JSONObject` is JSON whose shape is another module's (an attack's
profile, `attacks.profile.to_data`; a roll request's context): the JSON boundary, said so.
"""


from typing import Any, NotRequired, TypeAlias

from typing_extensions import TypedDict

from warlog.domain.state.units import Status

JSONObject: TypeAlias = dict[str, Any]  # JSON of a shape another module owns (the JSON boundary)
JSONValue: TypeAlias = Any  # a JSON value of any kind (an empty list the log cannot type)


class Entry(TypedDict):
    """One entry of the game log as it is hashed and stored (CONTRACT.md "Reading"; the answers add `undone`):
    its `data` is its kind's payload, as JSON."""

    seq: int
    type: str
    at: str
    by: str | None
    rule: str | None
    data: JSONObject
    prev_hash: str
    hash: str
    request: NotRequired[str]


class ModelLines(TypedDict):
    """A unit's model lines after an attack: models alive and the wounds one model of each has taken."""

    alive: list[int]
    taken: list[int]


class Meta(TypedDict, total=False):
    """What the store keeps beside an entry, outside the hash chain (integrity.py checks it against the chain):
    the game's secrets on its creation, then for each event the request that made it."""

    seed: str  # GameCreated: the server dice's seed (hex), revealed when the game ends
    tokens: dict[str, str]  # GameCreated: each role's token digest
    kind: str  # "action", "control" (undo and its answers) or "restore" (an undo's or redo's state)
    starts: bool  # the first event of its request
    continues: bool  # a later event of the same request
    sent_by: str  # the seat that sent the request (a roll's `by` is the roller)
    command: dict[str, Any]  # the command as sent, typed back (commands.as_data)
    key: str  # "seat:Idempotency-Key"
    body: str  # the digest of the request's body
    status: int  # the answer's status
    endpoint: str  # the endpoint a key belongs to
    state: dict[str, Any]  # a restore: the state restored, as JSON
    undone_by: str  # ActionUndone: the seat that undid it


class AttackIds(TypedDict):
    """The attack an event is part of (the attack driver's, domain/attacks/driver.py): who attacks whom, with
    which weapon."""

    attacker: str
    target: str
    weapon: str


class AttackStep(AttackIds):
    """An event of one step of an attack (`step`: the attack module's Need.step or Decision.step)."""

    step: str


class AttackRoll(TypedDict):
    """An attack under way, as the driver carries it from roll to roll (a roll request's `attack_roll`, a
    pause's): its ids, its profile (`attacks.profile.to_data`), the batches rolled, the decisions recorded, the
    faces of a batch still being rolled, and (heresy) what follows it."""

    attack: AttackIds
    profile: JSONObject
    batches: list[list[int]]
    decided: int
    faces: list[int]
    then: NotRequired[JSONObject | None]


class RollSaid(TypedDict):
    """What a roll means (CONTRACT.md "Rolls that say what they mean", domain/rolls.py): each face's outcome, the
    successes (null for a roll that counts none) and the outcome in a sentence. NotRequired: the events logged
    before rolls said what they mean lack them, and stay as they were."""

    outcomes: NotRequired[list[str]]
    successes: NotRequired[int | None]
    text: NotRequired[str]


class RollNeeded(RollSaid):
    """A roll event's words with `needed`, the face each die must reach or the total the roll must reach (null:
    none), for a kind that did not log it before."""

    needed: NotRequired[int | None]


class ActionRedone(TypedDict):
    seqs: list[int]


class ActionUndone(TypedDict):
    seqs: list[int]
    action_by: NotRequired[str]
    requested_by: NotRequired[str]
    approved_by: NotRequired[str]


class ArmyMustered(TypedDict):
    seat: str
    units: list[JSONObject]
    renamed: NotRequired[dict[str, str]]  # ids the other army already used, renamed: {sent: as mustered}


class AttackDeclared(AttackIds):
    models: int
    phase: str
    within_half_range: bool
    abilities: NotRequired[list[str]]
    profile: JSONObject
    facing: NotRequired[str | None]
    snap_shots: NotRequired[bool]
    tables: NotRequired[str]


class AttackResolved(AttackIds):
    hits: int
    wounds: int
    failed_saves: int
    mortal_wounds: NotRequired[int]
    wounds_lost: int
    models_destroyed: int
    lines: dict[str, ModelLines]
    hull_points_lost: NotRequired[int]
    armour_value: NotRequired[int]
    damage_table: NotRequired[str]
    ended: NotRequired[str]  # RS.ATK.4/fallen: why it ended before its last step ("destroyed": its target)


AttackCounted: TypeAlias = AttackDeclared | AttackResolved  # what a fight under way counts (heresy)


class AttacksRolled(AttackStep):
    attacks: int
    models: int
    per_model: list[str]
    rules: NotRequired[list[str]]


class BattleRoundEnded(TypedDict):
    battle_round: int
    head_hash: str


class BattleRoundStarted(TypedDict):
    battle_round: int


class CasualtiesRecorded(TypedDict):
    unit: str
    models: int
    wounds: int
    attested_by: NotRequired[str]
    reason: NotRequired[str]
    lines: NotRequired[ModelLines]  # the model lines the wounds recorded leave (CORE.STR.2, edition 3)
    wounds_lost: NotRequired[int]  # the wounds its wounded model has lost after (edition 3): the unit's counter


class ChargeDeclared(TypedDict):
    unit: str
    seat: str
    targets: list[str]
    distance: NotRequired[str]
    overwatch_by: NotRequired[list[str]]
    moved: NotRequired[str]


class ChargeResolved(TypedDict):
    unit: str
    targets: list[str]
    distance: str | None
    total: int | None
    success: bool
    reason: NotRequired[str]


class ChargeRolled(TypedDict):
    unit: str
    seat: NotRequired[str]
    total: int
    rerolled: NotRequired[bool]
    rerollable: NotRequired[bool]
    target: NotRequired[str]
    distance: NotRequired[str]
    reached: NotRequired[bool]


class DamageInflicted(AttackStep):
    line: int
    damage: list[int]
    wounds_lost: int
    models_destroyed: int
    feel_no_pain_dice: int
    group_destroyed: bool
    rules: NotRequired[list[str]]


class DiceRolled(RollNeeded):
    purpose: str
    spec: str
    sides: int
    counter: NotRequired[int]
    faces: list[int]
    total: int
    seat: str
    unit: str | None
    awaited: NotRequired[bool]
    free: NotRequired[bool]


class EntropyAdded(TypedDict):
    seat: str
    entropy: str


class GameCreated(TypedDict):
    game_id: str
    ruleset: str
    players: dict[str, str]
    dice: str
    options: JSONObject
    dice_commitment: str | None
    token_commitments: dict[str, str]
    edition: NotRequired[int]  # the rules' edition (rules/editions.py); absent: 1


class GameEnded(TypedDict):
    reason: str
    winner: str | None
    server_seed: str | None
    # the result whole (rules/results.py); absent from a game created before results were judged (editions)
    draw: NotRequired[bool]
    by: NotRequired[str]
    score: NotRequired[dict[str, int]]
    rule: NotRequired[str]


class GameStarted(TypedDict):
    starting_strength: dict[str, int]


class HazardousRolled(AttackStep, RollNeeded):
    dice: list[int]
    ones: int
    models_destroyed: int
    mortal_wounds: int


class HitsScored(AttackStep, RollSaid):
    attacks: int
    dice: list[int]
    rerolled: list[int]
    needed: int
    modifier: int
    hits: int
    criticals: int
    automatic: bool


class OrderChosen(TypedDict):
    sub_phase: str
    first: str


class PhaseEnded(TypedDict):
    phase: str
    sub_phase: str | None
    active_seat: str


class ReserveArrived(TypedDict):
    unit: str
    move: NotRequired[str]
    attested_by: NotRequired[str]
    seat: NotRequired[str]
    from_edge: NotRequired[bool]
    removed: NotRequired[int]
    rush: NotRequired[bool]
    distance: NotRequired[str]
    allowance: NotRequired[int]
    near: NotRequired[list[str]]
    difficult: NotRequired[bool]
    dangerous: NotRequired[int]
    coherency_lost: NotRequired[bool]
    clear: NotRequired[bool]


class ReserveArriving(TypedDict):
    unit: str
    total: NotRequired[int]
    needed: NotRequired[int]
    ongoing: NotRequired[bool]


class ReserveDelayed(TypedDict):
    unit: str
    total: int
    needed: int


class RollOff(RollNeeded):
    purpose: str
    sub_phase: str
    spec: str
    sides: int
    faces: list[int]
    dice: dict[str, int]
    winner: str | None
    tie: bool
    counter: NotRequired[int]


RollOffNeeded = TypedDict("RollOffNeeded", {"sub_phase": str | None, "choice": bool, "for": NotRequired[str]})


class RollRequested(TypedDict):
    seat: str
    purpose: str
    spec: str
    rule: str
    unit: str
    context: JSONObject


class SavesRolled(AttackStep, RollSaid):
    line: int
    model: str
    dice: list[int]
    saved: int
    failed: int
    Sv: int
    InSv: int | None
    AP: int
    needed: int


class StatusGained(TypedDict):
    unit: str
    status: Status
    reason: str
    attested_by: NotRequired[str]
    foe: NotRequired[str]


class StatusLost(TypedDict):
    unit: str
    status: Status
    reason: str
    attested_by: NotRequired[str]


class StepStarted(TypedDict):
    phase: str
    sub_phase: str | None
    active_seat: str | None
    pos: int
    settled: bool
    pass_points: bool


StrengthChanged = TypedDict("StrengthChanged", {
    "unit": str,
    "from": str,
    "to": str,
    "models_alive": int,  # CORE.STR.2/attached: with its leader or bodyguard's, as the band counts them
    "starting_strength": int,
    "attached": NotRequired[str],  # the leader or bodyguard it is one unit with (CORE.STR.1), where it stood
})


class UndoRequested(TypedDict):
    seqs: list[int]
    action_by: str
    reason: str


class UndoRejected(TypedDict):  # SVC.UNDO.CONSENT: the other seat refused the request
    seqs: list[int]
    requested_by: str
    rejected_by: str


class UndoWithdrawn(TypedDict):  # SVC.UNDO.CONSENT: the seat that asked took its request back
    seqs: list[int]
    requested_by: str


class UnitDestroyed(TypedDict):
    unit: str


class UnitDisembarked(TypedDict):
    unit: str
    transport: str
    reason: NotRequired[str]


UnitSelected = TypedDict("UnitSelected", {
    "unit": str,
    "act": NotRequired[bool],
    "sub_phase": NotRequired[str],
    "seat": str,
    "distance": NotRequired[str],
    "phase": NotRequired[str],
    "move": NotRequired[str],
    "shooting": NotRequired[str],
    "fight": NotRequired[str],
    "escape": NotRequired[str],
    "pile_in": NotRequired[str],
    "attested": NotRequired[list[str]],
    "with": NotRequired[list[str]],
})


class WoundsScored(AttackStep, RollSaid):
    dice: list[int]
    rerolled: list[int]
    needed: int
    modifier: int
    critical_on: int
    S: int
    T: int | None
    wounds: int
    criticals: int
    lethal: int
    devastating: int
    to_save: int
    precision: int
    tables: NotRequired[str]
    AV: NotRequired[int]
    penetrating: NotRequired[int]
    glancing: NotRequired[int]
    rules: NotRequired[list[str]]


class StepSkipped(TypedDict):
    sub_phase: str | None
    reason: str


class Conceded(TypedDict):
    """A seat conceded (MSN.END.3): the core's, in every ruleset (rules/core.py)."""

    seat: str


class FirstGoes(TypedDict):
    sub_phase: str | None
    seat: str
    reason: str


# the kinds more than one ruleset logs (the core's, the attack driver's), each with every key any of them writes
SHARED: dict[str, type] = {
    "FirstGoes": FirstGoes,
    "StepSkipped": StepSkipped,
    "ActionRedone": ActionRedone,
    "ActionUndone": ActionUndone,
    "ArmyMustered": ArmyMustered,
    "AttackDeclared": AttackDeclared,
    "AttackResolved": AttackResolved,
    "AttacksRolled": AttacksRolled,
    "BattleRoundEnded": BattleRoundEnded,
    "BattleRoundStarted": BattleRoundStarted,
    "CasualtiesRecorded": CasualtiesRecorded,
    "Conceded": Conceded,
    "ChargeDeclared": ChargeDeclared,
    "ChargeResolved": ChargeResolved,
    "ChargeRolled": ChargeRolled,
    "DamageInflicted": DamageInflicted,
    "DiceRolled": DiceRolled,
    "EntropyAdded": EntropyAdded,
    "GameCreated": GameCreated,
    "GameEnded": GameEnded,
    "GameStarted": GameStarted,
    "HazardousRolled": HazardousRolled,
    "HitsScored": HitsScored,
    "OrderChosen": OrderChosen,
    "PhaseEnded": PhaseEnded,
    "ReserveArrived": ReserveArrived,
    "ReserveArriving": ReserveArriving,
    "ReserveDelayed": ReserveDelayed,
    "RollOff": RollOff,
    "RollOffNeeded": RollOffNeeded,
    "RollRequested": RollRequested,
    "SavesRolled": SavesRolled,
    "StatusGained": StatusGained,
    "StatusLost": StatusLost,
    "StepStarted": StepStarted,
    "StrengthChanged": StrengthChanged,
    "UndoRejected": UndoRejected,
    "UndoRequested": UndoRequested,
    "UndoWithdrawn": UndoWithdrawn,
    "UnitDestroyed": UnitDestroyed,
    "UnitDisembarked": UnitDisembarked,
    "UnitSelected": UnitSelected,
    "WoundsScored": WoundsScored,
}
