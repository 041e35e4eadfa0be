"""Which of N event stores holds a game (CONTRACT.md "Scale"): derived from the game's id alone, the same
in every process and every run.

The id's bytes are hashed (BLAKE2b, 8 bytes, big-endian) and taken modulo N. Python's `hash()` is salted
per process and would send one game to different stores from different processes; the id's own integer
would do for the random ids the service draws (uuid4), but not for ids that share their low bits, such
as those a test or an import passes in. Shard 0 is named as the one store always was (`warlog`: tables
`warlog_events`, `warlog_snapshots`), so a database served before shards existed is a one-shard database.
"""
from __future__ import annotations

import hashlib
from uuid import UUID

APP_NAME = "warlog"  # the eventsourcing Application's name: its keys may carry the WARLOG_ prefix


def shard_of(game_id: UUID, shards: int) -> int:
    if shards == 1:
        return 0
    return int.from_bytes(hashlib.blake2b(game_id.bytes, digest_size=8).digest(), "big") % shards


def shard_name(shard: int) -> str:
    """The Application's name for shard `shard`, so its tables' prefix (`<name>_events`, `<name>_snapshots`)
    and its configuration keys' (`WARLOG_SHARD2_POSTGRES_DBNAME`, …)."""
    return APP_NAME if shard == 0 else f"{APP_NAME}_shard{shard}"
