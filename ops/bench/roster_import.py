"""Issue 12: importing the largest roster of the corpus (`api.rosters.convert`: unwrap, parse, map to
units, validate as a JSON army is), as a ratio to parsing its XML alone with defusedxml, in the same run.

Also prints, per corpus file, the units mapped and the `unmapped` entries (what could not be mapped,
each listed with its path). The corpus is ../shared/rosters/, read in place (never copied).
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import defusedxml.ElementTree as SafeTree

from warlog.api.rosters import convert, sniff

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "rosters"


def xml_of(raw: bytes) -> bytes | None:
    kind = sniff.encoding(raw)
    return sniff.unzip(raw) if kind == "rosz" else raw if kind == "ros" else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--runs", type=int, default=200, help="timed runs of each, alternated")
    parser.add_argument("--budget-s", type=float, default=20.0, help="stop the timed runs after this long")
    args = parser.parse_args()
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    files = sorted(p for p in args.corpus.iterdir() if p.name != "MANIFEST.md")
    print("\n| file | format | ruleset | units | unmapped |\n|---|---|---|---|---|")
    for path in files:
        converted = convert(path.read_bytes())
        print(f"| `{path.name}` | {converted['format']} | {converted['ruleset']} | {len(converted['units'])} | "
              f"{len(converted['unmapped'])} |")
    sized = [(len(x), p) for p in files if (x := xml_of(p.read_bytes())) is not None]
    size, largest = max(sized)
    raw = largest.read_bytes()
    xml = xml_of(raw)
    imports, parses = [], []
    started = time.perf_counter()
    for _ in range(args.runs):
        t0 = time.perf_counter()
        convert(raw)
        t1 = time.perf_counter()
        SafeTree.fromstring(xml, forbid_dtd=True)
        t2 = time.perf_counter()
        imports.append(t1 - t0)
        parses.append(t2 - t1)
        if t2 - started > args.budget_s:
            break
    imported, parsed = statistics.median(imports), statistics.median(parses)
    print(f"\nlargest: {largest.name} ({size:,} bytes of XML), {len(imports)} runs alternated")
    print(f"import (convert) median {imported * 1000:.2f} ms; defusedxml parse alone median {parsed * 1000:.2f} ms")
    print(f"RESULT roster import / XML parse = {imported / parsed:.2f}x")


if __name__ == "__main__":
    main()
