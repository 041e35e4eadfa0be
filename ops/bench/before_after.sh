#!/usr/bin/env bash
# The issue figures of two commits in one run, alternated: free_roll against the echo app (twice each), the attack
# against a free_roll (twice each), and core_costs (frames, bytes per event, memory per cached game). Each commit's domain/,
# api/ and projections/ are checked out into a temp folder and linked under a `warlog/` folder put first on
# PYTHONPATH, so the same interpreter, packages and bench scripts (this tree's) measure both.
#   bash ops/bench/before_after.sh BEFORE [AFTER=HEAD]
set -euo pipefail
cd "$(dirname "$0")/../.."
before=${1:?a commit to measure against}; after=${2:-HEAD}
work=$(mktemp -d); trap 'git worktree remove --force "$work/before" >/dev/null 2>&1 || true;
  git worktree remove --force "$work/after" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
for side in before after; do
  git worktree add -q --detach "$work/$side" "$([ "$side" = before ] && echo "$before" || echo "$after")"
  mkdir -p "$work/$side-link/warlog" && touch "$work/$side-link/warlog/__init__.py"
  for part in domain api projections; do ln -s "$work/$side/$part" "$work/$side-link/warlog/$part"; done
done
py=.venv/bin/python
quiet() { grep -v '"event": \?"request"' | grep -v 'Deprecat\|from starlette'; }
for round in 1 2; do
  for side in before after; do
    echo "=== free_roll, $side, round $round (load $(cut -d' ' -f1 /proc/loadavg))"
    PYTHONPATH="$work/$side-link" $py ops/bench/free_roll_latency.py --requests 3000 --seconds 40 --cpu 0 2>&1 | quiet | tail -4
  done
done
for round in 1 2; do  # alternated too: the attack's ratio moves by a few hundredths from run to run
  for side in before after; do
    echo "=== attack, $side, round $round (load $(cut -d' ' -f1 /proc/loadavg))"
    PYTHONPATH="$work/$side-link" $py ops/bench/attack_latency.py 2>&1 | quiet | tail -3
  done
done
for side in before after; do
  echo "=== core_costs, $side"; PYTHONPATH="$work/$side-link" $py ops/bench/core_costs.py 2>&1 | quiet | tail -1
done
