"""CORE.SPL.1 with model lines: the new part takes the last lines first; each part starts at its own strength."""
from __future__ import annotations

from tests.support.client import unit

SERGEANT = {"name": "Sergeant", "count": 1, "M": 6, "T": 4, "Sv": 3, "InSv": None, "W": 2, "Ld": 6, "OC": 2,
            "BS": 3, "WS": 3, "I": 4, "A": 2, "hull_points": None}
MARINE = {**SERGEANT, "name": "Intercessor", "count": 9, "OC": 1}


def test_a_split_takes_the_last_model_lines_first_and_the_audit_names_it(new_game):
    game = new_game("reference", dice="table")
    for seat, army in (("A", [unit("squad", 10, models=[SERGEANT, MARINE])]), ("B", [unit("boyz", 5)])):
        assert game.muster(seat, army).status_code == 200
    (split,) = [a for a in game.state("A")["actions"] if a["type"] == "split"]
    assert split["schema"]["properties"]["models"] == {
        "type": "integer", "minimum": 1, "maximum": 9, "title": "Models to split off",
        "description": "models that form the new unit (from the last model lines)"}
    (event,) = game.cmd("A", "split", unit="squad", models=5)["events"]
    assert event["data"]["moved"] == [0, 5] and event["data"]["kept"] == [1, 4]
    assert [a["type"] for a in game.state("A")["actions"]] == ["start_game"]
    started = game.cmd("A", "start_game")["events"][0]
    assert started["data"]["starting_strength"] == {"squad": 5, "squad-2": 5, "boyz": 5}
    audit = game.http.get(f"/games/{game.id}/audit/{event['seq']}", headers=game.headers("A")).json()
    assert audit["rule"]["id"] == "CORE.SPL.1"
    assert [rule["id"] for rule in audit["also"]] == ["CORE.STR.1", "CORE.OTH.1"]
    assert game.send("A", {"type": "split", "unit": "squad", "models": 2}).status_code == 409
