"""Issue 2: p50 latency of `POST /games/{id}/commands` free_roll over real HTTP,
as a ratio to a bare FastAPI echo endpoint with the same JSON body (target <= 1.5x).

Both are uvicorn subprocesses on 127.0.0.1 (warlog on a SQLite file in a temp
dir), driven by one keep-alive httpx client, the requests alternated
(warlog, echo, echo, warlog, ...) so both see the same machine load. The
ratio is also taken block by block (BLOCK pairs each) and the spread of
those block ratios printed: a burst of other work on the machine moves one
block, not the verdict.
It then splits the cost in this process: warlog's whole app and the echo app
called as ASGI applications (no socket, no uvicorn), alternated, and
`Warlog.command` alone (no HTTP); with --profile, where that time goes (cProfile).
"""
from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import hashlib
import json
import pstats
import time
from pathlib import Path
from typing import Any
from uuid import UUID

import httpx
from harness import (
    AT,
    FREE_ROLL,
    UNLIMITED,
    Budget,
    Server,
    Warlog,
    bearer,
    build_game,
    echo_server,
    expect,
    floor_server,
    free_port,
    header,
    hot_spots,
    new_started_game,
    parse_command,
    percentile,
    pin,
    ratio,
    request_log,
    sampled,
    sqlite_env,
    summary,
    timed,
    warlog_server,
    workdir,
)

WARM_UP = 50  # requests of each kind before measuring: connections, caches, the first snapshot
BLOCK = 500  # pairs per block ratio


def over_http(requests: int, seconds: float, py_spy: str | None) -> dict[str, list[float]]:
    with workdir() as tmp:
        with warlog_server(free_port(), tmp / "warlog.log", db=tmp / "warlog.db") as warlog, \
                echo_server(free_port(), tmp / "echo.log") as echo:
            samples = measure(tmp, warlog, echo, requests, seconds, py_spy)
        lines = request_log(tmp / "warlog.log", "/commands")[WARM_UP:]  # complete once the server has exited
        return {**samples, "server": [line["duration_ms"] / 1000 for line in lines],
                "write": [line["write_ms"] / 1000 for line in lines if "write_ms" in line]}


def measure(tmp: Path, warlog: Server, echo: Server, requests: int, seconds: float,
            py_spy: str | None) -> dict[str, list[float]]:
    """warlog's free_roll, the echo and the floor (floor_app.py, answering warlog's own answer), each request in
    turn, the order turned by one each round so that each comes first as often."""
    # The game is started in the store the server has open; the server loads it from there.
    created = build_game(sqlite_env(tmp / "warlog.db"), 0)
    command_path = f"/games/{created['game_id']}/commands"
    headers = bearer(created["tokens"]["A"])
    with httpx.Client(timeout=10) as client:
        def once(url: str) -> tuple[float, httpx.Response]:
            took, response = timed(client.post, url, json=FREE_ROLL, headers=headers)
            expect(response)
            return took, response

        urls = {"warlog": warlog.url + command_path, "echo": f"{echo.url}/echo"}
        for _ in range(WARM_UP):
            for url in urls.values():
                once(url)
        (tmp / "answer.json").write_bytes(once(urls["warlog"])[1].content)
        with floor_server(free_port(), tmp / "floor.log", tmp / "floor.db", created["tokens"]["A"],
                          tmp / "answer.json") as floor:
            urls["floor"] = floor.url + command_path
            for _ in range(WARM_UP):
                once(urls["floor"])
            samples: dict[str, list[float]] = {name: [] for name in urls}
            order = list(urls)
            with sampled(py_spy, warlog.pid, tmp / "py-spy.txt", seconds):
                budget = Budget(seconds)
                for i in range(requests):
                    if budget.over():
                        print(f"   time budget reached after {i} rounds")
                        break
                    for name in order[i % 3:] + order[:i % 3]:
                        samples[name].append(once(urls[name])[0])
    if py_spy:
        hot_spots(tmp / "py-spy.txt")
    return samples


