"""The table app as players read it (issue 26), in real Chromium against a real uvicorn: a tap's answer shown from
its `view` with no read after it, the last roll as coloured dice with a re-roll chosen by tapping a die, the
header with whose go and the clock, an undo asked, withdrawn, answered in words, the result screen with its
charts, and no id, "null" or "undefined" on a page mid-game in any ruleset. Every wait is bounded."""
import random
import re

import pytest
from selenium.webdriver.common.by import By

from tests.browser.test_table_app import (
    open_seat,
    seed_game,
    send,
    tap,
    text,
    until,
    version,
)
from tests.conftest import settings_for
from tests.e2e.test_reference_rules import until as until_phase
from tests.support.client import GameClient, unit
from tests.support.live import serving
from tests.unit.test_reference_choices import TWO_LINES
from warlog.api.app import create_app


@pytest.fixture(scope="module")
def base_url(tmp_path_factory):
    with serving(create_app(settings_for(tmp_path_factory.mktemp("table-app-players"), keepalive_s=1))) as url:
        yield url





STATE_READS = ("return performance.getEntriesByType('resource')"
               ".filter((e) => new URL(e.name).pathname.endsWith('/state')).length")


def state_reads(driver) -> int:
    return driver.execute_script(STATE_READS)


def watch_reads(driver) -> None:
    driver.execute_script("performance.setResourceTimingBufferSize(100000)")


def test_a_phone_shows_its_own_tap_from_the_answer_and_reads_the_state_only_for_the_other_phones_moves(
        phones, base_url, http):
    game = seed_game(http)
    a, b = phones["A"], phones["B"]
    for role, driver in phones.items():
        open_seat(driver, base_url, game, role)
        watch_reads(driver)
    reads_a, reads_b = state_reads(a), state_reads(b)
    send(a, "start_game")  # waits until A's page shows a newer state
    assert version(a) == game.state("A")["version"]
    until(b, lambda d: text(d, "phase"), "the pass-point sub-phase on B", "Movement Pass Point Calculation (Movement phase)")
    send(a, "confirm_count")
    until(b, lambda d: version(d), "A's count on B", game.state("B")["version"])
    assert text(a, "whose-go") == "The game waits for Bob to confirm the count."  # from the answer's view
    assert state_reads(a) == reads_a, "A's page read /state after its own taps"
    assert state_reads(b) > reads_b  # B follows A's moves from the stream, reading its state then
    reads_a = state_reads(a)
    send(b, "confirm_count")  # now the other way round
    until(a, lambda d: version(d), "B's count on A", game.state("A")["version"])
    assert state_reads(a) > reads_a


def reference_shooting(http, select: bool = True, army_a=None) -> GameClient:
    """A reference game (server dice) at Alice's shooting phase, her Shooters selected to shoot the Squad."""
    game = GameClient(http, "reference", "server", {"battle_rounds": 1})
    game.start(army_a or [unit("shooters", 10), unit("snipers", 3)], [unit("squad", 6, models=TWO_LINES)])
    while (state := game.state())["phase"] != "shooting" or state["active_seat"] != "A":
        awaiting = state["awaiting"]
        body = {"roll_off": {}, "choose_order": {"first": "A"}}.get(awaiting["action"])
        game.cmd(awaiting["seat"] or "A", awaiting["action"] if body is not None else "end_phase", **(body or {}))
    if select:
        game.cmd("A", "select", unit="shooters", shooting="normal")
    return game


