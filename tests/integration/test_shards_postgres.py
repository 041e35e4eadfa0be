"""Games spread over N event stores in one PostgreSQL database (CONTRACT.md "Scale", api/shards.py).

Each test works in a schema of its own (the `pg_schema` fixture), dropped afterwards; none skips.
"""
from __future__ import annotations

import csv
import json
import signal
import subprocess
import sys
import time
from uuid import UUID, uuid4

import httpx
import psycopg
import pytest
from fastapi.testclient import TestClient
from psycopg import sql

from ops.service import ROOT, Service, processes_on_postgres
from tests.integration.conftest import PG_URL, pg_settings, tables
from tests.support.client import GameClient, unit
from tests.support.live import WAIT_S, messages, serving
from tests.support.processes import started
from warlog.api.app import create_app
from warlog.api.cli import main as cli
from warlog.api.settings import Settings
from warlog.api.shards import LayoutRefused, Shards, reshard
from warlog.domain.shards import shard_name, shard_of

pytestmark = pytest.mark.postgres


def rows_in(schema: str, shard: int, game_id: str, purpose: str = "events") -> int:
    table = sql.Identifier(schema, f"{shard_name(shard)}_{purpose}")
    with psycopg.connect(PG_URL, autocommit=True) as db:
        return db.execute(sql.SQL("SELECT count(*) FROM {} WHERE originator_id = %s").format(table),
                          (game_id,)).fetchone()[0]


def play(game: GameClient, rolls: int) -> None:
    for n in range(rolls):
        game.cmd("AB"[n % 2], "free_roll", spec="2D6", purpose=f"roll-{n}")


def test_shard_of_is_the_ids_hash_and_spreads_games():
    game_id = UUID("8c6f5d2e-0b1a-4c3d-9e8f-7a6b5c4d3e2f")
    assert shard_of(game_id, 1) == 0
    assert shard_of(game_id, 4) == shard_of(UUID(str(game_id)), 4)  # a pure function of the id: every process
    # ids sharing their low bits (as an import or a test may pass) still spread
    spread = {shard_of(UUID(int=n << 64), 4) for n in range(64)}
    assert spread == {0, 1, 2, 3}


def test_games_land_in_their_shards_tables_and_every_read_write_stream_and_verify_works(pg_schema):
    app = create_app(pg_settings(pg_schema, shards=3, feed_poll_s=3600))
    with serving(app) as url, httpx.Client(base_url=url, timeout=WAIT_S) as http:
        games = [GameClient(http) for _ in range(6)]
        while len({shard_of(UUID(g.id), 3) for g in games}) < 3 and len(games) < 40:  # ids are random
            games.append(GameClient(http))
        assert {shard_of(UUID(g.id), 3) for g in games} == {0, 1, 2}
        assert {f"{shard_name(k)}_events" for k in range(3)} <= tables(pg_schema)
        for game in games:
            game.start([unit("scouts-1")], [unit("boyz-1")])
            play(game, 3)
            mine = shard_of(UUID(game.id), 3)
            version = game.state()["version"]
            assert [rows_in(pg_schema, k, game.id) for k in range(3)] == [version if k == mine else 0
                                                                            for k in range(3)]
            assert [e["seq"] for e in game.events("spectator")] == list(range(1, version + 1))
            verified = game.verify("B")
            assert verified["chain_ok"] is True and verified["events"] == version
        # a stream on each shard hears the next append (NOTIFY from each shard's table: polls are an hour apart)
        for game in games[:3]:
            with http.stream("GET", f"/games/{game.id}/events/stream",
                             params={"token": game.tokens["B"], "after": game.state()["version"]}) as stream:
                answer = game.cmd("A", "free_roll", spec="D6", purpose="heard")
                feed = messages(stream)
                assert [next(feed)["data"] for _ in answer["events"]] == answer["events"]
        # a token of one game opens no other, on whichever shard: 403, and a made-up game is 404
        other = next(g for g in games if shard_of(UUID(g.id), 3) != shard_of(UUID(games[0].id), 3))
        assert http.get(f"/games/{other.id}/state", headers=games[0].headers("A")).status_code == 403
        assert http.get(f"/games/{UUID(int=7)}/state", headers=games[0].headers("A")).status_code == 404


