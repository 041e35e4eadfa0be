"""A unit's model lines as they stand (RS.ATK.3): models alive and the wounds its wounded model lost, line by line,
as the next attack reads them (`line_standing`) and as wounds recorded at the table leave them (`wounds_recorded`).
They read the state's units only, so the shared commands (rules/core.py) and the attack driver read them alike."""
from __future__ import annotations

from warlog.domain import events as ev
from warlog.domain.state import Lines, Unit
from warlog.domain.state.values import replace


def line_standing(unit: Unit) -> tuple[list[int], list[int]]:
    """Models alive and the wounded model's lost wounds, per model line: as the last attack left them, with what
    was recorded since laid over them (RS.ATK.3).

    Without lines kept by an attack (none yet, or dropped by mortal wounds outside one or by revived models) a
    unit's mustered lines are the start. Models lost since are taken from the first lines first; models returned
    come back to the first lines short of their count, with full W (CORE.REV.1). A kept wounded model keeps its
    lost wounds on its line while that line has a model standing; wounds known only as a count (`model_damage`,
    with no lines kept) go to the first line standing with more W than that, else to none. What comes out always
    makes a valid `ModelLine` each: a wounded model is alive and has lost fewer wounds than its W."""
    counts = [line.count for line in unit.models]
    wounds = [line.wounds for line in unit.models]
    kept = unit.lines
    if not (kept and len(kept.alive) == len(counts) == len(kept.taken)):
        kept = None
    alive, taken = (list(kept.alive), list(kept.taken)) if kept else (list(counts), [0] * len(counts))
    change = unit.models_alive - sum(alive)
    for i in range(len(alive)):
        moved = min(counts[i] - alive[i], change) if change > 0 else -min(alive[i], -change)
        alive[i] += moved
        change -= moved
    taken = [t if n and 0 < t < w else 0 for t, n, w in zip(taken, alive, wounds)]
    damage = 0 if kept else unit.model_damage or 0  # kept lines say whose the wounds are
    if damage:
        fits = next((i for i, (n, w) in enumerate(zip(alive, wounds)) if n and damage < w), None)
        if fits is not None:
            taken[fits] = damage
    return alive, taken


def wounds_recorded(unit: Unit, removed: int, wounds: int) -> tuple[Lines, int]:
    """`record_casualties` (CORE.STR.2): after `removed` models, `wounds` lost by one model, the wounded one if
    there is one, else the first standing (RS.ATK.3's order); a model that has lost its every wound is destroyed,
    the excess lost. The lines it leaves, and the models destroyed by the wounds (0 or 1)."""
    alive, taken = line_standing(replace(unit, models_alive=max(0, unit.models_alive - removed)))
    line = next((i for i, lost in enumerate(taken) if lost), None)
    line = line if line is not None else next((i for i, n in enumerate(alive) if n), None)
    slain = 0
    if line is not None:
        taken[line] += wounds
        if taken[line] >= unit.models[line].wounds:
            alive[line], taken[line], slain = alive[line] - 1, 0, 1
    return Lines(alive=tuple(alive), taken=tuple(taken)), slain


def with_lines(unit: Unit, lines: ev.ModelLines) -> Unit:
    """The unit with its model lines kept as an event logged them (an attack's, wounds recorded): `line_standing`
    reads them next, its wounded model's lost wounds with them."""
    kept = Lines.from_json(lines)
    return replace(unit, lines=kept, model_damage=next((taken for taken in kept.taken if taken), 0))