def test_a_unit_is_chosen_from_cards_with_its_title_and_statline(phones, base_url, http):
    game = reference_shooting(http, select=False)
    phone = phones["A"]
    open_seat(phone, base_url, game, "A")
    offer = next(a for a in game.state("A")["actions"] if a["type"] == "start_action")
    titles = {c["const"]: c["title"] for c in offer["schema"]["properties"]["unit"]["oneOf"]}
    cards = until(phone, lambda d: d.execute_script(
        "return [...document.querySelectorAll('#actions form[data-action=\"start_action\"] [data-field=\"unit\"] .unit-card')]"
        ".map((c) => [c.dataset.value, c.querySelector('.card-title').innerText, c.querySelector('.card-stats').innerText])"),
        "the units as cards")
    assert {value: title for value, title, _ in cards} == titles == {"shooters": "Shooters (10 of 10)",
                                                                    "snipers": "Snipers (3 of 3)"}
    assert all(stats == "M 6 · T 4 · Sv 4 · W 1 · Ld 7 · OC 1" for _, _, stats in cards)
    assert not phone.find_elements(By.CSS_SELECTOR, '#actions select[data-field="unit"]')
    # one select form a unit, each saying which unit it selects, by name
    shown = phone.execute_script("return [...document.querySelectorAll('#actions form[data-action=\"select\"]')]"
                                 ".map((f) => f.querySelector('.unit-card.fixed .card-title').innerText)")
    assert shown == ["Shooters (10 of 10)", "Snipers (3 of 3)"]
    form = phone.find_elements(By.CSS_SELECTOR, '#actions form[data-action="select"]')[1]
    before = version(phone)
    phone.execute_script("arguments[0].scrollIntoView({block: 'center'})", form)
    form.find_element(By.CSS_SELECTOR, "button.send").click()
    until(phone, lambda d: version(d) > before, "Snipers selected")
    assert [e["data"]["unit"] for e in game.events() if e["type"] == "UnitSelected"][-1] == "snipers"


PLASMA = {"name": "Plasma gun", "type": "ranged", "range": 24, "A": "1", "skill": 3, "S": 7, "AP": -2, "D": "1",
          "kind": "rapid_fire", "keywords": ["RAPID FIRE 1", "HAZARDOUS"]}


def test_a_weapon_is_chosen_from_cards_with_its_profile_as_the_units_datasheet_gives_it(phones, base_url, http):
    shooters = unit("shooters", 10)
    shooters["weapons"].insert(1, PLASMA)
    game = reference_shooting(http, army_a=[shooters])
    phone = phones["A"]
    open_seat(phone, base_url, game, "A")
    sheet = {w["name"]: w for w in game.state("A")["units"]["shooters"]["weapons"] if w["type"] == "ranged"}
    form = '#actions form[data-action="attack"]'
    cards = until(phone, lambda d: d.execute_script(
        f"return [...document.querySelectorAll('{form} [data-field=\"weapon\"] .weapon-card')].map((c) => ["
        "c.dataset.value, c.querySelector('.card-title').innerText,"
        "[...c.querySelectorAll('.stat')].map((s) => [s.querySelector('.stat-key').innerText, s.querySelector('.stat-value').innerText]),"
        "c.querySelector('.card-keywords')?.innerText])"), "the weapons as cards")
    assert [name for name, *_ in cards] == ["Boltgun", "Plasma gun"]
    for value, name, stats, keywords in cards:  # laid out as the state's datasheet gives it, nothing worked out
        assert name == value and dict(stats) == sheet[name]["profile"]
        assert [key for key, _ in stats] == list(sheet[name]["profile"])  # in datasheet order
        assert keywords == ", ".join(sheet[name]["keywords"])
    assert dict(cards[1][2]) == {"Range": '24"', "A": "1", "BS": "3+", "S": "7", "AP": "-2", "D": "1"}
    assert not phone.find_elements(By.CSS_SELECTOR, f'{form} select[data-field="weapon"]')
    send(phone, "attack", '[data-field="weapon"] .weapon-card[data-value="Plasma gun"]',
         '[data-field="target"] .unit-card[data-value="squad"]')
    declared = [e for e in game.events() if e["type"] == "AttackDeclared"]
    assert [e["data"]["weapon"] for e in declared] == ["Plasma gun"]


def shown_dice(driver, css="#roll-faces .die"):
    return [(d.get_attribute("data-face"), d.get_attribute("data-outcome")) for d in driver.find_elements(By.CSS_SELECTOR, css)]


