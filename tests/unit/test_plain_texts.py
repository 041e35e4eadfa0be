"""A plain sentence (domain/words.py `Plain`, a kind's text that only names its event's fields, alone or one of a
`Chosen` kind's) is words, not code: what the type checker holds a text function to, this holds it to. Each field
it names is one its kind's payload type names (or the whole event, `{event:...}`), each spec names one of its
namers and hands it words only where it takes them, and a field said as it is, with no namer, is one every event
of the kind carries: a misspelt field or namer would fail only on the first event of that kind, a left-out one
would read "None"."""
from __future__ import annotations

import inspect

import pytest

from warlog.domain.rules.registry import find_ruleset, names
from warlog.domain.words import AS_SAID, EVENT, Chosen, Plain, Texts


def plain_sentences(ruleset: str) -> list[tuple[str, Plain]]:
    """(kind, sentence) of every plain sentence of the ruleset, each of a chosen kind's included."""
    said = []
    for kind, text in find_ruleset(ruleset).event_texts.items():
        if isinstance(text, Plain):
            said.append((kind, text))
        elif isinstance(text, Chosen):
            said += [(kind, sentence) for sentence in text.sentences.values()]
    return said


def takes(namer, words: str) -> bool:
    """Whether the namer takes (Words, the value) and, where the spec gives words, the words too."""
    try:
        inspect.signature(namer).bind(None, None, *([words] if words else []))
    except TypeError:
        return False
    return True


@pytest.mark.parametrize("ruleset", names())
def test_every_plain_sentence_names_only_fields_its_kind_logs_by_namers_it_has(ruleset):
    rules = find_ruleset(ruleset)
    plain = plain_sentences(ruleset)
    assert plain, f"{ruleset} has no plain sentence"
    wrong = []
    for kind, text in plain:
        payload = rules.event_payloads[kind]
        keys, required = set(payload.__annotations__), set(payload.__required_keys__)
        for field, spec in text.fields():
            if field not in keys and field not in AS_SAID and field != EVENT:
                wrong.append(f"{kind}: {{{field}}} is no field of its payload")
            if not spec and field in keys - required:
                wrong.append(f"{kind}: {{{field}}} is said as it is, but not every event of the kind logs it")
            namer, _, words = spec.partition(" ")
            if spec and namer not in text.namers:
                wrong.append(f"{kind}: {{{field}:{spec}}} names by no namer")
            elif spec and not takes(text.namers[namer], words):
                wrong.append(f"{kind}: {{{field}:{spec}}}: {namer} {'takes no words' if words else 'needs words'}")
    assert not wrong, "\n".join(wrong)



def test_a_spec_hands_its_namer_words_or_the_whole_event_and_a_chosen_kind_says_else_for_any_other_answer():
    texts = Texts({"pair": lambda w, d: f"{d['a']}–{d['b']}", "why": lambda w, reason: f": {reason}" if reason else ""})
    texts.plainly({"Rolled": "{n:plural die/dice} {n:verb was/were} rolled ({event:pair}){reason:why}"})
    texts.chosen("Picked", lambda d: d["a"], {1: "one", "else": "{a} is not one"})
    words = None  # these namers read nothing of the game
    assert texts["Rolled"](words, {"n": 2, "a": 1, "b": 6}) == "2 dice were rolled (1–6)"  # no reason: None to its namer
    assert texts["Rolled"](words, {"n": 1, "a": 1, "b": 6, "reason": "a re-roll"}) == "1 die was rolled (1–6): a re-roll"
    assert texts["Picked"](words, {"a": 1}) == "one"
    assert texts["Picked"](words, {"a": 3}) == "3 is not one"
