"""Tamper harness (issues 8 and 22): does the service name every damaged log, and where?

Plays a few games through the HTTP API (server dice: free rolls by both seats, undo requests approved,
redos, one game conceded), closes the service, and then, one mutation at a time, copies that store,
changes the copy below the service, opens a fresh service on it and asks: does `/verify` say the log is
not ok, at the seq the mutation damaged, and do the other reads and a write answer 409 SVC.DAMAGED,
appending nothing?

The forms (`KINDS`): an event's field edited; a middle row deleted; two rows' versions swapped; another
game's event spliced in; a snapshot's field; the creation metadata; the newest 1, 5 or all but one events
cut off (caught by the head record); cut off with the head record rewritten to match (a restore from an
older backup: caught by the head a seat's phone saw, sent as `Known-Head`); a chain rewritten to the head
(a die face and its total changed, every later hash recomputed: caught by the head record) and the same
with the head record rewritten too (caught by the seat's `Known-Head`); a field of a later event's `meta`,
the books its `request` digest covers; a middle row's topic.

    .venv/bin/python ops/tamper/tamper.py                      # 3 games, 1,040 mutations, SQLite
    .venv/bin/python ops/tamper/tamper.py --quick              # 2 games, 52 mutations
    .venv/bin/python ops/tamper/tamper.py --postgres postgresql://postgres@127.0.0.1:5432/test
    .venv/bin/python ops/tamper/tamper.py --postgres … --shards 4 --games 6   # games spread over 4 stores

Exit status 1 when any mutation went unnoticed or was named at another seq than the one it damaged.
"""
from __future__ import annotations

import argparse
import json
import random
import shutil
import sqlite3
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from uuid import UUID

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from fastapi.testclient import TestClient  # noqa: E402

from ops.tamper.store import PostgresStore, SqliteStore  # noqa: E402
from warlog.api.app import create_app  # noqa: E402
from warlog.api.settings import Settings  # noqa: E402
from warlog.domain.shards import shard_of  # noqa: E402

ARMIES = {seat: json.loads((ROOT / "ops" / "examples" / f"{name}-army.json").read_text())
          for seat, name in (("A", "alice"), ("B", "bob"))}
KINDS = ("edit_event", "delete_event", "swap_events", "splice_event", "edit_snapshot", "edit_creation_meta",
         "truncate_last_1", "truncate_last_5", "truncate_all_but_one", "truncate_with_head", "rewrite_chain",
         "rewrite_chain_with_head", "edit_request_meta", "edit_topic")
# what only a seat's phone can tell: the events and the head record agree with each other
SEAT_HEAD_KINDS = ("truncate_with_head", "rewrite_chain_with_head")
LIMITS = {"log_json": True, "requests_per_second": 100_000, "burst": 100_000}


@dataclass
class Game:
    id: str
    tokens: dict[str, str]

    def headers(self, role: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[role]}"}


@dataclass
class Outcome:
    kind: str
    what: str
    expected_seq: int               # the seq the mutation damaged: where the service must say it is
    verify_named: bool = False      # /verify: chain_ok false (or 409 SVC.DAMAGED where no token can be judged)
    located: bool = False           # ...at the expected seq
    reads_refused: bool = False     # /state and /events: 409 SVC.DAMAGED
    write_refused: bool = False     # a free_roll: 409 SVC.DAMAGED and no row appended
    errors: list[str] = field(default_factory=list)

    @property
    def detected(self) -> bool:
        return self.verify_named or self.reads_refused


# -- the stores ------------------------------------------------------------------------------------


class SqliteCopies:
    """The played store as one SQLite file; each mutation works on a fresh copy of it."""

    def __init__(self, tmp: Path) -> None:
        self.base, self.copy = tmp / "played.db", tmp / "tampered.db"

    def settings(self, path: Path | None = None) -> Settings:
        return Settings(db=str(path or self.base), **LIMITS)

    @contextmanager
    def fresh_copy(self) -> Iterator[tuple[Settings, SqliteStore]]:
        for suffix in ("", "-wal", "-shm"):
            Path(f"{self.copy}{suffix}").unlink(missing_ok=True)
        source, target = sqlite3.connect(self.base), sqlite3.connect(self.copy)
        try:
            source.backup(target)  # the played file with its write-ahead log folded in
        finally:
            source.close()
            target.close()
        yield self.settings(self.copy), SqliteStore(str(self.copy))

    def close(self) -> None:
        pass