def in_process(requests: int, seconds: float, profile: bool) -> list[float]:
    """`Warlog.command` itself: domain, hash chain, SQLite commit; no HTTP, no threads. The store is configured
    as `warlog serve` configures it (`Settings.eventsourcing_env`: warlog's SQLite module, `synchronous=NORMAL`),
    not the library's plain one, whose default `synchronous=FULL` syncs the file on every commit."""
    from warlog.api.settings import Settings

    with workdir() as tmp:
        warlog = Warlog(env=Settings(db=str(tmp / "warlog.db"), **UNLIMITED).eventsourcing_env())
        try:
            game_id = UUID(new_started_game(warlog)["game_id"])

            def once() -> float:
                return timed(warlog.command, game_id, "A", parse_command(FREE_ROLL, "alternating"), AT)[0]

            for _ in range(50):
                once()
            profiler = cProfile.Profile() if profile else None
            if profiler:
                profiler.enable()
            budget = Budget(seconds)
            samples = [once() for _ in range(requests) if not budget.over()]
            if profiler:
                profiler.disable()
                print("\n   cProfile of Warlog.command (cumulative, top 25):")
                pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)
            return samples
        finally:
            warlog.close()


COOL_BYTES = 8 << 20  # read between requests in the "cooled" pass: 8 MiB pushes a request's code and data out of
# the CPU's L2 (1-2 MiB a core on the machines this ran on) and part of a small L3, as the client's, the kernel's and
# the other server's turns on the CPU do between two requests over HTTP (1 MiB was too little to show)


