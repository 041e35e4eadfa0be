"""Kill `warlog serve` (SIGKILL) while players roll, restart it on the same store, check, repeat.

Each cycle: K client threads (seats A and B in turn) send `free_roll`s, each with its own
Idempotency-Key which is also the roll's `purpose`, and keep every 200 answer. After a random
0.5–1.5 s the service is killed with SIGKILL and restarted on the same SQLite file (or PostgreSQL
schema). Then, over HTTP:

- every event ever acknowledged (this cycle or an earlier one) is in the log, identical (seq, hash, all);
- seqs run 1..n without a gap, and `GET /verify` says chain_ok over all n events;
- each request whose answer was lost is resent with its key: if it had been stored before the kill the
  stored answer is replayed (no event appended), otherwise it is appended now — once;
- no two DiceRolled events carry the same purpose, and every key sent is rolled exactly once.

The next cycle rolls on the restarted service and kills it again. The same checks run once per
commit in `tests/integration/test_crash.py`; this script repeats them. Loopback only, bounded:
each cycle is at most `--max` seconds of rolling plus a restart (30 s at most).

    .venv/bin/python ops/crash/crash_loop.py                     # SQLite, 5 cycles
    .venv/bin/python ops/crash/crash_loop.py --synchronous FULL  # fsync on every commit
    .venv/bin/python ops/crash/crash_loop.py --postgres postgresql://postgres@127.0.0.1:5432/test

With --postgres it creates a schema of its own (`warlog_crash_<hex>`) and drops it at the end.
The last line starts with RESULT; the exit status is 1 when a check failed.
"""
from __future__ import annotations

import argparse
import random
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "ops" / "bench")]

from harness import header, workdir  # noqa: E402  (ops/bench/harness.py)

from ops.service import Service, add_store_arguments, free_roll, roll_until_killed, store, store_name  # noqa: E402
from warlog.api.cli import DEMO_ARMIES  # noqa: E402

LIMITS = {"WARLOG_REQUESTS_PER_SECOND": "1000000", "WARLOG_BURST": "1000000"}


@dataclass
class Game:
    id: str
    tokens: dict[str, str]
    started: int  # the version once started: the rolls come after it

    def headers(self, seat: str, key: str | None = None) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[seat]}", **({"Idempotency-Key": key} if key else {})}


@dataclass
class Tally:
    acknowledged: dict[str, dict[str, Any]] = field(default_factory=dict)  # key -> the 200 answer
    sent: set[str] = field(default_factory=set)
    replayed: int = 0
    appended: int = 0
    failures: list[str] = field(default_factory=list)

    def check(self, ok: bool, what: str) -> bool:
        if not ok:
            self.failures.append(what)
            print(f"   FAIL {what}", flush=True)
        return ok


def new_game(url: str) -> Game:
    with httpx.Client(base_url=url, timeout=10) as http:
        created = http.post("/games", json={"ruleset": "alternating", "dice": "server", "players": [
            {"seat": "A", "name": "Alice"}, {"seat": "B", "name": "Bob"}]}).raise_for_status().json()
        game = Game(created["game_id"], created["tokens"], 0)
        for seat, units in DEMO_ARMIES.items():
            http.post(f"/games/{game.id}/armies", json={"units": units},
                      headers=game.headers(seat)).raise_for_status()
        game.started = http.post(f"/games/{game.id}/commands", json={"type": "start_game"},
                                 headers=game.headers("A")).raise_for_status().json()["version"]
    return game


def events(http: httpx.Client, game: Game) -> list[dict[str, Any]]:
    log: list[dict[str, Any]] = []
    while True:
        after = log[-1]["seq"] if log else 0
        page = http.get(f"/games/{game.id}/events", params={"after": after, "limit": 1000},
                        headers=game.headers("spectator")).raise_for_status().json()
        log += page["events"]
        if not page["events"] or log[-1]["seq"] >= page["last_seq"]:
            return log


CHECK_TIMEOUT_S = 120.0


