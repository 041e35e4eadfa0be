"""Issue 9: a 20-model unit's full shooting attack (hit -> wound -> save -> damage, server dice, one
`attack` command) over HTTP, as a ratio to one `free_roll` in the same run.

One `warlog serve` on a SQLite file; a `reference` game with server dice is played to seat A's Shooting
phase through the API, its shooters selected. Each sample is one attack (40 shots of a bolt rifle with
SUSTAINED HITS 1 at a 40-model unit, every die rolled and resolved by the service), answered, then
undone (the other seat approves: it rolled dice) so the next sample is the same attack; a free_roll is
timed between samples, so both see the same machine load.

    .venv/bin/python ops/bench/attack_latency.py [--samples 300] [--cpu 0]
"""
from __future__ import annotations

import argparse

import httpx
from harness import expect, free_port, percentile, pin, summary, timed, warlog_server, workdir

from tests.support.client import GameClient, play_awaited, unit

RIFLE = {"name": "Bolt rifle", "type": "ranged", "range": 30, "A": "2", "skill": 3, "S": 4, "AP": -1, "D": "1",
         "keywords": ["SUSTAINED HITS 1"]}
FREE_ROLL = {"type": "free_roll", "spec": "2D6", "purpose": "bench"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=300)
    parser.add_argument("--cpu", type=int, default=None, help="pin client and server to this CPU")
    args = parser.parse_args()
    pin(args.cpu)
    with workdir() as tmp, warlog_server(free_port(), tmp / "warlog.log", db=tmp / "warlog.db") as server, \
            httpx.Client(base_url=server.url, timeout=30) as client:
        game = GameClient(client, "reference", "server")
        game.start([unit("shooters", 20, weapons=[RIFLE])], [unit("horde", 40)])
        while (game.state()["phase"], game.state()["active_seat"]) != ("shooting", "A"):
            play_awaited(game)  # the plainest offered action of whoever is awaited
        a, b = game.headers("A"), game.headers("B")
        game.cmd("A", "select", unit="shooters", shooting="normal")
        game_id = game.id
        attack = {"type": "attack", "unit": "shooters", "weapon": "Bolt rifle", "target": "horde"}
        attacks, rolls, events = [], [], 0
        for _ in range(args.samples):
            seconds, answer = timed(client.post, f"/games/{game_id}/commands", headers=a, json=attack)
            events = len(expect(answer).json()["events"])
            attacks.append(seconds)
            expect(client.post(f"/games/{game_id}/undo", headers=a), 202)
            expect(client.post(f"/games/{game_id}/undo/approve", headers=b))
            seconds, answer = timed(client.post, f"/games/{game_id}/commands", headers=a, json=FREE_ROLL)
            expect(answer)
            rolls.append(seconds)
    print(f"attack (20 models, 40 shots, {events} events): {summary(attacks)}")
    print(f"free_roll:                                  {summary(rolls)}")
    print(f"attack p50 / free_roll p50: {percentile(attacks, 50) / percentile(rolls, 50):.2f}x  "
          f"(p90 {percentile(attacks, 90) / percentile(rolls, 90):.2f}x)")


if __name__ == "__main__":
    main()
