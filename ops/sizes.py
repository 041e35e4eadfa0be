"""The code's sizes, held by `make lint` (CONTRIBUTING.md "The ways of the code"; issue 23): no module of
domain/, api/ or projections/ over 600 lines, no function over 60, no class over 400. Prints each one over and
exits 1, else says nothing.

    python ops/sizes.py
"""
from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIMITS = {"module": 600, "function": 60, "class": 400}


def over(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    where = path.relative_to(ROOT)
    found = []
    if len(text.splitlines()) > LIMITS["module"]:
        found.append(f"{where}: {len(text.splitlines())} lines (module, at most {LIMITS['module']})")
    for node in ast.walk(ast.parse(text)):
        kind = ("function" if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
                else "class" if isinstance(node, ast.ClassDef) else None)
        if kind is not None and node.end_lineno is not None:
            lines = node.end_lineno - node.lineno + 1
            if lines > LIMITS[kind]:
                found.append(f"{where}:{node.lineno}: {kind} {node.name} is {lines} lines (at most {LIMITS[kind]})")
    return found


def main() -> int:
    found = [line for part in ("domain", "api", "projections") for path in sorted((ROOT / part).rglob("*.py"))
             for line in over(path)]
    print("\n".join(found), end="\n" if found else "")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
