"""`warlog serve` as a player starts it (issue 24): `--lan` listens on every interface and prints each link and
its QR code with this machine's address on the network; a body past the limit is answered 413 on a connection
that stays usable. Requests go to loopback only."""
from __future__ import annotations

import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from ops.service import free_port
from warlog.api import cli

PORT, QUIET_PORT = free_port(), free_port()  # this module's own, per test process (xdist workers run side by side)
PROBLEM = "application/problem+json"


def banner(out: Path, process: subprocess.Popen[bytes], within: float = 30.0) -> str:
    """What `--lan --demo` prints, once the demo game's banner has been printed."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        text = out.read_text(encoding="utf-8")
        if "API reference:" in text and "Bob (B), scan with a phone:" in text and text.rstrip().endswith("▀"):
            return text
        assert process.poll() is None, f"warlog serve exited with {process.returncode}: {text[-2000:]}"
        time.sleep(0.1)
    raise AssertionError(f"no banner within {within:.0f} s: {out.read_text()[-2000:]}")


@pytest.fixture(scope="module")
def lan(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """`warlog serve --lan --demo` on PORT: (its banner, the loopback URL it answers on)."""
    where = tmp_path_factory.mktemp("lan")
    out = where / "serve.out"
    with out.open("wb") as sink:
        process = subprocess.Popen([sys.executable, "-m", "warlog.api.cli", "serve", "--lan", "--demo", "--port",
                                    str(PORT), "--db", str(where / "warlog.db")], stdout=sink,
                                   stderr=subprocess.STDOUT)
        try:
            yield banner(out, process), f"http://127.0.0.1:{PORT}"
        finally:
            process.terminate()
            process.wait(10)


def listening_on_every_interface(port: int) -> bool:
    """Whether a socket listens on 0.0.0.0:`port` (Linux's /proc/net/tcp: local address 00000000, state 0A)."""
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        local, state = line.split()[1], line.split()[3]
        if local == f"00000000:{port:04X}" and state == "0A":
            return True
    return False


def test_lan_listens_on_every_interface_and_answers_on_loopback(lan):
    _, url = lan
    assert listening_on_every_interface(PORT)
    assert httpx.get(f"{url}/openapi.json", timeout=10).status_code == 200


def test_lan_prints_every_link_with_this_machines_network_address_and_its_qr_code(lan):
    printed, url = lan
    address, note = cli.lan_address()
    base = f"http://{address}:{PORT}"
    assert address != "0.0.0.0" and (note is None) == (address != "127.0.0.1")
    game_id = re.search(r"game_id\s+(\S+)", printed).group(1)
    tokens = {seat: re.search(rf"token {seat}\s+(\S+)", printed).group(1) for seat in ("A", "B")}
    links = {seat: cli.play_link(base, game_id, tokens[seat], seat) for seat in ("A", "B")}
    for seat in ("A", "B"):
        assert links[seat] in printed
        assert cli.qr_code(links[seat]) in printed  # the seat's own link, drawn for a phone's camera
    assert f"Start a game (scan with a phone): {base}/\n" in printed and cli.qr_code(base + "/") in printed
    assert "127.0.0.1" not in printed or address == "127.0.0.1"  # no link names loopback while a LAN address exists
    assert "trusted network" in printed
    # the links' game is served: its state, read over loopback with the printed token
    state = httpx.get(f"{url}/games/{game_id}/state", headers={"Authorization": f"Bearer {tokens['A']}"}, timeout=10)
    assert state.status_code == 200 and state.json()["mustered"] == {"A": True, "B": True}


def test_without_a_network_address_the_links_name_loopback_and_say_why(monkeypatch):
    def unreachable(self, address):
        raise OSError(101, "Network is unreachable")

    monkeypatch.setattr(socket.socket, "connect", unreachable)
    address, note = cli.lan_address()
    assert address == "127.0.0.1"
    assert note is not None and note[0].isupper() and note.endswith(".") and "only on this machine" in note


def test_a_body_past_the_limit_is_answered_413_on_a_connection_that_stays_usable(lan):
    """A 2 MB command, sent whole before the answer is read (as every HTTP client does): the client reads the 413
    problem+json, several times in a row, on the one connection, and then plays on it."""
    printed, url = lan
    game_id = re.search(r"game_id\s+(\S+)", printed).group(1)
    token = re.search(r"token A\s+(\S+)", printed).group(1)
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    big = b'{"type": "free_roll", "spec": "D6", "purpose": "' + b"x" * (2 * 1024 * 1024) + b'"}'
    ports = set()
    with httpx.Client(base_url=url, timeout=30, limits=httpx.Limits(max_connections=1)) as http:
        for body in (lambda: big, lambda: iter([big[i:i + 65536] for i in range(0, len(big), 65536)])):  # chunked
            for _ in range(3):
                refused = http.post(f"/games/{game_id}/commands", content=body(), headers=headers)
                assert refused.status_code == 413 and refused.headers["content-type"].startswith(PROBLEM)
                assert refused.json()["detail"] == "The body may be at most 65536 bytes; this one is larger."
                ports.add(refused.extensions["network_stream"].get_extra_info("client_addr")[1])
        played = http.post(f"/games/{game_id}/commands", json={"type": "start_game"}, headers=headers)
        assert played.status_code == 200, played.text
        ports.add(played.extensions["network_stream"].get_extra_info("client_addr")[1])
    assert len(ports) == 1  # one connection throughout
    with socket.create_connection(("127.0.0.1", PORT), timeout=30) as raw:  # and as bytes on a socket
        for _ in range(3):
            raw.sendall(f"POST /games/{game_id}/commands HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}"
                        f"\r\nContent-Type: application/json\r\nContent-Length: {len(big)}\r\n\r\n".encode() + big)
            status, body = read_answer(raw)
            assert status == 413 and b'"status":413' in body


def read_answer(raw: socket.socket) -> tuple[int, bytes]:
    """One HTTP/1.1 answer read off the socket: its status and its body (by its Content-Length)."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = raw.recv(65536)
        assert chunk, "the server closed the connection"
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = int(re.search(rb"content-length: *(\d+)", head, re.IGNORECASE).group(1))
    while len(body) < length:
        chunk = raw.recv(65536)
        assert chunk, "the server closed the connection"
        body += chunk
    return int(head.split(b" ")[1]), body


def test_plain_serve_says_where_it_answers_and_where_the_games_are_kept(tmp_path):
    """Issue 28: `warlog serve` with no flag is not silent: its address, the API reference and the data file."""
    out, db = tmp_path / "serve.out", tmp_path / "games.db"
    with out.open("wb") as sink:
        process = subprocess.Popen([sys.executable, "-m", "warlog.api.cli", "serve", "--port", str(QUIET_PORT),
                                    "--db", str(db)], stdout=sink, stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + 30
            while "Ctrl-C stops it." not in out.read_text(encoding="utf-8") and time.monotonic() < deadline:
                assert process.poll() is None, out.read_text()
                time.sleep(0.1)
        finally:
            process.terminate()
            process.wait(10)
    printed = out.read_text(encoding="utf-8")
    assert (f"warlog is serving on http://127.0.0.1:{QUIET_PORT}/ (API reference: http://127.0.0.1:{QUIET_PORT}/docs); "
            f"games are stored in {db} (with its -wal and -shm files while serving). Ctrl-C stops it.") in printed
