"""Issue 11: the table app's figures, in real headless Chromium against `warlog serve` (a subprocess, SQLite).

  interactive   a first load's navigation start until its first /state answer is in (the app draws from it)
  page weight   bytes transferred for a first load of /play/{id} on an empty profile: the page's own files
                (HTML, JS modules, CSS), from the browser's Resource Timing; the API reads it then makes are
                listed apart
  tap -> phone  a free roll tapped on seat A's phone until its line is in seat B's log (p50, p90 over --taps)
  event -> overlay  the roll's event (`at`, stamped by the service) until the overlay has painted its faces
                (the first animation frame after the DOM change), and the tap until then

Times are read in the browsers (performance.timeOrigin + performance.now(), the machine's clock in ms with
fractions), so no WebDriver round trip is inside a figure. The README's pictures are ops/screenshots.py's.

  .venv/bin/python ops/bench/table_app.py [--taps 20]
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service as DriverService  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

from ops.service import Service  # noqa: E402
from warlog.api.cli import create_demo, play_link  # noqa: E402

WAIT_S = 15.0
NOW = "return performance.timeOrigin + performance.now()"


def chromium(profile: Path, width: int, height: int, mobile: bool = False) -> webdriver.Chrome:
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--hide-scrollbars", f"--window-size={width},{height}", f"--user-data-dir={profile}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(options=options, service=DriverService(executable_path="/usr/bin/chromedriver"))
    driver.set_page_load_timeout(WAIT_S)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})
    return driver


def wait(driver, condition, what):
    return WebDriverWait(driver, WAIT_S).until(condition, message=what)


def ready(driver):
    wait(driver, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-version"), "the first state")


def page_weight(driver) -> tuple[int, int, list[str]]:
    """(bytes transferred for the page's own files, their decoded size, the API reads) of the first load."""
    entries = driver.execute_script(
        "return [performance.getEntriesByType('navigation')[0], ...performance.getEntriesByType('resource')]"
        ".map(e => ({name: e.name, transfer: e.transferSize, body: e.decodedBodySize}))")
    own = [e for e in entries if "/play/" in e["name"] or "/app/" in e["name"]]
    return (sum(e["transfer"] for e in own), sum(e["body"] for e in own),
            sorted({e["name"].split("/games/", 1)[-1].split("?")[0].split("/", 1)[-1] for e in entries
                    if "/games/" in e["name"]}))


def interactive_ms(driver) -> float:
    """Time to interactive, as near as the page can say it: from the navigation's start until its first `/state`
    answer has arrived (the app draws the moment and its actions from that answer at once, and takes taps then)."""
    return float(driver.execute_script(
        "const s = performance.getEntriesByType('resource').find(e => new URL(e.name).pathname.endsWith('/state'));"
        "return s ? s.responseEnd : NaN"))


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def measure(url: str, tmp: Path, taps: int) -> None:
    with httpx.Client(timeout=10) as client:
        created = create_demo(url, client)
        gid, tokens = created["game_id"], created["tokens"]
        client.post(f"{url}/games/{gid}/commands", json={"type": "start_game"},
                    headers={"Authorization": f"Bearer {tokens['A']}"}).raise_for_status()
    phone = chromium(tmp / "a", 390, 844, mobile=True)
    tablet = chromium(tmp / "b", 820, 1180)
    overlay = chromium(tmp / "overlay", 1920, 330)
    try:
        phone.get(play_link(url, gid, tokens["A"], "A"))
        ready(phone)
        transferred, decoded, reads = page_weight(phone)
        interactive = interactive_ms(phone)
        tablet.get(play_link(url, gid, tokens["B"], "B"))
        ready(tablet)
        overlay.get(f"{url}/games/{gid}/overlay.html?token={tokens['spectator']}")
        wait(overlay, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-connection") == "live",
             "the overlay live")
        # B stamps each log line as it appears; the overlay stamps the frame after its faces change
        tablet.execute_script("""window.seen = {}; new MutationObserver(() => {
            for (const li of document.querySelectorAll('#log li')) { const t = li.textContent;
              const m = t.match(/bench-(\\d+)/); if (m && !(m[1] in seen)) seen[m[1]] = performance.timeOrigin + performance.now(); }
          }).observe(document.getElementById('log'), {childList: true, subtree: true});""")
        overlay.execute_script("""window.painted = []; new MutationObserver(() => {
            const changed = performance.timeOrigin + performance.now();
            requestAnimationFrame(() => painted.push({changed, painted: performance.timeOrigin + performance.now(),
              what: document.getElementById('roll-what').textContent}));
          }).observe(document.getElementById('roll-faces'), {childList: true, subtree: true});""")
        phone.execute_script("""window.tapped = {}; document.addEventListener('click', (e) => {
            const form = e.target.closest('form.free-roll'); if (!form) return;
            tapped[form.querySelector('[data-field=purpose] input, input[data-field=purpose]').value] = performance.timeOrigin + performance.now();
          }, true);""")
        to_phone, to_overlay, tap_to_overlay = [], [], []
        for n in range(taps):
            purpose = f"bench-{n}"
            form = phone.find_element(By.CSS_SELECTOR, "form.free-roll")
            for name, value in (("spec", "2D6"), ("purpose", purpose)):
                box = form.find_element(By.CSS_SELECTOR, f'input[data-field="{name}"]')
                box.clear()
                box.send_keys(value)
            form.find_element(By.CSS_SELECTOR, "button.send").click()
            wait(tablet, lambda d, n=n: d.execute_script(f"return window.seen['{n}']"), f"tap {n} on B")
            wait(overlay, lambda d, purpose=purpose: d.execute_script(
                f"return painted.some(p => p.what.toLowerCase().startsWith('{purpose}'))"), f"tap {n} on the overlay")
            tap = phone.execute_script(f"return tapped['{purpose}']")
            seen = tablet.execute_script(f"return seen['{n}']")
            paint = overlay.execute_script(
                f"return painted.filter(p => p.what.toLowerCase().startsWith('{purpose}'))[0].painted")
            with httpx.Client(timeout=10) as client:
                event = client.get(f"{url}/games/{gid}/events", params={"after": 0, "limit": 1000},
                                   headers={"Authorization": f"Bearer {tokens['A']}"}).json()["events"]
            at = next(e["at"] for e in event if e["data"].get("purpose") == purpose)
            at_ms = datetime.fromisoformat(at.replace("Z", "+00:00")).timestamp() * 1000
            to_phone.append(seen - tap)
            to_overlay.append(paint - at_ms)
            tap_to_overlay.append(paint - tap)
            time.sleep(0.05)
        print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        print(f"page weight, first load of /play/{{id}} (its own files): {transferred / 1024:.1f} KB transferred, "
              f"{decoded / 1024:.1f} KB decoded; then the API reads: {', '.join(reads)}")
        print(f"time to interactive (navigation start -> first /state answer in): {interactive:.1f} ms")
        for name, values in (("tap on A -> line in B's log", to_phone), ("event -> overlay painted", to_overlay),
                             ("tap on A -> overlay painted", tap_to_overlay)):
            print(f"{name:30} p50 {statistics.median(values):6.1f} ms   p90 {percentile(values, .9):6.1f} ms   "
                  f"max {max(values):6.1f} ms   (n={len(values)})")
        print(f"RESULT page {transferred / 1024:.1f} KB; tap->phone p50 {statistics.median(to_phone):.1f} ms; "
              f"event->overlay p50 {statistics.median(to_overlay):.1f} ms")
    finally:
        for driver in (phone, tablet, overlay):
            driver.quit()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--taps", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        service = Service(["--db", str(Path(tmp) / "warlog.db")], {}, Path(tmp) / "serve.log")
        service.start()
        try:
            measure(service.url, Path(tmp), args.taps)
        finally:
            service.stop()


if __name__ == "__main__":
    main()
