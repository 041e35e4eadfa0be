"""Copy RULES.md's rule table into the package, so the audit never reads ../shared at run time.

    python ops/make_rules_catalogue.py [/work/shared/RULES.md]

Writes projections/rules_catalogue.json: {rule id: {"summary", "section", "seed_file"}}.
Run it again whenever RULES.md changes, and commit the result.
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_SOURCE = HERE.parent.parent / "shared" / "RULES.md"
TARGET = HERE.parent / "projections" / "rules_catalogue.json"
SECTION = re.compile(r"^## (?P<title>[^(`]+?)\s*(?:\(`(?P<seed>[^`]+)`\))?\s*$")
ROW = re.compile(r"^\|\s*(?P<id>[A-Z]+(?:\.[A-Z0-9_]+)+)\s*\|\s*(?P<summary>.*?)\s*\|\s*$")


def catalogue(text: str) -> dict[str, dict[str, str | None]]:
    rules: dict[str, dict[str, str | None]] = {}
    section, seed = None, None
    for line in text.splitlines():
        heading = SECTION.match(line)
        if heading:
            section, seed = heading["title"].strip(), heading["seed"]
            continue
        row = ROW.match(line)
        if row and section:
            rules[row["id"]] = {"summary": row["summary"], "section": section,
                                "seed_file": f"seeds/{seed}" if seed else None}
    return rules


def main(argv: list[str]) -> None:
    source = Path(argv[1]) if len(argv) > 1 else DEFAULT_SOURCE
    rules = catalogue(source.read_text(encoding="utf-8"))
    TARGET.write_text(json.dumps(rules, indent=1, ensure_ascii=False, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{len(rules)} rules -> {TARGET.relative_to(HERE.parent)}")


if __name__ == "__main__":
    main(sys.argv)
