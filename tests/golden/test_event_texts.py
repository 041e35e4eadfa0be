"""Every event as read carries `text`, the event in the players' words (CONTRACT.md "In the players' words"):
each kind of every ruleset has its sentence, and every event of both golden stores reads as a sentence that
names the players and units its data names (never their ids), with nothing a program would say."""
from __future__ import annotations

import gzip
import json
import re
import shutil
from pathlib import Path
from uuid import UUID

import pytest

from tests.support.payloads import GOLDEN
from warlog.api.settings import Settings
from warlog.domain.application import Warlog
from warlog.domain.rules.registry import find_ruleset, names

PROGRAM_WORDS = re.compile(r"\b(None|null|True|False|undefined|nan)\b|\{|\}|\[|\]|_[a-z]")
NAMED = ("unit", "attacker", "target", "transport")  # data keys that name one unit
SEATED = ("seat", "winner", "first", "active_seat", "rejected_by", "requested_by", "action_by")  # that name a seat


@pytest.mark.parametrize("ruleset", names())
def test_every_kind_a_ruleset_logs_has_its_sentence(ruleset):
    rules = find_ruleset(ruleset)
    untold = sorted(set(rules.event_payloads) - set(rules.event_texts))
    assert not untold, f"{ruleset}: kinds with no text (its texts.py, or domain/texts.py): {untold}"


def told(folder: str, tmp_path: Path) -> list[tuple[str, dict, dict]]:
    """(ruleset, the event as read with its text, the game's state after it) for every event of a golden store."""
    db = tmp_path / "warlog.db"
    with gzip.open(GOLDEN / folder / "warlog.db.gz") as src, open(db, "wb") as dst:
        shutil.copyfileobj(src, dst)
    games = json.loads((GOLDEN / folder / "games.json").read_text())
    warlog = Warlog(env=Settings(db=str(db)).eventsourcing_env())
    try:
        read = []
        for game in games:
            game_id = UUID(game["game_id"])
            last = warlog.game(game_id).state
            for entry, _ in warlog.told(game_id):
                read.append((game["ruleset"], entry, last))
        return read
    finally:
        warlog.close()


def faults(ruleset: str, entry: dict, state) -> list[str]:
    """What is wrong with one event's text (nothing: it reads as the players would say it)."""
    text, data = entry["text"], entry["data"]
    found = []
    if not (text[:1].isupper() and text.endswith((".", "!", "?"))):
        found.append("not a sentence")
    if PROGRAM_WORDS.search(text):
        found.append("reads like a program")
    for key in NAMED:
        uid = data.get(key)
        if isinstance(uid, str) and uid in state.units and state.units[uid].name not in text:
            found.append(f"{key} {uid} is not named")
    for key in SEATED:
        seat = data.get(key)
        if seat in state.players and state.players[seat] not in text:
            found.append(f"{key} {seat} is not named")
    if entry["by"] in state.players and not any(name in text for name in state.players.values()) and \
            not any(unit.name in text for unit in state.units.values()):
        found.append("names no player and no unit")
    return found


@pytest.mark.parametrize("folder", ["legacy", "pre-typed-core"])
def test_every_stored_event_reads_as_a_sentence_with_the_names_it_is_about(folder, tmp_path):
    read = told(folder, tmp_path)
    assert len({ruleset for ruleset, _, _ in read}) == 3
    wrong: dict[tuple[str, str], str] = {}
    for ruleset, entry, state in read:
        found = faults(ruleset, entry, state)
        if found:
            wrong.setdefault((ruleset, entry["type"]), f"{'; '.join(found)}: {entry['text']!r}")
    assert not wrong, "\n".join(f"{ruleset} {kind}: {why}" for (ruleset, kind), why in sorted(wrong.items()))


@pytest.mark.parametrize("folder", ["legacy", "pre-typed-core"])
def test_every_stored_event_reads_in_the_words_it_read_when_its_texts_were_recorded(folder, tmp_path):
    # texts.txt.gz: every event's text of the store, one a line in the log's order, as the texts modules said them
    # when it was written (issue 23 folded what those modules repeated; not one word of a text may change)
    with gzip.open(GOLDEN / folder / "texts.txt.gz", "rt", encoding="utf-8") as recorded:
        then = recorded.read().splitlines()
    now = [entry["text"] for _, entry, _ in told(folder, tmp_path)]
    assert len(now) == len(then)
    changed = [(n, was, said) for n, (was, said) in enumerate(zip(then, now)) if was != said]
    assert not changed, "\n".join(f"event {n}: {was!r} now reads {said!r}" for n, was, said in changed[:20])
