"""Fixtures: an in-process HTTP client over create_app, on SQLite by default."""
from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from fastapi.testclient import TestClient

from tests.support.client import GameClient
from warlog.api.app import create_app
from warlog.api.settings import Settings


def settings_for(tmp_path, **overrides) -> Settings:
    return Settings(**{"db": str(tmp_path / "warlog.db"), "log_json": True, "requests_per_second": 10_000,
                       "burst": 10_000, "games_per_minute": 100_000, "games_burst": 10_000,
                       **overrides})


@pytest.fixture
def app(tmp_path):
    return create_app(settings_for(tmp_path))


@pytest.fixture
def http(app) -> Iterator[httpx.Client]:
    with TestClient(app) as client:
        yield client


@pytest.fixture
def new_game(http):
    def make(ruleset: str = "alternating", dice: str = "server", **options) -> GameClient:
        return GameClient(http, ruleset, dice, options)
    return make
