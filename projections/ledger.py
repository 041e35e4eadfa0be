"""The ledger: a persistent read model of every die and every analytic fact of every game.

`Ledger` is the eventsourcing library's `Projection`; its view is the library's
`TrackingRecorder` (SQLite or PostgreSQL) with three more tables, written in the
same transaction as the tracking record, so each event is counted exactly once
and the view can always be rebuilt from zero (`rebuild`). Undo and redo only
flip `undone` on rows already there: nothing is deleted, as in the log.

It runs in three ways: pulled forward on demand (`catch_up`, for SQLite, whose
recorder has no subscriptions), rebuilt from zero, or followed live by the
library's `ProjectionRunner` in its own process (`warlog project`, PostgreSQL,
LISTEN/NOTIFY).
"""
from __future__ import annotations

import uuid
from abc import abstractmethod
from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any, Protocol

from eventsourcing.dispatch import singledispatchmethod
from eventsourcing.persistence import InfrastructureFactory, IntegrityError, Tracking, TrackingRecorder
from eventsourcing.postgres import PostgresTrackingRecorder
from eventsourcing.projection import Projection
from eventsourcing.sqlite import SQLiteCursor, SQLiteTrackingRecorder
from eventsourcing.utils import Environment, get_topic
from psycopg import Cursor
from psycopg.rows import DictRow
from psycopg.sql import SQL, Composed

from warlog.domain.game import LOGGED, Game
from warlog.domain.undo import effect
from warlog.projections.rows import DIE_COLUMNS, FACT_COLUMNS, GAME_COLUMNS, die_rows, fact_rows, game_row

TABLES = {
    "games": (GAME_COLUMNS, ("game_id",)),
    "dice": (DIE_COLUMNS, ("game_id", "seq", "die")),
    "facts": (FACT_COLUMNS, ("game_id", "seq", "n")),
}
INTEGERS = {"seq", "die", "n", "battle_round", "battle_rounds", "sides", "face", "counter", "amount"}
BOOLEANS = {"counts", "rerolled", "replaced", "critical", "undone"}
ROW_EVENTS = {"BattleRoundStarted", "StepStarted", "ArmyMustered", "UnitSelected", "PassPointsCalculated",
              "PassPointSpent", "UnitDestroyed"}


class Row(Protocol):
    """A fetched row, read by column name: sqlite3.Row or psycopg's dict row."""

    def __getitem__(self, column: str, /) -> Any: ...

    def keys(self) -> Iterable[str]: ...


class Rows(Protocol):
    """The cursor a view's transaction gives: the library's SQLite cursor or psycopg's."""

    def execute(self, query: str, params: Sequence[Any] = ..., /) -> object: ...

    def fetchone(self) -> Row | None: ...

    def fetchall(self) -> Sequence[Row]: ...


class LedgerSQL(TrackingRecorder):
    """The ledger's tables and queries, shared by the SQLite and PostgreSQL views: each is this before the
    library's tracking recorder, and opens the transactions this writes and reads in."""

    mark = "?"
    prefix = "warlog_ledger_"

    def table(self, name: str) -> str:
        return self.prefix + name

    def ledger_ddl(self) -> list[str]:
        statements = []
        for name, (columns, key) in TABLES.items():
            cols = ", ".join(f"{c} {'INTEGER' if c in INTEGERS | BOOLEANS else 'TEXT'}" for c in columns)
            statements.append(f"CREATE TABLE IF NOT EXISTS {self.table(name)} ({cols}, PRIMARY KEY ({', '.join(key)}))")
        return statements

    @abstractmethod
    def _transaction(self, commit: bool) -> AbstractContextManager[Rows]:
        """A transaction of the view's store."""

    @abstractmethod
    def _tracked(self, tracking: Tracking) -> AbstractContextManager[Rows]:
        """A transaction that, once what it holds is written, records `tracking` and commits."""

    def _q(self, sql: str) -> str:
        return sql.replace("?", self.mark)

    def _insert(self, c: Rows, name: str, row: dict[str, Any]) -> None:
        columns = TABLES[name][0]
        values = [int(row[col]) if col in BOOLEANS else row[col] for col in columns]
        c.execute(self._q(f"INSERT INTO {self.table(name)} ({', '.join(columns)}) "
                          f"VALUES ({', '.join('?' for _ in columns)})"), values)

    def record(self, tracking: Tracking, game: dict[str, Any] | None = None, dice: Sequence[dict[str, Any]] = (),
               facts: Sequence[dict[str, Any]] = (), undo: tuple[str, list[int], bool] | None = None) -> None:
        """Write one event's rows and its tracking record in one transaction."""
        with self._tracked(tracking) as c:
            if game is not None:
                self._insert(c, "games", game)
            for row in dice:
                self._insert(c, "dice", row)
            for row in facts:
                self._insert(c, "facts", row)
            if undo is not None and undo[1]:
                game_id, seqs, undone = undo
                marks = ", ".join("?" for _ in seqs)
                for name in ("dice", "facts"):
                    c.execute(self._q(f"UPDATE {self.table(name)} SET undone = ? WHERE game_id = ? "
                                      f"AND seq IN ({marks})"), [int(undone), game_id, *seqs])

    def _latest(self, game_id: str, kind: str, seq: int, columns: str,
                unit: str | None = None) -> dict[str, Any] | None:
        sql = (f"SELECT {columns} FROM {self.table('facts')} WHERE game_id = ? AND kind = ? AND seq < ? "
               f"AND undone = 0 {'AND unit = ? ' if unit else ''}ORDER BY seq DESC LIMIT 1")
        with self._transaction(commit=False) as c:
            c.execute(self._q(sql), [game_id, kind, seq] + ([unit] if unit else []))
            row = c.fetchone()
        return None if row is None else dict(row)

    def context(self, game_id: str) -> LedgerContext:
        return LedgerContext(self, game_id)

    def rows(self, name: str, game_id: str | None = None) -> list[dict[str, Any]]:
        columns, key = TABLES[name]
        where = " WHERE game_id = ?" if game_id else ""
        with self._transaction(commit=False) as c:
            c.execute(self._q(f"SELECT {', '.join(columns)} FROM {self.table(name)}{where} "
                              f"ORDER BY {', '.join(key)}"), [game_id] if game_id else [])
            fetched = c.fetchall()
        return [{col: bool(row[col]) if col in BOOLEANS else row[col] for col in columns} for row in fetched]

    def clear(self, application_names: list[str]) -> None:
        """Forget everything, tracking included (of every shard named): the next catch-up rebuilds from zero."""
        with self._transaction(commit=True) as c:
            for name in TABLES:
                c.execute(f"DELETE FROM {self.table(name)}")
            for application_name in application_names:
                c.execute(self._q(f"DELETE FROM {self.tracking_table} WHERE application_name = ?"),
                          [application_name])

    tracking_table = "tracking"


