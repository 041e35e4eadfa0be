"""What every benchmark here shares: servers on free local ports, games built
fast through the application object, percentiles and a time budget.

Run the scripts beside this file with the project's interpreter from the
repository root, e.g. `.venv/bin/python ops/bench/free_roll_latency.py`.
"""
from __future__ import annotations

import contextlib
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from uuid import UUID

import httpx

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from ops.service import free_port, interrupt, wait_until_answers  # noqa: E402, F401  (free_port: for the scripts)
from warlog.api.cli import DEMO_ARMIES  # noqa: E402  (the path above makes the packages importable)
from warlog.api.schemas import parse_army, parse_command  # noqa: E402
from warlog.domain.application import Warlog  # noqa: E402

AT = "2026-11-29T20:00:00.000Z"
FREE_ROLL = {"type": "free_roll", "spec": "2D6", "purpose": "bench"}
# The per-token limits would throttle a benchmark's single client (429); they are raised, not bypassed.
SERVER_ENV = {"WARLOG_REQUESTS_PER_SECOND": "1000000", "WARLOG_BURST": "1000000",
              "WARLOG_STREAMS_PER_TOKEN": "1000", "WARLOG_LOG_JSON": "true"}
UNLIMITED = {"log_json": True, "requests_per_second": 1e9, "burst": 10**9, "games_per_minute": 1e9,
             "games_burst": 10**9}  # the same, as `Settings` fields, for an app created in the script's process


PINNED: set[int] | None = None  # CPUs every server started from now on (and this script) run on


def pin(cpu: int | None) -> None:
    """Run this script and the servers it starts on one CPU (None: wherever the scheduler puts them).

    Unpinned, the figures move with where the scheduler happens to place client and servers on
    this 2-core machine (±0.15x between runs); on one CPU they repeat to ±0.02x, a steady gauge of
    the work per request."""
    global PINNED
    if cpu is not None:
        PINNED = {cpu}
        os.sched_setaffinity(0, PINNED)


class Budget:
    """Bounds a loop in time as well as in count."""

    def __init__(self, seconds: float) -> None:
        self.ends = time.monotonic() + seconds

    def left(self) -> float:
        return self.ends - time.monotonic()

    def over(self) -> bool:
        return self.left() <= 0


def percentile(samples: list[float], p: float) -> float:
    """Nearest rank: the smallest sample with at least p% of the samples at or below it."""
    ordered = sorted(samples)
    rank = max(1, -(-len(ordered) * p // 100))
    return ordered[int(rank) - 1]


def summary(samples_s: list[float]) -> str:
    ms = [s * 1000 for s in samples_s]
    if not ms:
        return "n=0"
    return (f"n={len(ms)} p50={percentile(ms, 50):.2f} ms p90={percentile(ms, 90):.2f} ms "
            f"p99={percentile(ms, 99):.2f} ms")


def ratio(value: float, baseline: float) -> str:
    return f"{value / baseline:.2f}x"


@contextlib.contextmanager
def workdir() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="warlog-bench-") as path:
        yield Path(path)


@dataclass(frozen=True)
class Server:
    url: str
    pid: int


@contextlib.contextmanager
def process(args: list[str], port: int, log: Path, env: dict[str, str] | None = None,
            ready_path: str = "/openapi.json") -> Iterator[Server]:
    """A server subprocess on 127.0.0.1:port, yielded once it answers."""
    base_url = f"http://127.0.0.1:{port}"
    # stdout (warlog's one JSON line per request) goes to `log`; stderr to `log`.err
    with open(log, "wb") as out, open(log.with_suffix(".err"), "wb") as err:
        proc = subprocess.Popen(args, cwd=ROOT, env={**os.environ, **SERVER_ENV, **(env or {})},
                                stdout=out, stderr=err)
        if PINNED is not None:
            os.sched_setaffinity(proc.pid, PINNED)
        try:
            wait_until_answers(proc, base_url + ready_path, log.with_suffix(".err"), name=str(args))
            yield Server(base_url, proc.pid)
        except BaseException:
            if proc.poll() is not None:
                print(f"   {args[2:5]} exited with {proc.returncode}; its stderr ends:\n"
                      f"{log.with_suffix('.err').read_text()[-3000:]}", file=sys.stderr, flush=True)
            raise
        finally:
            interrupt(proc, 10)


def warlog_server(port: int, log: Path, db: Path | None = None, postgres: str | None = None):
    """`warlog serve` exactly as the README runs it (uvicorn, one process)."""
    args = [sys.executable, "-m", "warlog.api.cli", "serve", "--host", "127.0.0.1", "--port", str(port)]
    args += ["--postgres", postgres] if postgres else ["--db", str(db)]
    return process(args, port, log)


def echo_server(port: int, log: Path):
    """The baseline: a bare FastAPI echo app under the same uvicorn settings as `warlog serve`."""
    args = [sys.executable, "-m", "uvicorn", "echo_app:app", "--app-dir", str(HERE), "--host", "127.0.0.1",
            "--port", str(port), "--log-level", "warning", "--no-access-log"]
    return process(args, port, log, ready_path="/docs")


def floor_server(port: int, log: Path, db: Path, token: str, answer: Path):
    """floor_app.py under the same uvicorn settings: writes to `db`, takes `token` as seat A's, sends `answer`."""
    args = [sys.executable, "-m", "uvicorn", "floor_app:from_env", "--factory", "--app-dir", str(HERE),
            "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning", "--no-access-log"]
    env = {"FLOOR_DB": str(db), "FLOOR_TOKEN": token, "FLOOR_ANSWER": str(answer)}
    return process(args, port, log, env=env, ready_path="/docs")


# -- games ---------------------------------------------------------------------------------

def sqlite_env(db: Path) -> dict[str, str]:
    return {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(db), "SQLITE_LOCK_TIMEOUT": "10"}


def new_started_game(warlog: Warlog) -> dict[str, Any]:
    """The demo armies mustered and the game started, through the application object."""
    created = warlog.create_game("alternating", {"A": "Alice", "B": "Bob"}, "server", {}, AT)
    game_id = UUID(created["game_id"])
    for seat, units in DEMO_ARMIES.items():
        warlog.muster(game_id, seat, parse_army({"units": units}), AT)
    warlog.command(game_id, "A", parse_command({"type": "start_game"}, "alternating"), AT)
    return created


def grow(warlog: Warlog, game_id: UUID, events: int, batch: int = 100) -> int:
    """Append free_rolls until the game has `events` events; returns its version.

    Each free_roll is one action of one event, exactly as `Warlog.command` would
    execute it, but up to `batch` actions are saved together: 10,000 events take
    seconds, not a minute. Snapshots are still taken every 100 versions.
    """
    free_roll = parse_command(FREE_ROLL, "alternating")  # a core command: the same in every ruleset
    while True:
        with warlog.lock(game_id):
            game = warlog.game(game_id)
            todo = min(batch, events - game.version)
            if todo <= 0:
                return game.version
            for _ in range(todo):
                game.execute("A", free_roll, AT)
            warlog.save(game)


def build_game(env: dict[str, str], events: int) -> dict[str, Any]:
    """A started demo game grown to `events` events in the store `env` names."""
    warlog = Warlog(env=env)
    try:
        created = new_started_game(warlog)
        created["version"] = grow(warlog, UUID(created["game_id"]), events)
        return created
    finally:
        warlog.close()


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def timed(call: Any, *args: Any, **kwargs: Any) -> tuple[float, Any]:
    started = time.perf_counter()
    result = call(*args, **kwargs)
    return time.perf_counter() - started, result


def expect(response: httpx.Response, status: int = 200) -> httpx.Response:
    if response.status_code != status:
        raise RuntimeError(f"{response.request.method} {response.request.url.path}: "
                           f"{response.status_code} {response.text[:500]}")
    return response


def header(title: str) -> None:
    print(f"== {title}", flush=True)
    print(f"   python {sys.version.split()[0]}, {os.cpu_count()} cores, load average "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())} (figures are noisy: other work shares this machine)"
          + (f"; client and servers pinned to CPU {min(PINNED)}" if PINNED else ""), flush=True)


