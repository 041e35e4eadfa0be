"""The table app in real browsers: headless Debian Chromium through chromedriver against a real uvicorn.
Two phones (seat A and seat B, each its own browser and storage) play the seed's Scouts/Rhino/Boyz
movement phase by tapping what the state's "actions" offered; one asks to undo a roll, the other approves;
a phone-sized one loses the network, taps, comes back, and its command lands once. Every wait is bounded
(a bound on failure, not a timing check)."""
import json
import random

import httpx
import pytest
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from ops.service import free_port
from tests.browser.test_start_page import choose_ruleset
from tests.conftest import settings_for
from tests.support.browser import WAIT_S, network, waiting
from tests.support.client import GameClient, unit, vehicle
from tests.support.live import serving
from tests.support.shared import corpus
from warlog.api.app import create_app


@pytest.fixture(scope="module")
def base_url(tmp_path_factory):
    with serving(create_app(settings_for(tmp_path_factory.mktemp("table-app"), keepalive_s=1))) as url:
        yield url








def seed_game(http, dice="table") -> GameClient:
    """The seed's movement example (tests/golden/scenarios/movement_scouts_rhino_boyz.json)."""
    game = GameClient(http, dice=dice)
    army_a = [unit(f"scouts-{n}", 5, abilities=("ATSKNF",)) for n in (1, 2, 3)] + [
        vehicle("rhino", capacity=10), unit("tactical", 10, abilities=("ATSKNF",), embarked_in="rhino")]
    army_b = [unit("boyz-1", 20), unit("boyz-2", 20), vehicle("battlewagon", capacity=20, statuses=("immobilised",))]
    assert game.muster("A", army_a).status_code == 200 and game.muster("B", army_b).status_code == 200
    return game


