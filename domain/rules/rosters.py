"""How a ruleset reads the units of a roster file (BattleScribe, New Recruit): what api/rosters, the adapter at
the edge, asks of it. The domain never sees the file; a ruleset only says which game systems it plays and on
which scale its rules read a weapon's AP. A ruleset that states none takes no roster file (its armies come as
JSON units)."""
from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class RosterReading:
    older_ap: bool  # its rules read AP on the older 1-6 scale (null: none), else as a modifier (0, -1, ...)
    systems: tuple[str, ...] = ()  # patterns searched in a roster's game system name (lower case): it plays these
    systems_older_ap: bool = False  # the rosters of those systems write AP on the older scale (Horus Heresy's)

    def plays(self, game_system: str) -> bool:
        name = game_system.lower()
        return any(re.search(pattern, name) for pattern in self.systems)


NOT_THE_OLDER_ERAS = r"^(?!.*(?:horus heresy|30,000|30k|kill team))"  # a 40k edition named in another game's list