class LedgerContext:
    """rows.Context answered by the ledger's own facts (the latest standing one before a seq)."""

    def __init__(self, view: LedgerSQL, game_id: str) -> None:
        self.view, self.game_id = view, game_id

    def round_at(self, seq: int) -> int | None:
        row = self.view._latest(self.game_id, "round", seq, "amount")
        return None if row is None else row["amount"]

    def step_at(self, seq: int) -> tuple[str | None, str | None]:
        row = self.view._latest(self.game_id, "step", seq, "phase, sub_phase")
        return (None, None) if row is None else (row["phase"], row["sub_phase"])

    def owner_of(self, unit: str, seq: int) -> str | None:
        row = self.view._latest(self.game_id, "unit", seq, "seat", unit)
        return None if row is None else row["seat"]


class SQLiteLedgerView(LedgerSQL, SQLiteTrackingRecorder):
    def construct_create_table_statements(self) -> list[str]:
        return super().construct_create_table_statements() + self.ledger_ddl()

    def _transaction(self, commit: bool) -> AbstractContextManager[SQLiteCursor]:
        return self.datastore.transaction(commit=commit)

    @contextmanager
    def _tracked(self, tracking: Tracking) -> Iterator[SQLiteCursor]:
        with self.datastore.transaction(commit=True) as c:
            yield c
            self._insert_tracking(c, tracking)


class PostgresLedgerView(LedgerSQL, PostgresTrackingRecorder):
    mark = "%s"

    def __init__(self, datastore: Any, **kwargs: Any) -> None:
        super().__init__(datastore, **kwargs)
        self.prefix = f'"{datastore.schema}".warlog_ledger_'
        self.tracking_table = f'"{datastore.schema}".{self.tracking_table_name}'
        self.sql_create_statements.extend(Composed([SQL(statement)]) for statement in self.ledger_ddl())

    def _transaction(self, commit: bool) -> AbstractContextManager[Cursor[DictRow]]:
        return self.datastore.transaction(commit=commit)

    @contextmanager
    def _tracked(self, tracking: Tracking) -> Iterator[Cursor[DictRow]]:
        with self.datastore.transaction(commit=True) as c:
            yield c
            self._insert_tracking(c, tracking)


class Ledger(Projection[LedgerSQL]):
    """Every die (with its lineage, source and counter) and every fact analytics counts."""

    name = "warlog_ledger"
    # a store written before the package was installed as warlog.* names its rows domain.game:... (domain/__init__.py
    # resolves those topics to the same classes); the notifications are asked for by topic, so both names are asked
    created = (get_topic(Game.Created), "domain.game:Game.Created")
    topics = (*created, get_topic(LOGGED), "domain.game:Game.Logged")

    @singledispatchmethod
    def process_event(self, domain_event: Any, tracking: Tracking) -> None:
        self.view.insert_tracking(tracking)

    @process_event.register(Game.Created)
    def _created(self, domain_event: Any, tracking: Tracking) -> None:
        self.view.record(tracking, game=game_row(str(domain_event.originator_id), domain_event.entry))

    @process_event.register(LOGGED)
    def _logged(self, domain_event: Any, tracking: Tracking) -> None:
        entry, game_id = domain_event.entry, str(domain_event.originator_id)
        dice: list[dict[str, Any]] = []
        facts: list[dict[str, Any]] = []
        if "faces" in entry["data"] or entry["type"] in ROW_EVENTS:
            ctx = self.view.context(game_id)
            dice, facts = die_rows(game_id, entry, False, ctx), fact_rows(game_id, entry, False, ctx)
        found = effect(entry)
        undo = None if found is None else (game_id, *found)
        self.view.record(tracking, dice=dice, facts=facts, undo=undo)


