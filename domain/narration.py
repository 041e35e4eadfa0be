"""Events told in words: each event's `text` (domain/words.py), read from the states the log makes.

A text depends on nothing but the log up to its event (the state just before it and just after), so once told
it is kept: `Narrator` keeps the texts it told of each game and the state after the last one, so a reader that
follows the log (the events pages, the streams) tells only the events new since, and one that starts further
back replays from the game as of its first event (a snapshot and the events after it).
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, TypeVar
from uuid import UUID

from typing_extensions import TypedDict

from warlog.domain import events as ev
from warlog.domain.game import Game, Logged, evolve
from warlog.domain.integrity import Damaged
from warlog.domain.rules.registry import find_ruleset
from warlog.domain.state import GameState
from warlog.domain.words import Words, say

if TYPE_CHECKING:
    from eventsourcing.application import Repository

T = TypeVar("T")
GAMES = 256  # games whose texts are kept
TEXTS = 4096  # texts kept of one game at most; past that its newest KEPT stay (a long log's export tells again)
KEPT = 1024


def narrate(state: GameState | None, events: Iterable[tuple[ev.Entry, ev.Meta]],
            made: Sequence[GameState] | None = None) -> Iterator[tuple[str, GameState]]:
    """(the event's text, the state after it) for each event in turn, from the state before the first (None:
    the first is the game's creation). `made`: the states the events left as the game applied them
    (`Game.making`), where the writer has them; else each event is applied here."""
    for n, (entry, meta) in enumerate(events):
        after = made[n] if made is not None and n < len(made) else evolve(state, entry, meta)
        yield say(find_ruleset(after.ruleset).event_texts, Words(state, after, entry)), after
        state = after


class Told(TypedDict):
    """What `Narrator.keep` reads of an event as a write answered it (`Warlog.public`): its seq and its text."""

    seq: int
    text: str


class Narrator:
    """The texts of the games read in this process. `state_at(game_id, seq)` gives the state after `seq` where the
    narrator has not told as far (the application's `game_at`)."""

    def __init__(self, state_at: Callable[[UUID, int], GameState]) -> None:
        self.state_at = state_at
        self._texts: OrderedDict[UUID, dict[int, str]] = OrderedDict()
        self._told: dict[UUID, tuple[int, GameState]] = {}  # the last seq told of a game, and the state after it
        self._lock = threading.Lock()

    def texts(self, game_id: UUID, events: Sequence[Logged]) -> list[str]:
        """The text of each of `events`, a run of one game's events in seq order."""
        with self._lock:
            told = self._texts.setdefault(game_id, {})
            self._texts.move_to_end(game_id)
            while len(self._texts) > GAMES:
                gone, _ = self._texts.popitem(last=False)
                self._told.pop(gone, None)
            last = self._told.get(game_id)
        untold = [e for e in events if e.entry["seq"] not in told]
        if untold:
            first = untold[0].entry["seq"]
            run = [e for e in events if e.entry["seq"] >= first]
            if last is not None and last[0] == first - 1:
                state: GameState | None = last[1]
            else:
                state = self.state_at(game_id, first - 1) if first > 1 else None
            last_state = state
            for event, (text, last_state) in zip(run, narrate(state, ((e.entry, e.meta) for e in run))):  # noqa: B007
                told[event.entry["seq"]] = text
            if last_state is not None:
                with self._lock:
                    self._told[game_id] = (run[-1].entry["seq"], last_state)
        said = [told[e.entry["seq"]] for e in events]
        if len(told) > TEXTS:  # bounded: the newest stay, which the streams and the table app read
            with self._lock:
                newest = sorted(told)[-KEPT:]
                self._texts[game_id] = {seq: told[seq] for seq in newest}
        return said

    def keep(self, game_id: UUID, events: Sequence[Told], after: GameState) -> None:
        """Texts just told of events just stored (a write's answer, `seq` and `text` each), `after` the state the
        last of them made: readers that follow the log tell nothing again."""
        if not events:
            return
        with self._lock:
            told = self._texts.setdefault(game_id, {})
            for event in events:
                told[event["seq"]] = event["text"]
            self._told[game_id] = (events[-1]["seq"], after)

    def forget(self, game_id: UUID) -> None:
        """A game whose log may be other than it was told (a damaged one)."""
        with self._lock:
            self._texts.pop(game_id, None)
            self._told.pop(game_id, None)


class Telling:
    """A part of `Warlog` (domain/application.py): the log as read, each stored event checked to be the next, and
    with its `text`."""

    if TYPE_CHECKING:  # what it reads of `Warlog`, which defines each of these
        narrator: Narrator
        repository: Repository[UUID]

        def viewing(self, game_id: UUID, view: Callable[[Game], T]) -> T: ...
        def _mark_damaged(self, game_id: UUID, damage: Damaged) -> Damaged: ...

    def stored(self, game_id: UUID, after: int = 0, limit: int | None = None) -> Iterator[Any]:
        """The stored events after seq `after`, each the next seq: a row missing or unreadable is damage."""
        expected = after + 1
        events = iter(self.repository.event_store.get(game_id, gt=after, limit=limit))
        while True:
            try:
                event = next(events)
            except StopIteration:
                return
            except Exception:
                raise self._mark_damaged(game_id, Damaged(expected, "an event cannot be read", "unreadable")) from None
            if event.originator_version != expected:
                raise self._mark_damaged(game_id, Damaged(expected, "an event is missing", "missing"))
            yield event
            expected += 1

    @staticmethod
    def public(entry: ev.Entry, undone: bool, text: str) -> dict[str, Any]:
        """An event as read: the stored entry, whether it stands undone now, and its text (neither hashed)."""
        return {**entry, "undone": undone, "text": text}

    def entries(self, game_id: UUID, after: int = 0, limit: int | None = None,
                game: Game | None = None) -> list[dict[str, Any]]:
        if game is None:
            return self.viewing(game_id, lambda current: self.entries(game_id, after, limit, current))
        stored = list(self.stored(game_id, after, limit))
        texts = self.narrator.texts(game_id, stored)
        return [self.public(e.entry, game.is_undone(e.entry["seq"]), text) for e, text in zip(stored, texts)]

    def told(self, game_id: UUID, after: int = 0, limit: int | None = None) -> list[tuple[dict[str, Any], ev.Meta]]:
        """(entry, meta) of the stored events after seq `after`, each entry with its `text` (not hashed)."""
        stored: list[Logged] = list(self.stored(game_id, after, limit))
        texts = self.narrator.texts(game_id, stored)
        return [({**e.entry, "text": text}, e.meta) for e, text in zip(stored, texts)]
