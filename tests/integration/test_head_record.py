"""The head record (RULES.md SVC.DAMAGED): the newest events cannot vanish, nor the chain be rewritten to the
head, unnoticed; what rewrites the record too is caught by the head a seat's phone saw (`Known-Head`); no
acknowledged seq is ever given to a second event."""
import pytest
from fastapi.testclient import TestClient

from ops.tamper.store import PostgresStore, SqliteStore
from tests.conftest import settings_for
from tests.support.client import GameClient, unit
from warlog.api.app import create_app


def played(settings, rolls=12):
    with TestClient(create_app(settings)) as http:
        game = GameClient(http)
        game.start([unit("scouts", 5)], [unit("boyz", 10)])
        for n in range(rolls):
            game.cmd("AB"[n % 2], "free_roll", spec="2D6", purpose=f"roll {n}")
        head = game.events()[-1]
    return game, head


def refused_everywhere(http, game, seq, form):
    """Every read and write but /verify is 409 SVC.DAMAGED naming `seq`; /verify reports it."""
    verdict = game.verify("B")
    assert verdict["chain_ok"] is False and verdict["first_bad_seq"] == seq and verdict["damage"] == form, verdict
    for response in (http.get(f"/games/{game.id}/state", headers=game.headers("A")),
                     http.get(f"/games/{game.id}/events", headers=game.headers("spectator")),
                     game.send("B", {"type": "free_roll", "spec": "D6", "purpose": "into the gap"}),
                     game.post("A", "undo")):
        assert response.status_code == 409, response.text
        problem = response.json()
        assert problem["rule"] == "SVC.DAMAGED" and problem["first_bad_seq"] == seq, problem
        assert problem["damage"] == form


@pytest.mark.parametrize("cut", ["last 1", "last 5", "all but one"])
def test_a_log_cut_short_is_damaged_at_its_first_missing_seq_and_no_seq_is_given_twice(tmp_path, cut):
    settings = settings_for(tmp_path)
    game, head = played(settings)
    store = SqliteStore(str(tmp_path / "warlog.db"))
    versions = store.versions(game.id)
    gone = {"last 1": versions[-1:], "last 5": versions[-5:], "all but one": versions[1:]}[cut]
    store.delete(game.id, gone)
    with TestClient(create_app(settings)) as http:
        game.http = http
        refused_everywhere(http, game, gone[0], "truncated")
    assert store.versions(game.id) == versions[:-len(gone)]  # the deleted seqs were given to nothing
    assert store.head(game.id) == (head["seq"], head["hash"])


def test_a_chain_rewritten_to_the_head_is_damaged_at_the_head(tmp_path):
    settings = settings_for(tmp_path)
    game, head = played(settings)
    store = SqliteStore(str(tmp_path / "warlog.db"))
    roll = 10

    def other_face(row):  # other faces than the server rolled (a double six rolled there was "rewritten" to itself)
        data = row["entry"]["data"]
        data["faces"] = [6, 6] if data["faces"] != [6, 6] else [1, 1]
        data["total"] = sum(data["faces"])

    store.rewrite_chain(game.id, roll, other_face)
    with TestClient(create_app(settings)) as http:
        game.http = http
        refused_everywhere(http, game, head["seq"], "head")


def test_a_rewrite_of_the_events_and_the_head_record_is_caught_by_the_head_a_seat_saw(tmp_path):
    settings = settings_for(tmp_path)
    game, head = played(settings)
    store = SqliteStore(str(tmp_path / "warlog.db"))

    def other_face(row):  # other faces than the server rolled
        faces = [1, 1] if row["entry"]["data"].get("faces") != [1, 1] else [6, 6]
        row["entry"]["data"].update(faces=faces, total=sum(faces))

    store.rewrite_chain(game.id, 8, other_face, head_too=True)
    known = {"Known-Head": f"{head['seq']}:{head['hash']}"}
    with TestClient(create_app(settings)) as http:
        game.http = http
        assert game.verify()["chain_ok"] is True  # nothing the service holds can tell...
        seen = http.get(f"/games/{game.id}/state", headers=game.headers("A", **known))
        assert seen.status_code == 409, seen.text  # ...but seat A's phone saw another head there
        assert seen.json()["damage"] == "head" and seen.json()["first_bad_seq"] == head["seq"]
        refused_everywhere(http, game, head["seq"], "head")
    with TestClient(create_app(settings)) as http:  # after a restart too: the claim is stored
        game.http = http
        refused_everywhere(http, game, head["seq"], "head")