def test_the_last_roll_is_drawn_as_coloured_dice_and_a_re_roll_is_chosen_by_tapping_the_die(phones, base_url, http):
    game = reference_shooting(http)
    game.cmd("A", "attack", unit="shooters", weapon="Boltgun", target="squad")  # 20 hit dice at 3+: some miss
    rolled = game.state("A")["last_roll"]
    phone = phones["A"]
    open_seat(phone, base_url, game, "A")
    expected = [(str(face), outcome) for face, outcome in zip(rolled["faces"], rolled["outcomes"])]
    until(phone, shown_dice, "the hit roll face by face, coloured by its outcomes", expected)
    figures = [(f.find_element(By.CLASS_NAME, "big").text, f.find_element(By.CLASS_NAME, "small").text.lower())
               for f in phone.find_elements(By.CSS_SELECTOR, "#roll-figures .figure")]
    assert figures == [("3+", "needed"), (str(rolled["successes"]), "successes")]  # in large type
    assert float(phone.find_element(By.CSS_SELECTOR, "#roll-figures .big").value_of_css_property("font-size")
                 .removesuffix("px")) >= 36
    assert text(phone, "roll-text") == rolled["text"]
    assert text(phone, "roll-what") == "Hit rolls · Shooters · Alice"  # names, never ids; the rules' words
    colours = {d.get_attribute("data-outcome"): d.value_of_css_property("background-color")
               for d in phone.find_elements(By.CSS_SELECTOR, "#roll-faces .die")}
    assert colours["success"] != colours["fail"]

    # the Command Re-roll: the roll's dice to tap, the failed ones tappable, no dropdown, no index
    form = '#actions form[data-action="command_reroll"]'
    assert not phone.find_elements(By.CSS_SELECTOR, f"{form} select")
    tappable = phone.find_elements(By.CSS_SELECTOR, f'{form} [data-field="die"] button.die')
    offered = {x["const"] for x in next(a for a in game.state("A")["actions"] if a["type"] == "command_reroll")
               ["schema"]["properties"]["die"]["oneOf"]}
    assert {int(b.get_attribute("data-value")) for b in tappable} == offered
    assert all(b.get_attribute("data-outcome") == "fail" for b in tappable)
    assert len(phone.find_elements(By.CSS_SELECTOR, f'{form} [data-field="die"] .die')) == len(rolled["faces"])
    die = tappable[-1]
    chosen = int(die.get_attribute("data-value"))
    assert die.text == str(rolled["faces"][chosen])
    send(phone, "command_reroll", f'[data-field="die"] button.die[data-value="{chosen}"]')
    used = [e for e in game.events() if e["type"] == "StratagemUsed"]
    assert [e["data"]["roll"]["die"] for e in used] == [chosen]


def test_the_header_says_whose_go_in_every_phase_with_the_clock_of_the_awaited_seat_lit_and_ticking(
        phones, base_url, http):
    game = GameClient(http, "reference", "server", {"battle_rounds": 1, "clock_minutes": 30})
    game.start([unit("shooters", 10)], [unit("squad", 6)])
    phone = phones["B"]
    open_seat(phone, base_url, game, "B")
    phases = set()
    for _ in range(40):
        state = game.state("B")
        until(phone, lambda d: version(d), f"version {state['version']}", state["version"])
        if state["status"] == "ended":
            break
        seat, action = state["awaiting"]["seat"], state["awaiting"]["action"]
        go = text(phone, "whose-go")  # the service's sentence to Bob and its title of the phase, never "End Phase"
        assert go == state["awaiting"]["text"] and (seat == "B") == go.startswith("The game waits for you to "), go
        assert text(phone, "phase") == state["phase_title"] and state["phase_title"].endswith("phase")
        if seat:
            assert phone.find_element(By.ID, f"clock-{seat}").get_attribute("class").split() == \
                ["clock", "running"]
        assert text(phone, "cp-A") == str(state["cp"]["A"]) and text(phone, "vp-B") == str(state["vp"]["B"])
        phases.add(state["phase"])
        body = {"roll_off": {}, "choose_order": {"first": "A"}}.get(action)
        game.cmd(seat or "A", action if body is not None else "end_phase", **(body or {}))
    assert {"command", "movement", "shooting", "charge", "fight"} <= phases
    # the clock of a game under way: used and left per seat, ticking on from `since` without a read
    game = GameClient(http, "reference", "server", {"clock_minutes": 30})
    game.start([unit("shooters", 10)], [unit("squad", 6)])
    open_seat(phone, base_url, game, "B")
    until(phone, lambda d: d.find_element(By.ID, "clock-A").is_displayed(), "the clock")
    first = text(phone, "clock-A")
    assert first.endswith("left") and "used" in first
    until(phone, lambda d: text(d, "clock-A") != first, "the clock ticking")
    assert version(phone) == game.state("B")["version"]


