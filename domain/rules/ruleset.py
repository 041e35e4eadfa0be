"""What a ruleset is made of: the interpreter (rules/flow.py), the commands every ruleset knows
(rules/core.py) and the appliers of the core events (rules/core_state.py). A ruleset's parts subclass
`Ruleset`, so that each part reads the others it calls through `self`, typed; the shared words (seats,
steps, the handler and applier marks) are imported from here with it."""
from __future__ import annotations

from warlog.domain.rules.basics import HEX, SEATS, Step, alive, evolves, handles, inches, other
from warlog.domain.rules.core import CoreCommands
from warlog.domain.rules.core_state import CoreState

__all__ = ["HEX", "SEATS", "Ruleset", "Step", "alive", "evolves", "handles", "inches", "other"]


class Ruleset(CoreCommands, CoreState):
    """A ruleset: subclass it, declare `round_layout`, add `@handles("command")` and `@evolves("EventType")`
    methods (handlers judge and emit, appliers only change the state)."""
