"""A scripted game in each ruleset played to its result screen by tapping (issue 26, "Quality bars"), in real
Chromium against a real uvicorn. The game is made on the start page (its ruleset, dice mode and one battle round, as
a player sets them), and each seat's link, as the page hands it out, is opened in its own browser: seat A's phone and
seat B's tablet, two profiles, two storages, two feeds. From then on every move is a tap on what the page shows: a
button titled as the service titles the action, a choice by its title, a weapon and a target by their cards, the
faces of table dice on the pad. The test reads the page as a player would to know whose go it is and what to tap; it
sends nothing to the service itself. At each tap both phones name the same player in the header, and the other
phone's log comes to show what the tap did in the tapping phone's own words; the last battle round over, both phones
show the result screen with who won and the rule that decided it. Every wait is bounded."""
import copy
import json
import time
from collections.abc import Callable

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from tests.browser.test_start_page import choose_ruleset
from tests.browser.test_table_app import until, version
from tests.conftest import settings_for
from tests.support.live import serving
from warlog.api.app import create_app
from warlog.api.cli import DEMO_ARMIES

NAMES = {"A": "Alice", "B": "Bob"}
SEAT_OF = {name: seat for seat, name in NAMES.items()}
SECONDS = 40  # a game's bound: each is a round of some twenty to forty taps


@pytest.fixture(scope="module")
def base_url(tmp_path_factory):
    with serving(create_app(settings_for(tmp_path_factory.mktemp("scripted-games"), keepalive_s=1))) as url:
        yield url


def make_game(driver, base_url, ruleset, dice, armies=None) -> dict[str, str]:
    """The start page as a player fills it in: the ruleset, the dice, one battle round, each seat's army (the demo
    armies, or Unit JSON pasted); answers each seat's link as the page lists it."""
    driver.get(f"{base_url}/")
    choose_ruleset(driver, ruleset)
    Select(driver.find_element(By.ID, "dice")).select_by_value(dice)
    rounds = driver.find_element(By.ID, "battle-rounds")
    rounds.clear()
    rounds.send_keys("1")
    for seat, units in (armies or {}).items():
        block = f'#armies [data-seat="{seat}"]'
        Select(driver.find_element(By.CSS_SELECTOR, f"{block} .army-source")).select_by_value("json")
        driver.find_element(By.CSS_SELECTOR, f"{block} .army-json").send_keys(json.dumps(units))
    driver.find_element(By.ID, "create").click()
    until(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#link-list li a.seat-link")) == 2
          or d.find_element(By.ID, "problem").text, "the seats' links")
    assert not driver.find_element(By.ID, "problem").is_displayed(), driver.find_element(By.ID, "problem").text
    return {seat: driver.find_element(By.CSS_SELECTOR, f'#link-list li[data-seat="{seat}"] a.seat-link').get_attribute("href")
            for seat in NAMES}


def whose_go(driver) -> str:
    return driver.execute_script("return document.getElementById('whose-go').textContent.trim()")


def offered(driver) -> list[str]:
    """The titles on the action buttons this phone shows, in their order (read in one go: the forms may be redrawn)."""
    return driver.execute_script("return [...document.querySelectorAll('#actions form.action button.send')]"
                                 ".filter((b) => b.checkVisibility()).map((b) => b.textContent.trim())")


def log_lines(driver) -> dict[int, str]:
    return {int(seq): what for seq, what in driver.execute_script(
        "return [...document.querySelectorAll('#log li')].map((li) => [li.dataset.seq, li.querySelector('.what').textContent])")}


def tap_in(driver, element) -> None:
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)  # clear of the sticky header
    element.click()


def form_titled(driver, title: str, holding: str | None = None):
    """The first action form whose button reads `title` (and that shows the text `holding`, if given)."""
    def found(d):
        for form in d.find_elements(By.CSS_SELECTOR, "#actions form.action"):
            if form.find_element(By.CSS_SELECTOR, "button.send").text.strip() == title and (
                    holding is None or holding in form.text):
                return form
        return None
    return until(driver, found, f"a form titled {title!r}" + (f" for {holding}" if holding else ""))


def choose(form, title: str) -> None:
    """Tap the choice (a button or a card) that reads `title`."""
    choices = [c for c in form.find_elements(By.CSS_SELECTOR, "button.choice") if title in c.text]
    assert choices, f"no choice reading {title!r} in {form.text!r}"
    tap_in(form.parent, choices[0])


