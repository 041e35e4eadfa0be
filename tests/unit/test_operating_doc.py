"""docs/operating.md's table of settings is the settings class's own (issue 28): a setting added, renamed or given
another default without the page changing fails here."""
from __future__ import annotations

import re
from pathlib import Path

from warlog.api.settings import Settings

PAGE = Path(__file__).resolve().parents[2] / "docs" / "operating.md"


def test_the_operators_page_lists_every_setting_as_the_settings_class_has_it():
    text = PAGE.read_text(encoding="utf-8")
    table = re.search(r"<!-- settings table: Settings.table\(\) -->\n(.*)<!-- end of settings table -->", text, re.S)
    assert table is not None, "the page has lost its settings table's markers"
    assert table.group(1) == Settings.table(), "paste Settings.table() between the markers of docs/operating.md"
    assert all(f"`WARLOG_{name.upper()}`" in table.group(1) for name in Settings.model_fields)
