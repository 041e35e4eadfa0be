"""The streamers' overlay page in a real browser: headless Debian Chromium through chromedriver, against
a real uvicorn on 127.0.0.1. The page is opened once and must follow the game without a reload.
Every wait is bounded (a bound on failure, not a timing check). Chromium missing is a failure, not a skip:
`make chromium` (ops/ensure-chromium.sh) installs it."""

import pytest
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.by import By

from tests.conftest import settings_for
from tests.e2e.test_reference_rules import until
from tests.support.browser import WAIT_S, chromium, waiting
from tests.support.client import GameClient, play_awaited, unit
from tests.support.live import serving
from warlog.api.app import create_app

TRANSPARENT = "rgba(0, 0, 0, 0)"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def base_url(tmp_path_factory):
    with serving(create_app(settings_for(tmp_path_factory.mktemp("overlay-page"), keepalive_s=1))) as url:
        yield url


@pytest.fixture(scope="module")
def browser(base_url, tmp_path_factory):
    """Takes base_url so that it quits first: no open stream holds the server's shutdown."""
    driver = chromium(tmp_path_factory.mktemp("chromium-profile"), (1920, 1080))
    try:
        yield driver
    finally:
        driver.quit()




def started(http) -> GameClient:
    game = GameClient(http)
    game.start([unit("scouts-1"), unit("scouts-2")], [unit("boyz-1", 3)])
    return game


def open_overlay(browser, base_url, game, role="spectator"):
    browser.get(f"{base_url}/games/{game.id}/overlay.html?token={game.tokens[role]}")
    browser.execute_script("window.openedOnce = true")  # gone if the page ever reloads


def text(browser, element_id):
    """What the element says, as written (textContent: before CSS upper-cases a label)."""
    return browser.find_element(By.ID, element_id).get_property("textContent").strip()


def faces(browser):
    return [int(die.get_property("textContent")) for die in browser.find_elements(By.CSS_SELECTOR, "#roll-faces .die")]


def shows(browser, read, expected):
    """Wait, bounded, until read(browser) == expected; fail saying what the page showed instead."""
    try:
        waiting(browser).until(lambda b: read(b) == expected)
    except TimeoutException:
        pytest.fail(f"the page showed {read(browser)!r}, not {expected!r}, within {WAIT_S} s")


def test_the_page_shows_where_the_game_is_then_a_free_roll_and_the_next_go_without_a_reload(
        browser, base_url, http, tmp_path):
    game = started(http)
    open_overlay(browser, base_url, game)
    # both seats confirm the count: the service's sentence and its title of the sub-phase, never "Movement Pass Points"
    shows(browser, lambda b: text(b, "whose-go"), "The game waits for both players to confirm the count.")
    assert text(browser, "round") == "Battle round 1 of 5"
    assert text(browser, "phase") == "Movement Pass Point Calculation (Movement phase)"
    assert (text(browser, "name-A"), text(browser, "name-B")) == ("Alice", "Bob")
    assert [text(browser, f"{stat}-{seat}") for stat in ("pp", "cp") for seat in "AB"] == ["0"] * 4
    assert browser.find_element(By.ID, "roll").is_displayed() is False  # nobody has rolled yet

    rolled = game.cmd("B", "free_roll", spec="4D6", purpose="morale")["events"][0]["data"]
    shows(browser, faces, rolled["faces"])
    assert text(browser, "roll-what") == "Morale · Bob" and text(browser, "roll-total") == f"= {rolled['total']}"

    game.cmd("A", "confirm_count")  # Alice has confirmed: now only Bob may
    shows(browser, lambda b: text(b, "whose-go"), "The game waits for Bob to confirm the count.")
    assert "to-act" in browser.find_element(By.ID, "seat-B").get_attribute("class").split()
    assert browser.execute_script("return window.openedOnce === true"), "the page reloaded"

    # OBS composites the page over the stream: nothing behind the panels, and a screenshot keeps the alpha
    assert browser.execute_script(
        "return [document.documentElement, document.body].map(e => getComputedStyle(e).backgroundColor)"
    ) == [TRANSPARENT, TRANSPARENT]
    browser.execute_cdp_cmd("Emulation.setDefaultBackgroundColorOverride", {"color": {"r": 0, "g": 0, "b": 0, "a": 0}})
    shot = tmp_path / "overlay.png"
    assert browser.save_screenshot(str(shot))
    png = shot.read_bytes()
    assert png.startswith(PNG_SIGNATURE) and len(png) > 1000
    assert png[25] == 6  # IHDR colour type 6: RGBA, the background left transparent


