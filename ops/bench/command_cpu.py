"""The CPU one command costs warlog's own process, SQLite against PostgreSQL in the same run.

One process, one game, one client awaiting each answer before the next (`httpx` over ASGI, in process:
no socket), `free_roll`s with their own Idempotency-Keys, seats in turn; SQLite's writes on the event loop
(its default), PostgreSQL's in each of its three write modes (api/settings.py `write_mode`): judged on the
loop with the append awaited there (its default), wholly on the loop, and in a worker thread.
`time.process_time()` (the whole process) over `--commands` commands, after `--warmup`, `--repeats` times each, alternating; the median of each is
reported, and PostgreSQL's as a ratio to SQLite's.
PostgreSQL's own backend CPU is not in it (see ops/bench/shards.py for whole-machine figures).

Closed-loop throughput on a 2-core machine moves with whatever else runs; this figure moves far less,
and it is what bounds one process: its commands/s cannot pass 1 / (CPU a command).

    .venv/bin/python ops/bench/command_cpu.py --postgres postgresql://postgres@127.0.0.1:5432/test
"""
from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path
from uuid import uuid4

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parents[1]), str(HERE)]

import httpx  # noqa: E402
from harness import DEMO_ARMIES, UNLIMITED, header, ratio  # noqa: E402

from ops.service import postgres_schema  # noqa: E402
from warlog.api.app import create_app  # noqa: E402
from warlog.api.settings import Settings  # noqa: E402


def bearer(token: str, key: str | None = None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}", **({"Idempotency-Key": key} if key else {})}


async def cpu_a_command(settings: Settings, commands: int, warmup: int) -> float:
    """Seconds of this process's CPU a `free_roll` takes, through the whole app."""
    app = create_app(settings)
    async with app.router.lifespan_context(app), \
            httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://bench") as http:
        game = (await http.post("/games", json={"ruleset": "alternating", "dice": "server", "players": [
            {"seat": "A", "name": "Alice"}, {"seat": "B", "name": "Bob"}]})).raise_for_status().json()
        tokens = game["tokens"]
        for seat, units in DEMO_ARMIES.items():
            (await http.post(f"/games/{game['game_id']}/armies", json={"units": units},
                             headers=bearer(tokens[seat]))).raise_for_status()
        (await http.post(f"/games/{game['game_id']}/commands", json={"type": "start_game"},
                         headers=bearer(tokens["A"]))).raise_for_status()

        async def roll(n: int) -> None:
            key = f"cpu-{n}"
            answer = await http.post(f"/games/{game['game_id']}/commands", headers=bearer(tokens["AB"[n % 2]], key),
                                     json={"type": "free_roll", "spec": "2D6", "purpose": key})
            answer.raise_for_status()

        for n in range(warmup):
            await roll(n)
        started = time.process_time()
        for n in range(warmup, warmup + commands):
            await roll(n)
        return (time.process_time() - started) / commands


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--postgres", required=True, metavar="DSN")
    parser.add_argument("--commands", type=int, default=1000)
    parser.add_argument("--warmup", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    header(f"command_cpu: {args.commands} free_rolls after {args.warmup}, {args.repeats} runs a store")
    names = ("SQLite", "PostgreSQL, append awaited on the loop (the default)", "PostgreSQL, write on the loop",
             "PostgreSQL, write in a worker thread")
    figures: dict[str, list[float]] = {name: [] for name in names}
    with tempfile.TemporaryDirectory(prefix="warlog-cpu-") as tmp:
        for n in range(args.repeats):
            sqlite = Settings(db=str(Path(tmp) / f"warlog-{n}.db"), inline_writes=True, **UNLIMITED)
            figures[names[0]].append(asyncio.run(cpu_a_command(sqlite, args.commands, args.warmup)))
            for name, inline in ((names[1], None), (names[2], True), (names[3], False)):
                schema = f"warlog_cpu_{uuid4().hex[:12]}"
                postgres_schema(args.postgres, True, schema)
                try:
                    pg = Settings(postgres=args.postgres, postgres_schema=schema, inline_writes=inline, **UNLIMITED)
                    figures[name].append(asyncio.run(cpu_a_command(pg, args.commands, args.warmup)))
                finally:
                    postgres_schema(args.postgres, False, schema)
            print(f"   run {n + 1}: " + ", ".join(f"{name} {figures[name][-1] * 1000:.3f} ms" for name in names),
                  flush=True)
    medians = {name: statistics.median(figures[name]) for name in names}
    sqlite = medians[names[0]]
    print("RESULT command_cpu: CPU a command, this process: " + ", ".join(
        f"{name} {cpu * 1000:.3f} ms = {ratio(cpu, sqlite)} of SQLite's (one process's ceiling {1 / cpu:.0f}/s)"
        for name, cpu in medians.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
