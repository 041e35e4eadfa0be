"""axe-core (its default rules: WCAG 2.x A and AA, and its best practices) on every page a table sees, in a real
headless Chromium at a phone's size and a laptop's: the start page (and its links once a game is made), a seat's
page mid-game in each ruleset (and with table dice, the roll-off's faces to enter; an attack's weapons as cards), a unit's datasheet, an event's
audit, the result screen and the streamers' overlay. Each page and size must have no violation. axe is injected as the
npm package ships it (`make axe`: ops/ensure-axe.sh puts it at .cache/axe-core/axe.min.js); missing is a
failure, not a skip."""
from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from tests.browser.conftest import PHONE, phone_sized
from tests.conftest import settings_for
from tests.support.browser import WAIT_S, waiting
from tests.support.client import GameClient, play_awaited, unit, vehicle
from tests.support.live import serving
from warlog.api.app import create_app

AXE = Path(__file__).resolve().parents[2] / ".cache" / "axe-core" / "axe.min.js"
LAPTOP = (1280, 800)
RULESETS = ("alternating", "reference", "heresy")
MOMENTS = 6  # played before a seat's page is opened: a log with numbers in it, a roll, units moved


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serving(create_app(settings_for(tmp_path_factory.mktemp("accessibility"), keepalive_s=1))) as url:
        yield url


@pytest.fixture(scope="module")
def axe_source() -> str:
    assert AXE.is_file(), f"axe-core is needed at {AXE}: run `make axe` (ops/ensure-axe.sh)"
    return AXE.read_text(encoding="utf-8")


@pytest.fixture(scope="module", params=[PHONE, LAPTOP], ids=["390x844", "1280x800"])
def browser(request: pytest.FixtureRequest, base_url: str,
            tmp_path_factory: pytest.TempPathFactory) -> Iterator[webdriver.Chrome]:
    """Takes base_url so that it quits first: no open feed holds the server's shutdown."""
    driver = phone_sized(tmp_path_factory.mktemp("axe-profile"), request.param)
    try:
        yield driver
    finally:
        driver.quit()


def mid_game(http: Any, ruleset: str, dice: str = "server", moments: int = MOMENTS) -> GameClient:
    game = GameClient(http, ruleset, dice)
    game.start([unit("scouts-1", abilities=("ATSKNF",)), unit("scouts-2"), vehicle("rhino", capacity=10)],
               [unit("boyz-1", 10), unit("boyz-2", 10)])
    for _ in range(moments):
        if game.state()["status"] == "ended":
            break
        play_awaited(game)
    game.send("A", {"type": "free_roll", "spec": "3D6", "purpose": "morale"})  # a last roll on the page, if offered
    return game


def at_attack(http: Any) -> GameClient:
    """A reference game at Alice's shooting, her unit selected: its attack's weapons and targets as cards."""
    game = GameClient(http, "reference", "server")
    game.start([unit("scouts-1")], [unit("boyz-1", 10)])
    while game.state()["phase"] != "shooting":
        play_awaited(game)
    game.cmd("A", "select", unit="scouts-1", shooting="normal")
    return game


@pytest.fixture(scope="module")
def games(base_url: str) -> Iterator[dict[str, GameClient]]:
    import httpx

    with httpx.Client(base_url=base_url, timeout=WAIT_S) as http:
        made = {ruleset: mid_game(http, ruleset) for ruleset in RULESETS}
        made["table-dice"] = mid_game(http, "alternating", "table", 2)  # the roll-off's faces, rolled at the table
        made["attack"] = at_attack(http)
        ended = GameClient(http)
        ended.start([unit("scouts-1")], [unit("boyz-1")])
        ended.cmd("A", "concede")
        made["ended"] = ended
        yield made


def until(driver: webdriver.Chrome, css: str, what: str) -> None:
    try:
        waiting(driver).until(lambda d: any(e.is_displayed() for e in d.find_elements(By.CSS_SELECTOR, css)))
    except TimeoutException:
        pytest.fail(f"the page never showed {what} ({css}) within {WAIT_S} s")