def test_two_processes_with_the_same_n_cooperate_and_a_process_with_another_n_refuses(pg_schema, tmp_path):
    env = {"WARLOG_POSTGRES_SCHEMA": pg_schema, "WARLOG_SHARDS": "2", "WARLOG_FEED_POLL_S": "3600",
           "WARLOG_KEEPALIVE_S": "1", "WARLOG_REQUESTS_PER_SECOND": "10000", "WARLOG_BURST": "10000",
           "WARLOG_GAMES_BURST": "1000", "WARLOG_LOG_JSON": "true"}
    with processes_on_postgres(PG_URL, env, tmp_path) as (first, second), \
            httpx.Client(base_url=first.url, timeout=WAIT_S) as one, \
            httpx.Client(base_url=second.url, timeout=WAIT_S) as two:
        games = [GameClient(one) for _ in range(4)]
        while len({shard_of(UUID(g.id), 2) for g in games}) < 2:
            games.append(GameClient(one))
        for game in games:
            game.start([unit("scouts-1")], [unit("boyz-1")])
            with one.stream("GET", f"/games/{game.id}/events/stream",
                            params={"token": game.tokens["spectator"], "after": game.state()["version"]}) as seen:
                game.http = two  # written on the other process, heard on this one (polls are an hour apart)
                answer = game.cmd("B", "free_roll", spec="D6", purpose="from the other process")
                feed = messages(seen)
                assert [next(feed)["data"] for _ in answer["events"]] == answer["events"]
            assert game.verify("A")["chain_ok"] is True
        # while they serve, the games cannot be moved
        with pytest.raises(LayoutRefused, match="stop every one"):
            reshard(pg_settings(pg_schema, shards=2), 3)
        # a third process given another N refuses to start, naming the recorded N and the way to move
        odd = Service(["--postgres", PG_URL], {**env, "WARLOG_SHARDS": "3"}, tmp_path / "odd.err")
        with pytest.raises(RuntimeError, match=r"spread over 2 shards.*--shards 2.*warlog reshard"):
            odd.start()
    with pytest.raises(LayoutRefused, match="spread over 2 shards"):
        Shards.open(pg_settings(pg_schema, shards=1))


@pytest.mark.postgres
def test_a_database_that_does_not_store_text_as_utf8_is_refused_at_start_with_how_to_make_one():
    """In a SQL_ASCII database psycopg reads text back as bytes: every game would read as damaged at creation."""
    name = f"warlog_ascii_{uuid4().hex[:8]}"
    with psycopg.connect(PG_URL, autocommit=True) as db:
        db.execute(sql.SQL("CREATE DATABASE {} ENCODING 'SQL_ASCII' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0")
                   .format(sql.Identifier(name)))
    try:
        ascii_url = PG_URL.rsplit("/", 1)[0] + "/" + name
        with pytest.raises(LayoutRefused, match=r"stores text as SQL_ASCII.*needs UTF8.*ENCODING 'UTF8'"):
            Shards.open(Settings(postgres=ascii_url))
        with psycopg.connect(ascii_url, autocommit=True) as db:  # refused before a table was made
            assert db.execute("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'").fetchone()[0] == 0
    finally:
        with psycopg.connect(PG_URL, autocommit=True) as db:
            db.execute(sql.SQL("DROP DATABASE {} WITH (FORCE)").format(sql.Identifier(name)))


def test_sqlite_refuses_more_than_one_shard(tmp_path):
    with pytest.raises(LayoutRefused, match="needs PostgreSQL"):
        Shards.open(Settings(db=str(tmp_path / "w.db"), shards=2))


