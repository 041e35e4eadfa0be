"""create_app(settings): the composition root."""
from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.middleware.cors import CORSMiddleware
from fastapi.middleware.gzip import GZipMiddleware
from fastapi_offline import FastAPIOffline

from warlog.api import errors, openapi
from warlog.api.feed import Feed, PostgresListener
from warlog.api.idempotency import RefusalStore
from warlog.api.limits import Limits
from warlog.api.logging import RequestLog, configure
from warlog.api.routes import (
    analytics,
    audit,
    commands,
    games,
    overlay,
    overlay_page,
    pages,
    reading,
    rosters,
    rules,
    stream,
    undo,
)
from warlog.api.settings import Settings, get_settings
from warlog.api.shards import Shards
from warlog.api.storage import AsyncAppends, OneTripRecorder
from warlog.api.writing import Turns

TAGS = [  # the order the API reference shows them in, whatever order the routers are matched in
    {"name": "games", "description": "Create a game (its three tokens) and muster armies before the start."},
    {"name": "play", "description": "Commands, undo and redo: every write of play, one action each."},
    {"name": "reading", "description": "The current phase, the log, its live stream and the hash chain's check."},
    {"name": "audit", "description": "Why an event happened: command, rule, dice and their proof, causes."},
    {"name": "overlay", "description": "What a stream overlay shows, live, and the overlay page itself."},
    {"name": "analytics", "description": "Dice luck and damage per game, and the log exported."},
    {"name": "pages", "description": "The browser pages' helpers: a seat link's QR code."},
    {"name": "rules", "description": "The rules every refusal, event and audit cites, by their IDs."},
]


def deferred_appends(settings: Settings, shards: Shards) -> dict[int, AsyncAppends]:
    """A shard's application (by id) -> its appends awaited on the loop, in the "deferred" write mode."""
    postgres = settings.postgres_params()
    appends = {}
    for shard in shards:
        if postgres is None or not isinstance(shard.recorder, OneTripRecorder):
            raise RuntimeError("deferred writes are PostgreSQL's (Settings.write_mode)")  # write_mode says so
        appends[id(shard)] = AsyncAppends(shard.recorder, postgres, shards.n)
    return appends


ROUTES = (commands, games, undo, reading, stream, audit, overlay, overlay_page, analytics, rosters, pages, rules)


def join_routes(app: FastAPI) -> None:
    """Each module's routes join the app's own router, in this order (play first: the commands are most of the
    traffic, and routes are matched in order). `include_router` would keep each module's router as one route of its
    own, matched lazily (FastAPI's `_IncludedRouter`): two more frames and a second match on every request. A route
    already carries its router's tags and responses (APIRouter.add_api_route merges them), and no module router
    has a prefix or dependencies of its own, so the routes and the OpenAPI document are the same."""
    for module in ROUTES:
        app.router.routes.extend(module.router.routes)


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()
    configure(settings.log_json)
    shards = Shards.open(settings)  # one store, or N on PostgreSQL (api/shards.py)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        feed: Feed = app.state.feed
        await app.state.refusals.open()  # their PostgreSQL pools belong to this loop
        await app.state.limits.open()
        for appends in app.state.appends.values():
            await appends.open()
        if settings.postgres_params() is not None:  # hear appends by other processes, to every shard
            feed.listener = PostgresListener.for_shards(shards, feed)
            await feed.listener.start()
            feed.poll_s = settings.feed_poll_s or 5.0
        yield
        if feed.listener is not None:
            await feed.listener.stop()
        await app.state.refusals.close()
        await app.state.limits.close()
        for appends in app.state.appends.values():
            await appends.close()
        shards.close()

    # /docs and /redoc from the package's own copies of Swagger UI and ReDoc (fastapi-offline: FastAPI's
    # documented self-hosting recipe, packaged and kept current), so a table with no internet still reads them
    # FastAPI's native OpenTelemetry off: warlog tells each request in its own log line (api/logging.py), and
    # asking whether a telemetry provider is configured cost every request a few environment reads
    app = FastAPIOffline(title="warlog", version="0.1.0", lifespan=lifespan, openapi_tags=TAGS,
                  telemetry={"tracing": False, "metrics": False, "logs": False},
                  description="An event-sourced rules service for tabletop wargames. Every error is "
                              "application/problem+json; refusals name their rule (RULES.md).")
    app.state.settings = settings
    app.state.write_mode = settings.write_mode()
    app.state.appends = deferred_appends(settings, shards) if app.state.write_mode == "deferred" else {}
    app.state.turns = Turns()
    app.state.shards = shards
    app.state.feed = Feed(poll_s=settings.feed_poll_s or 0.5)
    app.state.limits = Limits.for_settings(settings)  # in PostgreSQL when processes share it
    app.state.refusals = RefusalStore.for_settings(settings)
    errors.install(app)
    openapi.install(app)
    join_routes(app)
    if settings.cors_origins:  # the table app and overlays run in browsers on other origins; tokens are bearer
        app.add_middleware(CORSMiddleware, allow_origins=settings.cors_origins, allow_methods=["GET", "POST"],
                           allow_headers=["Authorization", "Content-Type", "Idempotency-Key", "If-Match",
                                          "Last-Event-ID", "Known-Head"], expose_headers=["Retry-After"])
    # gzip for every answer of 500 bytes or more that asks for it (pages, modules, CSS, JSON): Starlette's own, which
    # leaves text/event-stream alone (its default exclude_content_types), so the streams are neither compressed nor
    # held back; level 6, zlib's default, as an answer's view is compressed on every write (9 buys ~1% here)
    app.add_middleware(GZipMiddleware, minimum_size=500, compresslevel=6)
    app.add_middleware(RequestLog)  # outermost: the log line, and problem+json 500 for an unexpected failure
    return app
