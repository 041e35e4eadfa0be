"""A plain install serves: the wheel, installed without extras into a fresh venv, runs `warlog serve --demo`
and serves the demo game and the overlay page (the packaged data ships, every runtime import is installed)."""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
import time
import venv
from pathlib import Path

import httpx
import pytest

from ops.service import ROOT, free_port, stop, wait_until_answers

pytestmark = pytest.mark.timeout(240)


def run(*args: str | Path, cwd: Path) -> None:
    done = subprocess.run([str(a) for a in args], cwd=cwd, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, f"{args}: {done.stdout[-2000:]}{done.stderr[-2000:]}"


def demo_tokens(out: Path, process: subprocess.Popen[bytes], within: float = 30.0) -> dict[str, str]:
    """The game id and tokens `--demo` prints once its game is ready."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        text = out.read_text()
        found = dict(re.findall(r"^\s+(game_id|token A|spectator)\s+(\S+)$", text, re.M))
        if len(found) == 3:
            return found
        assert process.poll() is None, f"warlog serve exited with {process.returncode}"
        time.sleep(0.1)
    raise AssertionError(f"no demo game printed within {within:.0f} s: {out.read_text()[-2000:]}")


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """A fresh venv holding the wheel and its runtime dependencies only (no `test` extra)."""
    tmp = tmp_path_factory.mktemp("wheel")
    # built from a copy: setuptools builds in the source tree, and a stale build/ there would ship too
    source = shutil.copytree(ROOT, tmp / "source", ignore=shutil.ignore_patterns(
        ".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", "*.db", "*.db-*"))
    run(sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", tmp / "dist", source, cwd=tmp)
    wheel = next((tmp / "dist").glob("warlog-*.whl"))
    venv.create(tmp / "venv", with_pip=True)
    run(tmp / "venv" / "bin" / "python", "-m", "pip", "install", "-q", wheel, cwd=tmp)
    return tmp


def test_the_installed_wheel_serves_the_demo_game_the_overlay_page_and_the_table_app(installed):
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    out, err = installed / "serve.out", installed / "serve.err"
    with open(out, "wb") as stdout, open(err, "wb") as stderr:
        # run outside the repository, so nothing can be imported from the source tree
        process = subprocess.Popen([installed / "venv" / "bin" / "warlog", "serve", "--demo", "--port", str(port),
                                    "--db", installed / "warlog.db"], cwd=installed, stdout=stdout, stderr=stderr)
    try:
        wait_until_answers(process, f"{url}/openapi.json", err)
        demo = demo_tokens(out, process)
        state = httpx.get(f"{url}/games/{demo['game_id']}/state",
                          headers={"Authorization": f"Bearer {demo['token A']}"}, timeout=10)
        assert state.status_code == 200, state.text
        assert state.json()["status"] == "setup"
        assert {"scouts-1", "rhino-1", "boyz-1", "battlewagon-1"} <= set(state.json()["units"])
        page = httpx.get(f"{url}/games/{demo['game_id']}/overlay.html", params={"token": demo["spectator"]},
                         timeout=10)
        assert page.status_code == 200, page.text
        assert page.headers["content-type"].startswith("text/html")
        assert "<html" in page.text.lower() and "EventSource" in page.text
        printed = out.read_text()  # the table-app links `--demo` prints, and the pages they open
        assert f"{url}/play/{demo['game_id']}#token={demo['token A']}&seat=A" in printed and f"{url}/\n" in printed
        for path, kind in (("/", "text/html"), (f"/play/{demo['game_id']}", "text/html"),
                           ("/app/play.js", "text/javascript"), ("/app/form.js", "text/javascript"),
                           ("/app/client.js", "text/javascript"), ("/app/start.js", "text/javascript"),
                           ("/app/app.css", "text/css")):
            served = httpx.get(f"{url}{path}", timeout=10)
            assert served.status_code == 200 and served.headers["content-type"].startswith(kind), path
        qr = httpx.post(f"{url}/qr", json={"data": f"{url}/play/x#token=y"}, timeout=10)
        assert qr.status_code == 200 and qr.text.startswith("<svg"), qr.text[:200]
    finally:
        stop(process)
