"""The start page in real Chromium (issue 26, "Start page and resuming"): a roster file sets its own ruleset
and lists what was not mapped with its points before any game exists; the dice mode said in a sentence and the
options sent as chosen; nothing wider than a 360 px phone; a mirror match's renamed ids said in words; the games
made on this device listed to resume; and Copy working where the browser withholds the clipboard API (a
plain-HTTP origin, `http://table.test:PORT`, that Chromium resolves to loopback only). One browser, 360 px wide.
Every wait is bounded (a bound on failure, not a timing check)."""
from collections.abc import Iterator

import httpx
import pytest
from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from tests.conftest import settings_for
from tests.support.browser import WAIT_S, chromium, waiting
from tests.support.live import serving
from tests.support.shared import corpus
from warlog.api.app import create_app

NARROW = (360, 780)
TENTH = "40k10e_necrons.rosz"  # a 10th-edition roster: its game system plays as `reference`


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serving(create_app(settings_for(tmp_path_factory.mktemp("start-page"), keepalive_s=1))) as url:
        yield url


@pytest.fixture(scope="module")
def phone(tmp_path_factory: pytest.TempPathFactory) -> Iterator[webdriver.Chrome]:
    """A 360 px phone whose browser also resolves `table.test` (and nothing else but loopback) to 127.0.0.1."""
    driver = chromium(tmp_path_factory.mktemp("narrow-phone"), NARROW, hosts=("table.test",))
    try:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": NARROW[0], "height": NARROW[1], "deviceScaleFactor": 1, "mobile": True})
        yield driver
    finally:
        driver.quit()


def until(driver, read, what, expected=True):
    try:
        waiting(driver).until(lambda d: read(d) == expected)
    except TimeoutException:
        raise AssertionError(f"waited {WAIT_S}s for {what}; last seen: {read(driver)!r}") from None


def chosen_ruleset(driver):
    return driver.execute_script("return document.querySelector('#ruleset input[name=\"ruleset\"]:checked')?.value")


def choose_ruleset(driver, name):
    """Tap the ruleset's card, once the service's description of it is on the page."""
    css = f'#ruleset label.ruleset-card[data-ruleset="{name}"]'
    until(driver, lambda d: bool(d.find_elements(By.CSS_SELECTOR, f"{css} .card-summary")), f"the {name} card described")
    card = driver.find_element(By.CSS_SELECTOR, css)
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", card)
    card.click()
    assert chosen_ruleset(driver) == name


def convert(base_url, name, ruleset=None):
    query = f"?ruleset={ruleset}" if ruleset else ""
    answer = httpx.post(f"{base_url}/rosters/convert{query}", content=(corpus() / name).read_bytes(), timeout=WAIT_S)
    assert answer.status_code == 200, answer.text
    return answer.json()


def choose_roster(driver, seat, name):
    Select(driver.find_element(By.CSS_SELECTOR, f'[data-seat="{seat}"] .army-source')).select_by_value("roster")
    driver.find_element(By.CSS_SELECTOR, f'[data-seat="{seat}"] .army-file').send_keys(str(corpus() / name))
    until(driver, lambda d: bool(d.find_elements(By.CSS_SELECTOR, f'[data-seat="{seat}"] .army-preview .army-units')),
          f"seat {seat}'s roster previewed")
    return driver.find_element(By.CSS_SELECTOR, f'[data-seat="{seat}"] .army-preview')


def unmapped_shown(preview):
    return [li.find_element(By.TAG_NAME, "code").text for li in preview.find_elements(By.CSS_SELECTOR, ".unmapped li")]


def create_and_wait(driver):
    driver.find_element(By.ID, "create").click()
    until(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#link-list li")) >= 2 or
          bool(d.find_element(By.ID, "problem").text), "the seats' links")
    assert not driver.find_element(By.ID, "problem").is_displayed(), driver.find_element(By.ID, "problem").text
    return driver.find_element(By.ID, "links").get_attribute("data-game-id")


def seat_link(driver, seat):
    return driver.find_element(By.CSS_SELECTOR, f'#link-list li[data-seat="{seat}"] a').get_attribute("href")


