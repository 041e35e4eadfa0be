"""Every stored request played again: the `meta` outside the chain must make the events it travels with.

The hash chain covers each event's public entry (CONTRACT.md "Reading"); the request that made it — the command
as sent, the seat that sent it (the audit's "sent": command and by), the Idempotency-Key book, the state an undo
restores — travels beside it in `meta`, outside the hash. An edit there breaks no link. So `GET /verify` plays
every stored request again, from the game as the events before it make it, with what its `meta` says (the seat,
the command, the key, the restored state) and the `at` of its first event, and asks for exactly the stored
events back, entry and meta alike: a forged sender, command or book makes other events (or a refusal), and the
first such request's first seq is reported as `commands_ok: false, first_unmatched_seq`.

What playing again can and cannot say:
- Server dice come again from the seed and each roll's counter, so a request replays to the same faces.
- The offered-actions gate (`Game.execute`'s check against `"actions"`) is not asked again: the command passed it
  when it was sent, and what it makes is what is compared.
- It judges the stored requests by this version of the rules: a game played under a version whose rules have
  since changed can report `commands_ok: false` without any edit. That is why a mismatch is reported beside
  `chain_ok` (like `dice_ok`) rather than refused as SVC.DAMAGED: the chain, which the events alone make, stays
  the judge of damage.
- A muster's `meta` records its size, not the army (the army is the event's data): it is played again with the
  units of its own event, which checks the seat and the count.
"""
from __future__ import annotations

import copy
from collections.abc import Iterable, Sequence
from typing import cast

from pydantic import ValidationError

from warlog.domain import army, rolls
from warlog.domain import events as ev
from warlog.domain.commands import from_record
from warlog.domain.game import Game, Logged, logged
from warlog.domain.rules import registry
from warlog.domain.rulings import Refused


def requests(events: Iterable[Logged]) -> list[list[Logged]]:
    """The stored events after the creation, grouped by the request that made them (its first carries `starts`
    or a key; the rest `continues`)."""
    groups: list[list[Logged]] = []
    for event in events:
        if event.meta.get("continues") and groups:
            groups[-1].append(event)
        else:
            groups.append([event])
    return groups


def first_unmatched(events: Sequence[Logged]) -> tuple[int, str] | None:
    """(seq, why) of the first stored request whose meta does not make its events again, or None."""
    if not events:
        return None
    game = cast(Game, events[0].mutate(None))  # the creation makes the game
    for group in requests(events[1:]):
        first = group[0]
        seq = first.entry["seq"]
        try:
            made = play_again(game, first.meta, first.entry, said_before(group))
        except (Refused, ValidationError, KeyError, TypeError, ValueError) as error:
            return seq, f"the request stored with seq {seq} cannot be played again ({error})"
        stored = [(e.entry, e.meta) for e in group]
        if made != stored:
            return seq, f"the request stored with seq {seq} does not make the events stored with it"
    return None


def said_before(group: Sequence[Logged]) -> bool:
    """Whether the stored events of one request are roll events logged before rolls said what they mean (none
    carries `outcomes`, domain/rolls.py): played again, the request makes them as they were made then."""
    rolled = [e.entry for e in group if e.entry["type"] in rolls.KINDS]
    return bool(rolled) and not any("outcomes" in entry["data"] for entry in rolled)


def play_again(game: Game, meta: ev.Meta, entry: ev.Entry, before_words: bool = False) -> list[tuple[ev.Entry, ev.Meta]]:
    """Play the request of which `meta`/`entry` are the first stored event on `game`; what it made (entries
    with a request digest only where the stored one has one, roll events that say what they mean only where the
    stored ones do: it was stored before them otherwise)."""
    game._digests = "request" in entry
    game._roll_words = not before_words
    try:
        return _play_again(game, meta, entry)
    finally:
        vars(game).pop("_digests", None)
        vars(game).pop("_roll_words", None)


def _play_again(game: Game, meta: ev.Meta, entry: ev.Entry) -> list[tuple[ev.Entry, ev.Meta]]:
    seat = meta.get("sent_by", entry["by"])
    if seat is None:
        raise ValueError(f"the request that made event {entry['seq']} names no seat")
    key = meta["key"].split(":", 1)[1] if "key" in meta else None
    body = meta.get("body", "")
    at = entry["at"]
    command = meta.get("command") or {}
    kind, restored = meta.get("kind"), meta.get("state")
    if kind == "action" and command.get("type") == "muster":
        sent = army.as_sent(entry["data"]["units"], entry["data"].get("renamed", {}))  # the ids as the seat sent them
        game.muster(seat, copy.deepcopy(sent), at, key, body)  # muster may normalise in place
    elif kind == "action":
        parsed = from_record(registry.table(game.state.ruleset)[command["type"]], command)  # its ruleset's class
        game.execute(seat, parsed, at, key, body, gate=False)
    elif entry["type"] == "UndoRequested" or (entry["type"] == "ActionUndone" and "approved_by" not in entry["data"]):
        game.undo(seat, at, key, body, restored)
    elif entry["type"] in ("ActionUndone", "UndoRejected"):
        game.answer_undo(seat, entry["type"] == "ActionUndone", at, key, body, restored)
    elif entry["type"] == "UndoWithdrawn":
        game.withdraw_undo(seat, at, key, body)
    elif entry["type"] == "ActionRedone":
        game.redo(seat, at, key, body, restored)
    else:
        raise ValueError(f"no request makes a {entry['type']} event")
    return [(made.entry, made.meta) for made in map(logged, game.collect_events())]