def restore_an_older_copy(tmp_path, game) -> tuple[SqliteStore, list[int], dict]:
    """The store put back as an older backup held it: the game's last three events gone, its head record at the
    event before them (events and head record agree). The store, the versions it held before, the event it now
    ends at."""
    store = SqliteStore(str(tmp_path / "warlog.db"))
    versions = store.versions(game.id)
    store.delete(game.id, versions[-3:])
    kept = store.read(game.id, versions[-4])["entry"]
    store.set_head(game.id, kept["seq"], kept["hash"])
    return store, versions, kept


def test_a_restore_from_an_older_backup_is_caught_by_the_head_a_seat_saw(tmp_path):
    settings = settings_for(tmp_path)
    game, head = played(settings)
    store, versions, _ = restore_an_older_copy(tmp_path, game)
    with TestClient(create_app(settings)) as http:
        game.http = http
        assert game.verify()["chain_ok"] is True
        known = {"Known-Head": f"{head['seq']}:{head['hash']}"}
        refused = game.send("B", {"type": "free_roll", "spec": "D6", "purpose": "x"}, **known)
        assert refused.status_code == 409 and refused.json()["damage"] == "truncated", refused.text
        assert refused.json()["first_bad_seq"] == versions[-3]
        verdict = http.get(f"/games/{game.id}/verify", headers=game.headers("A", **known)).json()
        assert verdict["chain_ok"] is False and verdict["damage"] == "truncated"  # /verify reports it
        refused_everywhere(http, game, versions[-3], "truncated")
    assert store.versions(game.id) == versions[:-3]


def test_a_head_the_log_holds_is_no_damage_and_a_malformed_one_is_422(tmp_path):
    settings = settings_for(tmp_path)
    game, head = played(settings)
    with TestClient(create_app(settings)) as http:
        game.http = http
        for seq in (head["seq"], 5):
            event = game.events()[seq - 1]
            answer = game.send("A", {"type": "free_roll", "spec": "D6", "purpose": "on"},
                               **{"Known-Head": f"{seq}:{event['hash']}"})
            assert answer.status_code == 200, answer.text
        malformed = http.get(f"/games/{game.id}/state", headers=game.headers("A", **{"Known-Head": "5"}))
        assert malformed.status_code == 422 and malformed.json()["field"] == "Known-Head"
        spectator = http.get(f"/games/{game.id}/state",
                             headers=game.headers("spectator", **{"Known-Head": f"999:{'0' * 64}"}))
        assert spectator.status_code == 200  # only a seat vouches for what its game showed it
        assert game.verify()["chain_ok"] is True


def test_a_store_written_before_head_records_takes_each_head_when_first_read(tmp_path):
    settings = settings_for(tmp_path)
    game, head = played(settings)
    store = SqliteStore(str(tmp_path / "warlog.db"))
    store.drop_heads()
    with TestClient(create_app(settings)) as http:
        game.http = http
        assert game.verify()["chain_ok"] is True
    assert store.head(game.id) == (head["seq"], head["hash"])
    store.delete(game.id, store.versions(game.id)[-1:])
    with TestClient(create_app(settings)) as http:
        game.http = http
        refused_everywhere(http, game, head["seq"], "truncated")


@pytest.mark.postgres
def test_on_postgresql_the_head_record_catches_a_cut_log_and_a_seat_a_restored_one(pg_schema):
    from tests.integration.conftest import PG_URL, pg_settings

    settings = pg_settings(pg_schema)
    game, head = played(settings, rolls=20)
    store = PostgresStore(PG_URL, pg_schema)
    assert store.head(game.id) == (head["seq"], head["hash"])
    versions = store.versions(game.id)
    store.delete(game.id, versions[-2:])
    with TestClient(create_app(settings)) as http:
        game.http = http
        refused_everywhere(http, game, versions[-2], "truncated")
    store.set_head(game.id, versions[-3], store.read(game.id, versions[-3])["entry"]["hash"])
    with TestClient(create_app(settings)) as http:
        game.http = http
        assert game.verify()["chain_ok"] is True
        known = {"Known-Head": f"{head['seq']}:{head['hash']}"}
        assert http.get(f"/games/{game.id}/state", headers=game.headers("B", **known)).status_code == 409
        refused_everywhere(http, game, versions[-2], "truncated")


