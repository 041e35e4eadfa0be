"""A client generated from the served /openapi.json plays a game: the document says every shape on the wire.

openapi-python-client (the test extra pins it) writes a Python package from the document a live uvicorn
serves; the game is then played through that package's functions and models alone: typed bodies in
(`Unit`, `FreeRoll`, ...), typed answers out (`ActionAnswer`, `State`, `EventsPage`, `VerifyReport`, `Problem`),
no JSON written or read by hand and no field read from a model's `additional_properties` (where a generated
model keeps what its schema does not name). `no_unnamed_fields` walks every answer to show that nothing the
service sent landed there, except in the maps the document keys by id and the two objects it leaves open.
"""
from __future__ import annotations

import importlib
import subprocess
import sys
import time
from typing import Any

import attrs
import httpx
import pytest

from tests.conftest import settings_for
from tests.support.live import serving
from warlog.api.app import create_app

PACKAGE = "warlog_client"
CONFIG = """\
project_name_override: warlog-client
package_name_override: warlog_client
post_hooks: []        # no ruff over the generated code: the test imports it as written
literal_enums: true   # enums as Literal types: a status is the string the wire carries
content_type_overrides:
  image/svg+xml: text/plain   # /qr's SVG document read as text (the generator has no XML reader)
"""
# a model that names no fields of its own is the document's map (units, characteristics, faces keyed by id) or
# open object (a command's JSON Schema; JSON another module shapes inside an event, such as an attack's profile): its
# values sit in its additional properties by design, read typed where the document types them


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    with serving(create_app(settings_for(tmp_path_factory.mktemp("generated-client")))) as url:
        yield url


@pytest.fixture(scope="module")
def client_package(served, tmp_path_factory):
    """The package openapi-python-client generates from the served document, imported."""
    where = tmp_path_factory.mktemp("client")
    document = where / "openapi.json"
    document.write_bytes(httpx.get(f"{served}/openapi.json").content)
    (where / "config.yaml").write_text(CONFIG)
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "openapi_python_client", "generate", "--path", str(document),
                           "--meta", "none", "--output-path", str(where / PACKAGE), "--config",
                           str(where / "config.yaml")], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    # every shape is one the generator reads: no warning, no operation or answer left out
    assert "Warning" not in done.stdout + done.stderr, done.stdout + done.stderr
    print(f"\nclient generated in {time.perf_counter() - started:.1f} s")
    sys.path.insert(0, str(where))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(where))
        for name in [name for name in sys.modules if name == PACKAGE or name.startswith(PACKAGE + ".")]:
            del sys.modules[name]


def no_unnamed_fields(value: Any, where: str = "answer") -> None:
    """Nothing in a parsed answer sits in a generated model's additional properties, but for the maps."""
    if isinstance(value, list):
        for n, item in enumerate(value):
            no_unnamed_fields(item, f"{where}[{n}]")
    elif attrs.has(type(value)):
        extra = getattr(value, "additional_properties", None)
        named = [field for field in attrs.fields(type(value)) if field.name != "additional_properties"]
        if named:
            assert not extra, f"{where}: {type(value).__name__} got fields its schema does not name: {sorted(extra)}"
        for key, item in (extra or {}).items():
            no_unnamed_fields(item, f"{where}[{key!r}]")
        for field in named:
            no_unnamed_fields(getattr(value, field.name), f"{where}.{field.name}")


