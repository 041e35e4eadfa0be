"""A plain sentence (domain/words.py `Plain`, a kind's text that only names its event's fields) is words, not code:
what the type checker holds a text function to, this holds it to. Each field it names is one its kind's payload
type names, and each spec one of its namers: a misspelt field would fail only on the first event of that kind."""
from __future__ import annotations

import pytest

from warlog.domain.rules.registry import find_ruleset, names
from warlog.domain.words import AS_SAID, Plain


@pytest.mark.parametrize("ruleset", names())
def test_every_plain_sentence_names_only_fields_its_kind_logs_by_namers_it_has(ruleset):
    rules = find_ruleset(ruleset)
    plain = {kind: text for kind, text in rules.event_texts.items() if isinstance(text, Plain)}
    assert plain, f"{ruleset} has no plain sentence"
    wrong = []
    for kind, text in plain.items():
        keys = set(rules.event_payloads[kind].__annotations__)
        for field, spec in text.fields():
            if field not in keys and field not in AS_SAID:
                wrong.append(f"{kind}: {{{field}}} is no field of its payload")
            if spec and spec not in text.namers:
                wrong.append(f"{kind}: {{{field}:{spec}}} names by no namer")
    assert not wrong, "\n".join(wrong)
