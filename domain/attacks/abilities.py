"""Weapon abilities as a table: keyword -> a few small functions, each citing its EXT rule (RULES.md).

A step of the attack asks the table one question by name (a *hook*) and gets back every answer
with the rule that gave it: `effects(weapon.keywords, "hit_modifier", profile)` is
`[("EXT.WPN.HEAVY", 1)]` for a HEAVY weapon whose unit remained stationary. Hooks:

    extra_attacks          per attacking model, a dice expression (BLAST, RAPID FIRE)
    automatic_hits         True: no hit roll (TORRENT)
    hit_modifier           an int before the EXT.MOD.1 cap (HEAVY)
    extra_hits_on_critical a dice expression per critical hit (SUSTAINED HITS)
    critical_hit_wounds    True: a critical hit wounds automatically (LETHAL HITS)
    wound_modifier         an int before the cap (LANCE)
    critical_wound_on      the unmodified wound roll that is critical (ANTI-KEYWORD)
    reroll_wounds          a re-roll policy (TWIN-LINKED)
    critical_wound_mortal  True: mortal wounds instead of damage, no save (DEVASTATING WOUNDS)
    extra_damage           a dice expression added to D (MELTA)
    precision              True: critical-hit wounds may go to a CHARACTER (PRECISION)
    hazardous              True: a D6 per model after the attack (HAZARDOUS)
    feel_no_pain           the D6 that stops a lost wound (FEEL NO PAIN, a defender's ability)

Adding an ability is one entry in `ABILITIES` (and one test). A keyword the table does not
know is parsed, kept (`known=False`) and shown, never applied (RULES.md EXT).
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from warlog.domain.attacks.profile import Profile


@dataclass(frozen=True)
class Keyword:
    name: str  # canonical: "SUSTAINED HITS", "ANTI", "TORRENT", or the text itself when unknown
    text: str  # as the roster wrote it
    amount: str | None = None  # a dice expression: SUSTAINED HITS D3, RAPID FIRE 1, MELTA 2
    threshold: int | None = None  # X+ of ANTI-KEYWORD X+ and FEEL NO PAIN X+
    of: str | None = None  # the keyword ANTI-KEYWORD looks for ("INFANTRY")
    known: bool = True

    @property
    def rule(self) -> str | None:
        ability = ABILITIES.get(self.name)
        return ability.rule if ability and self.known else None


Hook = Callable[[Keyword, "Profile"], Any]


@dataclass(frozen=True)
class Ability:
    rule: str
    summary: str
    hooks: Mapping[str, Hook] = field(default_factory=dict)
    parameter: str | None = None  # "amount", "threshold" or "anti": what the keyword carries
    selection: bool = False  # read when choosing what may shoot (RS.SHO.1), not during the attack


def _yes(keyword: Keyword, profile: Profile) -> bool:
    return True


def _amount(keyword: Keyword, profile: Profile) -> str:
    return keyword.amount or "1"


def _blast(keyword: Keyword, profile: Profile) -> str | None:
    if profile.situation.target_engaged_with_friendly:  # EXT.WPN.BLAST: never then
        return None
    bonus = profile.target.models // 5
    return str(bonus) if bonus else None


def _rapid(keyword: Keyword, profile: Profile) -> str | None:
    return _amount(keyword, profile) if profile.situation.within_half_range else None


def _heavy(keyword: Keyword, profile: Profile) -> int | None:
    return 1 if profile.situation.remained_stationary else None


def _lance(keyword: Keyword, profile: Profile) -> int | None:
    return 1 if profile.situation.charged else None


def _anti(keyword: Keyword, profile: Profile) -> int | None:
    return keyword.threshold if keyword.of in profile.target.all_keywords else None


def _twin(keyword: Keyword, profile: Profile) -> str:
    return "failed"


def _threshold(keyword: Keyword, profile: Profile) -> int | None:
    return keyword.threshold


ABILITIES: dict[str, Ability] = {
    "TORRENT": Ability("EXT.WPN.TORRENT", "hits automatically; never a critical hit (CORE.DICE.1)",
                       {"automatic_hits": _yes}),
    "SUSTAINED HITS": Ability("EXT.WPN.SUSTAINED", "a critical hit scores X extra hits",
                              {"extra_hits_on_critical": _amount}, "amount"),
    "LETHAL HITS": Ability("EXT.WPN.LETHAL", "a critical hit wounds automatically", {"critical_hit_wounds": _yes}),
    "DEVASTATING WOUNDS": Ability("EXT.WPN.DEVASTATING", "a critical wound inflicts D mortal wounds, no save",
                                  {"critical_wound_mortal": _yes}),
    "ANTI": Ability("EXT.WPN.ANTI", "against KEYWORD an unmodified wound roll of X+ is a critical wound",
                    {"critical_wound_on": _anti}, "anti"),
    "TWIN-LINKED": Ability("EXT.WPN.TWIN", "the wound roll may be re-rolled", {"reroll_wounds": _twin}),
    "BLAST": Ability("EXT.WPN.BLAST", "+1 attack per 5 models in the target", {"extra_attacks": _blast}),
    "RAPID FIRE": Ability("EXT.WPN.RAPID", "+X attacks within half range", {"extra_attacks": _rapid}, "amount"),
    "MELTA": Ability("EXT.WPN.MELTA", "+X damage within half range",
                     {"extra_damage": lambda k, p: _amount(k, p) if p.situation.within_half_range else None},
                     "amount"),
    "HEAVY": Ability("EXT.WPN.HEAVY", "+1 to hit after remaining stationary", {"hit_modifier": _heavy}),
    "LANCE": Ability("EXT.WPN.LANCE", "+1 to wound after a charge move", {"wound_modifier": _lance}),
    "PRECISION": Ability("EXT.WPN.PRECISION", "critical-hit wounds may be allocated to a CHARACTER",
                         {"precision": _yes}),
    "HAZARDOUS": Ability("EXT.WPN.HAZARDOUS", "a D6 per model after the attack; each 1 costs a model",
                         {"hazardous": _yes}),
    "FEEL NO PAIN": Ability("EXT.FNP", "each wound that would be lost is not on a D6 of X+",
                            {"feel_no_pain": _threshold}, "threshold"),
    "PISTOL": Ability("EXT.WPN.PISTOL", "may shoot while engaged, at a unit it is engaged with", selection=True),
    "ASSAULT": Ability("RS.SHO.1", "may shoot after Advancing (Assault shooting)", selection=True),
    "CLOSE-QUARTERS": Ability("RS.SHO.1", "may shoot while engaged (Close-quarters shooting)", selection=True),
    "INDIRECT FIRE": Ability("RS.SHO.1", "may shoot at what it cannot see (Indirect shooting)", selection=True),
}

_ANTI = re.compile(r"ANTI-([A-Z][A-Z0-9 '-]*?)\s+([2-6])\+")
_AMOUNT = re.compile(r"(SUSTAINED HITS|RAPID FIRE|MELTA)\s+(\d*D\d+(?:[+-]\d+)?|\d+)")
_THRESHOLD = re.compile(r"(FEEL NO PAIN)\s+([2-6])\+")
_ALIASES = {"TWIN LINKED": "TWIN-LINKED", "CLOSE QUARTERS": "CLOSE-QUARTERS", "LETHAL HIT": "LETHAL HITS",
            "DEVASTATING WOUND": "DEVASTATING WOUNDS", "INDIRECT": "INDIRECT FIRE"}


def parse_keyword(text: str) -> Keyword:
    """One keyword as a roster writes it: "Sustained Hits D3", "[ANTI-INFANTRY 4+]", "twin-linked"."""
    words = re.sub(r"\s+", " ", text.strip().strip("[]").strip()).upper()
    words = _ALIASES.get(words, words)
    if m := _ANTI.fullmatch(words):
        return Keyword("ANTI", text, threshold=int(m.group(2)), of=m.group(1).strip())
    if m := _AMOUNT.fullmatch(words):
        return Keyword(m.group(1), text, amount=m.group(2))
    if m := _THRESHOLD.fullmatch(words):
        return Keyword(m.group(1), text, threshold=int(m.group(2)))
    if words in ABILITIES and ABILITIES[words].parameter is None:
        return Keyword(words, text)
    return Keyword(words, text, known=False)  # unknown, or missing its X: kept and shown, not applied


def parse_keywords(texts: Iterable[str]) -> tuple[Keyword, ...]:
    """Every keyword of a list such as ["[ASSAULT, HEAVY]", "Sustained Hits 1"] (commas split inside brackets)."""
    found = []
    for text in texts:
        for part in text.strip().strip("[]").split(","):
            if part.strip():
                found.append(parse_keyword(part))
    return tuple(found)


def effects(keywords: Iterable[Keyword], hook: str, profile: Profile) -> list[tuple[str, Any]]:
    """(rule, answer) for every known keyword whose ability answers `hook` with something other than None."""
    answers = []
    for keyword in keywords:
        ability = ABILITIES.get(keyword.name)
        if keyword.known and ability and hook in ability.hooks:
            value = ability.hooks[hook](keyword, profile)
            if value is not None:
                answers.append((ability.rule, value))
    return answers