class PostgresCopies:
    """The played store in one schema (every shard's tables and the recorded layout); each mutation refills a
    working schema from it."""

    def __init__(self, dsn: str, shards: int = 1) -> None:
        from uuid import uuid4

        import psycopg

        from warlog.api.shards import LAYOUT_TABLE
        from warlog.domain.shards import shard_name

        self.dsn, self.shards = dsn, shards
        self.tables = [LAYOUT_TABLE, "warlog_heads"] + [f"{shard_name(k)}_{purpose}" for k in range(shards)
                                        for purpose in ("events", "snapshots")]
        tag = uuid4().hex[:10]
        self.base, self.work = f"warlog_tamper_{tag}", f"warlog_tamper_{tag}_work"
        with psycopg.connect(dsn, autocommit=True) as db:
            for schema in (self.base, self.work):
                db.execute(f'CREATE SCHEMA "{schema}"')

    def settings(self, schema: str | None = None) -> Settings:
        return Settings(postgres=self.dsn, postgres_schema=schema or self.base, shards=self.shards, **LIMITS)

    @contextmanager
    def fresh_copy(self) -> Iterator[tuple[Settings, PostgresStore]]:
        import psycopg

        with psycopg.connect(self.dsn, autocommit=True) as db:
            for table in self.tables:
                db.execute(f'CREATE TABLE IF NOT EXISTS "{self.work}".{table} (LIKE "{self.base}".{table} '
                           "INCLUDING ALL)")
                db.execute(f'TRUNCATE "{self.work}".{table}')
                db.execute(f'INSERT INTO "{self.work}".{table} SELECT * FROM "{self.base}".{table}')
        yield self.settings(self.work), PostgresStore(self.dsn, self.work, shards=self.shards)

    def close(self) -> None:
        import psycopg

        with psycopg.connect(self.dsn, autocommit=True) as db:
            for schema in (self.base, self.work):
                db.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


# -- playing ---------------------------------------------------------------------------------------


def ok(response: Any, *statuses: int) -> dict[str, Any]:
    if response.status_code not in (statuses or (200,)):
        raise RuntimeError(f"{response.request.method} {response.request.url.path}: {response.status_code} "
                           f"{response.text[:300]}")
    return response.json()


def play(http: TestClient, rng: random.Random, actions: int, concede: bool) -> Game:
    """One game: armies, start, then `actions` random actions (free rolls, undo/approve, redo)."""
    created = ok(http.post("/games", json={"ruleset": "alternating", "dice": "server", "options": {},
                                           "players": [{"seat": "A", "name": "Alice"}, {"seat": "B", "name": "Bob"}]}),
                 201)
    game = Game(created["game_id"], created["tokens"])
    for seat, army in ARMIES.items():
        ok(http.post(f"/games/{game.id}/armies", json=army, headers=game.headers(seat)))
    ok(http.post(f"/games/{game.id}/commands", json={"type": "start_game"}, headers=game.headers("A")))
    for n in range(actions):
        seat = rng.choice("AB")
        other = "B" if seat == "A" else "A"
        move = rng.random()
        if move < 0.08:  # a dice action is undone with the other seat's consent, and sometimes redone
            if ok(http.post(f"/games/{game.id}/undo", headers=game.headers(seat)), 200, 202, 409).get("status") != 409:
                http.post(f"/games/{game.id}/undo/approve", headers=game.headers(other))
                if rng.random() < 0.5:
                    http.post(f"/games/{game.id}/redo", headers=game.headers(seat))
            continue
        roll = {"type": "free_roll", "spec": rng.choice(["D6", "2D6", "D3", "3D6"]), "purpose": f"roll {n}"}
        response = http.post(f"/games/{game.id}/commands", headers=game.headers(seat), json=roll)
        if response.status_code == 409 and response.json().get("rule") == "SVC.SETUP":
            # the walk's undos reached start_game itself (seat A may undo it unasked): start again
            ok(http.post(f"/games/{game.id}/commands", json={"type": "start_game"}, headers=game.headers("A")))
            response = http.post(f"/games/{game.id}/commands", headers=game.headers(seat), json=roll)
        ok(response)
    if concede:
        ok(http.post(f"/games/{game.id}/commands", json={"type": "concede"}, headers=game.headers("B")))
    return game


# -- mutations -------------------------------------------------------------------------------------


