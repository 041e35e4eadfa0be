"""The plain-process deployment recipe (ops/deploy/cluster.py): two `warlog serve --shards 2` processes on one
PostgreSQL database behind HAProxy. Through the balancer a game is played and its live stream hears every
append, including those made on each process directly; keep-alive comments pass an idle stream through.

HAProxy is Debian's package (`make haproxy`); the tables live in a schema of their own; the test never skips.
"""
from __future__ import annotations

from uuid import UUID

import httpx
import pytest

from ops.deploy.cluster import cluster
from tests.integration.conftest import PG_URL
from tests.support.client import GameClient, unit
from tests.support.live import WAIT_S, stream_hears_every_writer
from warlog.domain.shards import shard_of

pytestmark = pytest.mark.postgres


def test_through_the_balancer_a_stream_hears_appends_made_on_every_process(pg_schema, tmp_path):
    env = {"WARLOG_POSTGRES_SCHEMA": pg_schema, "WARLOG_FEED_POLL_S": "3600", "WARLOG_KEEPALIVE_S": "1",
           "WARLOG_REQUESTS_PER_SECOND": "10000", "WARLOG_BURST": "10000", "WARLOG_GAMES_BURST": "100",
           "WARLOG_LOG_JSON": "true"}
    with cluster(PG_URL, 2, 2, env, tmp_path) as running, \
            httpx.Client(base_url=running.url, timeout=WAIT_S) as balancer:
        one_per_shard: dict[int, GameClient] = {}
        while len(one_per_shard) < 2:  # ids are random
            game = GameClient(balancer)
            one_per_shard.setdefault(shard_of(UUID(game.id), 2), game)
        direct = [httpx.Client(base_url=service.url, timeout=WAIT_S) for service in running.services]
        for game in one_per_shard.values():
            game.start([unit("scouts-1")], [unit("boyz-1")])
            # an idle second or more first: the keep-alive comment comes through, the stream stays
            stream_hears_every_writer(balancer, game, [balancer, *direct], idle_s=1.5)
            verified = game.verify("B")
            assert verified["chain_ok"] is True and verified["events"] == game.state()["version"]
        for http in direct:
            http.close()
