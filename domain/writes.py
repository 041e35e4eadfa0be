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
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TypedDict
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

    @property
    def by(self) -> By:
        return By(seat=self.seat, at=self.at, key=self.key, body=self.digest)


class By(TypedDict):
    """What the game records of a write's sender (its `Table`), as the keywords of its writing methods: the seat,
    the time, the Idempotency-Key and the body's digest."""

    seat: str
    at: str
    key: str | None
    body: str


class Past(Protocol):
    """The game's state as of an earlier version (what an undo restores, what a redo brings back)."""

    def state_at(self, game_id: UUID, version: int) -> dict[str, Any] | None: ...


@dataclass(frozen=True, slots=True)
class Write(ABC):
    """One write on one game: who sent it, the endpoint it was sent to, its checks, its ruling and events."""

    sent: Sent
    ENDPOINT: ClassVar[str]

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

    command: Command
    ENDPOINT: ClassVar[str] = "commands"

    def check(self, game: Game) -> None:
        game.validate(self.sent.seat, self.command)

    def act(self, game: Game, past: Past) -> int | None:
        game.execute(**self.sent.by, command=self.command)
        return None


@dataclass(frozen=True, slots=True)
class Muster(Write):
    """A seat's army (POST /armies), its units as the boundary read them."""

    units: list[dict[str, Any]]
    ENDPOINT: ClassVar[str] = "armies"

    def act(self, game: Game, past: Past) -> int | None:
        game.muster(**self.sent.by, units=self.units)
        return None


@dataclass(frozen=True, slots=True)
class Undo(Write):
    """Undo the latest action not yet undone: at once (200) or asking the other seat (202)."""

    ENDPOINT: ClassVar[str] = "undo"

    def act(self, game: Game, past: Past) -> int | None:
        before = past.state_at(game.id, game.undo_first_seq() - 1) if game.done else None
        return game.undo(**self.sent.by, before=before)


@dataclass(frozen=True, slots=True)
class Consent(Write):
    """The other seat's answer to the pending undo request (SVC.UNDO.CONSENT): approved, the action is undone;
    rejected, it stands.
    Each answer has its own endpoint (`approve`, `reject`)."""

    approve: bool

    @property
    def endpoint(self) -> str:
        return "approve" if self.approve else "reject"

    def act(self, game: Game, past: Past) -> int | None:
        pending = game.pending_undo
        before = past.state_at(game.id, pending["seqs"][0] - 1) if pending and self.approve else None
        game.answer_undo(**self.sent.by, approve=self.approve, before=before)
        return None


@dataclass(frozen=True, slots=True)
class Withdraw(Write):
    """The seat that asked withdraws its pending undo request."""

    ENDPOINT: ClassVar[str] = "withdraw"

    def act(self, game: Game, past: Past) -> int | None:
        game.withdraw_undo(**self.sent.by)
        return None


@dataclass(frozen=True, slots=True)
class Redo(Write):
    """Bring back the latest undone action (the seat that undid it)."""

    ENDPOINT: ClassVar[str] = "redo"

    def act(self, game: Game, past: Past) -> int | None:
        after = past.state_at(game.id, game.redo_last_seq()) if game.redo_stack else None
        game.redo(**self.sent.by, after=after)
        return None


@dataclass(frozen=True, slots=True)
class BodyRefused(Write):
    """A write sent `to` an endpoint, whose body the boundary refused (`refusal`: its 415 or 422): raised by `check`,
    once a stored answer for its key has been looked for."""

    to: str
    refusal: Exception

    @property
    def endpoint(self) -> str:
        return self.to

    def check(self, game: Game) -> None:
        raise self.refusal

    def act(self, game: Game, past: Past) -> int | None:
        raise self.refusal  # `check` has refused it already: nothing of it is played
