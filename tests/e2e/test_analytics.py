"""Analytics (luck against the exact distribution, pass points, activations, losses), the export an
analyst loads as it is, and the ledger projection: kept up to date, it equals a rebuild from zero."""
import csv
import io
import itertools
import json
import re
from datetime import datetime
from fractions import Fraction
from uuid import UUID

import pytest

from tests.support.client import unit
from warlog.api.cli import main as warlog_cli
from warlog.projections.analytics import luck
from warlog.projections.ledger import catch_up, ledger_env, open_ledger, rebuild
from warlog.projections.rows import DIE_COLUMNS, EVENT_COLUMNS, game_rows


def brute_force(n, sides, total, low_is_good):
    rolls = [sum(r) for r in itertools.product(range(1, sides + 1), repeat=n)]
    good = [t for t in rolls if (t <= total if low_is_good else t >= total)]
    worse = [t for t in rolls if (t > total if low_is_good else t < total)]
    equal = rolls.count(total)
    return Fraction(len(good), len(rolls)), 100 * (Fraction(len(worse), len(rolls)) + Fraction(equal, 2 * len(rolls)))


@pytest.mark.parametrize("n,sides,total,low", [(1, 6, 6, False), (2, 6, 7, False), (2, 6, 4, True),
                                               (3, 6, 15, False), (4, 3, 5, True), (5, 6, 12, False)])
def test_the_luck_of_a_total_is_the_exact_share_of_rolls_at_least_as_good(n, sides, total, low):
    p, percentile = brute_force(n, sides, total, low)
    assert luck(n, sides, total, low) == {"p_at_least_this_good": round(float(p), 6),
                                          "luck_percentile": round(float(percentile), 2), "method": "exact"}


def analytics(game, role="A"):
    response = game.http.get(f"/games/{game.id}/analytics", headers=game.headers(role))
    assert response.status_code == 200, response.text
    return response.json()


def played(new_game):
    """Rolls, counts, a pass, a move and a unit lost — with one of A's rolls undone."""
    game = new_game()
    game.start([unit("scouts-1"), unit("scouts-2"), unit("scouts-3")], [unit("boyz-1", 3)])
    game.cmd("A", "free_roll", spec="3D6", purpose="terrain")
    game.cmd("A", "free_roll", spec="2D6", purpose="terrain")
    assert game.post("A", "undo").status_code == 202 and game.post("B", "undo/approve").status_code == 200
    game.cmd("A", "confirm_count")
    game.cmd("B", "confirm_count")  # B counts 1 against 3: two pass points for B
    while game.state()["awaiting"]["action"] == "roll_off":  # a tie is rolled again (CORE.DICE.3)
        game.cmd("A", "roll_off")
    state = game.state()
    if state["awaiting"]["action"] == "choose_order":
        game.cmd(state["awaiting"]["seat"], "choose_order", first="B")
    game.cmd("B", "pass")
    game.cmd("A", "select", unit="scouts-1", act=True)
    game.cmd("A", "record_casualties", unit="boyz-1", models=3)
    return game


def standing_rolls(game, seat, purpose):
    return [e for e in game.events() if e["type"] == "DiceRolled" and not e["undone"]
            and e["data"]["seat"] == seat and e["data"]["purpose"] == purpose]


def test_a_games_analytics_sets_each_seats_faces_against_the_exact_distribution(new_game):
    game = played(new_game)
    seen = analytics(game, "spectator")
    [roll] = standing_rolls(game, "A", "terrain")
    faces = roll["data"]["faces"]
    terrain = seen["dice"]["A"]["terrain"]
    assert terrain["dice"] == 3 and terrain["total"] == sum(faces) and terrain["undone_dice"] == 2
    assert terrain["faces"] == {str(f): faces.count(f) for f in range(1, 7)}
    p, percentile = brute_force(3, 6, sum(faces), False)
    assert terrain["p_at_least_this_good"] == round(float(p), 6)
    assert terrain["luck_percentile"] == round(float(percentile), 2)
    roll_offs = [e for e in game.events() if e["type"] == "RollOff"]
    assert seen["dice"]["A"]["roll_off"]["total"] == sum(e["data"]["dice"]["A"] for e in roll_offs)


