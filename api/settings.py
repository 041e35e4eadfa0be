"""Settings in one BaseSettings behind a cached get_settings() that tests override."""
from __future__ import annotations

import os
from functools import lru_cache
from typing import Any, Literal
from urllib.parse import unquote, urlparse

from eventsourcing.utils import Environment
from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from warlog.domain.shards import APP_NAME, shard_name


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="WARLOG_")

    db: str = "warlog.db"                  # SQLite file (the default store)
    postgres: str | None = None            # postgresql://user@host:port/db: use PostgreSQL instead
    postgres_schema: str | None = None     # a PostgreSQL schema for every table (default: public)
    shards: int = Field(1, ge=1, le=64)    # event stores in that database, a game's chosen by its id
                                           # (api/shards.py); every process serving it is given the same N
    persistence: str | None = None         # force "popo" (in memory) for quick tests
    max_command_bytes: int = 64 * 1024
    max_army_bytes: int = 1024 * 1024
    requests_per_second: float = Field(50.0, gt=0)  # per token, with a burst of `burst`; across processes
    burst: int = Field(200, ge=1)                   # on PostgreSQL (api/limits.py)
    streams_per_token: int = 10
    games_per_minute: float = Field(60.0, gt=0)     # POST /games per client address, with a burst of
    games_burst: int = Field(60, ge=1)              # `games_burst` (a club creating its evening at once)
    keepalive_s: float = 15.0
    feed_poll_s: float | None = None       # streams re-read this often (default 0.5 s; 5 s once PostgreSQL
                                           # LISTEN/NOTIFY wakes them)
    sqlite_synchronous: Literal["NORMAL", "FULL", "EXTRA"] = "NORMAL"  # FULL: survive power cuts too
    inline_writes: bool | None = None      # writes on the loop (true) or a thread (false); see write_mode
    cors_origins: list[str] = ["*"]         # browser origins allowed to call the API ([] turns CORS off)
    log_json: bool | None = None           # None: JSON when stdout is not a terminal

    def postgres_params(self) -> dict[str, Any] | None:
        """Where PostgreSQL is, from `postgres` or else from the library's own POSTGRES_* variables;
        None when the store is SQLite (or in memory)."""
        if self.persistence == "popo":
            return None
        if self.postgres:
            url = urlparse(self.postgres)
            return {"dbname": url.path.lstrip("/") or "postgres", "host": url.hostname or "127.0.0.1",
                    "port": url.port or 5432, "user": unquote(url.username or "postgres"),
                    "password": unquote(url.password or ""), "schema": self.postgres_schema or ""}
        library = Environment(APP_NAME, dict(os.environ))
        chosen = library.get("PERSISTENCE_MODULE")
        if chosen != "eventsourcing.postgres" and not (chosen is None and library.get("POSTGRES_DBNAME")):
            return None
        return {"dbname": library.get("POSTGRES_DBNAME", "postgres"),
                "host": library.get("POSTGRES_HOST", "127.0.0.1"),
                "port": int(library.get("POSTGRES_PORT") or 5432),
                "user": library.get("POSTGRES_USER", "postgres"),
                "password": library.get("POSTGRES_PASSWORD", ""),
                "schema": self.postgres_schema or library.get("POSTGRES_SCHEMA", "")}

    def write_mode(self) -> str:
        """Where a write runs. "loop": on the event loop, appending there (SQLite's default: it takes one
        writer at a time anyway, and a write on the loop saves a worker-thread hop, about a third of a
        free_roll's latency). "deferred" (PostgreSQL's default): judged on the loop, its append awaited
        there (api/storage.py AsyncAppends), so neither a round trip blocks the loop nor a thread is
        woken. "thread": in a worker thread, appending there. `inline_writes` true or false chooses
        "loop" or "thread" whatever the store."""
        if self.inline_writes is not None:
            return "loop" if self.inline_writes else "thread"
        return "loop" if self.postgres_params() is None else "deferred"

    def eventsourcing_env(self, shard: int = 0) -> dict[str, str]:
        """The eventsourcing library's own configuration keys for the chosen store (for PostgreSQL, for
        one of its shards: `shard_name(shard)` is that application's name and its tables' prefix).

        Keys carry the application's prefix so that the choice made here wins over
        stray variables of the same name in the environment.
        """
        if self.persistence == "popo":
            env = {"PERSISTENCE_MODULE": "eventsourcing.popo"}
        elif (pg := self.postgres_params()) is not None:
            env = {"PERSISTENCE_MODULE": "eventsourcing.postgres", "POSTGRES_DBNAME": pg["dbname"],
                   "POSTGRES_HOST": pg["host"], "POSTGRES_PORT": str(pg["port"]), "POSTGRES_USER": pg["user"],
                   "POSTGRES_PASSWORD": pg["password"], "POSTGRES_SCHEMA": pg["schema"],
                   # one round trip an append, the table lock held inside the server (api/storage.py)
                   "POSTGRES_ENABLE_DB_FUNCTIONS": "y", "APPLICATION_RECORDER_TOPIC": "warlog.api.storage:OneTripRecorder"}
        else:
            env = {"PERSISTENCE_MODULE": "warlog.api.storage", "SQLITE_DBNAME": self.db,
                   "SQLITE_LOCK_TIMEOUT": "10", "SQLITE_SYNCHRONOUS": self.sqlite_synchronous}
        return {f"{shard_name(shard).upper()}_{key}": value for key, value in env.items()}


@lru_cache
def get_settings() -> Settings:
    return Settings()
