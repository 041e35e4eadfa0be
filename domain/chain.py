"""Canonical JSON and the hash chain (CONTRACT.md "Reading").

`hash` is SHA-256 over the event's canonical JSON without `hash` and `undone`
(and `text`, the words a reader is given); the first event's `prev_hash` is 64
zeros. Anyone holding the events can check the chain with these few lines.

`request` (events stored since the head record and request digests, SVC.DAMAGED):
the SHA-256 of the canonical JSON of the request that made the event, as the
service recorded it beside the event (`request_digest`). It is hashed like the
other fields where it is present; events stored before it existed have none, and
their hashes are what they always were.
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

import orjson

if TYPE_CHECKING:
    from warlog.domain import events as ev

GENESIS = "0" * 64
HASHED_FIELDS = ("seq", "type", "at", "by", "rule", "data", "prev_hash")
REQUEST = "request"  # hashed where present (an event stored before request digests has none)


def canonical(value: object) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def event_hash(event: Mapping[str, object]) -> str:
    body = {name: event[name] for name in HASHED_FIELDS}
    if REQUEST in event:
        body[REQUEST] = event[REQUEST]
    return hashlib.sha256(canonical_bytes(body)).hexdigest()


def canonical_bytes(value: object) -> bytes:
    """`canonical(value)` as UTF-8, written by orjson where it can: for what an event holds (strings, integers,
    booleans, null, lists and objects keyed by strings; never a float, CONTRACT.md "Reading") its bytes are exactly
    the standard encoder's with these settings, several times faster. Anything orjson will not write as the
    standard encoder does (a key that is no string, an integer past 64 bits) is written by the standard encoder."""
    try:
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        return canonical(value).encode("utf-8")


def digest(value: object) -> str:
    """SHA-256 of a value's canonical JSON (a request record, a restored state), its bytes `canonical_bytes`'."""
    return hashlib.sha256(canonical_bytes(value)).hexdigest()


def first_break(events: Iterable[ev.Entry]) -> tuple[int | None, int, str]:
    """Walk the chain: (seq of the first bad event or None, events seen, head hash)."""
    prev = GENESIS
    count = 0
    expected_seq = 1
    for event in events:
        count += 1
        if (
            event["seq"] != expected_seq
            or event["prev_hash"] != prev
            or event_hash(event) != event["hash"]
        ):
            return event["seq"], count, prev
        prev = event["hash"]
        expected_seq += 1
    return None, count, prev


def extends(head: str, entries: Sequence[ev.Entry]) -> dict[str, str | int | bool | None]:
    """Whether the log still extends a head hash a seat kept (a round head): `extends_head` is true when
    an event with that hash is in the log and the chain holds up to it; a rewritten event changes its own
    hash and breaks every link after it, and a truncated log no longer holds the kept head."""
    bad, _, _ = first_break(entries)
    at = next((e["seq"] for e in entries if e["hash"] == head), None)
    return {"head": head, "head_seq": at, "extends_head": at is not None and (bad is None or bad > at)}