def test_a_roster_file_sets_its_own_ruleset_and_lists_what_was_not_mapped_with_its_points(phone, base_url):
    own = convert(base_url, TENTH)  # no ruleset: the roster's game system
    assert own["ruleset"] == "reference"
    phone.get(f"{base_url}/")
    assert chosen_ruleset(phone) != own["ruleset"]
    preview = choose_roster(phone, "A", TENTH)
    assert chosen_ruleset(phone) == own["ruleset"]
    assert unmapped_shown(preview) == [item["path"] for item in own["unmapped"]]
    assert f"{own['summary']['points']} points" in preview.text and "the roster's own game system" in preview.text
    assert own["units"][0]["name"] in preview.text
    assert phone.execute_script("return document.documentElement.scrollWidth") <= NARROW[0]  # nothing overflows

    chosen = convert(base_url, TENTH, "alternating")  # the player's choice wins over the roster's own
    assert len(chosen["unmapped"]) != len(own["unmapped"])
    choose_ruleset(phone, "alternating")
    until(phone, lambda d: unmapped_shown(d.find_element(By.CSS_SELECTOR, '[data-seat="A"] .army-preview')),
          "seat A's roster read again as alternating", [item["path"] for item in chosen["unmapped"]])
    preview = choose_roster(phone, "B", TENTH)  # a later roster file leaves the player's choice be
    assert chosen_ruleset(phone) == "alternating"
    assert unmapped_shown(preview) == [item["path"] for item in chosen["unmapped"]]
    assert "read as alternating" in preview.text and "own game system" not in preview.text
    assert phone.execute_script("return document.documentElement.scrollWidth") <= NARROW[0]


def test_the_dice_mode_is_said_in_a_sentence_and_the_options_are_sent_as_chosen(phone, base_url):
    phone.get(f"{base_url}/")
    said = {}
    for mode in ("server", "table"):
        Select(phone.find_element(By.ID, "dice")).select_by_value(mode)
        said[mode] = phone.find_element(By.ID, "dice-explained").text
    assert said["server"] != said["table"] and all(sentence.endswith(".") for sentence in said.values())
    assert phone.find_element(By.ID, "battle-rounds").get_attribute("value") == "5"
    assert not phone.find_element(By.ID, "clock-minutes").get_attribute("value")  # default: no clock
    phone.find_element(By.ID, "objectives").send_keys("Relay, Shrine")
    phone.find_element(By.ID, "clock-minutes").send_keys("90")
    phone.find_element(By.ID, "clock-loses").click()
    create_and_wait(phone)
    token = seat_link(phone, "A").split("#token=")[1].split("&")[0]
    state = httpx.get(f"{base_url}/games/{phone.find_element(By.ID, 'links').get_attribute('data-game-id')}/state",
                      headers={"Authorization": f"Bearer {token}"}, timeout=WAIT_S).json()
    assert len(state["objectives"]) == 2 and "Relay" in state["objectives"][0]["name"]
    assert state["clock"] is not None
    assert phone.execute_script("return document.documentElement.scrollWidth") <= NARROW[0]


def test_a_mirror_match_from_one_roster_says_which_units_were_renamed(phone, base_url):
    own = convert(base_url, TENTH)
    phone.get(f"{base_url}/")
    choose_roster(phone, "A", TENTH)
    choose_roster(phone, "B", TENTH)
    game_id = create_and_wait(phone)
    said = phone.find_element(By.ID, "renamed").text
    assert "renamed" in said and "Bob's army" in said
    assert all(f"{unit['name']} ({unit['id']} is now " in said for unit in own["units"])  # every id collides
    token = seat_link(phone, "B").split("#token=")[1].split("&")[0]
    units = httpx.get(f"{base_url}/games/{game_id}/state", headers={"Authorization": f"Bearer {token}"},
                      timeout=WAIT_S).json()["units"]
    owners = [units[unit["id"]]["owner"] for unit in own["units"]]
    assert owners == ["A"] * len(own["units"]) and sum(u["owner"] == "B" for u in units.values()) == len(own["units"])
    assert phone.execute_script("return document.documentElement.scrollWidth") <= NARROW[0]


