"""Rulings: the one exception family every refusal travels in.

A refusal always names the rule that refused (RULES.md IDs). The API maps
`Malformed` to 422, `NotFound` to 404, `Forbidden` to 403 and `Refused` to 409.
"""
from __future__ import annotations


class Ruling(Exception):
    """Base of every domain refusal."""

    def __init__(self, detail: str, rule: str | None = None, field: str | None = None):
        super().__init__(detail)
        self.detail = detail
        self.rule = rule
        self.field = field


class Malformed(Ruling):
    """The request is not well formed (422): a field missing, a die out of range."""


class NotFound(Ruling):
    """An unknown unit, event or combat (404)."""


class Forbidden(Ruling):
    """The seat may not do this at all (403), e.g. answering its own undo request."""


class Refused(Ruling):
    """Well formed, but a rule forbids it now (409)."""
