"""N event stores in one PostgreSQL database (CONTRACT.md "Scale"): `--shards N` / `WARLOG_SHARDS`.

Each shard is one eventsourcing Application of its own (`Warlog.shard(k)`), named `warlog` for shard 0 and
`warlog_shard<k>` for the others, so each has its own tables in the same database and schema
(`<name>_events`, `<name>_snapshots`) and so its own table lock: the library's PostgreSQL recorder locks its
events table for every append so that notification ids commit in order, which caps one store's write rate
for every process together. A game's shard is `domain.shards.shard_of(game id, N)`; its tokens carry its id,
so a token finds its shard too. The idempotency refusals, the limits and the ledger stay one per database.

Every process serving a database must be given the same N: the first process records N in
`<schema>.warlog_shards`, and a process started with another N refuses to start, naming the recorded N and
`warlog reshard`, which moves every game to the shard N names (`reshard`, below). A database served before
shards were recorded holds its games in `warlog_events`: one shard. SQLite and the in-memory store have
one writer per file anyway; they refuse N > 1.
"""
from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any
from uuid import UUID, uuid4

from eventsourcing.utils import Environment

from warlog.domain.application import Warlog
from warlog.domain.shards import shard_name, shard_of

if TYPE_CHECKING:
    from warlog.api.settings import Settings

LAYOUT_TABLE = "warlog_shards"
SERVE_TAG = "warlog serve"  # the application_name of each serving process's listening connection
PROJECT_TAG = "warlog project"  # and of the connection each `warlog project` holds while it follows


class LayoutRefused(RuntimeError):
    """The database's games are laid out over another number of shards than this process was given."""


class Shards:
    """The shards' applications, and the game (or token) each request belongs to routed to its own."""

    def __init__(self, apps: list[Warlog]) -> None:
        self.apps = apps
        self.n = len(apps)

    @classmethod
    def open(cls, settings: Settings, check_layout: bool = True) -> Shards:
        pg = settings.postgres_params()
        if settings.shards > 1 and pg is None:
            raise LayoutRefused(f"--shards {settings.shards} needs PostgreSQL (--postgres): SQLite and the "
                                "in-memory store take one writer at a time, however many stores")
        if pg is not None:
            check_encoding(pg)
        if pg is not None and check_layout:
            record_layout(pg, settings.shards)
        apps: list[Warlog] = []
        try:
            for shard in range(settings.shards):
                apps.append(Warlog.shard(shard)(env=shard_env(settings, shard)))
        except BaseException:
            for app in apps:
                app.close()
            raise
        return cls(apps)

    def __iter__(self) -> Iterator[Warlog]:
        return iter(self.apps)

    def of(self, game_id: UUID) -> Warlog:
        """The application holding `game_id` (whether it exists or not)."""
        return self.apps[shard_of(game_id, self.n)] if self.n > 1 else self.apps[0]

    def of_token(self, token: str) -> Warlog | None:
        if self.n == 1:
            return self.apps[0]
        try:
            return self.of(UUID(hex=token.partition(".")[0]))
        except ValueError:
            return None

    def create_game(self, ruleset: str, players: dict[str, str], dice_mode: str, options: dict[str, Any], at: str,
                    game_id: UUID | None = None, seed: bytes | None = None) -> dict[str, Any]:
        """`Warlog.create_game` on the shard the new game's id names (drawn here unless given)."""
        game_id = game_id or uuid4()
        return self.of(game_id).create_game(ruleset, players, dice_mode, options, at, game_id=game_id, seed=seed)

    def known_role(self, token: str) -> tuple[UUID, str] | None:
        app = self.of_token(token)
        return app.known_role(token) if app is not None else None

    def role_of(self, token: str) -> tuple[UUID, str] | None:
        app = self.of_token(token)
        return app.role_of(token) if app is not None else None

    def close(self) -> None:
        for app in self.apps:
            app.close()


POOL_BUDGET = 16  # connections a process's shard pools may hold together at most (beside the limits' and the
                  # refusals' pools of up to 4 each, the deferred appends' 8 (api/storage.py AsyncAppends), the
                  # listener's one and the stream slots' one)


