"""The compose recipe (ops/deploy/docker-compose.yml) as far as this machine can check it: it reaches no image
registry, so the images it names cannot be pulled and the recipe cannot be run here (the plain-process recipe,
which can, is tests/integration/test_deploy.py). What is checked: HAProxy itself accepts the compose file's
HAProxy configuration; it routes by game exactly as the tested plain-process template does; the ports, the
mounted file and the image's build agree with each other; and the image copies every package the project
installs. A change to one that the others do not follow fails here."""
from __future__ import annotations

import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import yaml

DEPLOY = Path(__file__).resolve().parents[2] / "ops" / "deploy"
ROOT = DEPLOY.parents[1]


def compose() -> dict:
    return yaml.safe_load((DEPLOY / "docker-compose.yml").read_text())


def routing(config: str) -> list[str]:
    """The lines that choose a process for a request."""
    return [line.strip() for line in config.splitlines() if line.strip().startswith(("balance", "hash-type"))]


def test_haproxy_accepts_the_compose_files_configuration():
    binary = shutil.which("haproxy") or "/usr/sbin/haproxy"
    checked = subprocess.run([binary, "-c", "-f", str(DEPLOY / "haproxy.compose.cfg")], capture_output=True,
                             text=True, timeout=30)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_the_compose_balancer_routes_by_game_as_the_tested_plain_process_recipe_does():
    compose_cfg = (DEPLOY / "haproxy.compose.cfg").read_text()
    assert routing(compose_cfg) == routing((DEPLOY / "haproxy.cfg.template").read_text())
    assert "balance uri depth 2" in routing(compose_cfg)


def test_the_compose_files_services_ports_and_files_agree():
    services = compose()["services"]
    assert set(services) == {"postgres", "warlog", "haproxy"}
    warlog, haproxy = services["warlog"], services["haproxy"]
    # every replica is given the same number of shards and the database the postgres service serves
    assert int(warlog["environment"]["WARLOG_SHARDS"]) >= 1
    assert "@postgres:5432/" in warlog["environment"]["WARLOG_POSTGRES"]
    assert warlog["depends_on"]["postgres"]["condition"] == "service_healthy"
    # the image's build file exists, and the port it serves on is the one HAProxy's servers name
    dockerfile = (ROOT / warlog["build"]["context"].replace("../..", ".") / warlog["build"]["dockerfile"])
    assert dockerfile.resolve() == (DEPLOY / "Dockerfile").resolve() and dockerfile.exists()
    served = re.search(r'"--port", "(\d+)"', dockerfile.read_text()).group(1)
    compose_cfg = (DEPLOY / "haproxy.compose.cfg").read_text()
    assert re.search(r"server-template warlog \d+ warlog:(\d+)", compose_cfg).group(1) == served
    # HAProxy's mounted configuration is the file beside the compose file, and it binds the published port
    mounted = [volume.split(":")[0] for volume in haproxy["volumes"]]
    assert mounted == ["./haproxy.compose.cfg"]
    bound = re.search(r"bind :(\d+)", compose_cfg).group(1)
    assert [port.split(":")[1] for port in haproxy["ports"]] == [bound]


def test_the_image_copies_every_package_the_project_installs():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    packages = set(project["tool"]["setuptools"]["package-dir"].values())  # the folders the wheel installs from
    copied = {line.split()[1] for line in (DEPLOY / "Dockerfile").read_text().splitlines() if line.startswith("COPY ")}
    assert packages <= copied, packages - copied
    assert "pip install --no-cache-dir ." in (DEPLOY / "Dockerfile").read_text()  # no extras: the plain install
