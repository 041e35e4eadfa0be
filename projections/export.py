"""Flat files an analyst loads straight into pandas or DuckDB: NDJSON or CSV, one row per event,
per die, per game; ISO-8601 UTC times; booleans as true/false; empty cells for null.

    pandas.read_csv("dice.csv", parse_dates=["at"])       duckdb: SELECT * FROM 'dice.csv'
    pandas.read_json("events.ndjson", lines=True)          duckdb: SELECT * FROM 'events.ndjson'
"""
from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any, TextIO

from projections.rows import DIE_COLUMNS, EVENT_COLUMNS, GAME_COLUMNS

COLUMNS = {"events": EVENT_COLUMNS, "dice": DIE_COLUMNS, "games": GAME_COLUMNS}
FORMATS = ("ndjson", "csv")
MEDIA_TYPES = {"ndjson": "application/x-ndjson", "csv": "text/csv; charset=utf-8"}


def _cell(value: Any) -> Any:
    if isinstance(value, bool):
        return "true" if value else "false"
    return "" if value is None else value


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


WRITERS = {"csv": CsvOut, "ndjson": NdjsonOut}


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
    from projections.ledger import game_ids  # the store's own list of games
    from projections.log import undone_seqs
    from projections.rows import game_rows

    out.mkdir(parents=True, exist_ok=True)
    counts = {table: 0 for table in COLUMNS}
    with ExitStack() as files:
        writers = [(table, WRITERS[fmt](files.enter_context((out / f"{table}.{fmt}").open("w", encoding="utf-8",
                                                                                        newline="")), table))
                   for fmt in formats for table in COLUMNS]
        for app, game_id in ((app, game_id) for app in ([apps] if hasattr(apps, "recorder") else apps)
                             for game_id in game_ids(app)):
            entries = [e.entry for e in app.stored(game_id)]
            undone = undone_seqs(entries)
            rows = game_rows(str(game_id), [{**e, "undone": e["seq"] in undone} for e in entries])
            tables = {"games": [rows.game], "events": rows.events, "dice": rows.dice}
            for table, writer in writers:
                writer.write(tables[table])
            for table in COLUMNS:
                counts[table] += len(tables[table])
            if progress is not None:
                progress.update(1)
                progress.set_postfix(events=counts["events"], dice=counts["dice"])
    return counts
