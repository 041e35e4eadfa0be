"""`warlog serve` and `warlog export`."""
from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

DEMO_ARMIES: dict[str, list[dict[str, Any]]] = {
    "A": [
        {"id": f"scouts-{n}", "name": "Scout Squad", "keywords": ["INFANTRY"], "abilities": ["ATSKNF"],
         "models": [{"name": "Scout", "count": 5, "M": 6, "T": 4, "Sv": 4, "W": 1, "Ld": 8, "BS": 3, "WS": 3,
                     "I": 4, "A": 1}],
         "weapons": [{"name": "Boltgun", "type": "ranged", "range": 24, "A": "2", "S": 4, "AP": 0, "D": "1",
                      "kind": "rapid_fire", "keywords": ["RAPID FIRE 1"]}]} for n in (1, 2, 3)
    ] + [
        {"id": "rhino-1", "name": "Rhino", "keywords": ["VEHICLE", "TRANSPORT"],
         "models": [{"name": "Rhino", "count": 1, "M": 12, "T": 7, "Sv": 3, "W": 3, "Ld": 8, "BS": 3,
                     "hull_points": 3}],
         "weapons": [{"name": "Storm bolter", "type": "ranged", "range": 24, "A": "2", "S": 4, "AP": 0,
                      "D": "1", "kind": "assault"}],
         "transport": {"capacity": 10, "fire_points": 2}},
        {"id": "tactical-1", "name": "Tactical Squad", "keywords": ["INFANTRY"], "abilities": ["ATSKNF"],
         "models": [{"name": "Marine", "count": 10, "M": 6, "T": 4, "Sv": 3, "W": 1, "Ld": 8, "BS": 3,
                     "WS": 3, "I": 4, "A": 1}],
         "weapons": [{"name": "Boltgun", "type": "ranged", "range": 24, "A": "2", "S": 4, "AP": 0, "D": "1",
                      "kind": "rapid_fire"}],
         "embarked_in": "rhino-1"},
    ],
    "B": [
        {"id": f"boyz-{n}", "name": "Boyz", "keywords": ["INFANTRY"],
         "models": [{"name": "Boy", "count": 10, "M": 6, "T": 4, "Sv": 6, "W": 1, "Ld": 7, "BS": 5, "WS": 3,
                     "I": 2, "A": 2}],
         "weapons": [{"name": "Slugga", "type": "ranged", "range": 12, "A": "1", "S": 4, "AP": 0, "D": "1",
                      "kind": "pistol"}, {"name": "Choppa", "type": "melee", "A": "1", "S": 4, "D": "1"}]}
        for n in (1, 2)
    ] + [
        {"id": "battlewagon-1", "name": "Battlewagon", "keywords": ["VEHICLE", "TRANSPORT"],
         "models": [{"name": "Battlewagon", "count": 1, "M": 0, "T": 8, "Sv": 3, "W": 4, "Ld": 7, "BS": 5,
                     "hull_points": 4}],
         "weapons": [{"name": "Big shoota", "type": "ranged", "range": 36, "A": "3", "S": 5, "AP": 0, "D": "1",
                      "kind": "heavy", "keywords": ["HEAVY 3"]}],
         "transport": {"capacity": 20, "fire_points": 0}},
    ],
}


def create_demo(base_url: str, client: Any) -> dict[str, Any]:
    """A ready game: both armies mustered (the seed's Scouts/Rhino/Boyz example), not yet started."""
    created = client.post(f"{base_url}/games", json={
        "ruleset": "alternating", "dice": "server",
        "players": [{"seat": "A", "name": "Alice"}, {"seat": "B", "name": "Bob"}]}).json()
    for seat, units in DEMO_ARMIES.items():
        response = client.post(f"{base_url}/games/{created['game_id']}/armies", json={"units": units},
                               headers={"Authorization": f"Bearer {created['tokens'][seat]}"})
        response.raise_for_status()
    return created


def print_demo(base_url: str, created: dict[str, Any]) -> None:
    gid, tokens = created["game_id"], created["tokens"]
    print(f"""
warlog is serving on {base_url} — a demo game is ready (Alice: seat A, Bob: seat B).

  game_id    {gid}
  token A    {tokens['A']}
  token B    {tokens['B']}
  spectator  {tokens['spectator']}

Try:
  curl -s {base_url}/games/{gid}/state -H 'Authorization: Bearer {tokens['A']}'
  curl -s -X POST {base_url}/games/{gid}/commands -H 'Authorization: Bearer {tokens['A']}' \\
       -H 'Content-Type: application/json' -d '{{"type": "start_game"}}'
  curl -s {base_url}/games/{gid}/events -H 'Authorization: Bearer {tokens['B']}'
  curl -N '{base_url}/games/{gid}/events/stream?token={tokens['spectator']}&after=0'
API reference: {base_url}/docs
""", flush=True)


def serve(args: argparse.Namespace) -> None:
    import threading
    import time

    import httpx
    import uvicorn

    if args.db:
        os.environ["WARLOG_DB"] = args.db
    if args.postgres:
        os.environ["WARLOG_POSTGRES"] = args.postgres
    from api.app import create_app
    from api.settings import Settings

    app = create_app(Settings())
    base_url = f"http://{args.host}:{args.port}"
    if args.demo:
        def make_demo() -> None:
            with httpx.Client(timeout=10) as client:
                for _ in range(100):
                    try:
                        client.get(f"{base_url}/openapi.json")
                        break
                    except httpx.TransportError:
                        time.sleep(0.1)
                print_demo(base_url, create_demo(base_url, client))

        threading.Thread(target=make_demo, daemon=True).start()
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning", access_log=False)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="warlog", description="An event-sourced rules service for wargames.")
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("serve", help="serve the HTTP API")
    run.add_argument("--host", default="127.0.0.1")
    run.add_argument("--port", type=int, default=8000)
    run.add_argument("--db", default=None, help="SQLite file (default ./warlog.db)")
    run.add_argument("--postgres", default=None, help="postgresql://user@host:port/db")
    run.add_argument("--demo", action="store_true", help="create a demo game and print its tokens")
    run.set_defaults(func=serve)
    args = parser.parse_args(argv)
    args.func(args)


if __name__ == "__main__":
    main()
