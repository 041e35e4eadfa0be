"""The command as recorded beside its events (`as_data`): what the stored request reads back as."""
from __future__ import annotations

import json

from pydantic import TypeAdapter

from warlog.domain.commands import EndPhase, as_data


def test_a_command_is_recorded_as_json_gives_it_back_at_every_depth():
    # end_phase's control maps each objective to a tuple of units: a list once stored, so the request played
    # again (GET /verify, domain.rerun) must record a list too, or every scored Command phase reads as forged
    command = TypeAdapter(EndPhase).validate_python({"control": {"centre": ["a", "b"], "ridge": []}})
    recorded = as_data(command)
    assert recorded == json.loads(json.dumps(recorded))
    assert recorded["control"] == {"centre": ["a", "b"], "ridge": []} and recorded["type"] == "end_phase"
