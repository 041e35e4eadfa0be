"""What every refusal a player may read is held to (CONTRACT.md "In the players' words"): its `detail` is a
sentence, in words, with no type name, no pydantic message and no "null"."""
from __future__ import annotations

import re
from typing import Any

NOT_WORDS = re.compile(r"\bnull\b|\bNone\b|\bUUID\b|_type\b|_parsing\b|Malformed request|Input should|Field required|"
                       r"Extra inputs|Value error|Unexpected keyword|pydantic|\bdict\b|\bstr\b|\bint\b")


def assert_sentence(problem: dict[str, Any]) -> None:
    """The problem's detail is a sentence: a capital (or a backquoted name) first, a full stop last, no type
    names; and `field`, where there is one, is a JSON pointer or a parameter's name."""
    detail = problem["detail"]
    assert isinstance(detail, str) and detail, problem
    assert detail[0].isupper() or detail[0] in "`\"", f"not a sentence: {detail!r}"
    assert detail.endswith("."), f"not a sentence: {detail!r}"
    assert not NOT_WORDS.search(detail), f"not in the players' words: {detail!r}"
    field = problem.get("field")
    assert field is None or (isinstance(field, str) and field), problem
