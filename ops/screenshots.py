"""The README's pictures, in headless Chromium against `warlog serve` (a subprocess, SQLite): the start page, its
rulesets and its links; the table app on a phone (390x844) and a tablet (820x1180): the table at the first go, a unit's
datasheet, the last roll's dice, the result screen of a conceded game; and the streamers' overlay at a stream's
width. The one place they are taken (ops/bench/table_app.py measures the same pages, and takes none).

  .venv/bin/python ops/screenshots.py [--to docs]
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402

from ops.bench.table_app import chromium, ready, wait  # noqa: E402
from ops.service import Service  # noqa: E402
from warlog.api.cli import create_demo, play_link  # noqa: E402

SIZES = {"phone": (390, 844, True), "tablet": (820, 1180, False)}


def demo_game(url: str, client: httpx.Client, ended: bool = False) -> dict[str, str]:
    created = create_demo(url, client)
    gid, tokens = created["game_id"], created["tokens"]
    for body in ({"type": "start_game"},) + (({"type": "concede"},) if ended else ()):
        client.post(f"{url}/games/{gid}/commands", json=body,
                    headers={"Authorization": f"Bearer {tokens['A']}"}).raise_for_status()
    return {"id": gid, **tokens}


def to_first_go(url: str, gid: str, tokens: dict[str, str]) -> None:
    """Both counts confirmed, the roll-off rolled, Alice first: the moment the README's pictures show."""
    with httpx.Client(base_url=f"{url}/games/{gid}", timeout=10) as client:
        def send(seat: str, body: dict) -> dict:
            answer = client.post("/commands", json=body, headers={"Authorization": f"Bearer {tokens[seat]}"})
            answer.raise_for_status()
            return answer.json()

        send("A", {"type": "confirm_count"})
        send("B", {"type": "confirm_count"})
        rolled = send("A", {"type": "roll_off"})
        winner = next(e["data"]["winner"] for e in rolled["events"] if e["type"] == "RollOff")
        send(winner, {"type": "choose_order", "first": "A"})
        send("A", {"type": "free_roll", "spec": "2D6", "purpose": "dangerous terrain"})


def start_page(url: str, to: Path, tmp: Path) -> None:
    """The start page as it opens (the rulesets as cards, the dice and the options), then once a game is created,
    at its seats' links and QR codes."""
    start = chromium(tmp / "start", 760, 1150)
    try:
        start.get(f"{url}/")
        wait(start, lambda d: d.find_elements(By.CSS_SELECTOR, "#ruleset-cards input[type=radio]"), "the ruleset cards")
        start.save_screenshot(str(to / "start-rulesets.png"))
        start.find_element(By.ID, "create").click()
        wait(start, lambda d: d.execute_script("return [...document.querySelectorAll('img.qr')]"
                                               ".filter(i => i.complete && i.naturalWidth).length === 2"), "the QR codes")
        start.execute_script("document.getElementById('links').scrollIntoView({block: 'start'})")
        start.save_screenshot(str(to / "start-page.png"))
    finally:
        start.quit()


def shoot(driver, to: Path, name: str, size: str) -> None:
    driver.save_screenshot(str(to / f"{name}-{size}.png"))


def pages(url: str, to: Path, tmp: Path, playing: dict[str, str], ended: dict[str, str]) -> None:
    for size, (width, height, mobile) in SIZES.items():
        driver = chromium(tmp / size, width, height, mobile)
        try:
            driver.get(play_link(url, playing["id"], playing["A"], "A"))
            ready(driver)
            wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#roll-faces .die"), "the last roll's dice")
            shoot(driver, to, "table", size)
            driver.execute_script("document.getElementById('roll').scrollIntoView({block: 'center'})")
            driver.execute_script("return new Promise((done) => setTimeout(done, 600))")  # the faces have landed
            shoot(driver, to, "dice", size)
            driver.find_element(By.CSS_SELECTOR, "button.sheet-open").click()
            wait(driver, lambda d: d.find_element(By.ID, "datasheet").get_attribute("open") is not None, "the datasheet")
            shoot(driver, to, "datasheet", size)
            driver.get(play_link(url, ended["id"], ended["B"], "B"))
            ready(driver)
            wait(driver, lambda d: d.find_element(By.ID, "result").is_displayed(), "the result")
            driver.execute_script("window.scrollTo(0, 0)")
            shoot(driver, to, "result", size)
        finally:
            driver.quit()
    overlay = chromium(tmp / "overlay", 1920, 330)
    try:
        overlay.get(f"{url}/games/{playing['id']}/overlay.html?token={playing['spectator']}")
        wait(overlay, lambda d: d.find_elements(By.CSS_SELECTOR, "#roll-faces .die"), "the overlay's roll")
        overlay.execute_script("return new Promise((done) => setTimeout(done, 600))")
        overlay.save_screenshot(str(to / "overlay.png"))
    finally:
        overlay.quit()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--to", type=Path, default=ROOT / "docs", help="where the PNGs go")
    args = parser.parse_args()
    args.to.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        service = Service(["--db", str(Path(tmp) / "warlog.db")], {}, Path(tmp) / "serve.log")
        service.start()
        try:
            with httpx.Client(timeout=10) as client:
                playing, ended = demo_game(service.url, client), demo_game(service.url, client, ended=True)
            to_first_go(service.url, playing["id"], {seat: playing[seat] for seat in ("A", "B")})
            pages(service.url, args.to, Path(tmp), playing, ended)
            start_page(service.url, args.to, Path(tmp))
        finally:
            service.stop()
    for png in sorted(args.to.glob("*.png")):
        print(f"{png.name} ({png.stat().st_size / 1024:.0f} KB)")


if __name__ == "__main__":
    main()