def test_the_page_lists_a_lost_unit_under_the_seat_that_lost_it(browser, base_url, http):
    game = started(http)
    open_overlay(browser, base_url, game, role="A")
    shows(browser, lambda b: (text(b, "lost-A"), text(b, "lost-B")), ("none", "none"))
    game.cmd("B", "record_casualties", unit="boyz-1", models=3)
    shows(browser, lambda b: (text(b, "lost-A"), text(b, "lost-B")), ("none", "Boyz 1"))  # by name, never the id
    assert browser.execute_script("return window.openedOnce === true"), "the page reloaded"


def outcomes(browser):
    return [die.get_attribute("data-outcome") for die in browser.find_elements(By.CSS_SELECTOR, "#roll-faces .die")]


def colour(browser, css):
    return browser.execute_script(f"return getComputedStyle(document.querySelector({css!r})).backgroundColor")


def test_the_page_shows_names_vp_and_cp_the_dice_coloured_by_outcome_and_the_result(browser, base_url, http):
    """A reference game at the table (it keeps VP): Alice's hit roll of 6, 3, 2 and 1 at 3+, then Bob concedes."""
    game = GameClient(http, "reference", "table")
    bolter = {"name": "Bolter", "type": "ranged", "range": 24, "A": "2", "skill": 3, "S": 4, "AP": 0, "D": "1",
              "keywords": []}
    game.start([unit("shooters", 2, name="Intercessors", weapons=[bolter])], [unit("guard", 3, name="Guardsmen")])
    open_overlay(browser, base_url, game)
    shows(browser, lambda b: (text(b, "name-A"), text(b, "name-B")), ("Alice", "Bob"))
    assert browser.find_element(By.ID, "vp-A").is_displayed()  # the game scores VP: shown beside CP
    assert [text(browser, f"{stat}-{seat}") for stat in ("vp", "cp") for seat in "AB"] == ["0"] * 4
    assert browser.find_element(By.ID, "result").is_displayed() is False

    game.cmd("A", "roll_off", dice={"A": 6, "B": 1})
    game.cmd("A", "choose_order", first="A")
    while game.state()["phase"] != "shooting" or game.state()["awaiting"]["action"] != "end_phase":
        play_awaited(game)
    cp = game.state()["cp"]
    game.cmd("A", "select", unit="shooters", shooting="normal")
    game.cmd("A", "attack", unit="shooters", weapon="Bolter", target="guard")
    game.cmd("A", "roll", dice=[6, 3, 2, 1])
    shows(browser, faces, [6, 3, 2, 1])
    assert outcomes(browser) == ["critical", "success", "fail", "fail"]
    assert len({colour(browser, f"#roll-faces .die:nth-child({i})") for i in (1, 2, 3)}) == 3  # three colours
    assert text(browser, "roll-what") == "Hit rolls (Intercessors) · Alice"
    assert (text(browser, "roll-needed"), text(browser, "roll-successes")) == ("3", "2")
    assert text(browser, "roll-text") == "Hit roll: 2 hits of 4 at 3+, 1 of them critical"
    assert [text(browser, f"cp-{seat}") for seat in "AB"] == [str(cp["A"]), str(cp["B"])]

    game.cmd("B", "concede")
    shows(browser, lambda b: text(b, "result"), "Bob conceded: Alice won (MSN.END.3).")
    assert text(browser, "whose-go") == "Alice wins"
    assert browser.execute_script("return window.openedOnce === true"), "the page reloaded"
    assert browser.execute_script(
        "return [document.documentElement, document.body].map(e => getComputedStyle(e).backgroundColor)"
    ) == [TRANSPARENT, TRANSPARENT]


def test_a_desperate_escape_is_headed_as_the_rules_call_it_and_what_follows_in_the_services_words(
        browser, base_url, http):
    """A reference game at the table: Bob's engaged Beasts make a Desperate Escape, then their battle-shock test waits."""
    game = GameClient(http, "reference", "table")
    scouts = unit("scouts", 2)
    scouts["models"][0].update(T=10, Sv=2, W=30)
    game.start([scouts], [unit("beasts", 3, statuses=("engaged",), engaged_with=["scouts"])])
    until(game, 1, "B", "movement")
    open_overlay(browser, base_url, game)
    game.cmd("B", "select", unit="beasts", move="fall_back", escape="desperate")
    shows(browser, lambda b: text(b, "whose-go"), "The game waits for Bob to roll 3D6 for a Desperate Escape.")
    assert text(browser, "phase") == "Movement phase"
    game.cmd("B", "roll", dice=[3, 4, 5])
    shows(browser, faces, [3, 4, 5])
    assert text(browser, "roll-what") == "A Desperate Escape (Beasts) · Bob"
    shows(browser, lambda b: text(b, "whose-go"), "The game waits for Bob to roll 2D6 for a battle-shock test.")
    assert "hazard" not in (text(browser, "roll-what") + text(browser, "phase") + text(browser, "whose-go")).lower()