def shard_env(settings: Settings, shard: int) -> dict[str, str]:
    """The library's keys for shard `shard`. With N > 1 each process holds N pools, so each keeps 2 connections
    open (the library's default is 5) and grows by at most max(1, 16 / N − 2) under load (the library's: 10):
    about 16 a process for their part whatever N, not N × 15. POSTGRES_POOL_SIZE and POSTGRES_MAX_OVERFLOW in
    the environment (or prefixed with a shard's name, `WARLOG_SHARD2_…`) say otherwise."""
    env = settings.eventsourcing_env(shard)
    name = shard_name(shard)
    if settings.shards > 1:
        library = Environment(name, dict(os.environ))
        if library.get("POSTGRES_POOL_SIZE") is None:
            env[f"{name.upper()}_POSTGRES_POOL_SIZE"] = "2"
        if library.get("POSTGRES_MAX_OVERFLOW") is None:
            env[f"{name.upper()}_POSTGRES_MAX_OVERFLOW"] = str(max(1, POOL_BUDGET // settings.shards - 2))
    return env


# -- the layout recorded in the database ------------------------------------------------------------------

@contextmanager
def layout_transaction(pg: dict[str, Any]) -> Iterator[tuple[Any, Callable[[str], str]]]:
    """A transaction holding the layout's advisory lock, with `q(name)` giving `"schema".name`."""
    import psycopg
    from psycopg import sql

    params = {key: value for key, value in pg.items() if key != "schema"}
    schema = pg.get("schema") or "public"

    def q(name: str) -> str:
        return sql.Identifier(schema, name).as_string(None)

    with psycopg.connect(**params, connect_timeout=10) as conn, conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(hashtext('warlog_shards'), hashtext(%s))", (schema,))
        conn.execute(f"CREATE TABLE IF NOT EXISTS {q(LAYOUT_TABLE)} (one boolean PRIMARY KEY DEFAULT true "
                     "CHECK (one), shards integer NOT NULL, moving_to integer, since timestamptz DEFAULT now())")
        yield conn, q


def stored_layout(conn: Any, q: Callable[[str], str]) -> tuple[int | None, int | None]:
    """(the recorded N, the N an unfinished reshard was moving to); N is 1 for a database that holds games
    from before N was recorded, None for an empty one."""
    row = conn.execute(f"SELECT shards, moving_to FROM {q(LAYOUT_TABLE)}").fetchone()
    if row is not None:
        return row[0], row[1]
    legacy = conn.execute("SELECT to_regclass(%s)", (q(f"{shard_name(0)}_events"),)).fetchone()[0]
    if legacy is not None and conn.execute(f"SELECT EXISTS (SELECT 1 FROM {q(shard_name(0) + '_events')})"
                                           ).fetchone()[0]:
        return 1, None
    return None, None


def record_layout(pg: dict[str, Any], shards: int) -> None:
    """Record N on first start; refuse (LayoutRefused) a process given another N than the recorded one."""
    with layout_transaction(pg) as (conn, q):
        recorded, moving_to = stored_layout(conn, q)
        if moving_to is not None:
            raise LayoutRefused(f"a reshard from {recorded} to {moving_to} shards did not finish: run "
                                f"`warlog reshard --shards {moving_to}` again (every process stopped) to finish it")
        if recorded is not None and recorded != shards:
            raise LayoutRefused(
                f"this database's games are spread over {recorded} shard{'s' if recorded > 1 else ''}, and this "
                f"process was given {shards}: start every process with --shards {recorded} "
                f"(WARLOG_SHARDS={recorded}), or stop them all and move the games with "
                f"`warlog reshard --postgres DSN --shards {shards}`")
        conn.execute(f"INSERT INTO {q(LAYOUT_TABLE)} (shards) VALUES (%s) ON CONFLICT (one) DO NOTHING", (shards,))


def serving_processes(conn: Any, schema: str) -> int:
    """How many `warlog serve` and `warlog project` processes are using this database and schema now (each
    holds a connection named for it: the serving processes' listener, the projector's `present`)."""
    count: int = conn.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                              "AND application_name IN (%s, %s)", (serve_tag(schema), serve_tag(schema, PROJECT_TAG))
                              ).fetchone()[0]
    return count


def serve_tag(schema: str, role: str = SERVE_TAG) -> str:
    return f"{role} {schema or 'public'}"[:63]


@contextmanager
def present(pg: dict[str, Any], role: str) -> Iterator[None]:
    """Holds a connection named `<role> <schema>` while the block runs, so that `reshard` sees this process
    (PostgreSQL drops the connection, and so the name, when the process dies)."""
    with _connect(pg, application_name=serve_tag(pg.get("schema") or "", role)):
        yield


# -- moving games between layouts ------------------------------------------------------------------------

LEDGER_TABLES = ("warlog_ledger_games", "warlog_ledger_dice", "warlog_ledger_facts", "warlog_ledger_tracking")


def reshard(settings: Settings, to: int, say: Callable[[str], None] = lambda text: None) -> dict[str, Any]:
    """Move every game to the shard `to` shards name for it, with every serving and projecting process stopped.

    Each game moves in one transaction: its rows (events and snapshots, byte for byte, so hash chains,
    versions and `/verify` are as they were) are inserted into the target shard's tables under that
    table's lock (new notification ids, in order) and deleted from the old ones. The layout records the
    move before the first game and its end after the last, so a reshard cut short refuses every process
    until it is run again, and runs on from where it stopped. The ledger (a projection, kept by
    notification id per shard) is emptied: the next `warlog analytics` or `warlog project` rebuilds it."""
    pg = settings.postgres_params()
    if pg is None:
        raise LayoutRefused("warlog reshard moves games between PostgreSQL shards: give --postgres DSN")
    schema = pg.get("schema") or "public"
    with layout_transaction(pg) as (conn, q):
        if serving := serving_processes(conn, schema):
            raise LayoutRefused(f"{serving} `warlog serve` or `warlog project` process(es) are "
                                "using this database and schema: stop every one before moving games between shards")
        recorded, moving_to = stored_layout(conn, q)
        if moving_to is not None and moving_to != to:
            raise LayoutRefused(f"a reshard from {recorded} to {moving_to} shards did not finish: finish it first "
                                f"(`warlog reshard --shards {moving_to}`)")
        start = recorded or to
        conn.execute(f"INSERT INTO {q(LAYOUT_TABLE)} (shards, moving_to) VALUES (%s, %s) ON CONFLICT (one) "
                     "DO UPDATE SET moving_to = excluded.moving_to", (start, to))
    # the target shards' tables, made by the library as any process would make them
    Shards.open(settings.model_copy(update={"shards": to}), check_layout=False).close()
    moved = events = 0
    with _connect(pg) as conn:
        for shard in range(max(start, to)):
            if not _exists(conn, _table(schema, shard, "events")):
                continue
            games = [row[0] for row in conn.execute(
                f"SELECT DISTINCT originator_id FROM {_table(schema, shard, 'events')}").fetchall()]
            for game_id in games:
                target = shard_of(game_id, to)
                if target != shard:
                    events += _move(conn, schema, game_id, shard, target)
                    moved += 1
                    say(f"moved game {game_id}: shard {shard} -> {target}")
    with layout_transaction(pg) as (conn, q):
        for table in LEDGER_TABLES:
            if _exists(conn, q(table)):
                conn.execute(f"DELETE FROM {q(table)}")
        conn.execute(f"UPDATE {q(LAYOUT_TABLE)} SET shards = %s, moving_to = NULL, since = now()", (to,))
    return {"from": start, "to": to, "games_moved": moved, "events_moved": events}


def check_encoding(pg: dict[str, Any]) -> None:
    """Refuse (LayoutRefused) a database that does not store text as UTF8. In one made with SQL_ASCII (initdb
    where no locale is installed picks it) psycopg reads every text column back as bytes, so that each game would
    be stored and then read as damaged at its creation (found running the compose recipe, ops/deploy)."""
    with _connect(pg) as conn:
        encoding = conn.execute("SHOW server_encoding").fetchone()[0]
    if isinstance(encoding, bytes):  # as every text is read from such a database
        encoding = encoding.decode("ascii", "replace")
    if encoding.upper() not in ("UTF8", "UTF-8"):
        raise LayoutRefused(f"the database {pg.get('dbname')!r} stores text as {encoding}, and warlog needs UTF8: "
                            f"create it with CREATE DATABASE … ENCODING 'UTF8' TEMPLATE template0 (or initdb "
                            "--encoding=UTF8)")


def _connect(pg: dict[str, Any], **options: Any) -> Any:
    """An autocommit connection (each of reshard's moves is a transaction of its own)."""
    import psycopg

    return psycopg.connect(**{key: value for key, value in pg.items() if key != "schema"}, connect_timeout=10,
                           autocommit=True, **options)


def _table(schema: str, shard: int, purpose: str) -> str:
    from psycopg import sql

    return sql.Identifier(schema or "public", f"{shard_name(shard)}_{purpose}").as_string(None)


def _exists(conn: Any, qualified: str) -> bool:
    return conn.execute("SELECT to_regclass(%s)", (qualified,)).fetchone()[0] is not None


def _move(conn: Any, schema: str, game_id: UUID, source: int, target: int) -> int:
    """One game's rows from shard `source` to `target` in one transaction; the events moved."""
    with conn.transaction():
        events, snapshots = _table(schema, target, "events"), _table(schema, target, "snapshots")
        conn.execute(f"LOCK TABLE {events} IN EXCLUSIVE MODE")  # as the library's append: ids commit in order
        count = conn.execute(
            f"INSERT INTO {events} (originator_id, originator_version, topic, state) SELECT originator_id, "
            f"originator_version, topic, state FROM {_table(schema, source, 'events')} WHERE originator_id = %s "
            "ORDER BY originator_version", (game_id,)).rowcount
        old_snapshots = _table(schema, source, "snapshots")
        if _exists(conn, old_snapshots):
            conn.execute(f"INSERT INTO {snapshots} (originator_id, originator_version, topic, state) SELECT "
                         f"originator_id, originator_version, topic, state FROM {old_snapshots} "
                         "WHERE originator_id = %s", (game_id,))
            conn.execute(f"DELETE FROM {old_snapshots} WHERE originator_id = %s", (game_id,))
        conn.execute(f"DELETE FROM {_table(schema, source, 'events')} WHERE originator_id = %s", (game_id,))
    moved: int = count
    return moved
