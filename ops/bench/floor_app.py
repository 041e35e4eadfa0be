"""A floor for free_roll_latency.py's figures: what any write of this contract costs before a rule runs.

A FastAPI app with warlog's own middlewares, taken from an app `create_app` made (the request log line, gzip, CORS),
a seat dependency that looks the bearer token up in a dict, and one endpoint that reads the body, parses it, appends
one stored event's bytes (838, warlog's mean) to a SQLite file in WAL mode with `synchronous=NORMAL` (as `warlog
serve` configures it) and commits, then sends back the answer it was given: warlog's own answer to a free roll (~14
KB: a write's answer carries the seat's whole view since issue 24). No rules, no hash chain, no aggregate, no view made:
those are the part of warlog's cost this floor leaves out."""
from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import Annotated

import orjson
from fastapi import Depends, FastAPI, HTTPException, Request
from fastapi.responses import Response
from starlette.middleware import Middleware

from warlog.api.app import create_app
from warlog.api.settings import Settings

EVENT_BYTES = 838  # bytes per stored event (ops/bench/game_size.py)


async def seat(request: Request, game_id: str) -> str:
    """The seat whose bearer token the request carries (401 for none)."""
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    role = request.app.state.tokens.get(token) if scheme.lower() == "bearer" else None
    if role is None:
        raise HTTPException(401)
    return str(role)


Seat = Annotated[str, Depends(seat)]


def floor_app(db: Path, tokens: dict[str, str], answer: bytes, middleware: list[Middleware]) -> FastAPI:
    """The floor app on the SQLite file `db`; `tokens` maps each bearer token to its seat; `answer` is sent back
    from every write; `middleware`: warlog's app's own (`user_middleware`), whatever the version measured."""
    connection = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=NORMAL")
    connection.execute("CREATE TABLE IF NOT EXISTS events (game TEXT, seq INTEGER, state BLOB, "
                       "PRIMARY KEY (game, seq))")
    seqs: dict[str, int] = {}
    app = FastAPI()
    app.state.tokens = tokens

    @app.post("/games/{game_id}/commands")
    async def command(caller: Seat, game_id: str, request: Request) -> Response:
        body = orjson.loads(await request.body())
        seq = seqs[game_id] = seqs.get(game_id, 0) + 1
        state = orjson.dumps({"caller": caller, "request": body}).ljust(EVENT_BYTES)
        connection.execute("BEGIN")
        connection.execute("INSERT INTO events VALUES (?, ?, ?)", (game_id, seq, state))
        connection.execute("COMMIT")
        return Response(answer, media_type="application/json")

    app.user_middleware = list(middleware)
    return app


def from_env() -> FastAPI:
    """The floor app as uvicorn's factory makes it (harness.floor_server): FLOOR_DB, FLOOR_TOKEN (seat A's) and
    FLOOR_ANSWER (a file holding the answer to send) from the environment."""
    db = Path(os.environ["FLOOR_DB"])
    warlog = create_app(Settings(db=str(db.with_suffix(".warlog.db"))))  # for its middlewares only
    return floor_app(db, {os.environ["FLOOR_TOKEN"]: "A"}, Path(os.environ["FLOOR_ANSWER"]).read_bytes(),
                     warlog.user_middleware)
