"""Round heads: whether the log still extends a head hash a seat kept."""
from __future__ import annotations

from typing import Any

from domain import chain


def extends(head: str, entries: list[dict[str, Any]]) -> dict[str, Any]:
    """`extends_head` is true when an event with that hash is in the log and the chain holds up to it:
    a rewritten event changes its own hash and breaks every link after it."""
    bad, _, _ = chain.first_break(entries)
    at = next((e["seq"] for e in entries if e["hash"] == head), None)
    return {"head": head, "head_seq": at, "extends_head": at is not None and (bad is None or bad > at)}