def test_the_games_made_on_this_device_are_listed_to_resume(phone, base_url):
    phone.get(f"{base_url}/")
    phone.find_element(By.ID, "name-B").clear()
    phone.find_element(By.ID, "name-B").send_keys("Bea")
    game_id = create_and_wait(phone)
    phone.get(f"{base_url}/")  # a fresh load: the list comes from this device's storage
    mine = f'#my-game-list li[data-game-id="{game_id}"]'
    until(phone, lambda d: bool(d.find_elements(By.CSS_SELECTOR, mine)), "the game in 'your games'")
    assert "Alice v Bea" in phone.find_element(By.CSS_SELECTOR, mine).text
    phone.find_element(By.CSS_SELECTOR, f'{mine} a[data-seat="B"]').click()
    until(phone, lambda d: d.current_url.startswith(f"{base_url}/play/{game_id}#token="), "seat B's table")
    until(phone, lambda d: d.execute_script("return [...document.querySelectorAll('#actions form.action')]"
                                            ".map(b => b.dataset.action).includes('start_game')"), "start_game offered")
    assert phone.current_url.endswith("&seat=B")


def test_copy_falls_back_to_select_and_copy_where_the_clipboard_api_is_withheld(phone, base_url):
    insecure = base_url.replace("127.0.0.1", "table.test")
    phone.get(f"{insecure}/")
    assert phone.execute_script("return [window.isSecureContext, typeof navigator.clipboard]") == [False, "undefined"]
    create_and_wait(phone)
    row = phone.find_element(By.CSS_SELECTOR, '#link-list li[data-seat="A"]')
    link = row.find_element(By.TAG_NAME, "a").get_attribute("href")
    assert link.startswith(f"{insecure}/play/")
    row.find_element(By.CSS_SELECTOR, "button.copy").click()
    until(phone, lambda d: row.find_element(By.CSS_SELECTOR, "button.copy").text, "Copy's answer", "Copied")
    assert phone.execute_script("return getSelection().toString()") == link


def test_each_ruleset_is_a_card_with_its_title_and_its_line_as_the_service_describes_it(phone, base_url):
    rulesets = httpx.get(f"{base_url}/rulesets", timeout=WAIT_S).json()["rulesets"]
    assert [r["name"] for r in rulesets][:3] == ["alternating", "reference", "heresy"]
    phone.get(f"{base_url}/")
    cards = "return [...document.querySelectorAll('#ruleset label.ruleset-card')].map((c) => [c.querySelector('input').value," \
            " c.querySelector('.card-title').innerText, c.querySelector('.card-summary')?.innerText])"
    until(phone, lambda d: d.execute_script(cards), "each ruleset a card, as the service describes it",
          [[r["name"], r["title"], r["summary"]] for r in rulesets])
    assert phone.find_element(By.CSS_SELECTOR, "#ruleset legend").text == "Ruleset"  # one labelled group of radios
    assert not phone.find_elements(By.CSS_SELECTOR, "select#ruleset")
    for ruleset in reversed(rulesets):  # a tap on a card checks it, and only it
        choose_ruleset(phone, ruleset["name"])
        assert len(phone.find_elements(By.CSS_SELECTOR, '#ruleset input[name="ruleset"]:checked')) == 1
    # by keyboard: the checked card takes the focus and the arrow keys move the choice, as in any radio group
    phone.find_element(By.CSS_SELECTOR, '#ruleset input[name="ruleset"]:checked').send_keys(Keys.ARROW_DOWN)
    assert chosen_ruleset(phone) == rulesets[1]["name"]
    assert phone.execute_script("return document.activeElement.value") == rulesets[1]["name"]
    outline = phone.execute_script("return getComputedStyle(document.activeElement.closest('label')).outlineStyle")
    assert outline != "none"  # the focused card is marked
    create_and_wait(phone)  # the game is made with the card chosen
    token = seat_link(phone, "A").split("#token=")[1].split("&")[0]
    state = httpx.get(f"{base_url}/games/{phone.find_element(By.ID, 'links').get_attribute('data-game-id')}/state",
                      headers={"Authorization": f"Bearer {token}"}, timeout=WAIT_S).json()
    assert state["ruleset"] == rulesets[1]["name"]
    assert phone.execute_script("return document.documentElement.scrollWidth") <= NARROW[0]
