"""RFC 9457 problem+json for every refusal and validation error."""
from __future__ import annotations

import re
from collections.abc import Mapping
from http import HTTPStatus
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from warlog.api.sentences import AtParameter, field_pointer, parameter_refusal, sentence
from warlog.domain.application import Conflict, PreconditionFailed
from warlog.domain.integrity import Damaged
from warlog.domain.rulings import Forbidden, Malformed, NotFound, Refused, Ruling

BASE = "https://warlog.dev/problems/"
TITLES = {400: "Bad request", 401: "Unauthorized", 403: "Forbidden", 404: "Not found", 405: "Method not allowed",
          409: "Refused by the rules", 412: "Precondition failed", 413: "Body too large",
          415: "Unsupported media type",
          422: "Request to fix", 429: "Too many requests", 500: "Internal error"}
SLUGS = {401: "unauthorized", 403: "forbidden", 404: "not-found", 409: "refused", 412: "precondition-failed",
         413: "too-large", 415: "unsupported-media-type", 422: "malformed", 429: "too-many-requests"}


PROBLEM = {"$ref": "#/components/schemas/Problem"}  # api/wire.py's Problem, written in by api/openapi.py
RETRY_AFTER = {"Retry-After": {"required": True, "description": "the seconds to wait before coming back",
                               "schema": {"type": "integer", "minimum": 1}}}
WHEN = {401: "no token, or an unknown one", 403: "the token may not do this (another game's, a spectator writing)",
        404: "no such game (or unit, or event)", 409: "a rule forbids it now (`rule` names it), or a race lost "
        "(`type` ends in /conflict, rule SVC.CONFLICT): send it again, or the game's stored log is damaged "
        "(rule SVC.DAMAGED, `first_bad_seq` names where; GET /verify says more)", 412: "If-Match names another version",
        413: "the body is larger than the service accepts",
        415: "a body not sent as Content-Type: application/json, or JSON in another encoding than UTF-8 (RFC 8259)",
        422: "malformed: the detail says what to fix",
        429: "too many requests or streams for this token (Retry-After)",
        500: "the service failed on this request: send it again (with the same Idempotency-Key, a write is not "
             "applied twice)"}


def problems(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI `responses` of these refusals, every one application/problem+json."""
    return {status: {"description": WHEN[status], "content": {"application/problem+json": {"schema": PROBLEM}},
                     **({"headers": RETRY_AFTER} if status == 429 else {})} for status in statuses}


READS = problems(401, 403, 404, 409, 422, 429)  # every request behind a token (422: a malformed query parameter;
# 409: SVC.DAMAGED, a game whose stored log fails its own check)
WRITES = problems(401, 403, 404, 409, 412, 413, 415, 422, 429)


class Problem(Exception):
    """An HTTP problem raised from the API layer itself (auth, limits)."""

    def __init__(self, status: int, detail: str, headers: dict[str, str] | None = None, **extra: Any):
        super().__init__(detail)
        self.status, self.detail, self.headers, self.extra = status, detail, headers or {}, extra


def problem_body(status: int, detail: str, rule: str | None = None, slug: str | None = None,
                 **extra: Any) -> dict[str, Any]:
    body = {"type": BASE + (slug or SLUGS.get(status, "error")), "title": TITLES.get(status, "Error"),
            "status": status, "detail": sentence(detail)}
    if rule:
        body["rule"] = rule
    body.update({k: v for k, v in extra.items() if v is not None})
    return body


STATUS_OF = ((Conflict, 409), (PreconditionFailed, 412), (Malformed, 422), (NotFound, 404),
             (Forbidden, 403), (Refused, 409))


def ruling_problem(error: Ruling) -> tuple[int, dict[str, Any]]:
    status = next(code for cls, code in STATUS_OF if isinstance(error, cls))
    slug = "conflict" if isinstance(error, Conflict) else "damaged" if isinstance(error, Damaged) else None
    extra = {"first_bad_seq": error.first_bad_seq, "damage": error.form} if isinstance(error, Damaged) else {}
    return status, problem_body(status, error.detail, error.rule, slug=slug,
                                field=error.field if isinstance(error, AtParameter) else field_pointer(error.field),
                                **extra)


def respond(status: int, body: dict[str, Any], headers: Mapping[str, str] | None = None) -> JSONResponse:
    return JSONResponse(body, status_code=status, headers=headers, media_type="application/problem+json")


def install(app: FastAPI) -> None:
    @app.exception_handler(Ruling)
    async def on_ruling(request: Request, error: Ruling) -> JSONResponse:
        status, body = ruling_problem(error)
        return respond(status, body)

    @app.exception_handler(Problem)
    async def on_problem(request: Request, error: Problem) -> JSONResponse:
        return respond(error.status, problem_body(error.status, error.detail, **error.extra), error.headers)

    @app.exception_handler(RequestValidationError)
    async def on_invalid(request: Request, error: RequestValidationError) -> JSONResponse:
        detail, field = parameter_refusal(list(error.errors()))
        return respond(422, problem_body(422, detail, field=field))

    @app.exception_handler(StarletteHTTPException)
    async def on_http(request: Request, error: StarletteHTTPException) -> JSONResponse:
        headers = error.headers
        if error.status_code == 405 and (methods := allowed(request)):
            headers = {**(headers or {}), "Allow": ", ".join(methods)}  # Starlette's names one route's only
        detail = str(error.detail)
        if error.status_code in (404, 405) and detail == HTTPStatus(error.status_code).phrase:  # Starlette's own
            detail = f"Nothing is served at {request.url.path}" if error.status_code == 404 else \
                f"The path {request.url.path} takes no {request.method}; it takes {', '.join(allowed(request)) or 'none'}"
        return respond(error.status_code, problem_body(error.status_code, detail), headers)


def allowed(request: Request) -> list[str]:
    """Every method the document gives the request's path (/games/{id}/undo has a GET and a POST, served by two
    routers), with HEAD beside GET; empty for a path the document leaves out (the pages)."""
    for template, operations in request.app.openapi()["paths"].items():
        pattern = "[^/]+".join(re.escape(part) for part in re.split(r"\{[^}/]+\}", template))
        if re.fullmatch(pattern, request.scope["path"]):
            methods = {method.upper() for method in operations}
            return sorted(methods | ({"HEAD"} if "GET" in methods else set()))
    return []