def pad(form, face: int) -> None:
    """Enter the awaited dice on the pad: `face` as many times as the roll needs."""
    keys = form.find_element(By.CSS_SELECTOR, ".dice-pad")
    for _ in range(int(keys.get_attribute("data-min-items"))):
        tap_in(form.parent, keys.find_element(By.CSS_SELECTOR, f'button.face[data-face="{face}"]'))


# A player's plan: which button to tap among those offered, and what to tap in its form first. `fill(form, seat)`.
Plan = list[tuple[str, Callable | None]]


def order_first(form, seat):  # the roll-off's winner goes first
    choose(form, NAMES[seat])


def roll_off_faces(form, seat):  # table dice: each player's D6 as rolled, typed into its box (the winner's higher)
    for who, face in ((seat, "5"), ("B" if seat == "A" else "A", "3")):
        box = form.find_element(By.CSS_SELECTOR, f'input[data-field="{who}"]')
        tap_in(form.parent, box)
        box.send_keys(face)


COMMON: Plan = [("Start the game", None), ("Confirm the count", None), ("Choose who goes first", order_first),
                ("Done this sub-phase", None), ("End the phase", None)]


def play(phones, plan: Plan, extra: Callable | None = None) -> list[str]:
    """Tap through the game until both phones show the result; answers the seats whose go it was, tap by tap."""
    goes = []
    for _ in range(80):
        if all(d.find_element(By.ID, "result").is_displayed() for d in phones.values()):
            return goes
        goes.append(take_turn(phones, plan, extra))
    pytest.fail("the game did not end within 80 taps")


def take_turn(phones, plan: Plan, extra: Callable | None) -> str:
    """The player whose go the header names taps the first button of the plan their phone offers (or `extra` taps a
    move of its own); the other phone names the same player, then shows what the tap did in its log, in the same
    words as the tapping phone. Answers the seat that tapped."""
    go = whose_go(phones["A"])  # the service's sentence to Alice: "The game waits for you to ..." where it is hers
    who = go.removeprefix("The game waits for ").split(" to ")[0]
    name = NAMES["A"] if who == "you" else who if who in SEAT_OF else None  # "both players", "either player"
    seat = SEAT_OF[name] if name else next(s for s in NAMES if offered(phones[s]))
    other = "B" if seat == "A" else "A"
    if name:  # the other phone names the same player ("you" on the awaited seat's own)
        said = "you" if other == seat else name
        until(phones[other], lambda d: whose_go(d).startswith(f"The game waits for {said} to "),
              f"{name}'s go on seat {other}'s page")
    driver = phones[seat]
    before = version(driver)
    if not (extra and extra(driver, seat)):
        titles = until(driver, offered, f"something to tap on seat {seat}'s page")
        title, fill = next(((t, f) for t, f in plan if t in titles), (None, None))
        assert title, f"nothing in the plan among {titles} ({go})"
        form = form_titled(driver, title)
        if fill:
            fill(form, seat)
        tap_in(driver, form.find_element(By.CSS_SELECTOR, "button.send"))
    until(driver, lambda d: version(d) > before, f"seat {seat}'s tap answered")
    mine = {seq: what for seq, what in log_lines(driver).items() if seq > before}
    assert mine, "the tap logged nothing on its own phone"
    until(phones[other], lambda d: {seq: log_lines(d).get(seq) for seq in mine}, f"seat {seat}'s tap on seat {other}'s log",
          mine)
    until(phones[other], lambda d: version(d) >= version(driver), f"seat {other}'s page up to date")
    return seat


