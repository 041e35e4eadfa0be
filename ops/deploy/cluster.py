"""The plain-process deployment: N `warlog serve` processes on one PostgreSQL database, behind HAProxy.

    .venv/bin/python ops/deploy/cluster.py --postgres postgresql://postgres@127.0.0.1:5432/test \\
        --processes 2 --shards 4 --port 8080

starts the processes one after the other on free local ports (the first creates the tables, the
LISTEN/NOTIFY trigger and records N; the others find them), writes `haproxy.cfg` from
`haproxy.cfg.template` beside this file and runs HAProxy (Debian's `haproxy` package) in the foreground
on `--port`, until Ctrl-C, when everything is stopped. What the recipe relies on:

- every process is given the same `--shards` (a process given another N refuses to start);
- HAProxy streams responses as they come (it never buffers a body), so `text/event-stream` passes
  through; its client and server timeouts (65 s) outlast the feed's keep-alive comments (15 s), so an
  idle stream is not cut; any process serves any game, and a stream on one process hears appends made
  on another through PostgreSQL's LISTEN/NOTIFY;
- `option forwardfor` sends the client's address, which uvicorn takes from 127.0.0.1 (FORWARDED_ALLOW_IPS
  names the balancer's address otherwise), so the game-creation cap counts clients, not the balancer;
- the per-token request and stream limits and that cap are kept in the database, so they hold across
  the processes (api/limits.py).

`cluster()` is the same as a context manager, used by tests/integration/test_deploy.py and by
ops/load/open_load.py.
"""
from __future__ import annotations

import argparse
import contextlib
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE.parents[1]) not in sys.path:
    sys.path.insert(0, str(HERE.parents[1]))

from ops.service import Service, free_port, stop, wait_until_answers  # noqa: E402

TEMPLATE = HERE / "haproxy.cfg.template"


@dataclass
class Cluster:
    url: str                  # the balancer's
    services: list[Service]   # each `warlog serve` (its own `url` too)
    haproxy: subprocess.Popen[bytes]


def haproxy_config(port: int, backends: list[str]) -> str:
    servers = "\n".join(f"    server warlog{n} {backend.removeprefix('http://')} check"
                        for n, backend in enumerate(backends, 1))
    return TEMPLATE.read_text().replace("{bind}", f"127.0.0.1:{port}").replace("{servers}", servers)


@contextlib.contextmanager
def cluster(dsn: str, processes: int, shards: int, env: dict[str, str], logs: Path,
            port: int | None = None) -> Iterator[Cluster]:
    binary = shutil.which("haproxy") or "/usr/sbin/haproxy"
    if not Path(binary).exists():
        raise RuntimeError("HAProxy is not installed: `make haproxy` (apt-get install haproxy)")
    services = [Service(["--postgres", dsn, "--shards", str(shards)], env, logs / f"serve-{n}.err", answer_within=60)
                for n in range(1, processes + 1)]
    balancer = None
    try:
        for service in services:
            service.start()
        port = port or free_port()
        config = logs / "haproxy.cfg"
        config.write_text(haproxy_config(port, [service.url for service in services]))
        with open(logs / "haproxy.err", "ab") as err:
            balancer = subprocess.Popen([binary, "-f", str(config), "-db"], stdout=subprocess.DEVNULL, stderr=err)
        url = f"http://127.0.0.1:{port}"
        wait_until_answers(balancer, f"{url}/openapi.json", logs / "haproxy.err", name="haproxy")
        yield Cluster(url, services, balancer)
    finally:
        if balancer is not None:
            stop(balancer, 5)
        for service in services:
            service.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--postgres", required=True, metavar="DSN")
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--shards", type=int, default=4)
    parser.add_argument("--port", type=int, default=8080, help="where HAProxy listens (127.0.0.1)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="warlog-cluster-") as tmp, \
            cluster(args.postgres, args.processes, args.shards, {}, Path(tmp), args.port) as running:
        for service in running.services:
            print(f"warlog serve --shards {args.shards} at {service.url}", flush=True)
        print(f"HAProxy at {running.url} (Ctrl-C stops everything)", flush=True)
        try:
            while running.haproxy.poll() is None and all(s.process.poll() is None for s in running.services):
                time.sleep(1)
        except KeyboardInterrupt:
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
