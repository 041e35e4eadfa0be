"""A fourth ruleset, kept in the tests, registered at run time and played over HTTP: the ruleset seam is real
(issue 23). Nothing in domain/ names it; the API accepts it because the registry knows it at request time."""
from __future__ import annotations

import pytest

from tests.plugin.ruleset import THROW, TURN, Duel
from tests.support.client import awaits, unit
from tests.support.rosters import as_json, tenth_list
from warlog.domain import commands as cmd
from warlog.domain.rules import registry
from warlog.domain.rules.rosters import RosterReading

BUILT_IN = ("alternating", "reference", "heresy")


@pytest.fixture
def duel():
    registry.register(Duel)
    try:
        yield registry.find_ruleset("duel")
    finally:
        registry.unregister("duel")
    assert registry.names() == BUILT_IN and "throw" not in registry.known()


def started(new_game, dice: str = "server", rounds: int = 2):
    game = new_game("duel", dice, battle_rounds=rounds)
    for seat in ("A", "B"):
        assert game.muster(seat, [unit(f"{seat.lower()}-champion", 1)]).status_code == 200
    assert [a["type"] for a in game.state("A")["actions"]] == ["start_game"]
    game.cmd("A", "start_game")
    return game


def test_the_registry_lists_it_after_the_built_ins_and_forgets_it(duel):
    assert registry.names() == (*BUILT_IN, "duel")
    assert registry.table("duel")["throw"].__module__ == "tests.plugin.ruleset"
    assert "throw" not in registry.table("reference")  # a ruleset's own commands are its games' alone
    with pytest.raises(ValueError, match="built-in"):
        registry.unregister("heresy")


def test_a_command_type_another_class_has_is_refused_at_registration(duel):
    clashing = type("Clash", (Duel,), {"name": "clash", "commands": (cmd.Roll,)})
    registry.register(clashing)  # a core command class itself is no clash: it is the same class
    registry.unregister("clash")
    assert registry.table("duel")["roll"] is cmd.Roll
    other = type("OtherThrow", (cmd.Command,), {"type": "throw", "__annotations__": {}})
    with pytest.raises(ValueError, match="throw"):
        registry.register(type("Clash2", (Duel,), {"name": "clash2", "commands": (other,)}))
    assert "clash2" not in registry.names()


def test_a_game_of_the_plugin_ruleset_is_played_over_http(duel, new_game):
    game = started(new_game)
    state = game.state("A")
    assert (state["ruleset"], state["status"], state["battle_round"], state["active_seat"]) == \
        ("duel", "in_progress", 1, "A")
    assert awaits(state) == {"seat": "A", "action": "throw"}
    assert [(a["type"], a["rule"]) for a in state["actions"]] == [("throw", THROW)]
    assert game.state("B")["actions"] == [] and game.state("spectator").get("actions", []) == []
    assert state["vp"] == {"A": 0, "B": 0}

    answer = game.cmd("A", "throw")
    kinds = [e["type"] for e in answer["events"]]
    assert kinds[:2] == ["DiceRolled", "ThrowScored"] and "StepStarted" in kinds
    face = answer["events"][0]["data"]["faces"][0]
    assert answer["events"][1]["data"] == {"seat": "A", "face": face, "score": face}
    assert answer["events"][1]["rule"] == THROW
    after = game.state("B")
    assert after["vp"] == {"A": face, "B": 0} and after["active_seat"] == "B"
    assert [a["type"] for a in after["actions"]] == ["throw"] and game.state("A")["actions"] == []

    for seat in ("B", "A", "B"):
        game.cmd(seat, "throw")
    final = game.state("A")
    assert final["status"] == "ended" and final["actions"] == []
    thrown = [e for e in game.events() if e["type"] == "ThrowScored"]
    scores = [e["data"] for e in thrown]
    assert [s["seat"] for s in scores] == ["A", "B", "A", "B"]
    first = scores[0]  # its own sentence, from its own texts beside its event
    assert thrown[0]["text"] == f"Alice threw a {first['face']}: {first['score']} in all."
    total = {seat: sum(s["face"] for s in scores if s["seat"] == seat) for seat in ("A", "B")}
    assert final["vp"] == total
    winner = None if total["A"] == total["B"] else max(total, key=total.get)
    assert final["result"] == {"reason": "battle_rounds", "winner": winner, "draw": winner is None, "by": "vp",
                               "score": total, "rule": "MSN.END.1",
                               "how": "Decided on victory points"}  # its own score, judged by the core
    rounds = [e for e in game.events() if e["type"] == "BattleRoundEnded"]
    assert len(rounds) == 2 and all(e["rule"] == TURN for e in rounds)

    verify = game.http.get(f"/games/{game.id}/verify", headers=game.headers("spectator"))
    assert verify.status_code == 200 and verify.json()["chain_ok"] is True, verify.text
    seq = next(e["seq"] for e in game.events() if e["type"] == "ThrowScored")
    audit = game.http.get(f"/games/{game.id}/audit/{seq}", headers=game.headers("spectator"))
    assert audit.status_code == 200 and audit.json()["rule"]["id"] == THROW, audit.text

    # its event is one of the document's kinds, with its payload type's schema, as the built-in ones are
    schemas = game.http.get("/openapi.json").json()["components"]["schemas"]
    assert schemas["Event"]["discriminator"]["mapping"]["ThrowScored"] == "#/components/schemas/EventThrowScored"
    assert schemas["ThrowScoredData"]["required"] == ["seat", "face", "score"]


