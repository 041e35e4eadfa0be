"""Settings in one BaseSettings behind a cached get_settings() that tests override."""
from __future__ import annotations

from functools import lru_cache
from urllib.parse import urlparse

from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="WARLOG_")

    db: str = "warlog.db"                  # SQLite file (the default store)
    postgres: str | None = None            # postgresql://user@host:port/db: use PostgreSQL instead
    persistence: str | None = None         # force "popo" (in memory) for quick tests
    max_command_bytes: int = 64 * 1024
    max_army_bytes: int = 1024 * 1024
    requests_per_second: float = 50.0      # per token, with a burst of `burst`
    burst: int = 200
    streams_per_token: int = 10
    keepalive_s: float = 15.0
    feed_poll_s: float | None = None       # streams re-read this often (default 0.5 s; 5 s once PostgreSQL
                                           # LISTEN/NOTIFY wakes them)
    log_json: bool | None = None           # None: JSON when stdout is not a terminal

    def eventsourcing_env(self) -> dict[str, str]:
        """The eventsourcing library's own configuration keys for the chosen store."""
        if self.persistence == "popo":
            return {"PERSISTENCE_MODULE": "eventsourcing.popo"}
        if self.postgres:
            url = urlparse(self.postgres)
            env = {"PERSISTENCE_MODULE": "eventsourcing.postgres",
                   "POSTGRES_DBNAME": url.path.lstrip("/") or "postgres",
                   "POSTGRES_HOST": url.hostname or "127.0.0.1",
                   "POSTGRES_PORT": str(url.port or 5432),
                   "POSTGRES_USER": url.username or "postgres",
                   "POSTGRES_PASSWORD": url.password or ""}
            return env
        return {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": self.db,
                "SQLITE_LOCK_TIMEOUT": "10"}


@lru_cache
def get_settings() -> Settings:
    return Settings()
