"""Files of ../shared read at test time (the roster corpus, RULES.md): they sit beside the project's own clone and
never ship (the rosters embed publishers' rules text). A public clone has no ../shared: a test that needs it skips,
naming what is missing (or set WARLOG_SHARED to where it is); `.ci/run` sets WARLOG_SHARED_REQUIRED=1, so there its absence fails instead."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

SHARED = Path(os.environ.get("WARLOG_SHARED") or Path(__file__).resolve().parents[2].parent / "shared")
# WARLOG_SHARED names ../shared where the clone does not sit beside it (a git worktree elsewhere)
REQUIRED = "WARLOG_SHARED_REQUIRED"


def shared(*parts: str) -> Path:
    """The path of a file or folder of ../shared; a skip (a failure under WARLOG_SHARED_REQUIRED=1) when absent."""
    path = SHARED.joinpath(*parts)
    if path.exists():
        return path
    why = (f"{path} is not here: ../shared (the roster corpus and RULES.md) sits beside the project's own clone and "
           f"is not in a public one")
    if os.environ.get(REQUIRED) == "1":
        pytest.fail(why)
    pytest.skip(why)


def corpus() -> Path:
    """The real roster files players made (../shared/rosters/, with its MANIFEST)."""
    return shared("rosters")


# the corpus's files by name (tests/unit/test_rosters_corpus.py holds the folder to this list, MANIFEST aside)
CORPUS_FILES = (
    "40k10e_leagues-of-votann.rosz", "40k10e_necrons.rosz", "40k10e_ultramarines.rosz",
    "40k11e_newrecruit_aeldari-hank-2k.json", "40k8e_imperial-knights.ros", "40k8e_magnus_NOT-ZIPPED.rosz",
    "40k9e_grey-knights-land-raider.rosz", "40k9e_wound-track-monsters.ros", "aos4_newrecruit_kruleboyz.json",
    "aos4_newrecruit_kruleboyz.rosz", "hh1-30k_mechanicum-knight-bunker.ros", "hh1-30k_traitor-legion-transports.ros",
    "hh2_dark-angels.rosz", "hh2_dark-angels_LEADING-SPACE-typenames.ros", "hh3_newrecruit_dark-angels-small.rosz",
    "killteam2021_kommandos.rosz")