def test_a_refused_throw_names_its_rule_and_appends_nothing(duel, new_game):
    game = started(new_game)
    before = game.events()
    response = game.send("B", {"type": "throw"})
    assert response.status_code == 409, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    problem = response.json()
    assert problem["rule"] == THROW and "seat A's turn" in problem["detail"]
    assert game.events() == before
    # a command of another ruleset is well formed but none of the duel's
    assert game.send("A", {"type": "end_phase"}).status_code == 409
    assert game.events() == before


def test_a_throw_is_undone_with_the_other_seats_consent(duel, new_game):
    game = started(new_game)
    before = game.state("A")
    game.cmd("A", "throw")
    assert "undo" in game.state("A")["anytime"]
    assert game.post("A", "undo").status_code == 202  # it rolled a die: the other seat approves
    assert game.post("B", "undo/approve").status_code == 200
    back = game.state("A")
    assert (back["active_seat"], back["vp"], back["awaiting"]) == ("A", {"A": 0, "B": 0}, before["awaiting"])
    assert [a["type"] for a in back["actions"]] == ["throw"]
    assert game.post("A", "redo").status_code == 200
    assert game.state("A")["active_seat"] == "B"
    verify = game.http.get(f"/games/{game.id}/verify", headers=game.headers("A"))
    assert verify.json()["chain_ok"] is True


def test_table_dice_throw_carries_its_face(duel, new_game):
    game = started(new_game, dice="table", rounds=1)
    schema = game.state("A")["actions"][0]["schema"]
    assert schema["required"] == ["type", "dice"]
    missing = game.send("A", {"type": "throw"})
    assert missing.status_code == 422 and missing.json()["field"] == "/dice"
    assert game.send("A", {"type": "throw", "dice": [7]}).status_code == 422
    assert game.cmd("A", "throw", dice=[5])["events"][1]["data"]["score"] == 5
    game.cmd("B", "throw", dice=[2])
    assert game.state("A")["result"] == {"reason": "battle_rounds", "winner": "A", "draw": False, "by": "vp",
                                         "score": {"A": 5, "B": 2}, "rule": "MSN.END.1",
                                         "how": "Decided on victory points"}


def test_an_unknown_ruleset_is_422_naming_the_known_ones(duel, http):
    response = http.post("/games", json={"ruleset": "chess", "players": [
        {"seat": "A", "name": "Alice"}, {"seat": "B", "name": "Bob"}]})
    assert response.status_code == 422
    assert response.headers["content-type"].startswith("application/problem+json")
    problem = response.json()
    assert problem["field"] == "/ruleset"
    assert "unknown ruleset 'chess'" in problem["detail"]
    assert "alternating, reference, heresy, duel" in problem["detail"]


def test_once_unregistered_the_name_is_unknown_again(http):
    registry.register(Duel)
    registry.unregister("duel")
    response = http.post("/games", json={"ruleset": "duel", "players": [
        {"seat": "A", "name": "Alice"}, {"seat": "B", "name": "Bob"}]})
    assert response.status_code == 422 and "unknown ruleset 'duel'" in response.json()["detail"]
    assert response.json()["detail"].endswith("known: alternating, reference, heresy.")