def test_an_undo_asked_shows_waiting_and_withdraw_to_the_asker_and_what_it_undoes_in_words_to_the_other(
        phones, base_url, http):
    game = seed_game(http)
    a, b = phones["A"], phones["B"]
    for role, driver in phones.items():
        open_seat(driver, base_url, game, role)
    game.cmd("A", "start_game")
    game.cmd("A", "confirm_count")
    game.cmd("B", "confirm_count")
    game.cmd("B", "roll_off", dice={"A": 5, "B": 3})
    roll_off = [e for e in game.events() if e["type"] == "RollOff"][-1]
    until(b, lambda d: version(d), "the roll-off on B", game.state("B")["version"])
    tap(b, '[data-anytime="undo"]')
    until(b, lambda d: "Waiting for Alice" in text(d, "consent"), "Bob waiting for Alice")
    assert b.find_elements(By.CSS_SELECTOR, '#consent [data-consent="withdraw"]')
    assert not b.find_elements(By.CSS_SELECTOR, '#consent [data-consent="approve"]')
    until(a, lambda d: d.find_elements(By.CSS_SELECTOR, '#consent [data-consent="approve"]'), "Approve on A")
    assert "Bob asks to undo" in text(a, "consent") and roll_off["text"] in text(a, "consent")
    assert a.find_element(By.CSS_SELECTOR, '#consent [data-consent="reject"]').is_displayed()
    assert text(a, "whose-go") == "Alice to answer the undo"

    tap(b, '#consent [data-consent="withdraw"]')  # Bob thinks better of it
    until(a, lambda d: not d.find_element(By.ID, "consent").is_displayed(), "the request gone on A")
    until(b, lambda d: not d.find_element(By.ID, "consent").is_displayed(), "the request gone on B")
    assert [e["type"] for e in game.events()][-1] == "UndoWithdrawn"

    tap(b, '[data-anytime="undo"]')  # asked again; Alice rejects it
    until(a, lambda d: d.find_element(By.ID, "consent").is_displayed(), "the second request on A")
    tap(a, '#consent [data-consent="reject"]')
    until(b, lambda d: not d.find_element(By.ID, "consent").is_displayed(), "the rejected request gone on B")
    assert not any(e["undone"] for e in game.events() if e["type"] == "RollOff")



def charts_shown(driver):
    return driver.execute_script("return [...document.querySelectorAll('#result-charts figure img')]"
                                 ".filter((i) => i.complete && i.naturalWidth > 100).length")


def play_out(game: GameClient) -> None:
    """Play the game to its end with the plainest moves: each phase ended as it comes."""
    while (state := game.state("A"))["status"] != "ended":
        seat, action = state["awaiting"]["seat"], state["awaiting"]["action"]
        body = {"roll_off": {}, "choose_order": {"first": "A"}}.get(action)
        game.cmd(seat or "A", action if body is not None else "end_phase", **(body or {}))