# -- wiring ---------------------------------------------------------------------------------

def ledger_env(app_env: dict[str, str]) -> dict[str, str]:
    """The view's store, from the application's own settings (its keys may carry the WARLOG_ prefix):
    PostgreSQL beside the events, an SQLite file beside the game file, or SQLite in memory."""
    app = Environment("warlog", app_env)
    module = app.get("PERSISTENCE_MODULE") or "eventsourcing.popo"
    if module == "eventsourcing.postgres":
        keys = ("POSTGRES_DBNAME", "POSTGRES_HOST", "POSTGRES_PORT", "POSTGRES_USER", "POSTGRES_PASSWORD",
                "POSTGRES_SCHEMA")
        return {"PERSISTENCE_MODULE": module, **{key: value for key in keys if (value := app.get(key)) is not None}}
    db = app.get("SQLITE_DBNAME")
    if module != "eventsourcing.popo" and db and "memory" not in db:  # an SQLite file (the library's or api.storage)
        path = Path(db)
        return {"PERSISTENCE_MODULE": module, "SQLITE_LOCK_TIMEOUT": "10",
                "SQLITE_DBNAME": str(path.with_name(path.stem + ".ledger" + (path.suffix or ".db")))}
    return {"PERSISTENCE_MODULE": "eventsourcing.sqlite",
            "SQLITE_DBNAME": f"file:ledger-{uuid.uuid4().hex}?mode=memory&cache=shared"}


def view_class(env: dict[str, str]) -> type[LedgerSQL]:
    return PostgresLedgerView if env["PERSISTENCE_MODULE"] == "eventsourcing.postgres" else SQLiteLedgerView


def open_ledger(env: dict[str, str]) -> Ledger:
    factory = InfrastructureFactory[LedgerSQL].construct(env=Environment(Ledger.name, env))
    return Ledger(view=factory.tracking_recorder(view_class(env)))


def notifications(app: Any, after: int, page: int = 500) -> Iterator[tuple[Any, Tracking]]:
    """(domain event, tracking) for every game event recorded after notification `after`."""
    start = after + 1
    while True:
        batch = app.recorder.select_notifications(start=start, limit=page, topics=Ledger.topics)
        for notification in batch:
            yield app.mapper.to_domain_event(notification), Tracking(app.name, notification.id)
        if len(batch) < page:
            return
        start = batch[-1].id + 1


def game_ids(app: Any) -> Iterator[Any]:
    """Every game in the store, oldest first (their GameCreated notifications)."""
    start = 1
    while True:
        batch = app.recorder.select_notifications(start=start, limit=500, topics=list(Ledger.created))
        yield from (notification.originator_id for notification in batch)
        if len(batch) < 500:
            return
        start = batch[-1].id + 1


def _each(apps: Any) -> list[Any]:
    """One store, or every shard's (api/shards.py): the ledger tracks each by its application's name."""
    return [apps] if hasattr(apps, "recorder") else list(apps)


def backlog(apps: Any, ledger: Ledger) -> int:
    """Roughly how many notifications the view has still to see (for a progress bar), over every shard."""
    return sum(max(0, (app.recorder.max_notification_id() or 0) - (ledger.view.max_tracking_id(app.name) or 0))
               for app in _each(apps))


def catch_up(apps: Any, ledger: Ledger, progress: Any = None) -> int:
    """Process every event the view has not seen, shard by shard; another process doing the same is harmless."""
    return sum(_catch_up(app, ledger, progress) for app in _each(apps))


def _catch_up(app: Any, ledger: Ledger, progress: Any) -> int:
    processed = 0
    for _ in range(100):
        try:
            for event, tracking in notifications(app, ledger.view.max_tracking_id(app.name) or 0):
                ledger.process_event(event, tracking)
                processed += 1
                if progress is not None:
                    progress.update(1)
            return processed
        except IntegrityError:  # another process recorded this event first: carry on after it
            continue
    raise RuntimeError("the ledger could not catch up")  # pragma: no cover


def rebuild(apps: Any, ledger: Ledger, progress: Any = None) -> int:
    """Forget everything the view holds, every shard's tracking with it, and catch up from zero."""
    shards = _each(apps)
    ledger.view.clear([app.name for app in shards])
    return catch_up(shards, ledger, progress)
