"""How a stored event's state is written: the eventsourcing library's JSON transcoder, its bytes written by orjson
for the one event kind the log holds.

A `Game.Logged` event's state is `{"timestamp": datetime, "entry": {...}, "meta": {...}}`: the library's own
`datetime_iso` transcoding for the timestamp (orjson hands it to the same `default`, `OPT_PASSTHROUGH_DATETIME`), and
plain JSON for the entry and its meta (strings, integers, booleans, null, lists, objects keyed by strings: what the
hash chain already writes with orjson, domain/chain.py `canonical_bytes`). For those, orjson's compact UTF-8 output
is byte for byte the library's (`separators=(",", ":")`, `ensure_ascii=False`), several times faster; anything else
(a snapshot, a value orjson will not write as the standard encoder does, such as an integer past 64 bits) is written
by the library's encoder, as before.

Reading: a stored state (an event's, a snapshot's) whose transcoded values are all among its own values or its
`state`'s (the library revives any object of exactly the keys `_type_` and `_data_`; the bytes name `_type_` as
often as those are found) is read by orjson and those values revived by the library's own transcodings: the same
values as the library's decoder makes, without a call back into Python for each object (an undo reads a snapshot
holding the whole game, and the undos and redos after it each carry a whole state: half of an undo's time on a
long game went to reading them back). Anything else, or anything orjson reads otherwise than the standard decoder (NaN; an integer past 64
bits, which it reads as a float: bytes with 19 digits in a row, a hash's among them now and then), is read by the
library's decoder.
"""
from __future__ import annotations

from typing import Any

import orjson
from eventsourcing.persistence import JSONTranscoder

LOGGED = frozenset({"timestamp", "entry", "meta"})  # a Game.Logged event's state, as the library's mapper hands it
OPTIONS = orjson.OPT_PASSTHROUGH_DATETIME  # the timestamp goes through the library's transcoding, as before
TIMESTAMPED = b'{"timestamp":{"_type_":'  # how an event's stored state begins (its timestamp, transcoded)
TRANSCODED = b'"_type_"'  # a transcoded value's key, as the bytes spell it (a string's quote is escaped in them)
# 19 digits in a row, found as 19 zeros once every digit is a zero (bytes.translate and a substring search: a tenth
# of a regular expression's time)
AS_ZEROS = bytes.maketrans(b"123456789", b"000000000")
LONG_DIGITS = b"0" * 19


class LogTranscoder(JSONTranscoder):
    """The library's JSONTranscoder (its transcodings and decoding unchanged), an event's state written by orjson."""

    def encode(self, obj: Any) -> bytes:
        if type(obj) is dict and obj.keys() == LOGGED:
            try:
                return orjson.dumps(obj, default=self._encode_obj, option=OPTIONS)
            except TypeError:  # orjson.JSONEncodeError is a TypeError: the library's encoder writes it (or says why not)
                pass
        return super().encode(obj)

    def decode(self, data: bytes) -> Any:
        if data.startswith(TIMESTAMPED) and LONG_DIGITS not in data.translate(AS_ZEROS):
            try:
                obj = orjson.loads(data)
            except orjson.JSONDecodeError:  # what orjson refuses and the standard decoder reads: the library reads it
                return super().decode(data)
            state = obj.get("state")  # a snapshot's: the game's attributes, its datetimes transcoded
            if self._revived(obj) + (self._revived(state) if type(state) is dict else 0) == data.count(TRANSCODED):
                return obj
        return super().decode(data)

    def _revived(self, obj: dict[str, Any]) -> int:
        """`obj`'s own values that are transcoded values, revived by the library's transcodings: how many."""
        revived = 0
        for key, value in obj.items():
            if type(value) is dict and len(value) == 2 and "_type_" in value and "_data_" in value:
                obj[key] = self._decode_obj(value)
                revived += 1
        return revived
