"""The streamers' overlay page over HTTP: who gets it, what it is made of, how OpenAPI lists it.
(tests/browser/test_overlay_page.py drives it in a real browser.)"""
import re
import uuid

import pytest

PROBLEM = "application/problem+json"


def page(game, token, game_id=None):
    return game.http.get(f"/games/{game_id or game.id}/overlay.html", params={} if token is None else {"token": token})


@pytest.mark.parametrize("role", ["A", "B", "spectator"])
def test_a_seat_or_the_spectator_gets_the_overlay_page_with_the_token_in_its_address(new_game, role):
    game = new_game()
    response = page(game, game.tokens[role])
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    assert response.headers["cache-control"] == "no-store"  # the address carries a token
    assert "new EventSource(" in response.text and '"overlay/stream"' in response.text


def test_a_missing_unknown_or_foreign_token_gets_a_problem_and_never_the_page(new_game):
    game, other = new_game(), new_game()
    answers = {
        401: [page(game, None), page(game, "not-a-token")],
        404: [page(game, game.tokens["A"], game_id=str(uuid.uuid4())), page(game, game.tokens["A"], "no-such-id")],
        403: [page(game, other.tokens["spectator"])],
    }
    for status, responses in answers.items():
        for response in responses:
            assert response.status_code == status, response.text
            assert response.headers["content-type"] == PROBLEM
            assert response.json()["status"] == status and "EventSource" not in response.text


def test_the_page_is_self_contained_with_a_transparent_background(new_game):
    game = new_game()
    html = page(game, game.tokens["spectator"]).text
    assert not re.search(r"""(?:src|href)\s*=\s*["'](?!data:)|url\(|@import|https?://""", html)
    assert re.search(r"html, body \{[^}]*background: transparent", html)


def test_openapi_lists_the_overlay_page_as_html_with_its_problems(http):
    operation = http.get("/openapi.json").json()["paths"]["/games/{game_id}/overlay.html"]["get"]
    assert "browser source" in operation["summary"]
    assert "text/html" in operation["responses"]["200"]["content"]
    assert all(PROBLEM in operation["responses"][code]["content"] for code in ("401", "403", "404"))