def test_export_analytics_and_the_ledger_see_every_shard(pg_schema, tmp_path, monkeypatch, capsys):
    app = create_app(pg_settings(pg_schema, shards=3))
    with TestClient(app) as http:
        games = [GameClient(http) for _ in range(8)]
        for game in games:
            game.start([unit("scouts-1")], [unit("boyz-1")])
            play(game, 2)
        events = sum(game.state()["version"] for game in games)
    assert len({shard_of(UUID(g.id), 3) for g in games}) > 1
    monkeypatch.setenv("WARLOG_POSTGRES_SCHEMA", pg_schema)
    capsys.readouterr()
    cli(["export", "--postgres", PG_URL, "--shards", "3", "--out", str(tmp_path / "out"), "--format", "csv"])
    counts = json.loads(capsys.readouterr().out)
    assert counts["games"] == 8 and counts["events"] == events
    with (tmp_path / "out" / "games.csv").open() as file:
        assert {row["game_id"] for row in csv.DictReader(file)} == {g.id for g in games}
    cli(["analytics", "--postgres", PG_URL, "--shards", "3"])
    summary = json.loads(capsys.readouterr().out)
    assert summary["games"] == 8
    rolled = sum(d["dice"] for seat in summary["dice"].values() for p, d in seat.items() if p.startswith("roll"))
    assert rolled == 8 * 2 * 2  # two 2D6 free rolls in each game, from every shard
    # a rebuild from zero, every shard's tracking forgotten with it, counts the same
    cli(["analytics", "--postgres", PG_URL, "--shards", "3", "--rebuild"])
    assert json.loads(capsys.readouterr().out) == summary
    with pytest.raises(SystemExit, match="spread over 3 shards"):  # a tool given another N refuses too
        cli(["export", "--postgres", PG_URL, "--shards", "2", "--out", str(tmp_path / "no")])


def test_reshard_moves_every_game_to_its_new_shard_with_chains_versions_and_verify_intact(pg_schema, tmp_path,
                                                                                           monkeypatch, capsys):
    app = create_app(pg_settings(pg_schema))  # a database served with one shard
    with TestClient(app) as http:
        games = [GameClient(http) for _ in range(6)]
        for n, game in enumerate(games):
            game.start([unit("scouts-1")], [unit("boyz-1")])
            play(game, 2 if n else 110)  # the first one past a snapshot (every 100 events)
        before = {game.id: (game.verify("A"), game.events("A")) for game in games}
    assert rows_in(pg_schema, 0, games[0].id, "snapshots") == 1
    monkeypatch.setenv("WARLOG_POSTGRES_SCHEMA", pg_schema)
    cli(["analytics", "--postgres", PG_URL])  # the ledger has counted shard 0's notifications
    capsys.readouterr()
    with pytest.raises(LayoutRefused, match="spread over 1 shard"):
        Shards.open(pg_settings(pg_schema, shards=4))

    cli(["reshard", "--postgres", PG_URL, "--shards", "4"])
    moved = json.loads(capsys.readouterr().out)
    expected = [g for g in games if shard_of(UUID(g.id), 4) != 0]
    assert moved["from"] == 1 and moved["to"] == 4 and moved["games_moved"] == len(expected)
    for game in games:
        mine = shard_of(UUID(game.id), 4)
        assert [bool(rows_in(pg_schema, k, game.id)) for k in range(4)] == [k == mine for k in range(4)]
    assert rows_in(pg_schema, shard_of(UUID(games[0].id), 4), games[0].id, "snapshots") == 1

    with pytest.raises(LayoutRefused, match="spread over 4 shards"):
        Shards.open(pg_settings(pg_schema))
    app = create_app(pg_settings(pg_schema, shards=4))
    with TestClient(app) as http:
        for game in games:
            game.http = http
            verified, log = before[game.id]
            assert game.events("A") == log and game.verify("A") == verified  # same chain, same head, dice ok
            answer = game.cmd("A", "free_roll", spec="D6", purpose="after the move")
            assert answer["version"] == verified["events"] + 1
            assert game.verify("B")["chain_ok"] is True
    capsys.readouterr()  # the request log
    cli(["analytics", "--postgres", PG_URL, "--shards", "4"])  # the ledger, emptied by the move, counts again
    assert json.loads(capsys.readouterr().out)["games"] == 6
    # back to two: the games of shards 2 and 3 move again, and nothing is left behind
    assert reshard(pg_settings(pg_schema, shards=4), 2)["to"] == 2
    for game in games:
        assert rows_in(pg_schema, shard_of(UUID(game.id), 2), game.id) == before[game.id][0]["events"] + 1


