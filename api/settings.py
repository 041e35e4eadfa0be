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

    db: str = Field("warlog.db", description="the SQLite file holding every game (the default store); the ledger "
                    "projection sits beside it as `*.ledger.db`")
    postgres: str | None = Field(None, description="`postgresql://user@host:port/db`: store the games in PostgreSQL "
                                 "instead (several processes on one database)")
    postgres_schema: str | None = Field(None, description="a PostgreSQL schema for every table (default: public)")
    shards: int = Field(1, ge=1, le=64, description="event stores in that PostgreSQL database, a game's chosen by "
                        "its id; every process serving it must be given the same N (`warlog reshard` moves games)")
    persistence: str | None = Field(None, description="`popo` keeps the games in memory only (quick tests): they "
                                    "end with the process")
    max_command_bytes: int = Field(64 * 1024, description="the largest command body accepted (413 past it)")
    max_army_bytes: int = Field(1024 * 1024, description="the largest army or roster file accepted (413 past it)")
    requests_per_second: float = Field(50.0, gt=0, description="requests a token may send a second, with a burst "
                                       "of `burst` (across processes on PostgreSQL); 429 past it")
    burst: int = Field(200, ge=1, description="the burst of requests a token may send at once")
    streams_per_token: int = Field(10, description="live streams (SSE) one token may hold open")
    games_per_minute: float = Field(60.0, gt=0, description="`POST /games` a client address may send a minute, "
                                    "with a burst of `games_burst`")
    games_burst: int = Field(60, ge=1, description="games one address may create at once (a club creating its "
                             "evening)")
    keepalive_s: float = Field(15.0, description="seconds between keep-alive comments on a quiet live stream")
    feed_poll_s: float | None = Field(None, description="how often the live streams read the store again (default "
                                      "0.5 s; 5 s once PostgreSQL's LISTEN/NOTIFY wakes them)")
    sqlite_synchronous: Literal["NORMAL", "FULL", "EXTRA"] = Field(
        "NORMAL", description="SQLite's `synchronous`: NORMAL survives a crash of the process, FULL a power cut too")
    inline_writes: bool | None = Field(None, description="run writes on the event loop (true) or a worker thread "
                                       "(false); default: the loop on SQLite, deferred appends on PostgreSQL")
    cors_origins: list[str] = Field(["*"], description="browser origins allowed to call the API (`[]` turns CORS "
                                    "off). Tokens are bearer tokens, never cookies, so `*` lends no one a "
                                    "player's rights; narrow it to your own origins when the service is on the "
                                    "internet")
    log_json: bool | None = Field(None, description="log lines as JSON (true) or text (false); default: JSON when "
                                  "standard output is not a terminal")

    @classmethod
    def table(cls) -> str:
        """Every setting as a Markdown table (docs/operating.md holds it; a test holds the page to it)."""
        rows = ["| variable | default | what it sets |", "|---|---|---|"]
        for name, field in cls.model_fields.items():
            default = "none" if field.default is None else f"`{field.default}`".replace("'", '"')
            rows.append(f"| `WARLOG_{name.upper()}` | {default} | {field.description} |")
        return "\n".join(rows) + "\n"

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
