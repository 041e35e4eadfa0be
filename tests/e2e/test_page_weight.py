"""Issue 26, "Weight": what a player's phone downloads, over a real uvicorn on 127.0.0.1. Answers are gzipped when
asked (pages, modules, CSS, JSON) but the Server-Sent Events streams are not; the app's files carry ETags (304 on
If-None-Match) and the pages name them by versioned addresses kept a year; and the first load of a seat's page in a
2,000-event game transfers at most 60 KB, counted on the wire as the page loads it. (ops/bench/table_app.py counts
the same in Chromium.)"""
from __future__ import annotations

import re
from urllib.parse import urljoin

import httpx
import pytest

from tests.conftest import settings_for
from tests.support.client import GameClient, unit
from tests.support.live import serving
from warlog.api.app import create_app

WAIT_S = 10.0
GZIP = {"Accept-Encoding": "gzip"}
IMMUTABLE = "public, max-age=31536000, immutable"
BUDGET = 60 * 1024  # issue 26: a first load of a seat's page in a 2,000-event game
REFERENCE = re.compile(r"""(?:src|href)="(/app/[^"]+)"|from "(\./[^"]+)\"""")


@pytest.fixture(scope="module")
def base_url(tmp_path_factory):
    with serving(create_app(settings_for(tmp_path_factory.mktemp("weight"), keepalive_s=1))) as url:
        yield url


@pytest.fixture
def http(base_url):
    with httpx.Client(base_url=base_url, timeout=WAIT_S) as client:
        yield client


def started(http: httpx.Client) -> GameClient:
    game = GameClient(http)
    game.start([unit("scouts", 5)], [unit("boyz", 10)])
    return game


def on_the_wire(response: httpx.Response) -> int:
    """The bytes of an answer as sent: its status line, its headers and its body as encoded (gzipped or not)."""
    response.read()
    headers = sum(len(name) + len(value) + 4 for name, value in response.headers.raw)
    return len(f"HTTP/1.1 {response.status_code} {response.reason_phrase}\r\n\r\n") + headers \
        + response.num_bytes_downloaded


def page_files(http: httpx.Client, page: str) -> dict[str, httpx.Response]:
    """A page and every file it names, through the modules' imports, as a browser fetches them: address -> answer."""
    fetched: dict[str, httpx.Response] = {}
    waiting = [page]
    while waiting:
        address = waiting.pop()
        if address in fetched:
            continue
        fetched[address] = response = http.get(address, headers=GZIP)
        assert response.status_code == 200, address
        for absolute, relative in REFERENCE.findall(response.text):
            waiting.append(absolute or urljoin(address, relative))
    return fetched


@pytest.mark.parametrize("path", ["/", "/play/any-game", "/app/play.js", "/app/form.js", "/app/app.css",
                                  "/app/demo-armies.json"])
