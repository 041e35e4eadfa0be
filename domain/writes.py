"""What a write brings into the domain: who sent it (`Sent`), and what it asks of the game (a `Write`).

The boundary (api/) reads the request, parses its body into these typed values and hands them in; the domain never
calls back. Each write answers for its own part of the contract's order, which `Warlog.write` runs for every one
(domain/application.py): its endpoint (an Idempotency-Key belongs to one), the checks that need the game (`check`,
before If-Match) and the ruling with its events (`act`). A body the boundary could not parse (415, 422) travels as
a `BodyRefused` write, so that its refusal still comes after the key's stored answer, as the contract orders.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Protocol
from uuid import UUID

from warlog.domain.commands import Command

if TYPE_CHECKING:
    from warlog.domain.game import Game


@dataclass(frozen=True, slots=True)
class Sent:
    """Who sent a write and when (`at`: the clock is the boundary's), its Idempotency-Key with the digest of its body
    (the key's stored answer is replayed only for the same digest), and the version If-Match names (text naming
    none is kept, and refused with 412 once the body has been judged)."""

    seat: str
    at: str
    key: str | None = None
    digest: str = ""
    if_match: int | str | None = None


class Past(Protocol):
    """The game's state as of an earlier version (what an undo restores, what a redo brings back)."""

    def state_at(self, game_id: UUID, version: int) -> dict[str, Any] | None: ...


class Write(ABC):
    """One write on one game: the endpoint it was sent to, its checks, its ruling and events."""

    __slots__ = ()
    ENDPOINT: ClassVar[str]
    sent: Sent

    @property
    def endpoint(self) -> str:
        return self.ENDPOINT

    def check(self, game: Game) -> None:
        """The checks that need the game, before If-Match (422, 404); none for most writes."""
        return None  # a hook, not an abstract method: most writes have nothing to check

    @abstractmethod
    def act(self, game: Game, past: Past) -> int | None:
        """The ruling and, when it allows the write, its events on `game`: the HTTP status (None: 200)."""


@dataclass(frozen=True, slots=True)
class Play(Write):
    """A command (POST /commands)."""

    sent: Sent
    command: Command
    ENDPOINT: ClassVar[str] = "commands"

    def check(self, game: Game) -> None:
        game.validate(self.sent.seat, self.command)

    def act(self, game: Game, past: Past) -> int | None:
        sent = self.sent
        game.execute(sent.seat, self.command, sent.at, sent.key, sent.digest)
        return None


@dataclass(frozen=True, slots=True)
class Muster(Write):
    """A seat's army (POST /armies), its units as the boundary read them."""

    sent: Sent
    units: list[dict[str, Any]]
    ENDPOINT: ClassVar[str] = "armies"

    def act(self, game: Game, past: Past) -> int | None:
        sent = self.sent
        game.muster(sent.seat, self.units, sent.at, sent.key, sent.digest)
        return None


@dataclass(frozen=True, slots=True)
class Undo(Write):
    """Undo the latest action not yet undone: at once (200) or asking the other seat (202)."""

    sent: Sent
    ENDPOINT: ClassVar[str] = "undo"

    def act(self, game: Game, past: Past) -> int | None:
        sent = self.sent
        before = past.state_at(game.id, game.undo_first_seq() - 1) if game.done else None
        return game.undo(sent.seat, sent.at, sent.key, sent.digest, before)


@dataclass(frozen=True, slots=True)
class Approve(Write):
    """The other seat approves the pending undo request."""

    sent: Sent
    ENDPOINT: ClassVar[str] = "approve"

    def act(self, game: Game, past: Past) -> int | None:
        sent, pending = self.sent, game.pending_undo
        before = past.state_at(game.id, pending["seqs"][0] - 1) if pending else None
        game.answer_undo(sent.seat, True, sent.at, sent.key, sent.digest, before)
        return None


@dataclass(frozen=True, slots=True)
class Reject(Write):
    """The other seat rejects the pending undo request."""

    sent: Sent
    ENDPOINT: ClassVar[str] = "reject"

    def act(self, game: Game, past: Past) -> int | None:
        sent = self.sent
        game.answer_undo(sent.seat, False, sent.at, sent.key, sent.digest, None)
        return None


@dataclass(frozen=True, slots=True)
class Withdraw(Write):
    """The seat that asked withdraws its pending undo request."""

    sent: Sent
    ENDPOINT: ClassVar[str] = "withdraw"

    def act(self, game: Game, past: Past) -> int | None:
        sent = self.sent
        game.withdraw_undo(sent.seat, sent.at, sent.key, sent.digest)
        return None


@dataclass(frozen=True, slots=True)
class Redo(Write):
    """Bring back the latest undone action (the seat that undid it)."""

    sent: Sent
    ENDPOINT: ClassVar[str] = "redo"

    def act(self, game: Game, past: Past) -> int | None:
        sent = self.sent
        after = past.state_at(game.id, game.redo_last_seq()) if game.redo_stack else None
        game.redo(sent.seat, sent.at, sent.key, sent.digest, after)
        return None


@dataclass(frozen=True, slots=True)
class BodyRefused(Write):
    """A write sent `to` an endpoint, whose body the boundary refused (`refusal`: its 415 or 422): raised by `check`,
    once a stored answer for its key has been looked for."""

    sent: Sent
    to: str
    refusal: Exception

    @property
    def endpoint(self) -> str:
        return self.to

    def check(self, game: Game) -> None:
        raise self.refusal

    def act(self, game: Game, past: Past) -> int | None:
        raise self.refusal  # `check` has refused it already: nothing of it is played