def cycle(number: int, service: Service, game: Game, tally: Tally, threads: int, kill_after: float) -> str:
    acknowledged: dict[str, dict[str, Any]] = {}
    lost: dict[str, str] = {}
    errors: list[str] = []
    stop = threading.Event()
    seats = ["AB"[i % 2] for i in range(threads)]
    players = [threading.Thread(target=roll_until_killed, args=(service.url, game.id, seat, f"c{number}-t{i}",
                                                                partial(game.headers, seat), stop,
                                                                acknowledged, lost, errors))
               for i, seat in enumerate(seats)]
    for each in players:
        each.start()
    time.sleep(kill_after)
    service.kill()
    stop.set()
    for each in players:
        each.join(30)
    tally.check(not errors, f"cycle {number}: a roll was not answered 200: {errors[:3]}")
    tally.acknowledged.update(acknowledged)
    tally.sent |= set(acknowledged) | set(lost)

    restart_s = service.start()
    replayed = appended = 0
    # the checks read the whole log and /verify walks it in full (the first load after a restart walks it too):
    # thousands of events after many cycles, on a shared machine, take longer than a roll's 10 s
    with httpx.Client(base_url=service.url, timeout=CHECK_TIMEOUT_S) as http:
        log = events(http, game)
        by_seq = {e["seq"]: e for e in log}
        tally.check([e["seq"] for e in log] == list(range(1, len(log) + 1)), f"cycle {number}: seqs not 1..n")
        missing = [e["seq"] for a in tally.acknowledged.values() for e in a["events"] if by_seq.get(e["seq"]) != e]
        tally.check(not missing, f"cycle {number}: acknowledged events missing or changed: {missing[:10]}")
        verified = http.get(f"/games/{game.id}/verify", headers=game.headers("spectator")).json()
        tally.check(verified["chain_ok"] is True and verified["events"] == len(log),
                    f"cycle {number}: verify says {verified}")

        stored = {e["data"]["purpose"]: e for e in log[game.started:] if e["type"] == "DiceRolled"}
        for key, seat in lost.items():
            response = http.post(f"/games/{game.id}/commands", json=free_roll(key), headers=game.headers(seat, key))
            if not tally.check(response.status_code == 200, f"cycle {number}: resending {key}: {response.text}"):
                continue
            answer = response.json()
            tally.acknowledged[key] = answer
            if key in stored:
                replayed += 1
                tally.check(answer["events"] == [stored[key]], f"cycle {number}: {key} not replayed as stored")
            else:
                appended += 1
                tally.check([e["data"]["purpose"] for e in answer["events"]] == [key]
                            and answer["events"][0]["seq"] > len(log), f"cycle {number}: {key} appended oddly")
        final = events(http, game)
        rolled = Counter(e["data"]["purpose"] for e in final[game.started:] if e["type"] == "DiceRolled")
        twice = [key for key, times in rolled.items() if times > 1]
        tally.check(not twice, f"cycle {number}: rolled more than once: {twice[:10]}")
        tally.check(set(rolled) == tally.sent, f"cycle {number}: rolled {len(rolled)} keys, sent {len(tally.sent)}")
        chain_ok = http.get(f"/games/{game.id}/verify", headers=game.headers("spectator")).json()["chain_ok"]
        tally.check(chain_ok is True, f"cycle {number}: chain broken after the resends")
    tally.replayed += replayed
    tally.appended += appended
    return (f"cycle {number}: killed after {kill_after:.2f} s: {len(acknowledged)} rolls answered, {len(lost)} "
            f"unanswered ({replayed} had been stored: replayed; {appended} had not: appended once); "
            f"restart {restart_s:.2f} s; log {len(final)} events, chain {'ok' if chain_ok else 'BROKEN'}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cycles", type=int, default=5, help="kill/restart cycles (default 5)")
    parser.add_argument("--threads", type=int, default=2, help="client threads rolling at once (default 2)")
    parser.add_argument("--min", type=float, default=0.5, help="earliest kill, seconds into a cycle")
    parser.add_argument("--max", type=float, default=1.5, help="latest kill, seconds into a cycle")
    parser.add_argument("--seed", type=int, default=None, help="for the kill times (default: random)")
    add_store_arguments(parser)
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else random.randrange(1 << 32)
    kills = random.Random(seed)
    header(f"crash loop on {store_name(args)}: {args.cycles} cycles, {args.threads} threads, seed {seed}")

    tally = Tally()
    with workdir() as tmp, store(args, tmp, "warlog_crash") as (serve_args, env):
        service = Service(serve_args, {**LIMITS, **env}, tmp / "serve.err")
        started = time.monotonic()
        try:
            service.start()
            game = new_game(service.url)
            for number in range(1, args.cycles + 1):
                print("   " + cycle(number, service, game, tally, args.threads,
                                    kills.uniform(args.min, args.max)), flush=True)
        finally:
            service.stop()
    unanswered = tally.replayed + tally.appended
    print(f"RESULT crash loop {store_name(args)}: {'ok' if not tally.failures else 'FAILED'}: {args.cycles} kills in "
          f"{time.monotonic() - started:.1f} s; {len(tally.acknowledged) - unanswered} rolls answered before a "
          f"kill, {unanswered} unanswered and resent ({tally.replayed} replayed, {tally.appended} appended once); "
          + ("no acknowledged event lost, no roll appended twice, every chain verified" if not tally.failures
             else f"{len(tally.failures)} failed checks") + f"; seed {seed}", flush=True)
    return 1 if tally.failures else 0


if __name__ == "__main__":
    sys.exit(main())