def test_a_games_analytics_counts_pass_points_activations_and_losses(new_game):
    seen = analytics(played(new_game))
    assert seen["pass_points"]["B"] == {"earned": 2, "spent": 1}
    assert seen["activations"] == {"A": {"movement": 1}}
    assert seen["units_destroyed"] == {"B": {"count": 1, "units": ["boyz-1"]}}


def test_regroup_rolls_count_low_totals_as_good(new_game):
    game = new_game()
    game.start([unit("scouts-1", statuses=("falling_back",))], [unit("boyz-1")])
    game.cmd("A", "select", unit="scouts-1", act=True)
    assert analytics(game)["dice"]["A"]["regroup"]["better"] == "low"


def export(game, fmt, table, role="A"):
    response = game.http.get(f"/games/{game.id}/export", params={"format": fmt, "table": table},
                             headers=game.headers(role))
    assert response.status_code == 200, response.text
    return response


def test_the_dice_export_is_one_flat_csv_row_per_die(new_game):
    game = played(new_game)
    response = export(game, "csv", "dice")
    assert response.headers["content-type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(response.text)))
    assert tuple(rows[0]) == DIE_COLUMNS
    rolled = [e for e in game.events() if "faces" in e["data"]]
    assert len(rows) == sum(len(e["data"]["faces"]) for e in rolled)
    assert [int(r["face"]) for r in rows] == [f for e in rolled for f in e["data"]["faces"]]
    assert {r["undone"] for r in rows} == {"true", "false"}
    assert all(datetime.fromisoformat(r["at"].replace("Z", "+00:00")) for r in rows)


def test_the_events_export_is_ndjson_with_the_data_as_an_object_and_the_proof_beside_it(new_game):
    game = played(new_game)
    lines = export(game, "ndjson", "events").text.splitlines()
    rows = [json.loads(line) for line in lines]
    events = game.events()
    assert [r["seq"] for r in rows] == [e["seq"] for e in events]
    assert all(tuple(r) == EVENT_COLUMNS for r in rows)
    flat = [c for c in EVENT_COLUMNS if c not in ("data", "sent")]
    assert all(not isinstance(r[c], (dict, list)) for r in rows for c in flat)
    assert [r["data"] for r in rows] == [e["data"] for e in events]
    assert [r["undone"] for r in rows] == [e["undone"] for e in events]
    assert [(r["prev_hash"], r["hash"], r["request"]) for r in rows] == [
        (e["prev_hash"], e["hash"], e.get("request")) for e in events]
    assert rows[0]["sent"] is None and rows[0]["server_seed"] is None  # the creation's books stay inside
    assert all(r["sent"]["sent_by"] in ("A", "B") for r in rows[1:] if r["sent"])


def test_the_csv_events_export_keeps_the_data_as_its_json_text(new_game):
    game = played(new_game)
    rows = list(csv.DictReader(io.StringIO(export(game, "csv", "events").text)))
    assert [json.loads(r["data"]) for r in rows] == [e["data"] for e in game.events()]


def test_the_ledger_kept_up_to_date_equals_the_ledger_rebuilt_from_zero_and_the_log(new_game, app, tmp_path):
    warlog = app.state.shards.apps[0]
    kept = open_ledger(ledger_env(dict(warlog.env)))
    game = new_game()
    game.start([unit("scouts-1", statuses=("falling_back",)), unit("scouts-2")], [unit("boyz-1")])
    catch_up(warlog, kept)
    game.cmd("A", "select", unit="scouts-1", act=True)
    game.post("A", "undo")
    catch_up(warlog, kept)  # the undo request is still pending here
    game.post("B", "undo/approve")
    catch_up(warlog, kept)
    game.cmd("A", "select", unit="scouts-1", act=True)
    game.cmd("A", "confirm_count")
    game.post("A", "undo")
    game.post("A", "redo")
    catch_up(warlog, kept)

    fresh = open_ledger({"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp_path / "fresh.db")})
    assert rebuild(warlog, fresh) > 0
    for table in ("games", "dice", "facts"):
        assert kept.view.rows(table) == fresh.view.rows(table)
    from_log = game_rows(game.id, game.events())
    assert kept.view.rows("dice", game.id) == from_log.dice
    assert kept.view.rows("facts", game.id) == from_log.facts
    assert any(r["undone"] for r in from_log.dice) and any(not r["undone"] for r in from_log.dice)

    rebuild(warlog, kept)  # a rebuild in place gives the same rows again
    assert kept.view.rows("dice") == fresh.view.rows("dice")


def test_warlog_export_and_analytics_cover_every_game_in_the_store(new_game, app, tmp_path, capsys):
    games = [played(new_game), played(new_game)]
    events = sum(len(g.events()) for g in games)
    db = app.state.settings.db
    capsys.readouterr()  # the requests' log lines so far
    warlog_cli(["export", "--db", db, "--out", str(tmp_path / "out"), "--format", "csv"])
    counts = json.loads(capsys.readouterr().out)
    assert counts["games"] == 2 and counts["events"] == events
    with (tmp_path / "out" / "events.csv").open() as exported:
        assert {UUID(r["game_id"]) for r in csv.DictReader(exported)} == {UUID(g.id) for g in games}

    warlog_cli(["analytics", "--db", db])
    across = json.loads(capsys.readouterr().out)
    assert across["games"] == 2 and across["rulesets"] == {"alternating": 2}
    assert across["dice"]["A"]["terrain"]["dice"] == 6
    assert across["pass_points"]["B"] == {"earned": 4, "spent": 2}
    assert across["units_destroyed"] == {"B": {"count": 2}}


@pytest.mark.parametrize("tool", [["export", "--out", "out"], ["analytics"], ["project"]])
def test_a_tool_that_only_reads_refuses_a_database_that_is_not_there(tmp_path, tool, monkeypatch):
    """A typo in --db is said at once, and no empty database is left behind under the mistyped name."""
    monkeypatch.chdir(tmp_path)
    typo = tmp_path / "warlgo.db"
    with pytest.raises(SystemExit) as refused:
        warlog_cli([tool[0], "--db", str(typo), *tool[1:]])
    assert str(refused.value) == (f"warlog {tool[0]}: no database at {typo}: give the file `warlog serve` writes "
                                  f"(--db PATH, or WARLOG_DB), or --postgres")
    assert list(tmp_path.iterdir()) == []


def test_warlog_project_follows_the_store_into_the_ledger_until_stopped(new_game, app, tmp_path):
    """`warlog project` on SQLite: what was played before it started, and what is played while it runs; SIGTERM
    (what a service manager sends, and what reaches a job started with `&`, which ignores SIGINT) stops it."""
    import signal
    import sys
    import time

    from tests.support.processes import output, started

    store = app.state.shards.apps[0]

    def caught_up(ledger, seconds=20):
        """Wait until the process's ledger has seen every event in the store."""
        deadline = time.monotonic() + seconds
        while (ledger.view.max_tracking_id(store.name) or 0) < store.recorder.max_notification_id():
            assert process.poll() is None, output(process)
            assert time.monotonic() < deadline, f"warlog project did not catch up: {output(process)}"
            time.sleep(0.2)

    def games_in(ledger, games):
        assert {row["game_id"] for row in ledger.view.rows("games")} == {game.id for game in games}
        for game in games:
            assert ledger.view.rows("dice", game.id) == game_rows(game.id, game.events()).dice

    before = played(new_game)
    ledger = open_ledger(ledger_env(app.state.settings.eventsourcing_env()))  # the file beside the store
    # SIGINT ignored, as a background job inherits it: only SIGTERM can stop it gracefully
    with started([sys.executable, "-m", "warlog.api.cli", "project", "--db", app.state.settings.db], tmp_path / "project.log",
                 preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN)) as process:
        caught_up(ledger)
        games_in(ledger, [before])
        during = played(new_game)
        caught_up(ledger)
        games_in(ledger, [before, during])
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=10) == 0, output(process)  # stopped gracefully: its stores closed, exit 0
    assert "SIGTERM, stopping" in output(process) and "Traceback" not in output(process)
    said = re.findall(r"projected (\d+) event\(s\), (\d+) since it started", output(process))
    assert said and int(said[-1][1]) == sum(int(done) for done, _ in said)  # it said what it did as it went
    assert int(said[-1][1]) == store.recorder.max_notification_id()
