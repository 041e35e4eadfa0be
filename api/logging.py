"""structlog: one line per request (JSON in production, readable in a terminal)."""
from __future__ import annotations

import logging
import sys
import time

import structlog
from starlette.types import ASGIApp, Message, Receive, Scope, Send


def configure(json_lines: bool | None = None) -> None:
    if json_lines is None:
        json_lines = not sys.stdout.isatty()
    renderer = structlog.processors.JSONRenderer() if json_lines else structlog.dev.ConsoleRenderer()
    structlog.configure(
        processors=[structlog.contextvars.merge_contextvars, structlog.processors.add_log_level,
                    structlog.processors.TimeStamper(fmt="iso", utc=True),
                    structlog.processors.format_exc_info, renderer],
        wrapper_class=structlog.make_filtering_bound_logger(logging.INFO),
        cache_logger_on_first_use=True,
    )


class RequestLog:
    """Pure ASGI middleware (does not buffer streams): logs method, path, status, duration and context."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.log = structlog.get_logger("warlog.request")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500
        scope.setdefault("state", {})["log_context"] = {}

        async def send_wrapper(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, send_wrapper)
        except Exception:
            self.log.exception("request failed", method=scope["method"], path=scope["path"])
            raise
        finally:
            context = scope["state"].get("log_context") or {}
            level = self.log.info if status < 500 else self.log.error
            level("request", method=scope["method"], path=scope["path"], status=status,
                  duration_ms=round((time.perf_counter() - started) * 1000, 2), **context)