def leaves(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """Every scalar (and empty container) inside a JSON value, with its path."""
    if isinstance(value, dict) and value:
        for key, inner in value.items():
            yield from leaves(inner, (*path, key))
    elif isinstance(value, list) and value:
        for index, inner in enumerate(value):
            yield from leaves(inner, (*path, index))
    else:
        yield path, value


def changed(value: Any, rng: random.Random) -> Any:
    """Another value of the same kind, as an editor would type it."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + rng.choice([-2, -1, 1, 2, 7])
    if isinstance(value, str):
        if value and all(c in "0123456789abcdef" for c in value):
            return ("1" if value[0] != "1" else "2") + value[1:]  # a digest with one digit changed
        return value + rng.choice(["x", " ", "0"]) if value else "x"
    if value is None:
        return rng.choice([0, "x", True])
    if isinstance(value, list):
        return [1]
    return {"x": 1}


def set_at(root: Any, path: tuple[Any, ...], value: Any) -> None:
    for step in path[:-1]:
        root = root[step]
    root[path[-1]] = value


def edit_leaf(rng: random.Random, under: Callable[[dict[str, Any]], Any], label: list[str]) -> Callable[[dict], None]:
    def change(row: dict[str, Any]) -> None:
        target = under(row)
        path, value = rng.choice(list(leaves(target)))
        set_at(target, path, changed(value, rng))
        label.append("/".join(map(str, path)))
    return change


def roll_versions(store: SqliteStore, game_id: str, versions: list[int]) -> list[int]:
    """The versions of the game's free rolls (a die face and its total to rewrite)."""
    return [v for v in versions if store.read(game_id, v)["entry"]["type"] == "DiceRolled"]


def other_faces(row: dict[str, Any]) -> None:
    data = row["entry"]["data"]
    data["faces"] = [face % data["sides"] + 1 for face in data["faces"]]
    data["total"] = sum(data["faces"])


class Mutator:
    def __init__(self, rng: random.Random, games: list[Game], versions: dict[str, list[int]],
                 snapshots: dict[str, list[int]]) -> None:
        self.rng, self.games, self.versions, self.snapshots = rng, games, versions, snapshots

    def apply(self, kind: str, store: SqliteStore) -> tuple[Game, str, int]:
        """Mutate the store; (the game, what was done, the seq the service must name)."""
        rng = self.rng
        game = rng.choice([g for g in self.games if self.snapshots[g.id]] if kind == "edit_snapshot" else self.games)
        whole, store = store, store.of(game.id)  # the game's own shard's tables
        versions = self.versions[game.id]
        last = versions[-1]
        label: list[str] = []
        if kind == "edit_event":
            version = rng.randint(1, last)
            store.edit(game.id, version, edit_leaf(rng, lambda row: row["entry"], label))
            return game, f"event {version} entry/{label[0]}", version
        if kind == "delete_event":
            version = rng.randint(1, last - 1)
            store.delete(game.id, [version])
            return game, f"event {version} deleted", version
        if kind == "swap_events":
            first, second = sorted(rng.sample(range(1, last + 1), 2))
            store.swap(game.id, first, second)
            return game, f"events {first} and {second} swapped", first
        if kind == "splice_event":
            other = rng.choice([g for g in self.games if g is not game])
            version = rng.randint(1, last)
            theirs = rng.choice([v for v in self.versions[other.id] if abs(v - version) <= 3] or [1])
            whole.splice(game.id, version, other.id, theirs)  # the other game may be in another shard
            return game, f"event {version} replaced by event {theirs} of another game", version
        if kind == "edit_snapshot":
            version = rng.choice(self.snapshots[game.id])
            store.edit(game.id, version, edit_leaf(rng, lambda row: row["state"], label), store.snapshots)
            return game, f"snapshot {version} state/{label[0]}", version
        if kind == "edit_creation_meta":
            store.edit(game.id, 1, edit_leaf(rng, lambda row: row["meta"], label))
            return game, f"creation meta/{label[0]}", 1
        if kind.startswith("truncate"):
            cut = {"truncate_last_1": 1, "truncate_last_5": 5, "truncate_all_but_one": last - 1,
                   "truncate_with_head": rng.randint(1, min(8, last - 1))}[kind]
            store.delete(game.id, versions[-cut:])
            if kind == "truncate_with_head":  # an older copy: its head record agrees with its events
                kept = store.read(game.id, versions[-cut - 1])["entry"]
                store.set_head(game.id, kept["seq"], kept["hash"])
            return game, f"newest {cut} events cut off", last - cut + 1
        if kind.startswith("rewrite_chain"):
            version = rng.choice(roll_versions(store, game.id, versions))
            store.rewrite_chain(game.id, version, other_faces, head_too=kind == "rewrite_chain_with_head")
            # the first that still remembers the old hash there: a snapshot at or after the edit, else the head
            known = min([v for v in self.snapshots[game.id] if v >= version] or [last])
            return game, f"event {version}'s faces changed, every hash from there to the head recomputed", known
        if kind == "edit_request_meta":
            version = rng.randint(2, last)
            store.edit(game.id, version, edit_leaf(rng, lambda row: row["meta"], label))
            return game, f"event {version} meta/{label[0]}", version
        if kind == "edit_topic":
            version = rng.randint(2, last)
            topic = rng.choice(["warlog.domain.game:Game.Created", "warlog.domain.game:Game.Snapshot", "warlog.domain.game:Game.Nothing"])
            store.retopic(game.id, version, topic)
            return game, f"event {version}'s topic made {topic}", version
        raise ValueError(kind)


# -- judging ---------------------------------------------------------------------------------------


def damaged(response: Any) -> bool:
    return response.status_code == 409 and response.json().get("rule") == "SVC.DAMAGED"


def judge(http: TestClient, game: Game, outcome: Outcome, kept_head: tuple[int, str], store: SqliteStore) -> None:
    """On a fresh service: the reads and a write first (what a first load notices), then /verify. Where only a
    seat's phone can tell (`SEAT_HEAD_KINDS`), seat A's reads carry the head it saw last (`Known-Head`)."""
    role = "B"
    known = {"Known-Head": f"{kept_head[0]}:{kept_head[1]}"} if outcome.kind in SEAT_HEAD_KINDS else {}

    def reads(role: str) -> list[Any]:
        return [http.get(f"/games/{game.id}/state", headers={**game.headers(role), **known}),
                http.get(f"/games/{game.id}/events", headers=game.headers(role))]

    seen = reads(role)
    if any(r.status_code == 401 for r in seen):  # a changed token digest locks that role out
        role = "A"
        seen = reads(role)
    outcome.reads_refused = all(damaged(r) for r in seen)
    outcome.errors += [f"{r.request.url.path.rsplit('/', 1)[-1]} {r.status_code}" for r in seen if r.status_code >= 500]
    store = store.of(game.id)
    before = store.versions(game.id)
    write = http.post(f"/games/{game.id}/commands", headers=game.headers(role),
                      json={"type": "free_roll", "spec": "D6", "purpose": "over the damage"})
    outcome.write_refused = damaged(write) and store.versions(game.id) == before
    if write.status_code == 200:
        outcome.errors.append("write appended")
    for role in ("B", "A", "spectator"):
        response = http.get(f"/games/{game.id}/verify", headers=game.headers(role))
        if response.status_code == 200:
            verdict = response.json()
            outcome.verify_named = verdict["chain_ok"] is False and verdict["first_bad_seq"] is not None
            outcome.located = verdict["first_bad_seq"] == outcome.expected_seq
            return
        if damaged(response):  # the creation row itself cannot be read: no token can be judged
            outcome.verify_named = True
            outcome.located = response.json()["first_bad_seq"] == outcome.expected_seq
            return
        if response.status_code >= 500:
            outcome.errors.append(f"verify {response.status_code}")


def run(args: argparse.Namespace) -> int:
    rng = random.Random(args.seed)
    tmp = Path(tempfile.mkdtemp(prefix="warlog-tamper-"))
    copies = PostgresCopies(args.postgres, args.shards) if args.postgres else SqliteCopies(tmp)
    started = time.monotonic()
    try:
        with TestClient(create_app(copies.settings())) as http:
            def another(concede: bool) -> Game:
                return play(http, rng, args.actions + rng.randint(0, args.actions // 2), concede=concede)

            games = [another(concede=(n == 0)) for n in range(args.games)]
            # with shards, play on until every shard holds a game, so that every shard's tables are tampered with
            while len({shard_of(UUID(g.id), args.shards) for g in games}) < args.shards:
                games.append(another(concede=False))
        with copies.fresh_copy() as (_, store):
            own = {g.id: store.of(g.id) for g in games}  # each game's shard's tables
            versions = {g.id: own[g.id].versions(g.id) for g in games}
            snapshots = {g.id: own[g.id].versions(g.id, own[g.id].snapshots) for g in games}
            heads = {g.id: (versions[g.id][-1], own[g.id].read(g.id, versions[g.id][-1])["entry"]["hash"])
                     for g in games}  # the head each seat's phone saw last
            tables = sorted({own[g.id].events for g in games})
        print(f"played {len(games)} games of {', '.join(str(len(v)) for v in versions.values())} events "
              f"({sum(len(s) for s in snapshots.values())} snapshots) on "
              f"{'PostgreSQL' if args.postgres else 'SQLite'}, seed {args.seed}"
              + (f"; {args.shards} shards, the games in {', '.join(tables)}" if args.shards > 1 else ""))
        mutator = Mutator(rng, games, versions, snapshots)
        outcomes: list[Outcome] = []
        for n in range(args.mutations):
            kind = KINDS[n % len(KINDS)]
            with copies.fresh_copy() as (settings, store):
                game, what, seq = mutator.apply(kind, store)
                outcome = Outcome(kind, what, seq)
                with TestClient(create_app(settings)) as http:
                    judge(http, game, outcome, heads[game.id], store)
            outcomes.append(outcome)
            missed = not (outcome.detected and outcome.located)
            if args.verbose or missed or outcome.errors:
                print(f"  {'MISSED' if missed else 'ok    '} {kind:24} {what} (expected at {seq}) "
                      f"{' '.join(outcome.errors)}")
        return report(outcomes, time.monotonic() - started)
    finally:
        copies.close()
        shutil.rmtree(tmp, ignore_errors=True)


def share(part: int, whole: int) -> str:
    return f"{part}/{whole} ({100 * part / whole:.1f}%)" if whole else "0/0"


def report(outcomes: list[Outcome], seconds: float) -> int:
    """Per form: mutations tried, detected (by /verify or the reads), located (/verify at the damaged seq), and
    the reads and the write refused."""
    columns = ("tried", "detected", "located", "reads 409", "write refused")
    print(f"{'form':24} " + " ".join(f"{c:>18}" for c in columns))
    by_kind: dict[str, list[Outcome]] = {}
    for outcome in outcomes:
        by_kind.setdefault(outcome.kind, []).append(outcome)
    for kind in KINDS:
        rows = by_kind.get(kind, [])
        cells = (str(len(rows)), share(sum(o.detected for o in rows), len(rows)),
                 share(sum(o.located for o in rows), len(rows)), share(sum(o.reads_refused for o in rows), len(rows)),
                 share(sum(o.write_refused for o in rows), len(rows)))
        print(f"{kind:24} " + " ".join(f"{c:>18}" for c in cells))
    detected = sum(o.detected for o in outcomes)
    located = sum(o.located for o in outcomes)
    errors = Counter(e for o in outcomes for e in o.errors)
    print(f"RESULT detected {share(detected, len(outcomes))}, located {share(located, len(outcomes))} of the "
          f"mutations; server errors {sum(errors.values())}{' ' + dict(errors).__repr__() if errors else ''}; "
          f"{seconds:.0f} s")
    return 0 if detected == located == len(outcomes) and not errors else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=3, help="games played (default 3; at least 2, for splicing)")
    parser.add_argument("--actions", type=int, default=140, help="random actions per game, about (default 140)")
    parser.add_argument("--mutations", type=int, default=1040,
                        help="mutations tried, one per copy, the forms in turn (default 1,040: 74 of each form)")
    parser.add_argument("--seed", type=int, default=8)
    parser.add_argument("--postgres", metavar="DSN", help="play and tamper on PostgreSQL (a schema of its own)")
    parser.add_argument("--shards", type=int, default=1,
                        help="with --postgres: spread the games over N shards (games are added until each has one)")
    parser.add_argument("--quick", action="store_true", help="2 games, 52 mutations (CI)")
    parser.add_argument("--verbose", action="store_true", help="print every mutation")
    args = parser.parse_args(argv)
    if args.quick:
        args.games, args.mutations = 2, min(args.mutations, 4 * len(KINDS) - 4)
    args.games = max(args.games, 2)
    if args.shards > 1 and not args.postgres:
        parser.error("--shards needs --postgres")
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