@pytest.mark.postgres
def test_on_postgresql_the_deferred_append_raises_the_head_record(pg_schema):
    from tests.integration.conftest import PG_URL, pg_settings

    settings = pg_settings(pg_schema)  # PostgreSQL's default write mode: the append awaited on the loop
    assert settings.write_mode() == "deferred"
    game, head = played(settings, rolls=3)
    assert PostgresStore(PG_URL, pg_schema).head(game.id) == (head["seq"], head["hash"])


def test_a_head_a_player_saw_is_reported_by_the_players_name_not_the_seat_letter(tmp_path):
    """The judge reads who acknowledged the head the log lacks by name (CONTRACT.md "In the players' words"):
    the 409 SVC.DAMAGED refusal's detail and /verify's both say "Bob", never "seat B"."""
    settings = settings_for(tmp_path)
    game, head = played(settings)
    _, _, kept = restore_an_older_copy(tmp_path, game)
    with TestClient(create_app(settings)) as http:
        game.http = http
        known = {"Known-Head": f"{head['seq']}:{head['hash']}"}
        refused = game.send("B", {"type": "free_roll", "spec": "D6", "purpose": "x"}, **known)
        assert refused.status_code == 409, refused.text
        assert f"before the head Bob acknowledged at seq {head['seq']}" in refused.json()["detail"], refused.text
        verdict = game.verify("A")
        assert verdict["detail"] == f"the log ends at seq {kept['seq']}, before the head Bob acknowledged at seq " \
                                    f"{head['seq']}", verdict
        for said in (refused.json()["detail"], verdict["detail"]):
            assert "seat B" not in said


def test_a_rewritten_head_a_player_saw_is_reported_by_the_players_name(tmp_path):
    settings = settings_for(tmp_path)
    game, head = played(settings)
    store = SqliteStore(str(tmp_path / "warlog.db"))

    def other_face(row):
        faces = [1, 1] if row["entry"]["data"].get("faces") != [1, 1] else [6, 6]
        row["entry"]["data"].update(faces=faces, total=sum(faces))

    store.rewrite_chain(game.id, 8, other_face, head_too=True)
    with TestClient(create_app(settings)) as http:
        game.http = http
        seen = http.get(f"/games/{game.id}/state",
                        headers=game.headers("A", **{"Known-Head": f"{head['seq']}:{head['hash']}"}))
        assert seen.status_code == 409, seen.text
        said = f"the event at seq {head['seq']} is not the one Alice acknowledged there: the log was rewritten"
        assert said in seen.json()["detail"], seen.text
        assert game.verify("B")["detail"] == said


def test_a_head_the_store_kept_no_claim_of_is_still_reported_by_the_players_name(tmp_path):
    """Where the store keeps no claim (the damage is found from the head presented alone), the report names the
    player too."""
    settings = settings_for(tmp_path)
    game, head = played(settings)
    store = SqliteStore(str(tmp_path / "warlog.db"))
    versions = store.versions(game.id)
    store.delete(game.id, versions[-2:])
    kept = store.read(game.id, versions[-3])["entry"]
    store.set_head(game.id, kept["seq"], kept["hash"])
    with TestClient(create_app(settings)) as http:
        game.http = http
        for warlog in http.app.state.shards.apps:
            warlog.heads.claim_head = lambda *claim: None  # a store that lost the claim
        refused = http.get(f"/games/{game.id}/state",
                           headers=game.headers("B", **{"Known-Head": f"{head['seq']}:{head['hash']}"}))
        assert refused.status_code == 409, refused.text
        assert "(Bob saw a head this log does not hold)" in refused.json()["detail"], refused.text