def asgi_apps(requests: int, cool: int = 0) -> tuple[list[float], list[float], list[float]]:
    """warlog's app (`create_app`, SQLite file, its request log line included), the echo app and the floor app
    (floor_app.py: warlog's middlewares, a token looked up, one SQLite append and commit, warlog's answer sent back;
    no rules), each called as an ASGI application with the same body and headers, alternated: what the app costs
    beside the echo endpoint with uvicorn and the socket left out, and what of it no rule causes. The ASGI call is
    made by hand rather than through httpx's ASGITransport (command_cpu.py's client): that client's own work a
    request is more than the echo app's.
    With `cool` (bytes), that much memory is read (hashed) before each request, outside its timing: the
    request then runs with its code and data out of the nearer caches, as it does behind a socket whose other
    end shares the CPU."""
    import echo_app
    from floor_app import floor_app

    from warlog.api.app import create_app
    from warlog.api.settings import Settings

    body = json.dumps(FREE_ROLL).encode()
    with workdir() as tmp, open(tmp / "requests.log", "w") as log, contextlib.redirect_stdout(log):
        created = build_game(sqlite_env(tmp / "warlog.db"), 0)
        app = create_app(Settings(db=str(tmp / "warlog.db"), **UNLIMITED))
        headers = [(b"host", b"127.0.0.1"), (b"content-type", b"application/json"),
                   (b"content-length", str(len(body)).encode()),
                   *[(k.lower().encode(), v.encode()) for k, v in bearer(created["tokens"]["A"]).items()]]

        answered: list[bytes] = []  # warlog's last answer, which the floor app sends back

        async def call(target: Any, path: str) -> float:
            scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
                     "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"",
                     "root_path": "", "headers": headers, "client": ("127.0.0.1", 50000),
                     "server": ("127.0.0.1", 8000)}
            messages = [{"type": "http.request", "body": body, "more_body": False}]
            sent: list[dict[str, Any]] = []

            async def receive() -> dict[str, Any]:
                return messages.pop() if messages else {"type": "http.disconnect"}

            async def send(message: dict[str, Any]) -> None:
                sent.append(message)

            started = time.perf_counter()
            await target(scope, receive, send)
            took = time.perf_counter() - started
            if sent[0]["status"] != 200:
                raise RuntimeError(f"{path}: {sent[0]['status']} {sent[1].get('body', b'')[:300]!r}")
            answered[:] = [sent[1]["body"]]
            return took

        cooling = bytes(cool)

        async def cooled(target: Any, path: str) -> float:
            if cooling:
                hashlib.sha256(cooling).digest()
            return await call(target, path)

        async def alternate() -> tuple[list[float], list[float], list[float]]:
            async with app.router.lifespan_context(app):
                command_path = f"/games/{created['game_id']}/commands"
                await call(app, command_path)
                floor = floor_app(tmp / "floor.db", {created["tokens"]["A"]: "A"}, answered[0], app.user_middleware)
                warlog_s, echo_s, floor_s = [], [], []
                for n in range(WARM_UP + requests):
                    took = [await cooled(app, command_path), await cooled(echo_app.app, "/echo"),
                            await cooled(floor, command_path)]
                    if n >= WARM_UP:
                        for samples, sample in zip((warlog_s, echo_s, floor_s), took, strict=True):
                            samples.append(sample)
                return warlog_s, echo_s, floor_s

        return asyncio.run(alternate())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=5000, help="pairs of requests (default 5000)")
    parser.add_argument("--seconds", type=float, default=60, help="time budget of the HTTP loop (default 60)")
    parser.add_argument("--cpu", type=int, help="run client and servers on this one CPU (steadier figures)")
    parser.add_argument("--profile", action="store_true", help="cProfile the in-process application call")
    parser.add_argument("--py-spy", metavar="BIN", help="sample the warlog server with this py-spy binary")
    args = parser.parse_args()
    pin(args.cpu)

    header("free_roll latency over HTTP vs a bare FastAPI echo (issue 2, target <= 1.5x)")
    http = over_http(args.requests, args.seconds, args.py_spy)
    app_s, echo_app_s, floor_s = asgi_apps(min(args.requests, 2000))
    cool_s, cool_echo_s, cool_floor_s = asgi_apps(min(args.requests, 1000), COOL_BYTES)
    direct_s = in_process(min(args.requests, 500), args.seconds / 3, args.profile)
    warlog_s, echo_s = http["warlog"], http["echo"]
    print(f"   echo (client side)                   {summary(echo_s)}")
    print(f"   free_roll (client side)              {summary(warlog_s)}")
    print(f"   the floor (client side)              {summary(http['floor'])} "
          f"= {ratio(percentile(http['floor'], 50), percentile(echo_s, 50))} the echo's p50 (no rules: floor_app.py)")
    print(f"     inside warlog's request log line   {summary(http['server'])}")
    print(f"     of which the write (write_ms)      {summary(http['write'])}")
    print(f"   in process, as ASGI apps: echo       {summary(echo_app_s)}")
    print(f"   in process, as ASGI apps: free_roll  {summary(app_s)} "
          f"= {ratio(percentile(app_s, 50), percentile(echo_app_s, 50))} the echo app's p50")
    print(f"   in process, as ASGI apps: the floor  {summary(floor_s)} "
          f"= {ratio(percentile(floor_s, 50), percentile(echo_app_s, 50))} the echo app's p50 (no rules: floor_app.py)")
    print(f"   in process, caches cooled: echo      {summary(cool_echo_s)}")
    print(f"   in process, caches cooled: free_roll {summary(cool_s)} "
          f"= {ratio(percentile(cool_s, 50), percentile(cool_echo_s, 50))} the echo app's p50")
    print(f"   in process, caches cooled: the floor {summary(cool_floor_s)} "
          f"= {ratio(percentile(cool_floor_s, 50), percentile(cool_echo_s, 50))} the echo app's p50")
    print(f"   Warlog.command in process (no HTTP)  {summary(direct_s)}")
    beyond = [(percentile(w, 50) - percentile(e, 50)) * 1000
              for w, e in ((app_s, echo_app_s), (cool_s, cool_echo_s), (warlog_s, echo_s))]
    print(f"   free_roll's p50 beyond the echo's: in process {beyond[0]:.2f} ms, caches cooled {beyond[1]:.2f} ms, "
          f"over HTTP {beyond[2]:.2f} ms")
    p50, echo_p50 = percentile(warlog_s, 50), percentile(echo_s, 50)
    blocks = [percentile(warlog_s[i:i + BLOCK], 50) / percentile(echo_s[i:i + BLOCK], 50)
              for i in range(0, len(warlog_s) - BLOCK + 1, BLOCK)]
    if blocks:
        print(f"   p50 ratio of each block of {BLOCK} pairs, in order: "
              f"{', '.join(f'{b:.2f}x' for b in blocks)} (median {percentile(blocks, 50):.2f}x)")
    verdict = "meets" if p50 <= 1.5 * echo_p50 else "misses"
    print(f"RESULT free_roll/echo p50 {ratio(p50, echo_p50)} ({verdict} the 1.5x target), "
          f"p90 {ratio(percentile(warlog_s, 90), percentile(echo_s, 90))}; "
          f"p50 in ms: echo {echo_p50 * 1000:.2f}, free_roll {p50 * 1000:.2f}, "
          f"Warlog.command alone {percentile(direct_s, 50) * 1000:.2f}; floor/echo over HTTP "
          f"{ratio(percentile(http['floor'], 50), echo_p50)}; in process free_roll/echo "
          f"{ratio(percentile(app_s, 50), percentile(echo_app_s, 50))}, floor/echo "
          f"{ratio(percentile(floor_s, 50), percentile(echo_app_s, 50))}")


if __name__ == "__main__":
    main()