def request_log(log: Path, path_suffix: str, method: str = "POST") -> list[dict[str, Any]]:
    """warlog's own request lines (api/logging.py) for paths ending in `path_suffix`."""
    lines = []
    for line in log.read_text().splitlines():
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if entry.get("event") == "request" and entry.get("method") == method \
                and str(entry.get("path", "")).endswith(path_suffix):
            lines.append(entry)
    return lines


# -- optional sampling profiler (py-spy is not a project dependency) -------------------------

IDLE_LEAVES = ("Condition.wait (threading.py", "EpollSelector.select (selectors.py", "select (selectors.py")
# Frames every sample of a thread passes through: they say nothing about where the time goes.
PLUMBING = ("Thread._bootstrap", "WorkerThread.run ", "BaseEventLoop.run_", "BaseEventLoop._run_once", "Handle._run",
            "_run_code ", "_run_module_as_main ", "<module> ", "main (", "serve (", "run (uvicorn", "Server.run ",
            "Runner.run ", "asyncio_run ")


@contextlib.contextmanager
def sampled(py_spy: str | None, pid: int, out: Path, seconds: float) -> Iterator[None]:
    """`py-spy record` of every thread of `pid` for at most `seconds` (nothing when py_spy is None)."""
    if not py_spy:
        yield
        return
    spy = subprocess.Popen([py_spy, "record", "--pid", str(pid), "--format", "raw", "-o", str(out),
                            "-d", str(max(1, int(seconds))), "-r", "200", "--idle", "--threads", "--nonblocking"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    time.sleep(0.5)
    try:
        yield
    finally:
        interrupt(spy, 30)  # SIGINT: py-spy writes its samples out


def hot_spots(raw: Path, top: int = 40) -> None:
    """Print the frames found in most busy samples (idle waits left out), as a share of busy samples."""
    inclusive: Counter[str] = Counter()
    own: Counter[str] = Counter()
    busy = idle = 0
    for line in raw.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        frames = stack.split(";")
        if frames[-1].startswith(IDLE_LEAVES):
            idle += int(count)
            continue
        busy += int(count)
        names = [re.sub(r":\d+\)$", ")", f) for f in frames[1:]]
        if not names:
            continue
        for frame in set(names):
            if not frame.startswith(PLUMBING):
                inclusive[frame] += int(count)
        own[names[-1]] += int(count)
    print(f"\n   py-spy: {busy} busy samples ({idle} idle left out); frames by share of busy samples:")
    for frame, count in inclusive.most_common(top):
        print(f"   {count / max(busy, 1):6.1%}  {frame}")
    print("   ... and where the samples stood (own time; a Python function standing as its own leaf is usually "
          "waiting in C: a lock, a socket, fsync):")
    for frame, count in own.most_common(top // 2):
        print(f"   {count / max(busy, 1):6.1%}  {frame}")