def start_page(driver: webdriver.Chrome, base_url: str, games: dict[str, GameClient]) -> None:
    driver.get(f"{base_url}/")
    until(driver, "#create", "its create button")


def seat_page(ruleset: str) -> Callable[[webdriver.Chrome, str, dict[str, GameClient]], None]:
    def open_it(driver: webdriver.Chrome, base_url: str, games: dict[str, GameClient]) -> None:
        game = games[ruleset]
        driver.get(f"{base_url}/play/{game.id}#token={game.tokens['A']}&seat=A")
        until(driver, "#log li", "the game's log")
        if ruleset == "table-dice":
            until(driver, 'form[data-action="roll_off"] input', "the roll-off's faces to enter")
        if ruleset == "attack":
            until(driver, 'form[data-action="attack"] .weapon-card', "the weapons as cards")
    return open_it


def a_sheet(driver: webdriver.Chrome, base_url: str, games: dict[str, GameClient]) -> None:
    seat_page("reference")(driver, base_url, games)
    driver.find_element(By.CSS_SELECTOR, "button.sheet-open").click()
    until(driver, "#datasheet[open]", "the datasheet")


def an_audit(driver: webdriver.Chrome, base_url: str, games: dict[str, GameClient]) -> None:
    seat_page("alternating")(driver, base_url, games)
    driver.find_element(By.CSS_SELECTOR, "#log li button.seq").send_keys(Keys.ENTER)  # by keyboard, as by a tap
    until(driver, "#audit[open]", "an event's audit")


def links(driver: webdriver.Chrome, base_url: str, games: dict[str, GameClient]) -> None:
    start_page(driver, base_url, games)
    driver.find_element(By.ID, "create").click()
    until(driver, "#links img.qr", "the links and their codes")


def result_screen(driver: webdriver.Chrome, base_url: str, games: dict[str, GameClient]) -> None:
    game = games["ended"]
    driver.get(f"{base_url}/play/{game.id}#token={game.tokens['B']}&seat=B")
    until(driver, "#result", "the result")


def overlay(driver: webdriver.Chrome, base_url: str, games: dict[str, GameClient]) -> None:
    game = games["alternating"]
    driver.get(f"{base_url}/games/{game.id}/overlay.html?token={game.tokens['spectator']}")
    until(driver, "#name-A", "the seats' names")
    waiting(driver).until(lambda d: d.find_element(By.ID, "name-A").text.strip())


PAGES = {"start": start_page, "start-links": links, **{f"seat-{r}": seat_page(r) for r in (*RULESETS, "table-dice", "attack")},
         "datasheet": a_sheet, "audit": an_audit, "result": result_screen, "overlay": overlay}

RUN_AXE = """const done = arguments[arguments.length - 1];
axe.run(document, {resultTypes: ["violations"]}).then(
  (r) => done(r.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help,
                                        targets: v.nodes.map((n) => n.target.join(" "))}))),
  (e) => done([{id: "axe-error", impact: "critical", help: String(e), targets: []}]));"""


def violations(driver: webdriver.Chrome, axe_source: str) -> list[dict[str, Any]]:
    driver.execute_script(axe_source)
    driver.set_script_timeout(60)
    found: list[dict[str, Any]] = driver.execute_async_script(RUN_AXE)
    return found


@pytest.mark.timeout(180)
@pytest.mark.parametrize("page", list(PAGES))
def test_axe_finds_no_violation(browser: webdriver.Chrome, base_url: str, games: dict[str, GameClient],
                                axe_source: str, page: str) -> None:
    PAGES[page](browser, base_url, games)
    found = violations(browser, axe_source)
    said = "\n".join(f"  {v['id']} ({v['impact']}): {v['help']}\n" + "".join(f"    at {t}\n" for t in v["targets"])
                     for v in found)
    assert not found, f"axe found {len(found)} violation(s) on the {page} page:\n{said}"
