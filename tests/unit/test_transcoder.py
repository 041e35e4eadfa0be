"""The stored events' bytes (domain/transcoder.py): written by orjson, they are exactly what the eventsourcing
library's own JSON transcoder writes, so a log stored before and one stored after read and verify alike."""
import gzip
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest
from eventsourcing.persistence import JSONTranscoder
from hypothesis import given, settings

from tests.unit.test_chain import json_data
from warlog.domain.application import Warlog
from warlog.domain.transcoder import LogTranscoder

GOLDEN = Path(__file__).resolve().parents[1] / "golden"


def transcoders():
    library, ours = JSONTranscoder(), LogTranscoder()
    for transcoder in (library, ours):
        Warlog.register_transcodings(Warlog, transcoder)  # the library's own: UUID, Decimal, datetime
    return library, ours


@pytest.mark.parametrize("folder", ["pre-typed-core", "legacy"])
def test_every_stored_event_and_snapshot_of_the_golden_stores_is_written_again_byte_for_byte(folder, tmp_path):
    db = tmp_path / "warlog.db"
    db.write_bytes(gzip.decompress((GOLDEN / folder / "warlog.db.gz").read_bytes()))
    library, ours = transcoders()
    rows = 0
    with sqlite3.connect(db) as connection:
        for table in ("stored_events", "stored_snapshots"):
            for (state,) in connection.execute(f"SELECT state FROM {table}"):
                value = library.decode(state)
                assert ours.encode(value) == library.encode(value) == state
                rows += 1
    assert rows > 1000


@settings(max_examples=60, deadline=None)
@given(entry=json_data, meta=json_data)
def test_an_event_state_of_any_json_is_written_as_the_library_writes_it(entry, meta):
    library, ours = transcoders()
    state = {"timestamp": datetime(2026, 12, 7, 14, 0, 1, 123456, tzinfo=UTC), "entry": entry,
             "meta": meta}
    assert ours.encode(state) == library.encode(state)
    assert ours.decode(ours.encode(state)) == library.decode(library.encode(state))


def test_the_application_writes_with_it():
    app = Warlog(env={"PERSISTENCE_MODULE": "eventsourcing.popo"})
    try:
        assert isinstance(app.mapper.transcoder, LogTranscoder)
    finally:
        app.close()
