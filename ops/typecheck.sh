#!/usr/bin/env bash
# mypy --strict over the installed names (warlog.domain, warlog.projections, warlog.api). The folders sit at the
# top of the repository and setuptools maps them (pyproject `package-dir`); an editable install reaches them
# through an import hook mypy cannot follow, so this links them under a `warlog/` folder of its own and points
# mypy there. Errors name the links (build/typecheck/warlog/domain/...), which are the repository's own files.
set -euo pipefail
cd "$(dirname "$0")/.."
root=build/typecheck
rm -rf "$root" && mkdir -p "$root/warlog"
for part in domain api projections; do ln -s "../../../$part" "$root/warlog/$part"; done
MYPYPATH="$root" exec "${PYTHON:-.venv/bin/python}" -m mypy --strict --config-file pyproject.toml \
  -p warlog.domain -p warlog.projections -p warlog.api "$@"
