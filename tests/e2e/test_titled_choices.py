"""Choices with titles (CONTRACT.md "In the players' words", issue 24): every offered action and record form, at
every step of whole games of all three rulesets and of the golden scenarios, reads in the players' words: a
button title, a label for every field, and every choice of a unit, weapon, seat, objective, model line or die a
`oneOf` of {const, title} with its `format`, no title showing an id, an index or a seat letter."""
from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.conftest import settings_for
from tests.golden.driver import Driver, HttpTable, armies
from tests.golden.test_scenarios import SCENARIOS, played
from tests.support.client import GameClient
from tests.unit.test_reference_choices import send, shooting_game
from warlog.api.app import create_app
from warlog.domain.words import ordinal

FORMATS = {"unit", "weapon", "seat", "objective", "model_line", "die"}
CHOICE_FIELDS = {"unit": "unit", "target": "unit", "targets": "unit", "embark": "unit", "weapon": "weapon",
                 "weapons": "weapon", "first": "seat", "objective": "objective", "line": "model_line", "die": "die"}
DIE = re.compile(r"^the \d+(st|nd|rd|th) die: a \d+$")


def assert_titled(view: dict[str, Any], where: object) -> int:
    """Every action and record form of one seat's view reads in the players' words; the number of choices."""
    units, seen = view["units"], 0
    for action in [*view["actions"], *view.get("records", [])]:
        assert isinstance(action.get("title"), str) and action["title"].strip(), (where, action)
        assert not any(uid in action["title"] for uid in units), (where, action["title"])
        said = json.dumps([action["summary"], action["schema"]])  # its summary and every field's description
        assert "seat A" not in said and "seat B" not in said, (where, action)  # a seat by its player's name
        seen += walk(action["schema"], units, (where, action["type"]))
    return seen


def walk(schema: dict[str, Any], units: dict[str, Any], where: object) -> int:
    seen = 0
    for name, sub in schema.get("properties", {}).items():
        assert isinstance(sub.get("title"), str) and sub["title"].strip(), (where, name, sub)
        assert sub["title"] != name or name not in units, (where, name, sub)  # a unit's key is titled by its name
        choice = sub.get("items", sub) if sub.get("type") == "array" else sub
        expected = CHOICE_FIELDS.get(name)
        if expected and "const" not in choice:
            assert "enum" not in choice and "oneOf" in choice, (where, name, sub)
            assert choice.get("format") == expected, (where, name, sub)
        if "oneOf" in choice:
            seen += check_choice(choice, units, (where, name))
        if sub.get("type") == "object":
            seen += walk(sub, units, (where, name))
    return seen


def check_choice(choice: dict[str, Any], units: dict[str, Any], where: object) -> int:
    consts = [entry["const"] for entry in choice["oneOf"]]
    assert len(consts) == len(set(map(json.dumps, consts))), (where, choice)  # oneOf: exactly one entry admits it
    format_ = choice.get("format")
    assert format_ is None or format_ in FORMATS, (where, choice)
    for entry in choice["oneOf"]:
        assert set(entry) == {"const", "title"}, (where, entry)
        const, title = entry["const"], entry["title"]
        assert isinstance(title, str) and title.strip(), (where, entry)
        assert format_ is None or title != str(const), (where, entry)  # a plain enum's name may be its value
        assert title not in ("A", "B"), (where, entry)  # a seat by its player's name
        if format_ == "unit":
            assert const in units and const not in title, (where, entry)  # by its name, never its id
            assert units[const]["name"] in title, (where, entry)
        if format_ == "seat":
            assert const in ("A", "B") and title in ("Alice", "Bob"), (where, entry)
        if format_ == "weapon":
            assert title.startswith(f"{const} (") and title.endswith(")"), (where, entry)  # with its profile
        if format_ in ("die", "model_line"):
            assert isinstance(const, int) and str(const) not in title.split(":")[0].split("(")[0], (where, entry)
        if format_ == "die":
            assert DIE.match(title), (where, entry)
    return len(consts)


class CheckedTable(HttpTable):
    """The random driver's table, every view it reads walked."""

    choices = 0

    def view(self, seat: str) -> dict[str, Any]:
        answer = super().view(seat)
        self.choices += assert_titled(answer, (seat, answer.get("version")))
        return answer


@pytest.fixture
def memory_http(tmp_path):
    with TestClient(create_app(settings_for(tmp_path, persistence="popo"))) as client:
        yield client


@pytest.mark.parametrize("ruleset, options", [("alternating", None), ("heresy", None),
                                              ("reference", {"objectives": ["centre", "north ruin"]})])
