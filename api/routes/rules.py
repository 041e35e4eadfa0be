"""The rules warlog cites (RULES.md's table, shipped in the package as projections/rules_catalogue.json): every
refusal, event and audit names a rule by its ID, and these answer what the ID says, with no token; and the rulesets
a game may be played by, from the registry (the start page's choices)."""
from __future__ import annotations

import html
from itertools import groupby
from typing import Any

from fastapi import APIRouter, Depends
from fastapi.responses import HTMLResponse

from warlog.api.deps import no_unknown_query
from warlog.api.errors import Problem, problems
from warlog.api.rosters import readers
from warlog.api.wire import answer
from warlog.api.wire_audit import RuleCatalogue, RulesetList, RuleText
from warlog.domain.rules import registry
from warlog.projections.rules import catalogue, rule_view

router = APIRouter(tags=["rules"], dependencies=[Depends(no_unknown_query)])
ANONYMOUS: dict[str, Any] = {"security": []}


@router.get("/rules", summary="Every rule warlog cites", operation_id="listRules", openapi_extra=ANONYMOUS,
            responses=answer(RuleCatalogue, "every rule, sorted by its ID"),
            description="The rule table every refusal (`rule`), event (`rule`) and audit cites: each rule's ID, its "
                        "text in a line, its section (the ruleset or part of the service it belongs to) and the seed "
                        "text it comes from. The page `/rules.html` shows the same for people, a rule at "
                        "`/rules.html#ID`.")
async def rules() -> dict[str, Any]:
    return {"rules": [rule_view(rule_id) for rule_id in catalogue()]}


@router.get("/rules/{rule_id}", summary="One rule by its ID", operation_id="getRule", openapi_extra=ANONYMOUS,
            responses={**answer(RuleText, "the rule: its text in a line, section and seed"), **problems(404, 422)})
async def rule(rule_id: str) -> dict[str, Any]:
    if rule_id not in catalogue():
        raise Problem(404, f"No rule {rule_id} in warlog's rules: GET /rules lists every one.")
    found: dict[str, Any] | None = rule_view(rule_id)
    assert found is not None
    return found


@router.get("/rulesets", summary="The rulesets a game may be played by", operation_id="listRulesets",
            openapi_extra=ANONYMOUS, responses=answer(RulesetList, "each ruleset: its name, title and how it plays"),
            description="Each ruleset a game may be created with (`POST /games`'s `ruleset`), from the service's own "
                        "registry, in the order a start page offers them: its `name`, a `title` naming the game and "
                        "editions it models, a `summary` of how it plays in a line, and whether it reads roster "
                        "files (`rosters`). A client shows these rather than restating them.")
async def rulesets() -> dict[str, Any]:
    reading = set(readers())
    return {"rulesets": [{"name": name, "title": found.title, "summary": found.summary, "rosters": name in reading}
                         for name in registry.names() for found in [registry.find_ruleset(name)]]}


@router.get("/rules.html", response_class=HTMLResponse, include_in_schema=False)
async def rules_page() -> HTMLResponse:
    return HTMLResponse(PAGE, headers={"Cache-Control": "public, max-age=3600", "X-Content-Type-Options": "nosniff",
                                       "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'"})


def render() -> str:
    """The rules for people: a section a heading, a rule a row whose anchor is its ID (/rules.html#AA.ACT.3)."""
    rows = sorted(catalogue().items(), key=lambda item: (item[1]["section"] or "", item[0]))
    sections = []
    for section, rules_of in groupby(rows, key=lambda item: item[1]["section"] or "Other"):
        items = "".join(
            f'<tr id="{html.escape(rule_id)}"><th scope="row"><a href="#{html.escape(rule_id)}">{html.escape(rule_id)}'
            f'</a></th><td>{html.escape(row["summary"] or "")}</td></tr>' for rule_id, row in rules_of)
        sections.append(f"<section><h2>{html.escape(section)}</h2><table><tbody>{items}</tbody></table></section>")
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>warlog — the rules it cites</title>
<style>body{{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:0 auto;padding:1rem;color:#111;background:#fff}}
th{{text-align:left;vertical-align:top;white-space:nowrap;padding:.25rem 1rem .25rem 0}}td{{padding:.25rem 0}}
tr:target{{background:#fff3b0}}a{{color:#0645ad}}</style></head>
<body><main><h1>The rules warlog cites</h1>
<p>Every refusal, event and audit names one of these rules by its ID. The same as JSON: <a href="/rules">/rules</a>.
</p>{"".join(sections)}</main></body></html>"""


PAGE = render()