def test_a_reshard_cut_short_refuses_every_process_until_it_is_run_again(pg_schema):
    app = create_app(pg_settings(pg_schema))
    with TestClient(app) as http:
        games = [GameClient(http) for _ in range(4)]
    with psycopg.connect(PG_URL, autocommit=True) as db:  # as a reshard to 2 leaves it when killed midway
        db.execute(sql.SQL("UPDATE {} SET moving_to = 2").format(sql.Identifier(pg_schema, "warlog_shards")))
    for n in (1, 2):
        with pytest.raises(LayoutRefused, match=r"did not finish.*--shards 2"):
            Shards.open(pg_settings(pg_schema, shards=n))
    with pytest.raises(LayoutRefused, match="finish it first"):
        reshard(pg_settings(pg_schema), 3)
    reshard(pg_settings(pg_schema), 2)
    shards = Shards.open(pg_settings(pg_schema, shards=2))
    try:
        assert all(shards.of(UUID(g.id)).read(UUID(g.id)).version == 1 for g in games)
    finally:
        shards.close()


def test_warlog_serve_refuses_another_n_with_a_clear_message(pg_schema):
    Shards.open(pg_settings(pg_schema, shards=2)).close()
    done = subprocess.run([sys.executable, "-m", "warlog.api.cli", "serve", "--postgres", PG_URL, "--shards", "3",
                           "--port", "0"], cwd=ROOT, env={"WARLOG_POSTGRES_SCHEMA": pg_schema, "PATH": ""},
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert "warlog serve: this database's games are spread over 2 shards" in done.stderr
    assert "Traceback" not in done.stderr


def test_warlog_project_follows_every_shard_into_the_one_ledger(pg_schema, tmp_path):
    settings = pg_settings(pg_schema, shards=3)
    shards = Shards.open(settings)
    log = tmp_path / "project.log"
    try:
        with started([sys.executable, "-m", "warlog.api.cli", "project", "--postgres", PG_URL, "--shards", "3"], log,
                     cwd=ROOT, env={"WARLOG_POSTGRES_SCHEMA": pg_schema, "PATH": ""}) as follower:
            ids: set[str] = set()
            while len({shard_of(UUID(g), 3) for g in ids}) < 3:  # a game on every shard, appended while it follows
                ids.add(shards.create_game("alternating", {"A": "Al", "B": "Bo"}, "server", {}, "2026-01-01T00:00:00Z")
                        ["game_id"])
            deadline = time.monotonic() + WAIT_S * 2
            seen: set[str] = set()
            while seen != ids:
                assert follower.poll() is None, log.read_text()[-2000:]
                assert time.monotonic() < deadline, (seen, ids, log.read_text()[-2000:])
                time.sleep(0.2)
                with psycopg.connect(PG_URL, autocommit=True) as db:
                    if db.execute("SELECT to_regclass(%s)", (f"{pg_schema}.warlog_ledger_games",)).fetchone()[0]:
                        seen = {str(row[0]) for row in db.execute(sql.SQL("SELECT game_id FROM {}").format(
                            sql.Identifier(pg_schema, "warlog_ledger_games"))).fetchall()}
            # while it follows, the games cannot be moved: the ledger would count the moved rows again
            with pytest.raises(LayoutRefused, match=r"`warlog project` process.*stop every one"):
                reshard(settings, 2)
            # SIGTERM stops it gracefully (its runners closed): a service manager's stop is no crash
            follower.send_signal(signal.SIGTERM)
            assert follower.wait(WAIT_S) == 0, log.read_text()[-2000:]
    finally:
        shards.close()
    assert reshard(settings, 2)["to"] == 2  # and once it has stopped, they can


def test_each_shards_pool_is_kept_small_so_a_process_holds_about_the_same_connections_whatever_n(pg_schema):
    shards = Shards.open(pg_settings(pg_schema, shards=4))
    try:
        pools = [app.recorder.datastore.pool for app in shards]
        assert [(pool.min_size, pool.max_size) for pool in pools] == [(2, 4)] * 4  # 16 at most, not 4 × 15
    finally:
        shards.close()