@pytest.mark.parametrize("dice_mode, seed", [("server", 31), ("table", 32)])
def test_every_offer_of_a_whole_random_game_reads_in_the_players_words(memory_http, ruleset, options, dice_mode,
                                                                        seed):
    rng = random.Random(seed)
    game = GameClient(memory_http, ruleset, dice_mode, options)
    table = CheckedTable(game, dice_mode)
    army_a, army_b = armies(rng)
    assert game.muster("A", army_a).status_code == 200
    assert_titled(game.state("A"), "setup")
    assert game.muster("B", army_b).status_code == 200
    final = Driver(table, rng).play(limit=1200)
    assert final["battle_round"] >= 2 and table.choices > 500  # a real game's worth of choices was read


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_every_offer_of_every_golden_scenario_reads_in_the_players_words(memory_http, path):
    def walked(game: GameClient, number: int) -> None:
        for seat in ("A", "B"):
            assert_titled(game.state(seat), (path.stem, number, seat))
    played(memory_http, json.loads(path.read_text()), after_step=walked)


def test_a_player_reads_the_die_to_re_roll_by_its_face_and_the_group_to_save_by_its_models():
    table = shooting_game(7)
    events = send(table, "A", {"type": "attack", "unit": "shooters", "weapon": "Boltgun", "target": "squad"})
    batch = events[-1]["data"]["batch"]
    (reroll,) = [a for a in table.view("A")["actions"] if a["type"] == "command_reroll"]
    assert reroll["title"] == "Command Re-roll"
    die = reroll["schema"]["properties"]["die"]
    assert die["format"] == "die" and die["title"] == "Die to re-roll"
    first = die["oneOf"][0]
    assert first["title"] == f"the {ordinal(first['const'] + 1)} die: a {batch[first['const']]}"
    assert all(entry["title"].endswith(f": a {batch[entry['const']]}") for entry in die["oneOf"])
    send(table, "A", {"type": "keep_dice"})
    while table.view("A")["awaiting"]["action"] in ("command_reroll", "keep_dice"):
        send(table, table.view("A")["awaiting"]["seat"], {"type": "keep_dice"})
    assert table.view("A")["awaiting"]["action"] == "allocate"
    (allocate,) = table.view("B")["actions"]
    assert allocate["title"] == "Save with"
    line = allocate["schema"]["properties"]["line"]
    assert line["format"] == "model_line" and line["title"] == "Model group to save next"
    assert line["oneOf"] == [{"const": 0, "title": "Trooper (4 of 4)"}, {"const": 1, "title": "Gunner (2 of 2)"}]
    attack = [a for a in table.view("A")["actions"] if a["type"] == "attack"]
    assert not attack  # the attack waits for the defender


def test_an_enemy_unit_is_named_with_its_owner_and_a_weapon_with_its_profile():
    table = shooting_game(7)
    (attack,) = [a for a in table.view("A")["actions"] if a["type"] == "attack"]
    assert attack["title"] == "Attack"
    fields = attack["schema"]["properties"]
    assert fields["target"] == {"oneOf": [{"const": "squad", "title": "Bob's Squad (6 of 6)"}], "format": "unit",
                                "title": "Unit to attack"}
    assert fields["weapon"]["oneOf"][0] == {"const": "Boltgun", "title": 'Boltgun (24", A2, S4, AP0, D1)'}
    assert fields["models"]["title"] == "Models attacking" and fields["models"]["description"]


def test_two_units_of_one_name_are_told_apart_everywhere_a_player_reads_them(new_game):
    from tests.support.client import unit

    game = new_game("alternating", dice="table")
    game.start([unit("scouts", 5)], [unit("boyz-1", 10, name="Boyz"), unit("boyz-2", 10, name="Boyz")])
    game.cmd("B", "record_casualties", unit="boyz-2", models=3)
    form = next(a for a in game.state("B")["records"] if a["type"] == "record_casualties")
    titles = {c["const"]: c["title"] for c in form["schema"]["properties"]["unit"]["oneOf"]}
    assert titles["boyz-1"] == "Boyz 1 (10 of 10)" and titles["boyz-2"] == "Boyz 2 (7 of 10)"
    recorded = [e for e in game.events() if e["type"] == "CasualtiesRecorded"][-1]
    assert recorded["text"] == "Bob's Boyz 2 (7 of 10) lost 3 models."
    assert game.state()["units"]["boyz-2"]["name"] == "Boyz"  # the roster's name, as mustered
