"""How a stored event's state is written: the eventsourcing library's JSON transcoder, its bytes written by orjson
for the one event kind the log holds.

A `Game.Logged` event's state is `{"timestamp": datetime, "entry": {...}, "meta": {...}}`: the library's own
`datetime_iso` transcoding for the timestamp (orjson hands it to the same `default`, `OPT_PASSTHROUGH_DATETIME`), and
plain JSON for the entry and its meta (strings, integers, booleans, null, lists, objects keyed by strings: what the
hash chain already writes with orjson, domain/chain.py `canonical_bytes`). For those, orjson's compact UTF-8 output
is byte for byte the library's (`separators=(",", ":")`, `ensure_ascii=False`), several times faster; anything else
(a snapshot, a value orjson will not write as the standard encoder does, such as an integer past 64 bits) is written
by the library's encoder, as before. Reading is the library's own.
"""
from __future__ import annotations

from typing import Any

import orjson
from eventsourcing.persistence import JSONTranscoder

LOGGED = frozenset({"timestamp", "entry", "meta"})  # a Game.Logged event's state, as the library's mapper hands it
OPTIONS = orjson.OPT_PASSTHROUGH_DATETIME  # the timestamp goes through the library's transcoding, as before


class LogTranscoder(JSONTranscoder):
    """The library's JSONTranscoder (its transcodings and decoding unchanged), an event's state written by orjson."""

    def encode(self, obj: Any) -> bytes:
        if type(obj) is dict and obj.keys() == LOGGED:
            try:
                return orjson.dumps(obj, default=self._encode_obj, option=OPTIONS)
            except TypeError:  # orjson.JSONEncodeError is a TypeError: the library's encoder writes it (or says why not)
                pass
        return super().encode(obj)