def open_seat(driver, base_url, game, role):
    driver.get(f"{base_url}/play/{game.id}#token={game.tokens[role]}&seat={role}")
    driver.execute_script("window.openedOnce = true")  # gone if the page ever reloads
    until(driver, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-version"), "the first state")


def until(driver, read, what, expected=True):
    try:
        return waiting(driver).until(lambda d: read(d) if expected is True else read(d) == expected)
    except TimeoutException:
        pytest.fail(f"the page never showed {what} within {WAIT_S} s (it showed {read(driver)!r})")


def text(driver, element_id):
    return driver.find_element(By.ID, element_id).get_property("textContent").strip()


def version(driver):
    return int(driver.find_element(By.TAG_NAME, "body").get_attribute("data-version") or 0)


def tap(driver, css, within=None):
    """Tap the first element matching css (in the action card of type `within`, if given), once it is there."""
    scope = f'form.action[data-action="{within}"] ' if within else ""
    found = until(driver, lambda d: d.find_elements(By.CSS_SELECTOR, scope + css), f"something to tap at {scope + css}")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", found[0])  # clear of the sticky moment
    found[0].click()


def send(driver, action, *taps):
    """Tap choices in the action's form, then its send button; wait until the page shows a newer state."""
    before = version(driver)
    for css in taps:  # a selector is tapped; (selector, text) is typed into
        if isinstance(css, tuple):
            scope = f'form.action[data-action="{action}"] '
            until(driver, lambda d, where=scope + css[0]: d.find_elements(By.CSS_SELECTOR, where), css[0])[0].send_keys(css[1])
        else:
            tap(driver, css, within=action)
    tap(driver, f'button.send[data-action="{action}"]', within=action)
    until(driver, lambda d: version(d) > before, f"a newer state after {action}")


def send_choosing(driver, action, value, *also):
    """Choose `value` (a choice button or a select's option) in whichever offered `action` form has it, and send
    that form: the service offers one entry per shape (a `select` per kind of unit)."""
    before = version(driver)
    forms = until(driver, lambda d: [f for f in d.find_elements(By.CSS_SELECTOR, f'#actions form[data-action="{action}"]')
                                     if f.find_elements(By.CSS_SELECTOR, f'[data-value="{value}"]')], f"{action} {value}")
    choice = forms[0].find_element(By.CSS_SELECTOR, f'[data-value="{value}"]')
    if choice.tag_name == "option":
        Select(choice.find_element(By.XPATH, "..")).select_by_value(choice.get_attribute("value"))
    else:
        choice.click()
    for css in also:  # more taps in the same form
        forms[0].find_element(By.CSS_SELECTOR, css).click()
    forms[0].find_element(By.CSS_SELECTOR, "button.send").click()
    until(driver, lambda d: version(d) > before, f"a newer state after {action} {value}")


def offered(driver):  # read in one go: the page may redraw its forms between two WebDriver calls
    return driver.execute_script("return [...document.querySelectorAll('#actions form.action')].map((f) => f.dataset.action)")


def awaits(driver, seat, action):
    until(driver, lambda d: d.execute_script("return document.getElementById('whose-go').textContent"),
          f"{seat} awaited for {action}")
    until(driver, lambda d: action in offered(d), f"{action} offered to seat {seat}")


def test_two_phones_play_the_seed_movement_by_tapping_with_an_undo_asked_and_approved(phones, base_url, http):
    game = seed_game(http)
    a, b = phones["A"], phones["B"]
    for role, driver in phones.items():
        open_seat(driver, base_url, game, role)
    assert offered(a) == ["start_game"]
    send(a, "start_game")
    until(b, lambda d: text(d, "phase"), "the pass-point sub-phase on B",
          "Movement Pass Point Calculation (Movement phase)")  # as the rules name it, never "Movement Pass Points"
    assert text(a, "round") == "Round 1 of 5"

    send(a, "confirm_count")
    awaits(b, "B", "confirm_count")
    send(b, "confirm_count")
    until(a, lambda d: (text(d, "pp-A"), text(d, "pp-B")), "Bob's 3 pass points on A", ("0", "3"))  # AA.PP.3
    # a roll-off in table dice: each seat's D6 in the number field the schema describes (1..6)
    awaits(b, "B", "roll_off")
    send(b, "roll_off", ('input[data-field="A"]', "5"), ('input[data-field="B"]', "3"))
    awaits(a, "A", "choose_order")  # Alice won it (CORE.DICE.3)
    until(a, lambda d: [x.text for x in d.find_elements(By.CSS_SELECTOR, "#roll-faces .die")], "the roll-off's faces",
          ["5", "3"])
    assert text(a, "roll-what").startswith("A roll-off")
    assert "Alice" in text(a, "roll-text")  # the roll-off says who won it, in words
    assert [d.get_attribute("data-outcome") for d in a.find_elements(By.CSS_SELECTOR, "#roll-faces .die")] == \
        ["success", "fail"]

    # Bob asks to undo the roll-off (it rolled dice: AA needs Alice's consent), Alice approves on her phone
    tap(b, '[data-anytime="undo"]')
    until(a, lambda d: d.find_elements(By.CSS_SELECTOR, '#consent [data-consent="approve"]'), "Approve on A")
    assert "Bob asks to undo" in text(a, "consent")
    until(b, lambda d: "Waiting" in text(d, "consent"), "Bob's request waiting")
    tap(a, '#consent [data-consent="approve"]')
    awaits(b, "B", "roll_off")  # back before the roll-off
    until(a, lambda d: d.find_elements(By.CSS_SELECTOR, "#log li.undone"), "the undone roll-off struck through on A")
    assert a.find_element(By.ID, "consent").is_displayed() is False

    send(b, "roll_off", ('input[data-field="A"]', "5"), ('input[data-field="B"]', "3"))
    awaits(a, "A", "choose_order")
    choose = a.find_element(By.CSS_SELECTOR, 'form.action[data-action="choose_order"]')  # in the players' words:
    players = game.state("A")["players"]  # each seat by its player's name, the button by the action's title
    assert [c.text for c in choose.find_elements(By.CSS_SELECTOR, "button.choice")] == [players["A"], players["B"]]
    assert choose.find_element(By.CSS_SELECTOR, "button.send").text == "Choose who goes first"
    send(a, "choose_order", '[data-value="A"]')
    # the seed's goes, each tapped on the phone whose go it is (golden: movement_scouts_rhino_boyz.json)
    awaits(a, "A", "select")
    assert len(a.find_elements(By.CSS_SELECTOR, "#units .unit.eligible")) == 5
    assert "pass" not in offered(a)  # Alice holds no pass point (AA.ACT.2): nothing to tap, nothing refused
    goes = [(a, "select", "scouts-1", ()), (b, "select", "boyz-1", ()),
            (a, "select", "scouts-2", ('[data-field="act"] button[data-value="false"]',)),  # it moves zero
            (b, "pass", None, ()), (a, "select", "rhino", ()), (b, "select", "boyz-2", ()),
            (a, "select", "tactical", ()), (a, "select", "scouts-3", ())]
    purpose = b.find_element(By.CSS_SELECTOR, 'form.free-roll input[data-field="purpose"]')
    purpose.send_keys("half typed")  # Bob starts a free roll; Alice's goes must not wipe it
    for phone, action, choice, extra in goes:
        awaits(phone, "", action)
        if phone is b and action == "select":  # the immobile Battlewagon is never offered (AA.ACT.2)
            assert not b.find_elements(By.CSS_SELECTOR, '#actions [data-value="battlewagon"]')
        if choice:
            send_choosing(phone, action, choice, *extra)
        else:
            send(phone, action)
    until(b, lambda d: text(d, "phase"), "the shooting pass points on B",
          "Shooting Pass Point Calculation (Shooting phase)")
    assert b.find_element(By.CSS_SELECTOR, 'form.free-roll input[data-field="purpose"]').get_property("value") == \
        "half typed"
    played = [(e["type"], e["by"], e["data"].get("unit")) for e in game.events()
              if e["type"] in ("UnitSelected", "PassPointSpent") and not e["undone"]]
    assert [(kind, by) for kind, by, _ in played] == [("UnitSelected", s) for s in "ABA"] + [("PassPointSpent", "B")] + [
        ("UnitSelected", s) for s in "ABAA"]

    # the log in words with rule IDs; a tap opens the audit with the rule's text
    spent = next(e["seq"] for e in game.events() if e["type"] == "PassPointSpent")
    tap(a, f'#log li[data-seq="{spent}"]')
    until(a, lambda d: "AA.ACT.2" in text(d, "audit-body"), "the audit of the pass")
    assert "pass" in text(a, "audit-body").lower()
    tap(a, "#audit-close")
    assert all(d.execute_script("return window.openedOnce === true") for d in phones.values()), "a page reloaded"
    for driver in phones.values():  # no horizontal scrolling, on the phone or the tablet
        assert driver.execute_script("return document.documentElement.scrollWidth <= innerWidth")


def test_a_command_tapped_offline_is_kept_and_lands_once_when_the_network_returns(phones, base_url, http):
    game = seed_game(http, dice="server")
    game.cmd("A", "start_game")
    phone = phones["A"]
    open_seat(phone, base_url, game, "A")
    overlay = phones["B"]
    overlay.get(f"{base_url}/games/{game.id}/overlay.html?token={game.tokens['spectator']}")
    until(overlay, lambda d: text(d, "whose-go"), "the overlay", "The game waits for both players to confirm the count.")
    before = len(game.events())

    network(phone, online=False)
    try:
        tap(phone, 'button.send[data-action="confirm_count"]', within="confirm_count")
        until(phone, lambda d: "offline" in text(d, "connection"), "the command kept while offline")
        queued = phone.execute_script("return Object.entries(localStorage).filter(([k]) => k.startsWith('warlog:queue'))"
                                      ".map(([, v]) => JSON.parse(v)).flat()")
        assert [item["body"]["type"] for item in queued] == ["confirm_count"] and queued[0]["key"].startswith("tap-")
        assert len(game.events()) == before  # nothing reached the service
        game.cmd("B", "free_roll", spec="3D6", purpose="while-a-was-away")  # the feed must catch this up
    finally:
        network(phone, online=True)
    until(phone, lambda d: text(d, "whose-go"), "Bob awaited once Alice's count landed",
          "The game waits for Bob to confirm the count.")  # the service's sentence, never "Bob's go · confirm count"
    confirmed = [e for e in game.events() if e["type"] == "CountConfirmed"]
    assert [(e["by"], e["rule"]) for e in confirmed] == [("A", "AA.PP.1")]  # landed exactly once
    assert phone.execute_script("return Object.entries(localStorage).filter(([k]) => k.startsWith('warlog:queue'))"
                                ".every(([, v]) => JSON.parse(v).length === 0)")
    # what happened while offline is in the log, without a reload (the page re-opens its feed after the last
    # seq it saw when the network is back; test_the_feed_reopens_... cuts the stream itself)
    until(phone, lambda d: "while-a-was-away" in text(d, "log"), "Bob's roll from while A was offline")
    assert phone.execute_script("return window.openedOnce === true"), "the page reloaded"
    # the overlay followed the tapped command without a reload
    until(overlay, lambda d: text(d, "whose-go"), "the overlay after the tap", "The game waits for Bob to confirm the count.")


def test_the_feed_reopens_after_the_last_seq_it_saw_when_the_service_comes_back(phones, tmp_path_factory):
    where = tmp_path_factory.mktemp("restarted")
    port = free_port()
    phone = phones["A"]
    with serving(create_app(settings_for(where, keepalive_s=1)), port) as url, httpx.Client(base_url=url) as http:
        game = seed_game(http, dice="server")
        game.cmd("A", "start_game")
        open_seat(phone, url, game, "A")
        until(phone, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-connection"), "live", "live")
    # the service has stopped: the stream is cut, and the page keeps trying
    until(phone, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-connection"), "the feed lost", "lost")
    with serving(create_app(settings_for(where, keepalive_s=1)), port) as url, httpx.Client(base_url=url) as http:
        game.http = http
        game.cmd("B", "free_roll", spec="3D6", purpose="while-the-stream-was-down")
        until(phone, lambda d: "while-the-stream-was-down" in text(d, "log"), "the roll made while the stream was down")
        until(phone, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-connection"), "live again", "live")
        seqs = [int(li.get_attribute("data-seq")) for li in phone.find_elements(By.CSS_SELECTOR, "#log li")]
        assert seqs == [e["seq"] for e in reversed(game.events())]  # each event once: none missed, none twice
        assert phone.execute_script("return window.openedOnce === true"), "the page reloaded"


def test_a_phone_that_saw_the_game_catches_a_restore_from_an_older_backup(phones, tmp_path_factory):
    """The phone keeps the newest head it saw and sends it (Known-Head): a store restored from an older copy,
    its events and head record agreeing with each other, is damaged once that phone asks (SVC.DAMAGED)."""
    from ops.tamper.store import SqliteStore

    where = tmp_path_factory.mktemp("restored")
    port = free_port()
    phone = phones["B"]
    with serving(create_app(settings_for(where, keepalive_s=1)), port) as url, httpx.Client(base_url=url) as http:
        game = seed_game(http, dice="server")
        game.cmd("A", "start_game")
        for n in range(3):
            game.cmd("A", "free_roll", spec="D6", purpose=f"before the backup {n}")
        open_seat(phone, url, game, "B")
        head = game.events()[-1]
        until(phone, lambda d: d.execute_script(f"return localStorage.getItem('warlog:head:{game.id}')"),
              "the head the phone keeps", f"{head['seq']}:{head['hash']}")
    store = SqliteStore(str(where / "warlog.db"))
    versions = store.versions(game.id)
    store.delete(game.id, versions[-2:])
    older = store.read(game.id, versions[-3])["entry"]
    store.set_head(game.id, older["seq"], older["hash"])
    with serving(create_app(settings_for(where, keepalive_s=1)), port) as url, httpx.Client(base_url=url) as http:
        game.http = http
        phone.refresh()  # the phone reads the game again, sending the head it saw

        def refused(_driver):
            answer = http.get(f"/games/{game.id}/state", headers=game.headers("A"))  # seat A sends no head
            return answer.status_code == 409 and answer.json()["damage"]

        until(phone, refused, "the game refused as truncated", "truncated")
        assert game.verify()["first_bad_seq"] == versions[-2]


def test_a_command_queued_on_a_stale_phone_is_refused_in_words_with_its_rule(phones, base_url, http):
    game = seed_game(http, dice="server")
    game.cmd("A", "start_game")
    phone = phones["A"]
    open_seat(phone, base_url, game, "A")
    network(phone, online=False)
    try:
        tap(phone, 'button.send[data-action="confirm_count"]', within="confirm_count")
        until(phone, lambda d: "offline" in text(d, "connection"), "the command kept while offline")
        game.cmd("A", "confirm_count")  # Alice confirmed from another device meanwhile
    finally:
        network(phone, online=True)
    # at the form that sent it while that form is still offered, else at the top of the page
    shown = until(phone, lambda d: d.execute_script("return [...document.querySelectorAll('#problem, .form-problem')]"
                                                    ".filter((e) => e.checkVisibility()).map((e) => e.innerText)"), "the refusal")
    assert "already confirmed" in shown[0] and "(AA.PP.1)" in shown[0]
    assert [e["by"] for e in game.events() if e["type"] == "CountConfirmed"] == ["A"]


def test_the_spectator_sees_the_game_and_no_action(phones, base_url, http):
    game = seed_game(http, dice="server")
    game.cmd("A", "start_game")
    driver = phones["B"]
    open_seat(driver, base_url, game, "spectator")
    until(driver, lambda d: text(d, "phase"), "the sub-phase", "Movement Pass Point Calculation (Movement phase)")
    assert text(driver, "whose-go") == "The game waits for both players to confirm the count."  # names, never "you"
    assert driver.find_element(By.ID, "actions-card").is_displayed() is False
    assert driver.find_element(By.ID, "anytime-card").is_displayed() is False
    assert driver.find_elements(By.CSS_SELECTOR, "button.send, [data-anytime]") == []
    assert len(driver.find_elements(By.CSS_SELECTOR, "#units .unit")) == 8


def test_the_start_page_creates_a_game_from_a_demo_army_and_a_pasted_one_and_hands_out_links_to_the_table(phones, base_url):
    driver = phones["B"]
    driver.get(f"{base_url}/")
    driver.find_element(By.ID, "name-A").clear()
    driver.find_element(By.ID, "name-A").send_keys("Ann")
    Select(driver.find_element(By.ID, "dice")).select_by_value("table")
    pasted = driver.find_element(By.CSS_SELECTOR, '[data-seat="B"] .army-json')
    Select(driver.find_element(By.CSS_SELECTOR, '[data-seat="B"] .army-source')).select_by_value("json")
    pasted.send_keys(json.dumps({"units": [unit("grots-1", 12)]}))  # seat B's army pasted as Unit JSON
    driver.find_element(By.ID, "create").click()
    until(driver, lambda d: d.execute_script("return [...document.querySelectorAll('img.qr')]"
                                             ".filter(i => i.complete && i.naturalWidth > 100).length"), "two QR codes", 2)
    links = {li.get_attribute("data-seat"): li.find_element(By.TAG_NAME, "a").get_attribute("href")
             for li in driver.find_elements(By.CSS_SELECTOR, "#link-list li")}
    game_id = driver.find_element(By.ID, "links").get_attribute("data-game-id")
    assert links["A"].startswith(f"{base_url}/play/{game_id}#token=") and links["A"].endswith("&seat=A")
    assert links["spectator"].startswith(f"{base_url}/games/{game_id}/overlay.html?token=")
    driver.get(links["A"])
    until(driver, lambda d: offered(d), "start_game offered to Ann", ["start_game"])
    assert text(driver, "name-A") == "Ann"
    units = [card.get_attribute("data-unit") for card in driver.find_elements(By.CSS_SELECTOR, "#units .unit")]
    assert units == ["scouts-1", "scouts-2", "scouts-3", "rhino-1", "tactical-1", "grots-1"]  # demo A, pasted B


FORM_SCHEMA = {  # every keyword of the contract's subset a form has to draw, in one command
    "type": "object", "additionalProperties": False, "required": ["type", "unit", "dice"],
    "properties": {
        "type": {"const": "try_everything"},
        "unit": {"oneOf": [{"const": f"u-{n}", "title": f"Squad {n} ({n} of 5)"} for n in range(1, 6)],
                 "format": "unit", "title": "Unit to shoot"},  # a choice with titles: the title read, the const sent
        "mode": {"enum": ["fast", "slow"]},
        "act": {"type": "boolean"},
        "distance": {"type": "number", "minimum": 0, "maximum": 12},
        "keywords": {"type": "array", "uniqueItems": True, "items": {"enum": ["A", "B", "C"]}},
        "first": {"oneOf": [{"const": "A", "title": "Ann"}, {"const": "B", "title": "Bob"}], "format": "seat",
                  "title": "Who goes first"},
        "dice": {"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": 6}, "minItems": 2,
                 "maxItems": 2},
        "exclude": {"type": "object", "additionalProperties": False,
                    "properties": {"u-1": {"type": "string", "minLength": 1}, "u-2": {"type": "string", "minLength": 1}}},
    }}


def test_a_form_drawn_from_a_schema_sends_what_was_chosen_and_leaves_untouched_optional_fields_out(phones, base_url):
    driver = phones["A"]
    driver.get(f"{base_url}/play/no-game")  # any page of the app serves its modules
    assert driver.execute_async_script("""const done = arguments[arguments.length - 1];
        import('/app/form.js').then((forms) => {
          const form = forms.commandForm(JSON.parse(arguments[0])); window.formUnderTest = form;
          document.querySelector('main').prepend(form.el); done(true); });""",
        json.dumps(FORM_SCHEMA))  # as text: WebDriver would sort the keys, and a form keeps the schema's order
    read = lambda: driver.execute_script("return window.formUnderTest.read()")
    def css(selector):  # in the middle of the screen, clear of the sticky moment at the top
        found = driver.find_element(By.CSS_SELECTOR, selector)
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", found)
        return found

    assert read() == {"present": False, "missing": "unit"}
    assert css('select[data-field="unit"]').tag_name == "select"  # five choices: a select; two: buttons
    assert css('div.field[data-field="unit"] .field-label').text == "Unit to shoot"  # labelled by its title
    assert css('select[data-field="unit"]').get_attribute("data-format") == "unit"
    Select(css('select[data-field="unit"]')).select_by_visible_text("Squad 3 (3 of 5)")  # read by its title...
    for face in ("4", "2", "6"):  # the pad takes maxItems faces, no more
        css(f'[data-field="dice"] [data-face="{face}"]').click()
    assert read() == {"present": True, "value": {"type": "try_everything", "unit": "u-3", "dice": [4, 2]}}  # ...sent by id
    seats = [b.get_attribute("textContent") for b in driver.find_elements(
        By.CSS_SELECTOR, 'div.optional[data-field="first"] button.choice')]
    assert seats == ["Ann", "Bob"]  # two: buttons, each a player's name, not a seat letter

    for name in ("mode", "distance", "keywords", "exclude"):
        css(f'div.optional[data-field="{name}"] > label input.use').click()
    css('[data-field="mode"] button[data-value="slow"]').click()
    css('[data-field="act"] button[data-value="true"]').click()  # an optional yes/no: chosen, or not sent
    distance = css('input[data-field="distance"]')
    assert (distance.get_attribute("step"), distance.get_attribute("min"), distance.get_attribute("max")) == ("any", "0", "12")
    distance.send_keys("7.5")
    for keyword in ("B", "C"):
        css(f'[data-field="keywords"] input[value="{keyword}"]').click()
    css('fieldset[data-field="exclude"] div.optional[data-field="u-2"] input.use').click()
    css('fieldset[data-field="exclude"] input[data-field="u-2"]').send_keys("behind the wall")
    assert read()["value"] == {"type": "try_everything", "unit": "u-3", "dice": [4, 2], "mode": "slow", "act": True,
                               "distance": 7.5, "keywords": ["B", "C"], "exclude": {"u-2": "behind the wall"}}
    css('div.optional[data-field="mode"] > label input.use').click()  # switched off again: not sent
    assert "mode" not in read()["value"]
    css('[data-field="act"] button[data-value="true"]').click()  # tapped again: cleared, not sent as false
    assert "act" not in read()["value"]


PLAIN_FILL = """  // what a player does who takes the first choice everywhere and leaves every optional field alone
const [forms, schemas] = [arguments[0], JSON.parse(arguments[1])];
return schemas.map((schema) => {
  const form = forms.commandForm(schema), root = form.el;
  document.body.append(root);
  const skip = (node) => node.closest(".optional, .optional-choice");
  root.querySelectorAll(".choices").forEach((g) => { if (!skip(g) && !g.querySelector("[aria-checked=true]")) g.querySelector("button").click(); });
  root.querySelectorAll("select").forEach((s) => { if (!skip(s) && s.value === "") s.selectedIndex = 1; });
  root.querySelectorAll(".dice-pad").forEach((p) => { if (skip(p)) return;
    for (let i = 0; i < Number(p.dataset.minItems); i += 1) p.querySelector("button.face").click(); });
  root.querySelectorAll(".checks").forEach((c) => { if (skip(c)) return;
    [...c.querySelectorAll("input")].slice(0, Number(c.dataset.minItems)).forEach((box) => box.click()); });
  root.querySelectorAll("input[type=number]").forEach((i) => { if (!skip(i)) i.value = i.min || "0"; });
  root.querySelectorAll("input[type=text]").forEach((i) => { if (!skip(i)) i.value = "x".repeat(Math.max(1, i.minLength)); });
  const got = form.read();
  root.remove();
  return got;
});"""


@pytest.mark.parametrize("ruleset,moments,reached", [
    ("alternating", 32, {"confirm_count", "roll_off", "select", "pass", "roll"}),  # `roll`: table dice on the pad
    ("reference", 10, {"select", "end_phase"}), ("heresy", 12, {"roll_off", "select", "move"})])
def test_every_form_the_app_draws_from_a_real_game_gives_an_instance_of_its_schema(phones, base_url, http, ruleset,
                                                                                    moments, reached):
    """The forms against every schema the service offers over a game's first moments, in every ruleset:
    filled the plainest way, each gives a command the schema admits (so the service accepts it: "sound")."""
    from tests.support.instances import instance
    from warlog.domain.rules.actions import admits

    rng = random.Random(ruleset)

    driver = phones["A"]
    driver.get(f"{base_url}/play/no-game")
    driver.execute_async_script("const done = arguments[arguments.length - 1];"
                                "import('/app/form.js').then((forms) => { window.forms = forms; done(true); });")
    game = GameClient(http, ruleset, "table")
    game.start([unit("a-1"), unit("a-2"), unit("a-3", 10)], [unit("b-1"), unit("b-2", 10)])
    checked = set()
    for _ in range(moments):
        for seat in "AB":
            schemas = [action["schema"] for action in game.state(seat)["actions"]]
            filled = driver.execute_script(f"return (() => {{ {PLAIN_FILL} }})()" .replace("arguments[0]", "window.forms")
                                           .replace("arguments[1]", "arguments[0]"), json.dumps(schemas))
            for schema, got in zip(schemas, filled):
                assert got["present"] and admits(schema, got["value"]), (schema, got)
                checked.add(schema["properties"]["type"]["const"])
        state = game.state()
        if state["status"] == "ended":
            break
        seat = state["awaiting"]["seat"] or rng.choice("AB")  # on to the next moment: a random offered instance
        offered = [a for a in game.state(seat)["actions"] if a["type"] == state["awaiting"]["action"]]
        if offered:
            sent = game.send(seat, instance(rng.choice(offered)["schema"], rng))
            assert sent.status_code in (200, 202), sent.text
    assert reached <= checked, checked




def test_the_start_page_takes_a_roster_file_per_seat_previews_it_and_musters_it(phones, base_url):
    driver = phones["B"]
    driver.get(f"{base_url}/")
    choose_ruleset(driver, "reference")
    for seat, name in (("A", "40k10e_leagues-of-votann.rosz"), ("B", "40k10e_necrons.rosz")):
        Select(driver.find_element(By.CSS_SELECTOR, f'[data-seat="{seat}"] .army-source')).select_by_value("roster")
        driver.find_element(By.CSS_SELECTOR, f'[data-seat="{seat}"] .army-file').send_keys(str(corpus() / name))
    converted = httpx.post(f"{base_url}/rosters/convert?ruleset=reference",
                           content=(corpus() / "40k10e_necrons.rosz").read_bytes()).json()
    preview = '[data-seat="B"] .army-preview'
    until(driver, lambda d: d.find_element(By.CSS_SELECTOR, preview).text.startswith(f"{len(converted['units'])} units"),
          "seat B's roster previewed")
    assert converted["units"][0]["name"] in driver.find_element(By.CSS_SELECTOR, preview).text
    driver.find_element(By.ID, "create").click()
    until(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#link-list li")) >= 2, "the seats' links")
    link_b = driver.find_element(By.CSS_SELECTOR, '#link-list li[data-seat="B"] a').get_attribute("href")
    driver.get(link_b)
    until(driver, lambda d: "start_game" in offered(d), "start_game offered")
    cards = {card.get_attribute("data-unit") for card in driver.find_elements(By.CSS_SELECTOR, "#units .unit")}
    assert {u["id"] for u in converted["units"]} <= cards  # seat B's roster units are on the table


def test_a_broken_roster_file_is_named_on_the_start_page_before_any_game_is_made(phones, base_url, tmp_path):
    driver = phones["B"]
    driver.get(f"{base_url}/")
    broken = tmp_path / "broken.rosz"
    broken.write_bytes(b"PK\x03\x04 not really a zip")
    Select(driver.find_element(By.CSS_SELECTOR, '[data-seat="A"] .army-source')).select_by_value("roster")
    driver.find_element(By.CSS_SELECTOR, '[data-seat="A"] .army-file').send_keys(str(broken))
    until(driver, lambda d: "[/rosz]" in d.find_element(By.CSS_SELECTOR, '[data-seat="A"] .army-preview').text,
          "the refusal naming where the file is broken")


def test_casualties_resolved_at_the_table_are_recorded_from_the_phone(phones, base_url, http):
    game = GameClient(http, "alternating", "table")
    game.start([unit("scouts-1")], [unit("boyz-1", 10)])
    phone = phones["A"]
    open_seat(phone, base_url, game, "A")
    phone.execute_script("document.getElementById('records-card').open = true")
    form = until(phone, lambda d: [f for f in d.find_elements(By.CSS_SELECTOR, '#records form[data-action="record_casualties"]')
                                   if f.find_elements(By.CSS_SELECTOR, 'input[data-field="models"]')], "the casualties form")[0]
    choice = form.find_element(By.CSS_SELECTOR, '[data-value="boyz-1"]')
    if choice.tag_name == "option":
        Select(choice.find_element(By.XPATH, "..")).select_by_value(choice.get_attribute("value"))
    else:
        choice.click()
    form.find_element(By.CSS_SELECTOR, 'input[data-field="models"]').send_keys("3")
    before = version(phone)
    phone.execute_script("arguments[0].scrollIntoView({block: 'center'})", form)
    form.find_element(By.CSS_SELECTOR, "button.send").click()
    until(phone, lambda d: version(d) > before, "a newer state after recording casualties")
    recorded = [e for e in game.events() if e["type"] == "CasualtiesRecorded"]
    assert [(e["by"], e["data"]["unit"], e["data"]["models"]) for e in recorded] == [("A", "boyz-1", 3)]
    assert game.state()["units"]["boyz-1"]["models_alive"] == 7
