"""A request's raw body read as JSON, and nothing a player did not mean: UTF-8 only, no NaN or Infinity, no key
twice in one object, no string (or key) holding U+0000 or a lone surrogate, nested at most `MAX_DEPTH` deep. Each
refusal names the field at fault as a JSON pointer (api/sentences.py)."""
from __future__ import annotations

import json
import math
import re
from typing import Any

from warlog.api.errors import Problem
from warlog.api.sentences import named, pointer
from warlog.domain.rulings import Malformed

MAX_DEPTH = 64  # an army is 5 levels deep, a roster file some 20; 1,000 would overflow the stack
# an escaped lone surrogate ("\\ud800") decodes to no text at all, and U+0000 ("\\u0000"), which C strings,
# PostgreSQL text and many logs cut short, is no text a player means to send
NOT_TEXT = re.compile("[\x00\ud800-\udfff]")


def not_text(text: str) -> str | None:
    """What in `text` is no text (a lone surrogate, U+0000), said for a player; None when it is all text."""
    found = NOT_TEXT.search(text) if "\x00" in text or not text.isascii() else None
    if found is None:
        return None
    if found.group() == "\x00":
        return "a NUL character (\\u0000) is not text"
    return "a lone surrogate escape (\\ud800..\\udfff) is not text; send the character itself, in UTF-8"


def _added(seen: set[str], key: str) -> bool:
    seen.add(key)
    return False


class Twice(dict[str, Any]):
    """An object of the body that holds a key twice (`twice`): found where it is once the body is read, and
    refused naming its place."""

    twice: str


def unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """json's object_pairs_hook: a key given twice is marked (`Twice`), to be refused, not silently the last one."""
    body = dict(pairs)
    if len(body) == len(pairs):
        return body
    seen: set[str] = set()
    marked = Twice(body)
    marked.twice = next(key for key, _ in pairs if key in seen or _added(seen, key))
    return marked


def refuse_twice(node: Twice, path: tuple[Any, ...]) -> None:
    """An object holding a key twice, refused naming the key's pointer."""
    twice = node.twice
    raise Malformed(f"The key {json.dumps(twice)} appears twice in one object; send it once",  # escaped: no lone
                    field=None if not_text(twice) else pointer([*path, twice]))  # surrogate in the answer


def no_constant(name: str) -> Any:
    """json's parse_constant: NaN and Infinity are Python's extension, not JSON."""
    raise Malformed(f"The value {name} is not a number JSON knows; send a number")


def finite(text: str) -> float:
    """json's parse_float: a number too large for a float (1e400) would be stored as Infinity."""
    value = float(text)
    if not math.isfinite(value):
        raise Malformed(f"the number {text[:40]} is too large")
    return value


def check_text(value: Any) -> None:
    """Depth, text and keys, walked without recursion: every string (and key) must be text that encodes as UTF-8
    and holds no U+0000, and no object holds a key twice (422 naming the field)."""
    stack: list[tuple[Any, tuple[Any, ...]]] = [(value, ())]
    while stack:
        node, path = stack.pop()
        if isinstance(node, str):
            if (wrong := not_text(node)) is not None:
                raise Malformed(f"{named(path) or 'The body'}: {wrong}", field=pointer(path) or None)
        elif isinstance(node, (dict, list)):
            if isinstance(node, Twice):
                refuse_twice(node, path)
            if len(path) >= MAX_DEPTH:
                raise Malformed(f"the body is nested too deep (more than {MAX_DEPTH} levels)",
                                field=pointer(path[:8]))
            items = node.items() if isinstance(node, dict) else enumerate(node)
            for key, item in items:
                if isinstance(key, str) and (wrong := not_text(key)) is not None:
                    raise Malformed(f"{named(path) or 'The body'}: a key holds what is not text ({wrong})",
                                    field=pointer(path) or None)
                stack.append((item, (*path, key)))


STRINGS = re.compile(rb'"(?:[^"\\]|\\.)*"')
NOT_BRACKETS = bytes(set(range(256)) - set(b"[]{}"))


def too_deep(raw: bytes) -> bool:
    """Nested past MAX_DEPTH, told from the bytes: the decoder is never let near the interpreter's recursion
    limit, where a finalizer that happens to run (a garbage collection) would fail as an unraisable error."""
    if raw.count(b"[") + raw.count(b"{") <= MAX_DEPTH:
        return False
    depth = 0
    for byte in STRINGS.sub(b"", raw).translate(None, NOT_BRACKETS):  # brackets outside strings, in order
        depth += 1 if byte in b"[{" else -1
        if depth > MAX_DEPTH:
            return True
    return False


class NotUtf8(Problem):
    """A JSON body in another encoding than UTF-8: 415, as RFC 8259 allows JSON only in UTF-8 (a byte order
    mark in front of UTF-8 is let pass, as it allows too)."""

    def __init__(self, detail: str) -> None:
        super().__init__(415, f"a JSON body is UTF-8 (RFC 8259): {detail}; send it encoded as UTF-8")


def utf8(raw: bytes) -> str:
    """The body's text, or NotUtf8: UTF-16 and UTF-32 (with or without a byte order mark), or bytes that are
    no UTF-8 at all."""
    encoding = json.detect_encoding(raw)
    if encoding not in ("utf-8", "utf-8-sig"):
        raise NotUtf8(f"this one is {encoding.upper()}")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise NotUtf8(f"byte {error.start} is not UTF-8") from None


def parse_json(raw: bytes) -> Any:
    """The body as JSON that every later step can hash and store: UTF-8 (415 otherwise), no duplicate
    keys, no lone surrogates or U+0000, no NaN or infinite numbers, nested at most MAX_DEPTH deep (422
    otherwise, naming the field where there is one)."""
    text = utf8(raw)
    if too_deep(raw):
        raise Malformed(f"the body is nested too deep (more than {MAX_DEPTH} levels)")
    try:
        body = json.loads(text or "null", object_pairs_hook=unique_keys, parse_constant=no_constant,
                          parse_float=finite)
    except RecursionError:
        raise Malformed(f"the body is nested too deep (more than {MAX_DEPTH} levels)") from None
    except json.JSONDecodeError as error:
        what = error.msg[:1].lower() + error.msg[1:]
        raise Malformed(f"The body is not JSON: it breaks at line {error.lineno}, column {error.colno} "
                        f"({what})") from None
    check_text(body)
    return body
