"""A snapshot's digest is checked on orjson's canonical text first and the standard encoder's where they differ
(domain/integrity.py `digest_holds`): every verdict is the one `state_digest` gives."""
from __future__ import annotations

from datetime import UTC, datetime
from uuid import UUID

import pytest

from warlog.domain.integrity import DIGEST_KEY, digest_holds, state_digest

GAME = {"_id": UUID("6c9ad7b1-a0e9-4b1c-8a5b-3e8a7f4e2d10"), "_created_on": datetime(2026, 12, 7, tzinfo=UTC),
        "head": "ab" * 32, "requests": {"A:key": ["digest", 200, 3, 4, "commands"]}, "state": {"cp": {"A": 2}}}


@pytest.mark.parametrize("extra", [
    {},  # orjson writes it as the standard encoder does
    {"clock": 1e-05, "far": 1e16},  # floats orjson writes otherwise (1e-5, 1e16): the standard encoder's text
    {"big": 2**70},  # an integer orjson will not write
    {"keys": {1: "one", 10: "ten", 2: "two"}},  # keys that are no text, sorted as numbers by the standard encoder
])
def test_a_snapshots_own_digest_holds_and_any_other_does_not(extra: dict[str, object]) -> None:
    state = {**GAME, **extra}
    state[DIGEST_KEY] = state_digest(state)
    assert digest_holds(state, state[DIGEST_KEY])
    tampered = {**state, "state": {"cp": {"A": 9}}}
    assert not digest_holds(tampered, state[DIGEST_KEY])
    assert not digest_holds(state, None)
    assert not digest_holds(state, "0" * 64)