def test_a_client_generated_from_the_document_plays_a_game_with_typed_values_only(served, client_package):
    c = importlib.import_module(f"{PACKAGE}.client")
    models = importlib.import_module(f"{PACKAGE}.models")
    api = {name: importlib.import_module(f"{PACKAGE}.api.{tag}.{name}") for tag, name in (
        ("games", "create_game"), ("games", "muster_army"), ("play", "send_command"), ("play", "undo"),
        ("play", "approve_undo"), ("play", "preview_undo"), ("reading", "get_state"), ("reading", "get_events"),
        ("reading", "verify_log"))}

    anonymous = c.Client(base_url=served)
    created = api["create_game"].sync(client=anonymous, body=models.GameCreate(
        ruleset="alternating", dice="server",
        players=[models.Player(seat="A", name="Alice"), models.Player(seat="B", name="Bob")]))
    assert isinstance(created, models.CreatedGame), created
    assert len(created.dice_commitment) == 64 and created.version == 1
    seat = {"A": c.AuthenticatedClient(base_url=served, token=created.tokens.a),
            "B": c.AuthenticatedClient(base_url=served, token=created.tokens.b)}
    game = created.game_id

    def army(uid: str) -> models.Army:
        return models.Army(units=[models.Unit(
            id=uid, name=uid.title(), keywords=["INFANTRY"],
            models=[models.ModelLine(name="Trooper", count=5, m=6, t=4, sv=4, w=1, ld=7, oc=1, bs=3, ws=3, i=4, a=1)],
            weapons=[models.Weapon(name="Boltgun", type_="ranged", range_=24, a="2", skill=3, s=4, ap=0, d="1",
                                   kind="rapid_fire", keywords=["RAPID FIRE 1"])])])

    for role, uid in (("A", "scouts"), ("B", "boyz")):
        mustered = api["muster_army"].sync(game, client=seat[role], body=army(uid))
        assert isinstance(mustered, models.MusterAnswer), mustered
        assert [e.type_ for e in mustered.events] == ["ArmyMustered"] and mustered.events[0].by == role
        assert isinstance(mustered.events[0], models.EventArmyMustered) and mustered.events[0].data.seat == role
        no_unnamed_fields(mustered)

    started = api["send_command"].sync(game, client=seat["A"], body=models.StartGame(type_="start_game"))
    assert isinstance(started, models.ActionAnswer), started
    assert started.events[0].type_ == "GameStarted" and started.version == started.events[-1].seq

    rolled = api["send_command"].sync(game, client=seat["B"], body=models.FreeRoll(
        type_="free_roll", spec="2D6", purpose="scatter"))
    assert isinstance(rolled, models.ActionAnswer), rolled
    (roll,) = rolled.events
    assert (roll.type_, roll.by) == ("DiceRolled", "B") and len(roll.hash_) == 64 and isinstance(roll.request, str)
    # each event's data is its kind's typed value (the document's discriminated Event)
    assert isinstance(roll, models.EventDiceRolled) and isinstance(roll.data, models.DiceRolledData)
    assert (roll.data.spec, roll.data.purpose, roll.data.seat) == ("2D6", "scatter", "B")
    assert len(roll.data.faces) == 2 and roll.data.total == sum(roll.data.faces)
    no_unnamed_fields(rolled)

    refused = api["send_command"].sync(game, client=seat["B"], body=models.FreeRoll(
        type_="free_roll", spec="D6", purpose="scatter", dice=[3]))  # server dice: no dice may be sent
    assert isinstance(refused, models.Problem), refused
    assert (refused.status, refused.rule) == (409, "SVC.DICE.SERVER")

    state = api["get_state"].sync(game, client=seat["A"])
    assert isinstance(state, models.State), state
    assert (state.status, state.ruleset, state.version) == ("in_progress", "alternating", roll.seq)
    assert state.awaiting.action in {action.type_ for action in state.actions} | {"none"}
    assert state.units["scouts"].models_alive == 5 and state.units["boyz"].owner == "B"
    assert state.units["scouts"].strength == "full" and state.pass_points.a >= 0 and not state.declared_done.b
    assert "free_roll" in state.anytime and state.players.b == "Bob"
    no_unnamed_fields(state)

    page = api["get_events"].sync(game, client=seat["A"], after=0, limit=100)
    assert isinstance(page, models.EventsPage), page
    assert [e.seq for e in page.events] == list(range(1, page.last_seq + 1))
    assert page.events[0].prev_hash == "0" * 64 and page.events[0].by is None
    assert all(later.prev_hash == earlier.hash_ for earlier, later in zip(page.events, page.events[1:]))
    assert page.events[-1].hash_ == roll.hash_ and page.events[-1].at == roll.at
    no_unnamed_fields(page)

    # the free roll rolled dice: undoing it needs the other seat (202), who approves it
    asked = api["undo"].sync_detailed(game, client=seat["B"])
    assert asked.status_code == 202 and isinstance(asked.parsed, models.ActionAnswer), asked
    assert [e.type_ for e in asked.parsed.events] == ["UndoRequested"]
    preview = api["preview_undo"].sync(game, client=seat["A"])
    assert isinstance(preview, models.UndoPreview) and preview.pending_request.requested_by == "B"
    assert preview.pending_request.you_answer and preview.pending_request.seqs == [roll.seq]
    approved = api["approve_undo"].sync(game, client=seat["A"])
    assert isinstance(approved, models.ActionAnswer), approved
    assert [e.type_ for e in approved.events] == ["ActionUndone"]
    assert approved.events[0].data.seqs == [roll.seq] and approved.events[0].data.approved_by == "A"
    after = api["get_events"].sync(game, client=seat["B"], after=roll.seq - 1)
    assert after.events[0].seq == roll.seq and after.events[0].undone

    report = api["verify_log"].sync(game, client=seat["B"])
    assert isinstance(report, models.VerifyReport), report
    assert report.chain_ok and report.events == approved.version and report.first_bad_seq is None
    assert report.head_hash == approved.events[-1].hash_ and report.dice_ok is None and report.commands_ok
    no_unnamed_fields(report)
