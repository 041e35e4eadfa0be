#!/usr/bin/env bash
# The issue figures of two commits in one run, alternated: free_roll against the echo app (twice each), the attack
# against a free_roll (twice each), and core_costs (frames, bytes per event, memory per cached game), each by
# compare.sh (the same interpreter, packages and bench scripts, this tree's, measure both commits' code).
#   bash ops/bench/before_after.sh BEFORE [AFTER=HEAD]
set -euo pipefail
cd "$(dirname "$0")/../.."
before=${1:?a commit to measure against}; after=${2:-HEAD}
TAIL=8 bash ops/bench/compare.sh "$before" "$after" 2 ops/bench/free_roll_latency.py --requests 3000 --seconds 40 --cpu 0
# alternated too: the attack's ratio moves by a few hundredths from run to run
TAIL=3 bash ops/bench/compare.sh "$before" "$after" 2 ops/bench/attack_latency.py
TAIL=1 bash ops/bench/compare.sh "$before" "$after" 1 ops/bench/core_costs.py
