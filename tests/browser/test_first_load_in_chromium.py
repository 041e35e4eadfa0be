"""Issue 26, "Weight", in real Chromium: a phone's first load of a seat's page in a 2,000-event game transfers at
most 60 KB (the browser's own Resource Timing, headers and body as sent, until the log is drawn; the open stream
left out), each of the app's files is fetched once, and a return visit takes the files from the browser's cache.
(tests/e2e/test_page_weight.py counts the same over httpx; ops/bench/page_weight.py prints the figures.)"""
from __future__ import annotations

import httpx

from tests.browser.conftest import PHONE, phone_sized
from tests.conftest import settings_for
from tests.support.browser import WAIT_S, waiting
from tests.support.client import GameClient, unit
from tests.support.live import serving
from warlog.api.app import create_app
from warlog.api.cli import play_link

BUDGET = 60 * 1024
ENTRIES = ("return [performance.getEntriesByType('navigation')[0], ...performance.getEntriesByType('resource')]"
           ".filter(e => !e.name.includes('/stream')).map(e => ({name: e.name, transfer: e.transferSize}))")


def loaded(driver, link: str) -> list[dict[str, object]]:
    driver.get("about:blank")
    driver.get(link)
    waiting(driver).until(lambda d: d.execute_script(
        "return performance.getEntriesByType('resource').some(e => e.name.includes('/events?'))"
        " && document.querySelectorAll('#log li').length > 0"), message="the log drawn")
    return list(driver.execute_script(ENTRIES))


def test_a_phones_first_load_of_a_2000_event_game_is_at_most_60_kb_and_a_return_visit_reuses_the_files(
        tmp_path_factory):
    with serving(create_app(settings_for(tmp_path_factory.mktemp("weight"), keepalive_s=1))) as url, \
            httpx.Client(base_url=url, timeout=WAIT_S) as http:
        game = GameClient(http)
        game.start([unit("scouts", 5)], [unit("boyz", 10)])
        while game.cmd("A", "free_roll", spec="3D6", purpose="a long game")["version"] < 2000:
            pass
        phone = phone_sized(tmp_path_factory.mktemp("phone"), PHONE)
        try:
            link = play_link(url, game.id, game.tokens["A"], "A")
            first = loaded(phone, link)
            files = [e["name"] for e in first if "/app/" in str(e["name"])]
            assert len(files) == len(set(files)) >= 8 and all("?v=" in str(name) for name in files)
            total = sum(int(str(e["transfer"])) for e in first)
            assert total <= BUDGET, f"{total / 1024:.1f} KB"
            again = loaded(phone, link)
            assert sum(int(str(e["transfer"])) for e in again if "/app/" in str(e["name"])) == 0  # from the cache
        finally:
            phone.quit()
