"""The rulesets a fresh process serves are all there for every request, also for requests that come together
before any has loaded them (the start page previews two rosters at once; one was told "Unknown ruleset")."""
from __future__ import annotations

import subprocess
import sys

FRESH = """
import threading
from warlog.domain.rules import registry

seen = []
start = threading.Barrier(8)

def ask():
    start.wait()
    seen.append(registry.names())

threads = [threading.Thread(target=ask) for _ in range(8)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print(sorted(set(seen)))
"""


def test_requests_that_come_together_to_a_fresh_process_all_see_every_ruleset():
    for _ in range(3):  # a fresh interpreter each time: the race is at the first load
        ran = subprocess.run([sys.executable, "-c", FRESH], capture_output=True, text=True, timeout=60, check=True)
        assert ran.stdout.strip() == "[('alternating', 'reference', 'heresy')]", ran.stdout + ran.stderr
