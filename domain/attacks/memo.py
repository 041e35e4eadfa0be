"""What a question about a frozen attack value (a `Profile`, a `Target`) answered, kept on the value itself."""
from __future__ import annotations

from collections.abc import Callable, Hashable
from functools import wraps
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])


def per_profile(fn: F) -> F:
    """Remember what a question about a (frozen) profile or target answered: the answer cannot change."""
    @wraps(fn)
    def remembered(value: object, *args: Hashable) -> object:
        memo = value.__dict__.setdefault("_answers", {})  # not a field: equality and hashing ignore it
        key = (fn, *args) if args else fn
        try:
            return memo[key]
        except KeyError:
            memo[key] = answer = fn(value, *args)
            return answer
    return remembered  # type: ignore[return-value]
