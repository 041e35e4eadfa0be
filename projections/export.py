"""Flat files an analyst loads straight into pandas or DuckDB: NDJSON or CSV, one row per event,
per die, per game; ISO-8601 UTC times; booleans as true/false; empty cells for null.

    pandas.read_csv("dice.csv", parse_dates=["at"])       duckdb: SELECT * FROM 'dice.csv'
    pandas.read_json("events.ndjson", lines=True)          duckdb: SELECT * FROM 'events.ndjson'
"""
from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any, Protocol, TextIO

from warlog.domain import events as ev
from warlog.domain.chain import canonical
from warlog.domain.integrity import request_record
from warlog.projections.rows import DIE_COLUMNS, EVENT_COLUMNS, GAME_COLUMNS

COLUMNS = {"events": EVENT_COLUMNS, "dice": DIE_COLUMNS, "games": GAME_COLUMNS}
FORMATS = ("ndjson", "csv")
MEDIA_TYPES = {"ndjson": "application/x-ndjson", "csv": "text/csv; charset=utf-8"}


def _cell(value: Any) -> Any:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (dict, list)):  # `data` and `sent`: their canonical JSON in one cell
        return canonical(value)
    return "" if value is None else value


def proof_entries(stored: Iterable[tuple[dict[str, Any], ev.Meta]], undone: set[int],
                  seed: str | None) -> list[dict[str, Any]]:
    """A game's entries as the export gives them: `undone` as of the reader, `sent` (the request record the
    entry's `request` digests; on the first event of each request) and, on the creation, the server seed once
    the reader may see it (revealed at the end), so that an export is a proof a judge checks with no server
    (`warlog verify FILE`). The creation's own books (the seed, the token digests) are never exported."""
    entries = []
    for entry, meta in stored:
        extra: dict[str, Any] = {"undone": entry["seq"] in undone}
        if entry["seq"] == 1:
            extra["server_seed"] = seed
        elif isinstance(meta, dict) and not meta.get("continues"):
            extra["sent"] = request_record(meta)
        entries.append({**entry, **extra})
    return entries


class Out(Protocol):
    """A table's rows written out in one format."""

    def write(self, rows: Iterable[dict[str, Any]]) -> None: ...


class CsvOut:
    def __init__(self, out: TextIO, table: str, header: bool = True) -> None:
        self.columns = COLUMNS[table]
        self.writer = csv.writer(out, lineterminator="\n")
        if header:
            self.writer.writerow(self.columns)

    def write(self, rows: Iterable[dict[str, Any]]) -> None:
        self.writer.writerows([_cell(row[c]) for c in self.columns] for row in rows)


class NdjsonOut:
    def __init__(self, out: TextIO, table: str, header: bool = True) -> None:
        self.out, self.columns = out, COLUMNS[table]

    def write(self, rows: Iterable[dict[str, Any]]) -> None:
        for row in rows:
            self.out.write(json.dumps({c: row[c] for c in self.columns}, ensure_ascii=False) + "\n")


WRITERS: dict[str, Callable[[TextIO, str], Out]] = {"csv": CsvOut, "ndjson": NdjsonOut}


def render(rows: Iterable[dict[str, Any]], table: str, fmt: str, chunk: int = 500) -> Iterator[str]:
    """The file as text chunks (for a streamed HTTP answer)."""
    buffer = io.StringIO()
    writer = WRITERS[fmt](buffer, table)
    batch: list[dict[str, Any]] = []
    for row in rows:
        batch.append(row)
        if len(batch) >= chunk:
            writer.write(batch)
            batch.clear()
            yield buffer.getvalue()
            buffer.seek(0)
            buffer.truncate()
    writer.write(batch)
    yield buffer.getvalue()


def export_store(apps: Any, out: Path, formats: Iterable[str], progress: Any = None) -> dict[str, int]:
    """Every game of the store (of every shard, given a list: api/shards.py) into `out`: games, events and
    dice, one file per table and format."""
    from warlog.domain.undo import undone_seqs
    from warlog.projections.ledger import game_ids  # the store's own list of games
    from warlog.projections.rows import game_rows

    out.mkdir(parents=True, exist_ok=True)
    counts = {table: 0 for table in COLUMNS}
    with ExitStack() as files:
        writers = [(table, WRITERS[fmt](files.enter_context((out / f"{table}.{fmt}").open("w", encoding="utf-8",
                                                                                        newline="")), table))
                   for fmt in formats for table in COLUMNS]
        for app, game_id in ((one, game_id) for one in ([apps] if hasattr(apps, "recorder") else apps)
                             for game_id in game_ids(one)):
            stored = [(e.entry, e.meta) for e in app.stored(game_id)]
            seed = app.viewing(game_id, lambda game: game.revealed_seed())
            rows = game_rows(str(game_id), proof_entries(stored, undone_seqs(e for e, _ in stored), seed))
            tables = {"games": [rows.game], "events": rows.events, "dice": rows.dice}
            for table, writer in writers:
                writer.write(tables[table])
            for table in COLUMNS:
                counts[table] += len(tables[table])
            if progress is not None:
                progress.update(1)
                progress.set_postfix(events=counts["events"], dice=counts["dice"])
    return counts
