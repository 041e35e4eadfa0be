"""The model lines an attack (or damage outside one) is read against, after what the table recorded since the last
attack (domain/attacks/lines.py `line_standing`, RS.ATK.3): models alive and the wounded model's lost
wounds per line, always a valid target for the attack module."""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from tests.support.client import unit
from warlog.domain.attacks.contract import target_from
from warlog.domain.attacks.lines import line_standing
from warlog.domain.state import Lines, ReferenceTurn, Unit

TROOPER = {"name": "Trooper", "count": 2, "W": 1, "T": 4, "Sv": 4}
GUNNER = {"name": "Gunner", "count": 1, "W": 2, "T": 4, "Sv": 4}
VETERAN = {"name": "Veteran", "count": 2, "W": 3, "T": 4, "Sv": 4}


def squad(models_alive: int, lines: dict[str, list[int]] | None = None, model_damage: int = 0,
          models: tuple[dict[str, Any], ...] = (TROOPER, GUNNER)) -> Unit:
    mustered = Unit.mustered("A", unit("squad", models=list(models)), ReferenceTurn)
    return replace(mustered, models_alive=models_alive, model_damage=model_damage,
                   lines=Lines.from_json(lines) if lines is not None else None)


def standing(body: Unit) -> tuple[list[int], list[int]]:
    alive, taken = line_standing(body)
    target_from([body], alive=[alive], wounds_taken=[taken])  # the attack module accepts it
    return alive, taken


def test_a_trooper_removed_by_the_table_leaves_the_wounded_gunner_wounded():
    assert standing(squad(2, {"alive": [2, 1], "taken": [0, 1]}, 1)) == ([1, 1], [0, 1])


def test_models_lost_since_the_attack_come_off_what_the_attack_left_not_the_mustered_counts():
    # the gunner fell in the attack; a trooper removed since does not bring it back
    assert standing(squad(1, {"alive": [2, 0], "taken": [0, 0]})) == ([1, 0], [0, 0])


def test_a_wounded_model_whose_line_is_gone_takes_its_wounds_with_it():
    # a wounded veteran was the one removed: its 1 lost wound is not moved onto the gunner
    assert standing(squad(1, {"alive": [1, 1], "taken": [1, 0]}, 1, (VETERAN, GUNNER))) == ([0, 1], [0, 0])


def test_revived_models_return_to_their_lines_and_a_wound_known_only_as_a_count_goes_where_it_fits():
    # the troopers fell, the gunner was wounded, one trooper was revived (its lines dropped): the gunner's wound
    # cannot be a W1 trooper's
    assert standing(squad(2, None, 1)) == ([1, 1], [0, 1])
    assert standing(squad(3, None, 0)) == ([2, 1], [0, 0])
    assert standing(squad(1, None, 2)) == ([0, 1], [0, 0])  # no model standing has more than 2 W
