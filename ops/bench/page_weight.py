"""Issue 26, "Weight": the bytes a phone downloads for a first load of a seat's page (/play/{id}), in headless
Chromium against `warlog serve` (a subprocess, SQLite), at 10 and at 2,000 events: the page, its modules and CSS,
then the app's reads (/state, the newest events) until its log is drawn; the live stream, still open, is not
counted. Each load is measured twice in the same run, on fresh profiles: with the browser's own Accept-Encoding
(gzip), and with Accept-Encoding: identity set through the DevTools protocol (the same load without
compression, the baseline). A return visit (the same profile, the page loaded again) shows what the cache keeps.
Bytes are the browser's Resource Timing `transferSize` (headers and body as sent); no time is measured.

  .venv/bin/python ops/bench/page_weight.py [--events 10 2000]
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402

from ops.bench.harness import SERVER_ENV  # noqa: E402
from ops.bench.table_app import chromium, ready, wait  # noqa: E402
from ops.service import Service  # noqa: E402
from warlog.api.cli import create_demo, play_link  # noqa: E402

BUDGET_KB = 60  # issue 26: a 2,000-event game's first load


def game_of(url: str, events: int) -> tuple[str, dict[str, str]]:
    """The demo game, started, with free rolls until its log holds `events` events."""
    with httpx.Client(timeout=10) as client:
        created = create_demo(url, client)
        gid, tokens = created["game_id"], created["tokens"]
        headers = {"Authorization": f"Bearer {tokens['A']}"}
        version = client.post(f"{url}/games/{gid}/commands", json={"type": "start_game"},
                              headers=headers).raise_for_status().json()["version"]
        while version < events:
            version = client.post(f"{url}/games/{gid}/commands", json={"type": "free_roll", "spec": "3D6",
                                  "purpose": "a long game"}, headers=headers).raise_for_status().json()["version"]
    return gid, tokens


def load(driver, link: str) -> dict[str, int]:
    """One load of the page until its log is drawn: transferred and decoded bytes, the page's own and the API's."""
    driver.get("about:blank")
    driver.get(link)
    ready(driver)
    wait(driver, lambda d: d.execute_script(
        "return performance.getEntriesByType('resource').some(e => e.name.includes('/events?'))"
        " && document.querySelectorAll('#log li').length > 0"), "the log drawn")
    entries = driver.execute_script(
        "return [performance.getEntriesByType('navigation')[0], ...performance.getEntriesByType('resource')]"
        ".filter(e => !e.name.includes('/stream'))"
        ".map(e => ({name: e.name, transfer: e.transferSize, body: e.decodedBodySize}))")
    own = [e for e in entries if "/games/" not in e["name"]]
    reads = [e for e in entries if "/games/" in e["name"]]
    return {"page": sum(e["transfer"] for e in own), "reads": sum(e["transfer"] for e in reads),
            "decoded": sum(e["body"] for e in entries), "requests": len(entries)}


def measure(url: str, tmp: Path, sizes: list[int]) -> dict[tuple[int, str], dict[str, int]]:
    figures: dict[tuple[int, str], dict[str, int]] = {}
    for events in sizes:
        gid, tokens = game_of(url, events)
        link = play_link(url, gid, tokens["A"], "A")
        for how in ("gzip", "identity"):
            driver = chromium(tmp / f"{events}-{how}", 390, 844, mobile=True)
            try:
                if how == "identity":  # the baseline: the same browser asking for no compression
                    driver.execute_cdp_cmd("Network.enable", {})
                    driver.execute_cdp_cmd("Network.setExtraHTTPHeaders", {"headers": {"Accept-Encoding": "identity"}})
                figures[(events, how)] = load(driver, link)
                figures[(events, how + ", return visit")] = load(driver, link)
            finally:
                driver.quit()
    return figures


def report(figures: dict[tuple[int, str], dict[str, int]], sizes: list[int]) -> None:
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{'events':>6}  {'load':<26} {'page files':>11} {'API reads':>10} {'total':>9} {'decoded':>9}  requests")
    for (events, how), f in figures.items():
        total = f["page"] + f["reads"]
        print(f"{events:>6}  {how:<26} {f['page'] / 1024:8.1f} KB {f['reads'] / 1024:7.1f} KB "
              f"{total / 1024:6.1f} KB {f['decoded'] / 1024:6.1f} KB  {f['requests']}")
    result = []
    for events in sizes:
        packed, plain = (sum(figures[(events, how)][part] for part in ("page", "reads")) for how in ("gzip", "identity"))
        result.append(f"{events} events {packed / 1024:.1f} KB / {plain / 1024:.1f} KB = {packed / plain:.2f}x")
    largest = max(sizes)
    first = sum(figures[(largest, "gzip")][part] for part in ("page", "reads")) / 1024
    print(f"RESULT first load gzip / identity: {'; '.join(result)}; {largest} events "
          f"{'within' if first <= BUDGET_KB else 'OVER'} {BUDGET_KB} KB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, nargs="+", default=[10, 2000])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        service = Service(["--db", str(Path(tmp) / "warlog.db")], SERVER_ENV, Path(tmp) / "serve.log")
        service.start()
        try:
            report(measure(service.url, Path(tmp), args.events), args.events)
        finally:
            service.stop()


if __name__ == "__main__":
    main()
