"""Schemathesis against the in-process app: what the OpenAPI document says is what the service does.

Stateless: every operation with examples generated from its schema, sent for a started game with a
seat token. Stateful: sequences that create a game and follow the document's links from POST /games
(its `game_id` in the path, one of its tokens as Authorization) into every route of that game. Checks:
no server error, every status and content type documented, every body matches its schema. The
streams are left out: they follow the game live and never end by themselves.
"""
from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis.errors import FlakyStrategyDefinition, Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (content_type_conformance, response_schema_conformance,
                                               status_code_conformance)

from api.app import create_app
from tests.conftest import settings_for
from tests.support.client import unit

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
STREAMS = r"/stream$"
EXAMPLES = 20  # per operation and mode: with the stateful phase, about a minute on two shared cores
SENT: Counter[str] = Counter()  # requests that reached the app, by phase
ANSWERED: Counter[tuple[str, int]] = Counter()  # (phase, status) of what schemathesis sent
SCENARIOS, SCENARIO_SESSIONS = 60, 20  # sequences, in at most this many sessions of hypothesis
SCENARIOS_RUN = [0]
FOLLOWED: Counter[str] = Counter()  # operations of a created game that answered 2xx in the stateful phase


class Counted:
    """The app, counting the HTTP requests that reach it (the schema's own fetch is not counted)."""

    def __init__(self, app: Any) -> None:
        self.app, self.phase = app, "setup"

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["path"] != "/openapi.json":
            SENT[self.phase] += 1
        await self.app(scope, receive, send)


@pytest.fixture
def served(tmp_path):
    # one app per test: schemathesis' pytest plugin ends every ASGI lifespan it started when a test ends
    return Counted(create_app(settings_for(tmp_path)))


@pytest.fixture
def api_schema(served):
    return schemathesis.openapi.from_asgi("/openapi.json", served).exclude(path_regex=STREAMS)


@pytest.fixture
def table(api_schema) -> dict[str, Any]:
    """A started game, made through the schema's own operations (the same transport as the tests)."""
    created = api_schema["/games"]["POST"].Case(body={
        "ruleset": "alternating", "players": [{"seat": "A", "name": "Al"}, {"seat": "B", "name": "Bo"}]}).call()
    assert created.status_code == 201, created.text
    game = created.json()
    for seat, uid in (("A", "scouts-1"), ("B", "boyz-1")):
        mustered = api_schema["/games/{game_id}/armies"]["POST"].Case(
            path_parameters={"game_id": game["game_id"]}, body={"units": [unit(uid)]},
            media_type="application/json",  # /armies also takes a roster file (application/octet-stream)
            headers={"Authorization": f"Bearer {game['tokens'][seat]}"}).call()
        assert mustered.status_code == 200, mustered.text
    started = api_schema["/games/{game_id}/commands"]["POST"].Case(
        path_parameters={"game_id": game["game_id"]}, body={"type": "start_game"},
        headers={"Authorization": f"Bearer {game['tokens']['A']}"}).call()
    assert started.status_code == 200, started.text
    return game


def operations(api_schema):
    for result in api_schema.get_all_operations():
        yield result.ok()


def test_every_operation_answers_what_the_document_says(api_schema, table, served):
    """Each operation's generated examples, valid and invalid (schemathesis' pytest loader from a fixture
    reads a pytest node attribute that pytest 9 no longer has, so the operations are walked here)."""
    served.phase = "stateless"

    def send(case):
        if "game_id" in (case.path_parameters or {}):  # for the real game, with a seat's token
            case.path_parameters["game_id"] = table["game_id"]
            case.headers = {**(case.headers or {}), "Authorization": f"Bearer {table['tokens']['A']}"}
        response = case.call()
        ANSWERED["stateless", response.status_code] += 1
        case.validate_response(response, checks=CHECKS)

    def examples(strategy):
        @settings(max_examples=EXAMPLES, deadline=None, database=None, suppress_health_check=list(HealthCheck))
        @given(case=strategy)
        def each(case):
            send(case)
        each()

    unsatisfiable = []
    for operation in operations(api_schema):
        examples(operation.as_strategy(generation_mode=GenerationMode.POSITIVE))
        try:
            examples(operation.as_strategy(generation_mode=GenerationMode.NEGATIVE))
        except Unsatisfiable:  # nothing in the operation can be made invalid (its one path id is any string)
            unsatisfiable.append(operation.label)
    assert len(unsatisfiable) < 6, unsatisfiable
    assert SENT["stateless"] >= 10 * EXAMPLES


def test_sequences_that_follow_the_links_from_a_created_game_answer_what_the_document_says(api_schema, served):
    class Workflow(api_schema.as_state_machine()):
        def setup(self):
            SCENARIOS_RUN[0] += 1

        def after_call(self, response, case):
            ANSWERED["stateful", response.status_code] += 1
            if "{game_id}" in case.path and response.status_code < 300:
                FOLLOWED[case.operation.label] += 1

        def validate_response(self, response, case, additional_checks=None, **kwargs):
            case.validate_response(response, checks=CHECKS, transport_kwargs=kwargs)

    served.phase = "stateful"
    before = SENT["stateful"]
    for _session in range(SCENARIO_SESSIONS):
        try:
            Workflow.run(settings=settings(max_examples=SCENARIOS, stateful_step_count=8, deadline=None,
                                           database=None, phases=[Phase.generate], derandomize=False,
                                           suppress_health_check=list(HealthCheck)))
            break
        except FlakyStrategyDefinition:
            # the service's own state (server dice, a game's progress) changed what a scenario drew the
            # second time; schemathesis' own runner then goes on in a fresh session, and so does this test
            continue
    assert SCENARIOS <= SCENARIOS_RUN[0], SCENARIOS_RUN
    # the links carried a created game's id and token: calls behind a token were answered, not all 401/404
    assert SENT["stateful"] > before
    assert len(FOLLOWED) >= 5, FOLLOWED
    print(f"\nschemathesis sent {SENT['stateless']} stateless and {SENT['stateful']} stateful requests "
          f"(set-up: {SENT['setup']}); answers: {dict(sorted(ANSWERED.items()))}; followed: {dict(FOLLOWED)}")
