"""Run the compose recipe (docker-compose.yml beside this file) on a machine that reaches no image registry:
podman and podman-compose, with stand-ins for the three public images the recipe names (python:3.11-slim,
postgres:16, haproxy:2.8) built from Debian bookworm's own packages (standins/). warlog's image itself is built
by the recipe's own Dockerfile (`pip install .` from PyPI). Then, through HAProxy, as the plain-process recipe's
test does (tests/integration/test_deploy.py): games are played, and a live stream opened through the balancer
hears each append, whether it was made through the balancer or directly on either replica; every chain verifies.
The recipe is taken down at the end (`--keep` leaves it up).

Needs, as root: podman with runc, aardvark-dns, debootstrap (Debian's packages), podman-compose (PyPI).

    apt-get install -y podman runc aardvark-dns debootstrap && pip install podman-compose
    .venv/bin/python ops/deploy/compose_run.py --replicas 2

On a machine with Docker and a registry, `docker compose -f ops/deploy/docker-compose.yml up --build` runs the
same file with the real images; this script is for where that cannot be done.
"""
from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from uuid import UUID

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parents[1])]

import httpx  # noqa: E402
import yaml  # noqa: E402

from tests.support.client import GameClient, unit  # noqa: E402
from tests.support.live import stream_hears_every_writer  # noqa: E402
from warlog.domain.shards import shard_of  # noqa: E402

BASE = "localhost/warlog-debian-base:bookworm"
STANDINS = {"python": "docker.io/library/python:3.11-slim", "postgres": "docker.io/library/postgres:16",
            "haproxy": "docker.io/library/haproxy:2.8"}
BALANCER = "http://127.0.0.1:8080"


def run(*args: str, **options: Any) -> subprocess.CompletedProcess[str]:
    print("   $", " ".join(args), flush=True)
    return subprocess.run(args, check=True, text=True, capture_output=True, **options)


def compose(*args: str) -> subprocess.CompletedProcess[str]:
    binary = shutil.which("podman-compose") or str(Path(sys.executable).parent / "podman-compose")
    return run(binary, "-f", str(HERE / "docker-compose.yml"), "--podman-build-args", "--network host", *args,
               cwd=HERE)


def down() -> None:
    """The recipe taken down, scaled replicas too (podman-compose's `down` forgets those it scaled up), and its
    database volume removed, so that the next run starts from an empty database."""
    compose("down", "-v")
    for _ in range(10):  # podman-compose's own `down` may still be removing some of them
        left = run("podman", "ps", "-aq", "--filter", "label=io.podman.compose.project=deploy").stdout.split()
        if not left:
            break
        subprocess.run(["podman", "rm", "-f", "--ignore", *left], capture_output=True)
        time.sleep(1)
    subprocess.run(["podman", "volume", "rm", "-f", "deploy_pgdata"], capture_output=True)


def base_image() -> None:
    """A minimal Debian bookworm from Debian's own mirror, with this machine's CA bundle (so that pip and apt inside
    reach PyPI and Debian through whatever this machine's TLS goes through) and its apt sources."""
    if subprocess.run(["podman", "image", "exists", BASE]).returncode == 0:
        return
    with tempfile.TemporaryDirectory(prefix="warlog-rootfs-") as rootfs:
        run("debootstrap", "--variant=minbase", "--include=ca-certificates", "bookworm", rootfs,
            "http://deb.debian.org/debian")
        shutil.copy("/etc/ssl/certs/ca-certificates.crt", Path(rootfs) / "etc/ssl/certs/ca-certificates.crt")
        tar = subprocess.Popen(["tar", "-C", rootfs, "-c", "."], stdout=subprocess.PIPE)
        subprocess.run(["podman", "import", "-", BASE], stdin=tar.stdout, check=True, capture_output=True)
        tar.wait()


def standins() -> None:
    for name, tag in STANDINS.items():
        run("podman", "build", "--network", "host", "-t", tag, "-f", f"{name}.Containerfile", ".",
            cwd=HERE / "standins")


def replica_urls() -> list[str]:
    names = [n for n in run("podman", "ps", "--format", "{{.Names}}").stdout.split() if "_warlog_" in n]
    urls = []
    for name in sorted(names):
        address = run("podman", "inspect", "-f", "{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}",
                      name).stdout.strip()
        urls.append(f"http://{address}:8000")
    return urls


def wait_until_answers(url: str, give_up_s: float = 120.0) -> None:
    deadline = time.monotonic() + give_up_s
    while True:
        try:
            if httpx.get(url + "/openapi.json", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"{url} did not answer within {give_up_s:.0f} s")
        time.sleep(1)


def play(replicas: list[str], shards: int) -> dict[str, Any]:
    """A game per shard through the balancer; each game's stream, opened through the balancer, hears a roll sent
    through the balancer and one sent to each replica directly."""
    heard, games = 0, []
    with httpx.Client(base_url=BALANCER, timeout=30) as balancer:
        by_shard: dict[int, GameClient] = {}
        while len(by_shard) < shards:
            game = GameClient(balancer)
            by_shard.setdefault(shard_of(UUID(game.id), shards), game)
        direct = [httpx.Client(base_url=url, timeout=30) for url in replicas]
        for game in by_shard.values():
            game.start([unit("scouts-1")], [unit("boyz-1")])
            heard += stream_hears_every_writer(balancer, game, [balancer, *direct])
            verified = game.verify("B")
            assert verified["chain_ok"] is True and verified["events"] == game.state()["version"], verified
            games.append(game.id)
        for http in direct:
            http.close()
    return {"games": games, "events_heard_through_the_balancer": heard}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--replicas", type=int, default=2)
    parser.add_argument("--keep", action="store_true", help="leave the recipe running")
    args = parser.parse_args()
    recipe = yaml.safe_load((HERE / "docker-compose.yml").read_text())
    shards = int(recipe["services"]["warlog"]["environment"]["WARLOG_SHARDS"])
    started = time.monotonic()
    base_image()
    standins()
    down()
    try:
        compose("up", "-d", "--build", "--scale", f"warlog={args.replicas}")
        replicas = replica_urls()
        assert len(replicas) == args.replicas, replicas
        for url in [BALANCER, *replicas]:
            wait_until_answers(url)
        outcome = play(replicas, shards)
        print("RESULT compose:", json.dumps({"replicas": replicas, "shards": shards, **outcome,
                                             "seconds": round(time.monotonic() - started)}))
    finally:
        if not args.keep:
            down()
    return 0


if __name__ == "__main__":
    sys.exit(main())