def test_a_page_its_modules_css_and_json_are_gzipped_when_asked_and_plain_when_not(http, path):
    packed = http.get(path, headers=GZIP)
    assert packed.status_code == 200 and packed.headers["content-encoding"] == "gzip"
    assert "accept-encoding" in packed.headers["vary"].lower()
    plain = http.get(path, headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers and plain.content == packed.content  # httpx decoded the gzip
    assert packed.num_bytes_downloaded < plain.num_bytes_downloaded / 2


def test_an_api_answer_is_gzipped_when_asked(http):
    game = started(http)
    for path in ("state", "events?after=0&limit=1000"):
        answer = http.get(f"/games/{game.id}/{path}", headers={**game.headers("A"), **GZIP})
        assert answer.status_code == 200 and answer.headers["content-encoding"] == "gzip", path
    write = http.post(f"/games/{game.id}/commands", json={"type": "free_roll", "spec": "2D6", "purpose": "packed"},
                      headers={**game.headers("A"), **GZIP})
    assert write.status_code == 200 and write.headers["content-encoding"] == "gzip"
    assert write.json()["view"]["version"] == write.json()["version"]


@pytest.mark.parametrize("kind", ["events", "overlay"])
def test_a_stream_asked_for_gzip_is_sent_plain_and_each_event_arrives_while_it_stays_open(http, kind):
    """GZipMiddleware leaves text/event-stream alone: no Content-Encoding, nothing held back in a compressor."""
    game = started(http)
    with http.stream("GET", f"/games/{game.id}/{kind}/stream",
                     headers={**game.headers("spectator"), **GZIP}) as response:
        assert response.status_code == 200 and response.headers["content-type"].startswith("text/event-stream")
        assert "content-encoding" not in response.headers
        lines = response.iter_lines()  # the client's read timeout bounds each wait
        for purpose in ("first live roll", "second live roll"):
            game.cmd("A", "free_roll", spec="D6", purpose=purpose)
            assert any(purpose in line for line in lines if line.startswith("data:") and purpose in line)


@pytest.mark.parametrize("path", ["/app/play.js", "/app/app.css", "/play/any-game", "/"])
def test_each_file_of_the_app_has_an_etag_and_answers_304_when_the_browser_holds_it(http, path):
    first = http.get(path, headers=GZIP)
    tag = first.headers["etag"]
    assert first.status_code == 200 and re.fullmatch(r'W/"[0-9a-f]+"', tag)
    again = http.get(path, headers={**GZIP, "If-None-Match": tag})
    assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == tag
    assert http.get(path, headers={"If-None-Match": 'W/"0000"'}).status_code == 200
    assert http.get(path, headers={"If-None-Match": tag.removeprefix("W/")}).status_code == 304


def test_the_pages_name_their_files_by_versioned_addresses_kept_a_year_and_the_bare_ones_are_revalidated(http):
    for page in ("/", "/play/any-game"):
        files = page_files(http, page)
        assert http.get(page).headers["cache-control"] == "no-cache"  # a page is asked again: its addresses change
        named = [address for address in files if address != page]
        assert {address.split("?")[0] for address in named} >= {"/app/app.css", "/app/form.js"}
        for address in named:
            assert re.fullmatch(r"/app/[a-z-]+\.(js|css)\?v=[0-9a-f]{16}", address), address
            assert files[address].headers["cache-control"] == IMMUTABLE, address
            bare = http.get(address.split("?")[0])
            assert bare.headers["cache-control"] == "no-cache" and bare.content == files[address].content
    # every module imports the others by one address each, so a browser loads each module once
    assert len({address.split("?")[1] for address in page_files(http, "/play/any-game") if "?" in address}) == 1
    assert http.get("/app/play.js?v=0123456789abcdef").headers["cache-control"] == "no-cache"  # not this version


def test_the_first_load_of_a_seats_page_in_a_2000_event_game_transfers_at_most_60_kb(http):
    game = started(http)
    while (version := game.cmd("A", "free_roll", spec="3D6", purpose="a long game")["version"]) < 2000:
        pass
    files = page_files(http, f"/play/{game.id}")
    newest = int(re.search(r"const LOG_LINES = (\d+)", files[next(a for a in files if "play.js" in a)].text)[1])
    headers = {**game.headers("A"), **GZIP}
    state = http.get(f"/games/{game.id}/state", headers=headers)
    # the app's first read of the log: its newest LOG_LINES events, in one page (play.js main, catchUp)
    events = http.get(f"/games/{game.id}/events", params={"after": version - newest, "limit": 1000}, headers=headers)
    assert len(events.json()["events"]) == newest == 300
    loaded = sum(on_the_wire(answer) for answer in (*files.values(), state, events))
    unpacked = {**game.headers("A"), "Accept-Encoding": "identity"}
    plain = sum(on_the_wire(http.get(str(answer.url), headers=unpacked)) for answer in (*files.values(), state, events))
    print(f"first load, {version} events: {loaded / 1024:.1f} KB gzipped, {plain / 1024:.1f} KB plain")
    assert loaded <= BUDGET, f"{loaded / 1024:.1f} KB"
    assert plain > 2 * BUDGET  # the same load unpacked would not fit: the budget holds because of the gzip
