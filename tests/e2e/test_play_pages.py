"""The start page, the table app and the QR code over HTTP: what is served, with which headers, from the
package's own data. (tests/browser/test_table_app.py plays them in real browsers.)"""
import re
from importlib.resources import files
from xml.etree import ElementTree

import pytest

from warlog.api.cli import DEMO_ARMIES, play_link

PAGE_FILES = ("play.html", "play.js", "form.js", "client.js", "app.css", "start.html", "start.js")


def test_the_start_page_is_served_as_html_that_loads_only_its_own_files(http):
    response = http.get("/")
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/html")
    assert "Start a game" in response.text
    assert re.findall(r'(?:src|href)="(/[^"?]*)\?v=[0-9a-f]+"', response.text) == ["/app/app.css", "/app/start.js"]
    assert "script-src 'self'" in response.headers["content-security-policy"]
    assert response.headers["referrer-policy"] == "no-referrer"


def test_the_table_app_is_one_page_for_every_game_and_asks_no_token_of_the_server(http, new_game):
    game = new_game()
    response = http.get(f"/play/{game.id}")  # the token is in the fragment, which no request carries
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/html")
    assert re.search(r'<script type="module" src="/app/play.js\?v=[0-9a-f]+">', response.text)
    assert http.get("/play/any-id-at-all").text == response.text  # the page reads its game from its address


@pytest.mark.parametrize("name,kind", [("play.js", "text/javascript"), ("form.js", "text/javascript"),
                                       ("client.js", "text/javascript"), ("start.js", "text/javascript"),
                                       ("app.css", "text/css")])
def test_each_page_file_is_served_with_its_type(http, name, kind):
    response = http.get(f"/app/{name}")
    assert response.status_code == 200 and response.headers["content-type"].startswith(kind)
    assert response.headers["x-content-type-options"] == "nosniff"


def test_an_unknown_page_file_is_not_found(http):
    assert http.get("/app/secret.py").status_code == 404
    assert http.get("/app/..%2Fapp.py").status_code == 404


def test_the_page_files_hold_no_rule_id_and_no_command_type_but_the_anytime_ones(http):
    """The legal actions come from the state's "actions": the pages name only the endpoints every game has."""
    script = "".join(http.get(f"/app/{name}").text for name in ("play.js", "form.js", "client.js"))
    assert not re.search(r"\b(?:AA|RS|CORE|HH)\.[A-Z]+\.\d", script)
    for rule_command in ("confirm_count", "roll_off", "choose_order", "declare_done", "start_game"):
        assert f'"{rule_command}"' not in script


def test_the_demo_armies_the_start_page_offers_are_the_ones_warlog_serve_demo_musters(http):
    assert http.get("/app/demo-armies.json").json() == DEMO_ARMIES


def test_the_qr_endpoint_draws_the_posted_link_as_svg_and_keeps_it_out_of_the_address(http):
    link = play_link("http://127.0.0.1:8000", "g-1", "secret-token", "A")
    response = http.post("/qr", json={"data": link})
    assert response.status_code == 200 and response.headers["content-type"].startswith("image/svg+xml")
    assert response.headers["cache-control"] == "no-store"
    svg = ElementTree.fromstring(response.text)
    assert svg.tag.endswith("svg") and float(svg.get("width")) >= 100
    assert "secret-token" not in response.text  # drawn as modules, not written out
    assert http.get("/qr", params={"data": link}).status_code == 405


@pytest.mark.parametrize("body", [{}, {"data": ""}, {"data": "x" * 501}, {"data": 5}])
def test_the_qr_endpoint_refuses_a_missing_empty_or_oversized_text_as_problem_json(http, body):
    response = http.post("/qr", json=body)
    assert response.status_code == 422 and response.headers["content-type"] == "application/problem+json"


def test_the_qr_endpoint_refuses_a_large_body_and_a_body_not_json(http):
    # every text the schema admits is read, judged and drawn, even 4 UTF-8 bytes (12 escaped) a character
    longest = b'{"data": "' + b"\\ud83d\\ude00" * 500 + b'"}'
    assert http.post("/qr", content=longest, headers={"Content-Type": "application/json"}).status_code == 200
    assert http.post("/qr", content=b'{"data": "' + b"x" * 5000 + b'"}',
                     headers={"Content-Type": "application/json"}).status_code == 422
    assert http.post("/qr", content=b'{"data": "' + b"x" * 70_000 + b'"}',
                     headers={"Content-Type": "application/json"}).status_code == 413
    assert http.post("/qr", content=b"data=x", headers={"Content-Type": "text/plain"}).status_code == 415


def test_openapi_documents_the_qr_endpoint_and_leaves_the_pages_out(http):
    paths = http.get("/openapi.json").json()["paths"]
    assert "image/svg+xml" in paths["/qr"]["post"]["responses"]["200"]["content"]
    assert not {"/", "/play/{game_id}", "/app/{name}"} & set(paths)


def test_the_pages_ship_in_the_package():
    shipped = files("warlog.api") / "static" / "app"
    for name in PAGE_FILES:
        assert (shipped / name).is_file(), name


def test_a_seat_link_carries_its_token_in_the_fragment_only():
    link = play_link("http://h:1", "g-1", "tok", "B")
    assert link == "http://h:1/play/g-1#token=tok&seat=B"


def test_warlog_serve_demo_prints_each_seats_table_app_link_and_the_start_page(capsys):
    from warlog.api.cli import print_demo

    print_demo("http://127.0.0.1:8000", {"game_id": "g-1", "tokens": {"A": "ta", "B": "tb", "spectator": "ts"}})
    printed = capsys.readouterr().out
    assert "Alice (A)  http://127.0.0.1:8000/play/g-1#token=ta&seat=A" in printed
    assert "Bob (B)    http://127.0.0.1:8000/play/g-1#token=tb&seat=B" in printed
    assert "Start another game in the browser: http://127.0.0.1:8000/\n" in printed
    assert "http://127.0.0.1:8000/games/g-1/overlay.html?token=ts" in printed  # as before


def test_a_seat_is_offered_forms_for_the_record_only_commands_and_each_plainest_one_is_recorded(new_game):
    from tests.support.client import unit as a_unit
    from tests.support.client import vehicle
    from tests.support.instances import simplest

    for ruleset in ("alternating", "reference", "heresy"):
        game = new_game(ruleset, dice="table")
        game.start([a_unit("a-1"), vehicle("a-tank")], [a_unit("b-1")])
        state = game.state("A")
        assert {r["type"] for r in state["records"]} <= set(state["anytime"])
        assert game.state("spectator")["records"] == []
        for record in state["records"]:
            body = simplest(record["schema"])
            answer = game.send("A", body)
            assert answer.status_code == 200, (ruleset, body, answer.text)
