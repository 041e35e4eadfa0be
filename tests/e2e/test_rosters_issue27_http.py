"""Issue 27 over HTTP: refusals that say what the file is, and the CLI and POST /rosters/convert agreeing."""
import pytest

from tests.support.problems import assert_sentence
from tests.support.rosters import as_json, as_ros, profile, roster, selection

MESBG = roster("Middle-earth Strategy Battle Game", selection("Captain", "model", profiles=[
    profile("Captain", "Hero", Mv='6"', F="5/4+", S="4", D="6", A="2", W="2", C="5")]))
EMPTY = {"roster": {"name": "Empty list", "gameSystemName": "Warhammer 40,000 10th Edition",
                    "forces": [{"name": "Army Roster", "selections": []}]}}


@pytest.mark.parametrize("raw, starts", [
    (b'{"army": {"name": "x"}}', "This JSON is not a New Recruit roster"),
    (as_ros(MESBG), "This roster is for Middle-earth Strategy Battle Game, which warlog does not play"),
    (as_json(EMPTY), "This roster (Empty list) is empty"),
])
def test_a_file_warlog_cannot_read_is_422_in_one_sentence_saying_what_it_is(http, raw, starts):
    refused = http.post("/rosters/convert", content=raw)
    assert refused.status_code == 422, refused.text
    assert refused.json()["detail"].startswith(starts)
    assert_sentence(refused.json())
