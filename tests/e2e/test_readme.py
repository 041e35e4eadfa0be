"""Issue 28: the README's quick start and tour, followed as written against a served demo on the port `PORT`
names: the banner says what the README says it prints, and every command of the tour answers without an error."""
from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from ops.service import free_port

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
PORT = free_port()  # this file's own port, per test process (xdist workers run side by side)


def blocks(section: str, language: str = "sh") -> list[str]:
    """The fenced blocks of one `## ` section of the README (`language`: their info string; "" for plain)."""
    start = README.index(f"\n## {section}\n")
    end = README.find("\n## ", start + 1)
    found, block, info = [], None, ""
    for line in README[start:end if end > 0 else None].splitlines():
        if line.startswith("```") and block is None:
            block, info = [], line[3:].strip()
        elif line.startswith("```"):
            if info == language:
                found.append("\n".join(block) + "\n")
            block = None
        elif block is not None:
            block.append(line)
    return found


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str]]:
    """`warlog serve --demo` on PORT in a folder of its own, as `make run` starts it: (the folder, its banner)."""
    where = tmp_path_factory.mktemp("readme")
    (where / "ops").symlink_to(ROOT / "ops")  # the tour's example files, at the paths it names
    out = where / "serve.out"
    with out.open("wb") as sink:
        process = subprocess.Popen([sys.executable, "-m", "warlog.api.cli", "serve", "--demo", "--port", str(PORT)],
                                   cwd=where, stdout=sink, stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + 30
            while "API reference:" not in out.read_text(encoding="utf-8").partition("a demo game is ready")[2]:
                assert process.poll() is None and time.monotonic() < deadline, out.read_text(encoding="utf-8")
                time.sleep(0.1)
            yield where, out.read_text(encoding="utf-8")
        finally:
            process.terminate()
            process.wait(10)


def test_the_quick_start_prints_what_the_readme_says(served):
    where, banner = served
    shown = blocks("Quick start", "")[0]
    for line in shown.splitlines():
        if "…" in line or "<" in line or not line.strip():
            continue  # an id, a token or a path of this machine's: the README elides it
        assert line.replace("8000", str(PORT)) in banner, line
    assert f"games are stored in {where / 'warlog.db'}" in banner
    links = re.findall(rf"http://127\.0\.0\.1:{PORT}/play/\S+#token=\S+&seat=[AB]", banner)
    assert len(links) == 2  # "open these two links": each opens the table app
    assert all(httpx.get(link.split("#")[0], timeout=10).status_code == 200 for link in links)


def test_the_tour_runs_as_written(served):
    where, _ = served
    tour, stream = blocks("A short tour of the API")
    environment = {**os.environ, "PORT": str(PORT)}
    ran = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", tour], cwd=where, env=environment,
                         capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0, f"{ran.stdout[-3000:]}\n{ran.stderr[-3000:]}"
    assert '"status":4' not in ran.stdout and '"status":5' not in ran.stdout
    assert (where / "alice.svg").read_text(encoding="utf-8").lstrip().startswith(("<?xml", "<svg"))
    assert "After the last battle round" in ran.stdout  # the rule, in words
    live = subprocess.run(["bash", "-c", "G=$(python3 -c 'import json; print(json.load(open(\"game.json\"))"
                           "[\"game_id\"])'); B=$(python3 -c 'import json; print(json.load(open(\"game.json\"))"
                           f"[\"tokens\"][\"B\"])'); W=http://127.0.0.1:$PORT; timeout 3 {stream.strip()}"],
                          cwd=where, env=environment, capture_output=True, text=True, timeout=30)
    assert "event:" in live.stdout or "data:" in live.stdout, live.stdout[-2000:]
