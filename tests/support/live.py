"""A real uvicorn for streaming tests, and a Server-Sent Events reader (CR, LF or CRLF lines)."""
from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import uvicorn
from fastapi import FastAPI

WAIT_S = 15.0


@contextmanager
def serving(app: FastAPI, port: int = 0) -> Iterator[str]:
    """uvicorn in a thread on 127.0.0.1 (a free port, or `port` to come back where a client expects it);
    stopped on exit."""
    # IPPROTO_TCP named: asyncio sets TCP_NODELAY only on connections whose socket says TCP; without it every
    # request waited some 40 ms on Nagle's algorithm and the delayed ACK (`warlog serve` never does)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", port))
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False, timeout_graceful_shutdown=1))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + WAIT_S
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(WAIT_S)
        sock.close()


def messages(response: httpx.Response, give_up_s: float = WAIT_S) -> Iterator[dict[str, Any]]:
    """Each SSE message as {"id", "event", "data"} (data parsed as JSON); comments are skipped.

    Keep-alive comments keep a read timeout from ever firing, so waiting for a message that never
    comes fails here instead, `give_up_s` after the last one (a bound on failure, not a timing check).
    """
    message: dict[str, Any] = {}
    data: list[str] = []
    deadline = time.monotonic() + give_up_s
    for line in response.iter_lines():
        assert time.monotonic() < deadline, f"no SSE message within {give_up_s} s"
        if line == "":
            if data:
                yield {**message, "data": json.loads("\n".join(data))}
                deadline = time.monotonic() + give_up_s
            message, data = {}, []
        elif line.startswith(":"):
            continue
        else:
            field, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if field == "data":
                data.append(value)
            else:
                message[field] = value


def stream_hears_every_writer(balancer: httpx.Client, game: Any, writers: list[httpx.Client],
                              idle_s: float = 0.0) -> int:
    """Open `game`'s spectator stream through `balancer`, then send a roll through each of `writers` (the balancer
    and each process directly): the stream must bring each roll's events, in order, whichever process took it.
    `idle_s`: wait that long first, so that keep-alive comments pass. Returns the events heard."""
    heard = 0
    with balancer.stream("GET", f"/games/{game.id}/events/stream",
                         params={"token": game.tokens["spectator"], "after": game.state()["version"]}) as seen:
        assert seen.status_code == 200 and seen.headers["content-type"].startswith("text/event-stream")
        feed = messages(seen)
        time.sleep(idle_s)
        for writer in writers:
            game.http = writer
            answer = game.cmd("A", "free_roll", spec="D6", purpose=f"via {writer.base_url}")
            assert [next(feed)["data"] for _ in answer["events"]] == answer["events"], writer.base_url
            heard += len(answer["events"])
        game.http = balancer
    return heard