def opened(phones, links):
    for seat, driver in phones.items():
        driver.get(links[seat])
        until(driver, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-version"), f"seat {seat}'s first state")
        assert driver.current_url.endswith(f"&seat={seat}")


def ended(phones, headline, how):
    for seat, driver in phones.items():
        until(driver, lambda d: d.find_element(By.ID, "result").is_displayed(), f"the result screen on seat {seat}'s page")
        assert driver.find_element(By.ID, "result-headline").text == headline
        assert driver.find_element(By.ID, "result-how").text == how
        assert whose_go(driver) == headline
        assert not offered(driver)  # nothing left to tap
        until(driver, lambda d: not d.find_elements(By.CSS_SELECTOR, "#actions form"),
              "no form of play left in the page")  # not only hidden: a stale form is no form to keep


def test_an_alternating_game_with_server_dice_is_played_to_its_result_by_tapping(phones, base_url):
    started = time.monotonic()
    links = make_game(phones["A"], base_url, "alternating", "server")
    opened(phones, links)
    goes = play(phones, [*COMMON[:2], ("Roll off", None), *COMMON[2:]])
    assert {"A", "B"} <= set(goes)
    # each sub-phase's roll-off said on both phones, and who went first
    assert any("Roll off" in line or "roll-off" in line.lower() for line in log_lines(phones["B"]).values())
    ended(phones, "A draw", "Decided on points of enemy units destroyed (MSN.END.1)")
    assert time.monotonic() - started < SECONDS


def test_a_heresy_game_with_table_dice_is_played_to_its_result_by_tapping(phones, base_url):
    started = time.monotonic()
    links = make_game(phones["A"], base_url, "heresy", "table")
    opened(phones, links)
    goes = play(phones, [*COMMON[:2], ("Roll off", roll_off_faces), *COMMON[2:]])
    assert goes.index("B") > goes.index("A")  # Alice went first, then Bob's turn
    said = " ".join(log_lines(phones["B"]).values())
    for name in NAMES.values():  # each player's turn, phase by phase, in the log of Bob's tablet
        for phase in ("Shooting", "Assault"):  # as the rules name them
            assert f"{name} ended the {phase} phase" in said, (name, phase)
    ended(phones, "A draw", "Decided on points of enemy units destroyed (MSN.END.1)")
    assert time.monotonic() - started < SECONDS


def costed(unit, points):
    unit = copy.deepcopy(unit)
    unit["points"] = points
    return unit


def test_a_reference_game_with_table_dice_and_an_attack_is_won_on_points_destroyed_by_tapping(phones, base_url):
    """Alice's Scout Squad shoots Bob's Boyz: the weapon and target from their cards, the hit and wound rolls on
    Alice's pad, the saves on Bob's; a unit destroyed, Alice wins on destroyed points when the round is over."""
    started = time.monotonic()
    scouts, boyz = DEMO_ARMIES["A"][0], DEMO_ARMIES["B"][0]
    armies = {"A": [costed(scouts, 70)], "B": [costed(boyz, 85), {**costed(boyz, 85), "id": "boyz-2"}]}
    links = make_game(phones["A"], base_url, "reference", "table", armies)
    opened(phones, links)
    shot = []

    def attack(driver, seat):  # Alice's shooting: one attack, the dice on the pads; everything else by the plan
        titles = offered(driver)
        if seat == "A" and "Shoot" in titles and not shot:
            form = form_titled(driver, "Shoot", "Scout Squad")
            choose(form, "Normal")
        elif seat == "A" and "Attack" in titles:
            form = form_titled(driver, "Attack")
            choose(form.find_element(By.CSS_SELECTOR, '[data-field="weapon"]'), "Boltgun")
            choose(form.find_element(By.CSS_SELECTOR, '[data-field="target"]'), "Boyz 1")
            shot.append(True)
        elif roll := next((t for t in titles if t.startswith("Roll ") and "D6" in t), None):
            form = form_titled(driver, roll)
            pad(form, 6 if seat == "A" else 1)  # every hit and wound lands, every save fails
        elif "Keep the dice" in titles:
            form = form_titled(driver, "Keep the dice")
        else:
            return False
        tap_in(driver, form.find_element(By.CSS_SELECTOR, "button.send"))
        return True

    goes = play(phones, [*COMMON[:2], ("Roll off", roll_off_faces), *COMMON[2:]], attack)
    assert {"A", "B"} <= set(goes) and shot
    until(phones["B"], lambda d: d.find_element(By.CSS_SELECTOR, '#units [data-unit="boyz-1"] .models').text,
          "Boyz 1 destroyed on Bob's page", "0 / 10")
    ended(phones, "Alice wins", "Decided on points of enemy units destroyed (MSN.END.1)")
    assert phones["B"].find_element(By.ID, "result-score").text == "Alice 85 – 0 Bob"
    assert time.monotonic() - started < SECONDS