def test_the_result_screen_says_who_won_how_and_by_which_rule_with_the_summary_as_charts(phones, base_url, http):
    game = GameClient(http, "reference", "server", {"battle_rounds": 1})
    game.start([unit("shooters", 10)], [unit("squad", 6)])
    phone, other = phones["A"], phones["B"]
    open_seat(phone, base_url, game, "A")
    open_seat(other, base_url, game, "B")
    phone.execute_script("window.confirm = () => true")  # the player confirms the concession
    tap(phone, '[data-anytime="concede"]')
    for driver in (phone, other):
        until(driver, lambda d: d.find_element(By.ID, "result").is_displayed(), "the result screen")
        assert text(driver, "result-headline") == "Bob wins"
        assert text(driver, "result-score") == "Alice 0 – 0 Bob"
        assert text(driver, "result-how") == "Decided by concession (MSN.END.3)"
        summary = http.get(f"/games/{game.id}/summary", headers=game.headers("A")).json()
        until(driver, lambda d: text(d, "result-text"), "the summary's sentence", summary["text"])
        until(driver, charts_shown, "three charts drawn", 3)
    captions = [i.get_attribute("alt") for i in phone.find_elements(By.CSS_SELECTOR, "#result-charts img")]
    assert captions == ["Victory points by battle round", "Units and models lost by battle round",
                        "Dice luck (50 is average)"]
    assert text(phone, "whose-go") == "Bob wins"
    tap(phone, "#result-export")
    until(phone, lambda d: text(d, "result-export"), "the export downloaded", "Downloaded the game's log (NDJSON)")

    # a game played to its last round: a draw on VP, said so, with its rule
    game = GameClient(http, "reference", "server", {"battle_rounds": 1})
    game.start([unit("shooters", 10)], [unit("squad", 6)])
    play_out(game)
    result = game.state("A")["result"]
    open_seat(phone, base_url, game, "A")
    until(phone, lambda d: d.find_element(By.ID, "result").is_displayed(), "the result screen")
    assert text(phone, "result-headline") == ("A draw" if result["draw"] else
                                              f"{game.state('A')['players'][result['winner']]} wins")
    how = {"vp": "on victory points", "destroyed": "on points of enemy units destroyed"}[result["by"]]
    assert text(phone, "result-how") == f"Decided {how} ({result['rule']})"
    until(phone, charts_shown, "three charts drawn", 3)


def test_a_chart_is_an_svg_drawn_from_the_summary_for_any_token(http):
    game = GameClient(http, "reference", "server", {"battle_rounds": 1})
    game.start([unit("shooters", 10)], [unit("squad", 6)])
    play_out(game)
    for chart in ("vp", "losses", "luck"):
        for role in ("A", "spectator"):
            answer = http.get(f"/games/{game.id}/charts/{chart}", headers=game.headers(role))
            assert answer.status_code == 200 and answer.headers["content-type"] == "image/svg+xml"
            assert answer.text.lstrip().startswith("<?xml") and "<svg" in answer.text
            assert "Alice" in answer.text and "Bob" in answer.text
            assert not re.search(r"<script[^>]*href", answer.text)  # pygal's tooltips script is never fetched
            if chart != "luck":  # counts on a whole-number axis
                assert not re.search(r">0\.\d<", answer.text)
    assert http.get(f"/games/{game.id}/charts/vp").status_code == 401
    assert http.get(f"/games/{game.id}/charts/pie", headers=game.headers("A")).status_code == 422


VISIBLE_TEXTS = """
const shown = (node) => node.checkVisibility ? node.checkVisibility() : node.offsetParent !== null;
const own = [...document.querySelectorAll('body *')].filter((node) => shown(node) && !node.closest('script'))
  .map((node) => (node.tagName === 'OPTION' ? node.textContent : node.innerText || '').trim()).filter(Boolean);
const options = [...document.querySelectorAll('option')].map((o) => o.textContent.trim());
return {texts: [...own, ...options], page: document.body.innerText};"""