def test_the_served_document_holds_its_name_and_its_commands_while_it_is_registered(http):
    before = http.get("/openapi.json").json()
    assert "Throw" not in before["components"]["schemas"]
    registry.register(Duel)
    try:
        schemas = http.get("/openapi.json").json()["components"]["schemas"]
        assert schemas["Command"]["discriminator"]["mapping"]["throw"] == "#/components/schemas/Throw"
        assert {"$ref": "#/components/schemas/Throw"} in schemas["Command"]["oneOf"]
        assert schemas["Throw"]["properties"]["type"] == {"type": "string", "const": "throw"}
        assert "duel" in schemas["GameCreate"]["properties"]["ruleset"]["enum"]
    finally:
        registry.unregister("duel")
    assert http.get("/openapi.json").json() == before


def test_a_body_is_read_by_its_games_ruleset(duel):
    from warlog.api.schemas import parse_command

    assert type(parse_command({"type": "throw"}, "duel")) is registry.table("duel")["throw"]
    selects = {name: type(parse_command({"type": "select", "unit": "u"}, name)) for name in BUILT_IN}
    assert selects == {name: registry.table(name)["select"] for name in BUILT_IN}
    assert len(set(selects.values())) == 3 and all(issubclass(c, cmd.Select) for c in selects.values())
    # another ruleset's field is well formed: the command is this ruleset's, what was sent is kept (no action
    # this game offers has the field, so its rules refuse it: 409)
    sent = {"type": "select", "unit": "u", "weapons": ["Boltgun"]}
    command = parse_command(sent, "reference")
    assert type(command) is selects["reference"] and cmd.sent(command) == sent
    # and every select is recorded with the fields the one shared Select had, as stored logs hold them
    assert cmd.as_data(command) == {"unit": "u", "act": True, "targets": [], "distance": None, "move": None,
                                    "escape": None, "shooting": None, "weapons": None, "embark": None,
                                    "fight": None, "pile_in": None, "dice": None, "type": "select"}
    assert cmd.from_record(selects["heresy"], cmd.as_data(command)) == selects["heresy"](unit="u")


class ReadingDuel(Duel):
    """The duel, stating how it reads a roster file: its own game system, AP as a modifier."""

    name = "roster-duel"
    roster = RosterReading(older_ap=False, systems=(r"\bduel of champions\b",))


def test_a_roster_converts_for_a_plugin_that_states_its_roster_reading(http, new_game):
    tree = tenth_list()
    tree["roster"]["gameSystemName"] = "Duel of Champions"
    registry.register(ReadingDuel)
    try:
        answer = http.post("/rosters/convert", content=as_json(tree), headers={"Content-Type": "application/json"})
        assert answer.status_code == 200, answer.text
        converted = answer.json()
        assert converted["ruleset"] == "roster-duel"  # its game system is the plugin's
        assert [u["name"] for u in converted["units"]] == ["Intercessor Squad", "Captain", "Rhino"]
        assert {w["AP"] for u in converted["units"] for w in u["weapons"]} <= {0, -1, -2, -3}  # a modifier
        document = http.get("/openapi.json").json()
        assert "roster-duel" in document["paths"]["/rosters/convert"]["post"]["parameters"][0]["schema"]["anyOf"][0]["enum"]
        assert "roster-duel" in document["components"]["schemas"]["RosterConversion"]["properties"]["ruleset"]["enum"]
        game = new_game("roster-duel")
        mustered = game.http.post(f"/games/{game.id}/armies", content=as_json(tree),
                                  headers=game.headers("A", **{"Content-Type": "application/json"}))
        assert mustered.status_code == 200, mustered.text
    finally:
        registry.unregister("roster-duel")


def test_a_plugin_that_states_no_roster_reading_takes_no_roster_file(duel, http, new_game):
    raw = as_json(tenth_list())
    refused = http.post("/rosters/convert?ruleset=duel", content=raw, headers={"Content-Type": "application/json"})
    assert refused.status_code == 422 and refused.json()["field"] == "ruleset"
    assert "the duel ruleset reads no roster file" in refused.json()["detail"]
    game = new_game("duel")
    mustered = game.http.post(f"/games/{game.id}/armies", content=raw,
                              headers=game.headers("A", **{"Content-Type": "application/json"}))
    assert mustered.status_code == 422 and mustered.json()["field"] == "ruleset", mustered.text
    assert "send its army as JSON units" in mustered.json()["detail"]
    assert game.muster("A", [unit("a-champion", 1)]).status_code == 200  # as JSON units it musters
