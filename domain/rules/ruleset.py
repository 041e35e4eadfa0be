"""What a ruleset is made of: the interpreter (rules/flow.py), the commands every ruleset knows
(rules/core.py) and the appliers of the core events (rules/core_state.py), and the parts it is composed of
(rules/parts.py: `Part`, built with the ruleset, its marked methods joining the ruleset's dispatch tables).
A part is a class of its own that reads the ruleset it calls back through `self.rules`, typed by a small
Protocol; the rule areas not yet moved onto parts are still mixins that subclass `Ruleset` and read the
others through `self`. The shared words (seats, steps, the handler and applier marks, `Part`) are imported
from here with it."""
from __future__ import annotations

from warlog.domain.rules.basics import HEX, SEATS, Step, alive, evolves, handles, inches, other
from warlog.domain.rules.core import CoreCommands
from warlog.domain.rules.core_state import CoreState
from warlog.domain.rules.parts import Part

__all__ = ["HEX", "SEATS", "Part", "Ruleset", "Step", "alive", "evolves", "handles", "inches", "other"]


class Ruleset(CoreCommands, CoreState):
    """A ruleset: subclass it, declare `round_layout`, add `@handles("command")` and `@evolves("EventType")`
    methods (handlers judge and emit, appliers only change the state), and name its `parts`: a part's marks
    join its tables; a hook a part answers, the ruleset delegates to it (`self.part(Kind)`)."""