@pytest.mark.parametrize("ruleset,moments", [("alternating", 24), ("reference", 14), ("heresy", 14)])
def test_no_visible_text_is_a_unit_id_null_or_undefined_on_a_page_mid_game(phones, base_url, http, ruleset, moments):
    from tests.support.instances import instance

    rng = random.Random(f"words-{ruleset}")
    game = GameClient(http, ruleset, "server")
    army_a, army_b = [unit("a-squad-1"), unit("a-squad-2", 10)], [unit("b-mob-1", 10), unit("b-mob-2")]
    game.start(army_a, army_b)  # each unit named ("A Squad 1") apart from its id ("a-squad-1")
    for _ in range(moments):
        state = game.state()
        if state["status"] == "ended":
            break
        seat = state["awaiting"]["seat"] or rng.choice("AB")
        offered = [a for a in game.state(seat)["actions"] if a["type"] == state["awaiting"]["action"]]
        if offered:
            assert game.send(seat, instance(rng.choice(offered)["schema"], rng)).status_code in (200, 202)
    state = game.state()
    assert state["status"] == "in_progress" and state["battle_round"] >= 1
    ids = set(state["units"])
    assert all(state["units"][uid]["name"] != uid for uid in ids)
    for role, driver in phones.items():
        open_seat(driver, base_url, game, role)
        until(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#log li")) == len(game.events()), "the log")
        driver.execute_script("document.getElementById('records-card').open = true")
        seen = driver.execute_script(VISIBLE_TEXTS)
        assert not ids & set(seen["texts"]), (role, sorted(ids & set(seen["texts"])))
        for uid in ids:  # nor inside a sentence
            found = re.search(rf"(?<![\w-]){re.escape(uid)}(?![\w-])", seen["page"])
            assert not found, (role, uid, found and seen["page"][max(0, found.start() - 120):found.end() + 60])
        for word in (r"\(from 0\)", r"\bnull\b", r"\bundefined\b", r"\bNaN\b", r"\[object Object\]"):
            assert not re.search(word, seen["page"]), (role, word, seen["page"])
        names = {state["units"][uid]["name"] for uid in ids}
        assert names <= {t for t in seen["texts"]}  # the units by name, on their cards


def test_a_refusal_is_shown_at_the_form_that_sent_it_with_its_field_marked(phones, base_url, http):
    game = GameClient(http, "alternating", "table")
    game.start([unit("a-squad-1")], [unit("b-mob-1")])
    phone = phones["A"]
    open_seat(phone, base_url, game, "A")
    form = 'form.free-roll'
    for name, typed in (("spec", "2D6"), ("purpose", "who holds the ruin"), ("dice", "4 2 6")):  # one die too many
        field = phone.find_element(By.CSS_SELECTOR, f'{form} input[data-field="{name}"]')
        phone.execute_script("arguments[0].scrollIntoView({block: 'center'})", field)
        field.send_keys(typed)
    tap(phone, f"{form} button.send")
    refusal = until(phone, lambda d: d.find_elements(By.CSS_SELECTOR, f"{form} .form-problem"), "the refusal at the form")[0]
    assert "needs 2 dice" in refusal.text and "null" not in refusal.text
    assert phone.find_element(By.CSS_SELECTOR, f'{form} div.field[data-field="dice"]').get_attribute("aria-invalid") == "true"
    assert not phone.find_element(By.ID, "problem").is_displayed()  # not at the top of the page, off-screen
    assert phone.execute_script("const r = arguments[0].getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight",
                                refusal)
    faces = phone.find_element(By.CSS_SELECTOR, f'{form} input[data-field="dice"]')
    faces.clear()
    faces.send_keys("4 2")
    before = version(phone)
    tap(phone, f"{form} button.send")
    until(phone, lambda d: version(d) > before, "the free roll recorded")
    assert not phone.find_elements(By.CSS_SELECTOR, f"{form} .form-problem, {form} .at-fault")
    assert [e["data"]["faces"] for e in game.events() if e["type"] == "DiceRolled" and e["data"].get("free")] == [[4, 2]]


def test_tapping_a_unit_opens_its_datasheet_which_follows_the_game(phones, base_url, http):
    game = GameClient(http, "reference", "server")
    game.start([unit("a-squad-1")], [unit("squad", 6, models=TWO_LINES)])
    phone = phones["A"]
    open_seat(phone, base_url, game, "A")
    tap(phone, '#units button.sheet-open[data-sheet="squad"]')
    until(phone, lambda d: d.find_element(By.ID, "datasheet").is_displayed(), "the datasheet")
    assert text(phone, "datasheet-name") == "Squad"
    rows = phone.execute_script("return [...document.querySelectorAll('#datasheet-body table.sheet')].map((t) =>"
                                " [...t.querySelectorAll('tbody tr')].map((r) => [...r.cells].map((c) => c.innerText)))")
    models, weapons = rows
    assert [row[:2] for row in models] == [["Trooper", "4 of 4"], ["Gunner", "2 of 2"]]
    boltgun = next(row for row in weapons if row[0] == "Boltgun")
    assert '24"' in boltgun and "RAPID FIRE 1" in boltgun
    facts = text(phone, "datasheet-body")
    assert "Bob" in facts and "6 of 6" in facts
    game.cmd("B", "record_casualties", unit="squad", models=1)  # the table resolved a casualty: the sheet follows
    until(phone, lambda d: "5 of 6" in text(d, "datasheet-body"), "the casualty on the open datasheet")
    tap(phone, "#datasheet-close")
    assert not phone.find_element(By.ID, "datasheet").is_displayed()


def test_a_units_card_and_datasheet_say_its_strength_and_statuses_in_the_services_words(phones, base_url, http):
    game = GameClient(http, "alternating", "server")
    game.start([unit("scouts", 5)], [unit("boyz", 10)])
    game.cmd("B", "record_casualties", unit="boyz", models=6)  # 4 of 10 left: below half strength (CORE.STR.2)
    for status in ("locked_in_combat", "battle_shocked"):
        game.cmd("B", "set_status", unit="boyz", status=status, value=True, reason="a rule of the table")
    boyz = game.state("A")["units"]["boyz"]
    said = {d["status"]: d["title"] for d in boyz["status_details"]}
    assert (boyz["strength_title"], said) == ("below half strength", {"locked_in_combat": "Locked in Combat",
                                                                      "battle_shocked": "Battle-shocked"})
    phone = phones["A"]
    open_seat(phone, base_url, game, "A")
    card = until(phone, lambda d: d.find_elements(By.CSS_SELECTOR, '#units article[data-unit="boyz"]'), "Bob's Boyz")[0]
    shown = card.get_property("textContent")
    assert card.find_element(By.CSS_SELECTOR, ".band").get_property("textContent") == "below half strength"
    assert "Locked in Combat (" in shown and "Battle-shocked (" in shown  # as the service titles them
    tap(phone, '#units button.sheet-open[data-sheet="boyz"]')
    until(phone, lambda d: d.find_element(By.ID, "datasheet").is_displayed(), "the datasheet")
    sheet = text(phone, "datasheet-body")
    assert "4 of 10 (below half strength)" in sheet
    assert "Locked in Combat: " in sheet and "Battle-shocked: " in sheet
    for made in ("below half)", "below_half", "locked in combat", "Locked in combat", "battle shocked", "battle_shocked"):
        assert made not in shown and made not in sheet, made  # no words the page made of the service's names
    tap(phone, "#datasheet-close")


def test_a_phone_buzzes_when_it_becomes_its_go_if_its_player_asked(phones, base_url, http):
    game = seed_game(http)
    phone = phones["A"]
    open_seat(phone, base_url, game, "A")
    phone.execute_script("window.buzzes = []; navigator.vibrate = (pattern) => { window.buzzes.push(pattern); return true; }")
    tap(phone, "#buzz")  # asked for, on this device
    assert phone.execute_script("return localStorage.getItem('warlog:buzz')") == "on"
    game.cmd("A", "start_game")
    game.cmd("A", "confirm_count")
    game.cmd("B", "confirm_count")  # Bob's roll-off: not Alice's go yet
    until(phone, lambda d: version(d), "Bob's roll-off awaited on A", game.state("A")["version"])
    assert phone.execute_script("return window.buzzes.length") == 0
    game.cmd("B", "roll_off", dice={"A": 5, "B": 3})  # Alice won it: her go, to choose who goes first
    until(phone, lambda d: d.execute_script("return window.buzzes.length"), "one buzz", 1)
    assert text(phone, "whose-go") == "The game waits for you to choose who goes first."
    tap(phone, "#buzz")  # switched off again
    assert phone.execute_script("return localStorage.getItem('warlog:buzz')") == "off"


def test_a_long_game_opens_with_its_newest_events_and_earlier_ones_a_tap_away(phones, base_url, http):
    game = GameClient(http, "alternating", "server")
    game.start([unit("a-squad-1")], [unit("b-mob-1")])
    for n in range(330):
        game.cmd("A" if n % 2 else "B", "free_roll", spec="D6", purpose=f"roll {n}")
    total = len(game.events())
    phone = phones["A"]
    phone.get("about:blank")
    open_seat(phone, base_url, game, "A")
    until(phone, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#log li")), "the newest 300 events", 300)
    reads = phone.execute_script("return performance.getEntriesByType('resource').map((e) => new URL(e.name))"
                                 ".filter((u) => u.pathname.endsWith('/events')).map((u) => u.searchParams.get('after'))")
    assert reads == [str(total - 300)]  # one page: the newest, not the whole log
    assert text(phone, "log-earlier") == f"Show earlier events ({total - 300} more)"
    top = phone.find_element(By.CSS_SELECTOR, "#log li").get_attribute("data-seq")
    assert top == str(total)
    tap(phone, "#log-earlier")
    until(phone, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#log li")), "the whole log", total)
    assert not phone.find_element(By.ID, "log-earlier").is_displayed()
    assert "roll 0" in text(phone, "log")


def test_a_rule_in_the_log_links_to_its_text_on_the_rules_page(phones, base_url, http):
    """Issue 28: a rule ID the table app shows (in the log, as in a refusal and the audit) opens /rules.html at that
    rule."""
    game = seed_game(http)
    game.cmd("A", "start_game")
    phone = phones["A"]
    open_seat(phone, base_url, game, "A")
    cited = until(phone, lambda d: d.find_elements(By.CSS_SELECTOR, "#log a.rule"), "a rule in the log")
    rule = cited[0].text
    assert cited[0].get_attribute("href") == f"{base_url}/rules.html#{rule}"
    phone.get(f"{base_url}/rules.html#{rule}")
    until(phone, lambda d: d.find_element(By.ID, rule).is_displayed(), f"the rule {rule} on the rules page")


def test_a_desperate_escape_is_headed_and_awaited_in_the_services_words(phones, base_url, http):
    """A reference game at the table: Bob's engaged Beasts make a Desperate Escape (its dice headed as the rules call
    the roll, never "Hazard"), then the phone says what the game waits for to Bob: their battle-shock test."""
    game = GameClient(http, "reference", "table")
    scouts = unit("scouts", 2)
    scouts["models"][0].update(T=10, Sv=2, W=30)
    game.start([scouts], [unit("beasts", 3, statuses=("engaged",), engaged_with=["scouts"])])
    until_phase(game, 1, "B", "movement")
    game.cmd("B", "select", unit="beasts", move="fall_back", escape="desperate")
    game.cmd("B", "roll", dice=[3, 4, 5])
    phone = phones["B"]
    open_seat(phone, base_url, game, "B")
    until(phone, lambda d: version(d), "the escape on B", game.state("B")["version"])
    assert text(phone, "roll-what") == "A Desperate Escape · Beasts · Bob"
    assert text(phone, "whose-go") == "The game waits for you to roll 2D6 for a battle-shock test."
    assert text(phone, "phase") == "Movement phase"
