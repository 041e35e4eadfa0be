"""CONTRACT.md "Legal actions", as the contract states it, for every ruleset and both dice modes.

- Sound: hypothesis plays whole games by drawing, at every moment, one offered action of either seat
  and an instance of its schema; none is refused, and every game ends.
- Complete: at random moments a command outside every schema offered to that seat (a schema's instance
  mutated, or a type not offered) is sent, and each is refused and appends nothing.
"""
from __future__ import annotations

import copy
import random
from typing import Any
from uuid import UUID

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from tests.golden.driver import AppTable, assert_awaiting_is_offered
from tests.support.client import unit, vehicle
from tests.support.instances import choice, consts, instance, strategy
from warlog.domain.application import Warlog
from warlog.domain.rules.actions import Action
from warlog.domain.rules.actions import offered as admitted

AT = "2026-01-01T00:00:00.000Z"
RULESETS = ("alternating", "reference", "heresy")
GAMES = settings(max_examples=30, deadline=None, derandomize=True,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
MOVE_TYPES = ("select", "pass", "declare_done", "end_phase", "roll", "roll_off", "choose_order",
              "confirm_count", "start_game", "attack", "resolve_charge")


def army(seat: str, rng: random.Random) -> list[dict[str, Any]]:
    """A bit of everything the three rulesets read: weapons of each kind, two model lines, a transport with
    passengers, reserves, a fleeing (and, in heresy, Routed) unit, an immobile bunker (with the older editions'
    armour values), a heavy weapon with INDIRECT FIRE."""
    p = seat.lower()
    kind, shots = rng.choice([("rapid_fire", "2"), ("heavy", "3"), ("pistol", "1"), ("assault", "D6")])
    guns = [{"name": "Gun", "type": "ranged", "range": 24, "A": shots, "skill": 4, "S": 4, "AP": -1, "D": "1",
             "kind": kind, "keywords": ["ASSAULT"] if kind == "assault" else []},
            {"name": "Mortar", "type": "ranged", "range": 48, "A": "D3", "skill": 4, "S": 5, "AP": 0, "D": "D3",
             "kind": "heavy", "keywords": ["INDIRECT FIRE"]},
            {"name": "Blade", "type": "melee", "A": "2", "S": 4, "AP": 0, "D": "1"}]
    units = [unit(f"{p}-squad", rng.randint(2, 8), abilities=("ATSKNF",) if rng.random() < 0.5 else (), weapons=guns),
             unit(f"{p}-mob", rng.randint(3, 10), statuses=("falling_back", "routed") if rng.random() < 0.3 else ()),
             unit(f"{p}-brawlers", rng.randint(1, 4), ranged=False),
             vehicle(f"{p}-transport", capacity=10, fire_points=rng.choice([0, 2]), hull_points=rng.randint(1, 3)),
             unit(f"{p}-passengers", rng.randint(1, 4), embarked_in=f"{p}-transport")]
    if rng.random() < 0.5:  # a second model line: the defender picks which group saves first (RS.ATK.3)
        mob = units[1]
        mob["models"].append({**mob["models"][0], "name": "Gunner", "count": 1, "W": 2})
    if rng.random() < 0.5:
        units.append(unit(f"{p}-reserve", 3, in_reserves=True))
    if rng.random() < 0.3:
        units.append(vehicle(f"{p}-bunker", M=0, hull_points=2))
        units[-1]["models"][0]["armour"] = {"front": 10, "side": 9, "rear": 8}  # the heresy tables read them
    return units


def new_game(ruleset: str, dice_mode: str, seed: int, rounds: int) -> tuple[Warlog, AppTable]:
    warlog = Warlog(env={"PERSISTENCE_MODULE": "eventsourcing.popo"})
    created = warlog.create_game(ruleset, {"A": "Alice", "B": "Bob"}, dice_mode, {"battle_rounds": rounds}, AT,
                                 game_id=UUID(int=seed), seed=seed.to_bytes(32, "big"))  # the same dice every run
    game_id = UUID(created["game_id"])
    rng = random.Random(seed)
    for seat in "AB":
        units = army(seat, rng)
        warlog.muster(game_id, seat, units, AT)
    return warlog, AppTable(warlog, game_id, dice_mode)


def offers(table: AppTable) -> dict[str, dict[str, Any]]:
    views = {seat: table.view(seat) for seat in "AB"}
    assert_awaiting_is_offered(views)
    return views


@GAMES
@given(data=st.data(), ruleset=st.sampled_from(RULESETS), dice_mode=st.sampled_from(["server", "table"]),
       seed=st.integers(0, 2**31), rounds=st.integers(2, 3))
def test_any_instance_of_an_offered_action_is_accepted_and_every_game_ends(data, ruleset, dice_mode, seed, rounds):
    _, table = new_game(ruleset, dice_mode, seed, rounds)
    moves = 0
    for _ in range(4000):
        views = offers(table)
        if views["A"]["status"] == "ended":
            break
        seat, action = data.draw(st.sampled_from([(s, a) for s in "AB" for a in views[s]["actions"]]))
        body = data.draw(strategy(action["schema"]), label=f"{seat} {action['type']}")
        status, answer = table.send(seat, body)
        assert status in (200, 202), f"{ruleset}/{dice_mode}: offered {action} to {seat}, sent {body}: {answer}"
        moves += 1
    assert table.view("A")["status"] == "ended"
    event(f"{ruleset}/{dice_mode}")
    event(f"moves: {moves // 100 * 100}+")


def outside(views: dict[str, dict[str, Any]], rng: random.Random) -> tuple[str, dict[str, Any]] | None:
    """A command for one seat that is an instance of none of the schemas offered to it."""
    seat = rng.choice("AB")
    mine = [Action(a["type"], a["rule"], a["summary"], a["schema"]) for a in views[seat]["actions"]]
    units = [*list(views["A"]["units"]), "no-such-unit"]
    candidates = [{"type": rng.choice(MOVE_TYPES)},
                  {"type": "select", "unit": rng.choice(units)},
                  {"type": "select", "unit": rng.choice(units), "act": rng.random() < 0.5}]
    for action in mine:
        body = {name: (sub.get("const") if "const" in sub else consts(sub)[0] if choice(sub) else None)
                for name, sub in action.schema["properties"].items() if name in action.schema["required"]}
        candidates += [{**body, "bogus": 1}, {k: v for k, v in body.items() if k != rng.choice(list(body))}]
        for name, sub in action.schema["properties"].items():
            mutant = copy.deepcopy(body)
            if choice(sub):
                mutant[name] = rng.choice([*units, "C", 7, None])
            elif sub.get("type") in ("number", "integer"):
                mutant[name] = sub.get("maximum", 0) + rng.choice([1, 0.5, 1000])
            elif sub.get("type") == "array":
                mutant[name] = [rng.choice(units)] * (sub.get("maxItems", 0) + 1)
            elif sub.get("type") == "boolean":
                mutant[name] = "yes"
            else:
                continue
            candidates.append(mutant)
    rng.shuffle(candidates)
    for body in candidates:
        if body.get("type") in views[seat]["anytime"]:
            continue
        if not admitted(mine, body):
            return seat, body
    return None


def refuse_outside(warlog: Warlog, table: AppTable, views: dict[str, dict[str, Any]], rng: random.Random) -> bool:
    """Send a command outside every schema offered to its seat, if one is found: it is refused, nothing appended."""
    probe = outside(views, rng)
    if probe is None:
        return False
    version = warlog.read(table.game_id).version
    status, answer = table.send(*probe)
    assert status in (404, 409, 422), f"{probe} is no offered action, yet: {status} {answer}"
    assert warlog.read(table.game_id).version == version, f"{probe} appended"
    return True


@settings(max_examples=12, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(ruleset=st.sampled_from(RULESETS), dice_mode=st.sampled_from(["server", "table"]), seed=st.integers(0, 2**31))
def test_a_command_outside_every_offered_schema_is_refused_and_appends_nothing(ruleset, dice_mode, seed):
    warlog, table = new_game(ruleset, dice_mode, seed, rounds=2)
    rng, refused = random.Random(seed), 0
    for _ in range(4000):
        views = offers(table)
        if views["A"]["status"] == "ended":
            break
        if rng.random() < 0.3:
            refused += refuse_outside(warlog, table, views, rng)
        seat, action = rng.choice([(s, a) for s in "AB" for a in views[s]["actions"]])
        status, answer = table.send(seat, instance(action["schema"], rng))
        assert status in (200, 202), answer
    assert table.view("A")["status"] == "ended"
    assert refused > 0
