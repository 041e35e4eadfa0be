#!/usr/bin/env bash
# Any bench script run on two commits, alternated, in one run: each commit's domain/, api/ and projections/ are
# checked out into a temp folder and linked under a `warlog/` folder put first on PYTHONPATH, so the same
# interpreter, packages and bench script (this tree's) measure both (as before_after.sh does for the issue figures).
#   [TAIL=N] bash ops/bench/compare.sh BEFORE AFTER ROUNDS SCRIPT [ARGS...]   (the last N lines of each run, 8)
#   e.g. bash ops/bench/compare.sh 2f0c2d5 HEAD 2 ops/bench/undo_latency.py --rounds 200
set -euo pipefail
cd "$(dirname "$0")/../.."
before=${1:?a commit to measure against}; after=${2:?a commit to measure}; rounds=${3:?how many rounds}
script=${4:?a bench script}; shift 4
work=$(mktemp -d); trap 'git worktree remove --force "$work/before" >/dev/null 2>&1 || true;
  git worktree remove --force "$work/after" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
for side in before after; do
  git worktree add -q --detach "$work/$side" "$([ "$side" = before ] && echo "$before" || echo "$after")"
  mkdir -p "$work/$side-link/warlog" && touch "$work/$side-link/warlog/__init__.py"
  for part in domain api projections; do ln -s "$work/$side/$part" "$work/$side-link/warlog/$part"; done
done
quiet() { grep -v '"event": \?"request"' | grep -v 'Deprecat\|from starlette'; }
for round in $(seq "$rounds"); do
  for side in before after; do
    echo "=== $(basename "$script" .py), $side, round $round (load $(cut -d' ' -f1 /proc/loadavg))"
    PYTHONPATH="$work/$side-link" .venv/bin/python "$script" "$@" 2>&1 | quiet | tail -"${TAIL:-8}"
  done
done
