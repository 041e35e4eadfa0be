"""The narrator keeps what it told (domain/narration.py), bounded: a long game keeps only its newest texts, and
what it no longer keeps it tells again, the same words."""
from __future__ import annotations

import gzip
import json
import shutil
from uuid import UUID

from tests.support.payloads import GOLDEN
from warlog.api.settings import Settings
from warlog.domain import narration
from warlog.domain.application import Warlog


def test_a_game_keeps_its_newest_texts_and_tells_the_rest_again_in_the_same_words(tmp_path, monkeypatch):
    with gzip.open(GOLDEN / "pre-typed-core" / "warlog.db.gz") as src, open(tmp_path / "warlog.db", "wb") as dst:
        shutil.copyfileobj(src, dst)
    game = max(json.loads((GOLDEN / "pre-typed-core" / "games.json").read_text()), key=lambda g: g["events"])
    game_id = UUID(game["game_id"])
    warlog = Warlog(env=Settings(db=str(tmp_path / "warlog.db")).eventsourcing_env())
    try:
        told = [entry["text"] for entry, _ in warlog.told(game_id)]  # every text kept: the bound is far
        monkeypatch.setattr(narration, "TEXTS", 40)
        monkeypatch.setattr(narration, "KEPT", 10)
        fresh = Warlog(env=Settings(db=str(tmp_path / "warlog.db")).eventsourcing_env())
        try:
            again = [entry["text"] for entry, _ in fresh.told(game_id)]
            kept = fresh.narrator._texts[game_id]
            assert len(kept) == 10 and sorted(kept) == list(range(game["events"] - 9, game["events"] + 1))
            assert again == told  # what was dropped is told again from the log, in the same words
            assert [entry["text"] for entry, _ in fresh.told(game_id, 5, 20)] == told[5:25]
        finally:
            fresh.close()
    finally:
        warlog.close()
