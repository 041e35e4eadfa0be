"""Every event the golden games log is held to its kind's payload type as it is logged (tests/support/payloads.py)."""
from __future__ import annotations

import pytest

from tests.support.payloads import check_payload
from warlog.domain.game import Game


@pytest.fixture(autouse=True)
def typed_payloads(monkeypatch):
    emit = Game.emit

    def checked(self, type_, data, *args, **kwargs):
        check_payload(self.state.ruleset, type_, data)
        return emit(self, type_, data, *args, **kwargs)

    monkeypatch.setattr(Game, "emit", checked)
