"""PostgreSQL for the integration tests: each test gets a schema of its own, dropped afterwards.

These tests never skip: when the server at 127.0.0.1:5432 is unreachable the fixture raises and the
test fails, as CI requires.
"""
from __future__ import annotations

from collections.abc import Iterator
from uuid import uuid4

import psycopg
import pytest
from psycopg import sql

from warlog.api.settings import Settings

PG_URL = "postgresql://postgres@127.0.0.1:5432/test"


def pg_settings(schema: str, **overrides) -> Settings:
    return Settings(**{"postgres": PG_URL, "postgres_schema": schema, "log_json": True,
                       "requests_per_second": 10_000, "burst": 10_000, "games_per_minute": 100_000,
                       "games_burst": 10_000, **overrides})


@pytest.fixture
def pg_schema() -> Iterator[str]:
    """A fresh schema (the library's POSTGRES_SCHEMA) holding every table warlog makes."""
    name = f"warlog_test_{uuid4().hex[:12]}"
    try:
        with psycopg.connect(PG_URL, autocommit=True, connect_timeout=5) as db:
            db.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(name)))
    except psycopg.OperationalError as error:
        pytest.fail(f"PostgreSQL at {PG_URL} is unreachable: {error}")
    yield name
    with psycopg.connect(PG_URL, autocommit=True, connect_timeout=5) as db:
        db.execute(sql.SQL("DROP SCHEMA {} CASCADE").format(sql.Identifier(name)))


def tables(schema: str) -> set[str]:
    with psycopg.connect(PG_URL, autocommit=True, connect_timeout=5) as db:
        rows = db.execute("SELECT table_name FROM information_schema.tables WHERE table_schema = %s",
                          (schema,)).fetchall()
    return {row[0] for row in rows}
