"""The browser pages: the start page (`GET /`), the table app (`GET /play/{id}`), their static files, and the
QR code of a seat's link. The pages are clients of the HTTP contract and hold no rule (STYLE.md)."""
from __future__ import annotations

import hashlib
import io
import re
from importlib.resources import files

import segno
from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from pydantic import Field, ValidationError

from warlog.api.deps import no_unknown_query
from warlog.api.errors import problems
from warlog.api.json_body import parse_json
from warlog.api.schemas import Body, body_context, request_body
from warlog.api.sentences import invalid
from warlog.api.writing import is_json, not_json, read_body

router = APIRouter(tags=["pages"])
STATIC = files("warlog.api") / "static" / "app"  # package data: pyproject ships api/static/** (tests/e2e checks)
TYPES = {".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
         ".html": "text/html; charset=utf-8"}
FILES = {item.name: item.read_text(encoding="utf-8") for item in STATIC.iterdir()
         if any(item.name.endswith(ending) for ending in TYPES)}
# One version for the app's files together: its modules import each other in a cycle (form.js <-> dice.js), so a
# file's own hash could not cover what it imports; a change to any file gives every file a new address
VERSION = hashlib.sha256("".join(name + FILES[name] for name in sorted(FILES)).encode()).hexdigest()[:16]
IMMUTABLE = "public, max-age=31536000, immutable"  # a versioned address never changes what it answers


def versioned(text: str) -> str:
    """The app's references to its own files (`/app/app.css` in a page, `./form.js` in a module) with `?v=`:
    every importer names a module by the same address, so the browser loads it once."""
    names = "|".join(re.escape(name) for name in FILES if not name.endswith(".html"))
    return re.sub(rf"""(["'])((?:/app/|\./)(?:{names}))\1""", rf"\1\2?v={VERSION}\1", text)


ASSETS = {name: versioned(text) for name, text in FILES.items()}
# weak: the same file is sent gzipped or not (GZipMiddleware in api/app.py), equal in meaning, not in bytes
ETAGS = {name: f'W/"{hashlib.sha256(text.encode()).hexdigest()[:20]}"' for name, text in ASSETS.items()}
HEADERS = {
    "Referrer-Policy": "no-referrer",  # a seat's link carries its token (in the fragment, but never leak it)
    "X-Content-Type-Options": "nosniff",
    # own files only; the one connection they make is to this service; QR codes arrive as inline SVG
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
                               "img-src 'self' data: blob:; base-uri 'none'; form-action 'none'",
}


def served(request: Request, name: str, cache: str) -> Response:
    """A file of the app with its ETag; 304 with no body when the browser already holds it (If-None-Match)."""
    headers = {**HEADERS, "Cache-Control": cache, "ETag": ETAGS[name]}
    kind = TYPES["." + name.rsplit(".", 1)[1]]
    held = {tag.strip() for tag in request.headers.get("if-none-match", "").split(",")}
    if held & {ETAGS[name], ETAGS[name].removeprefix("W/"), "*"}:  # the weak comparison RFC 9110 asks of a GET
        return Response(status_code=304, headers=headers)
    return Response(ASSETS[name], media_type=kind, headers=headers)


def page(request: Request, name: str) -> Response:
    return served(request, name, "no-cache")  # revalidated on every load: its files' addresses may have changed


@router.get("/", response_class=HTMLResponse, include_in_schema=False)
async def start_page(request: Request) -> Response:
    return page(request, "start.html")


@router.get("/play/{game_id}", response_class=HTMLResponse, include_in_schema=False)
async def table_app(game_id: str, request: Request) -> Response:
    # the token is in the fragment (#token=...), which a browser never sends: nothing to check here
    return page(request, "play.html")


@router.get("/app/demo-armies.json", include_in_schema=False)
async def demo_armies() -> JSONResponse:
    from warlog.api.cli import DEMO_ARMIES  # one copy of the demo armies, the one `warlog serve --demo` musters

    return JSONResponse(DEMO_ARMIES)


@router.get("/app/{name}", include_in_schema=False)
async def asset(name: str, request: Request) -> Response:
    if name not in ASSETS or name.endswith(".html"):
        raise HTTPException(404, f"no page file {name!r}")
    # the address the pages use (`?v=` this version) is kept a year; any other is revalidated by its ETag
    return served(request, name, IMMUTABLE if request.query_params.get("v") == VERSION else "no-cache")


class QrRequest(Body):
    """POST /qr's body: the text to draw as a QR code."""

    # a QR code at error correction M holds 2,331 bytes: 500 characters fit whatever they are (4 UTF-8 bytes each
    # at most), where 1,000 emoji would not (segno refused them: a 500); a seat's link is some 150
    data: str = Field(min_length=1, max_length=500, description="the text to encode, usually a seat's link")


# the body's limit is a command's: every body the schema admits (500 characters, each escaped as \uXXXX\uXXXX
# at worst, 6 KB) is read and judged, so a text too long is 422, never 413
QR_BYTES = 64 * 1024


@router.post("/qr", dependencies=[Depends(no_unknown_query)], response_class=Response, operation_id="drawQrCode",
             responses={200: {"content": {"image/svg+xml": {"schema": {"type": "string"}}},
                              "description": "the QR code as an SVG document"},
                        **problems(413, 415, 422)},
             openapi_extra={**request_body("QrRequest", {"data": "http://192.168.1.20:8000/play/0f6e…#token=…&seat=A"}),
                            "security": []},
             summary="A QR code (SVG) of a text: a seat's table-app link, to open it on a phone",
             description="A POST, not a GET with `?data=`: a seat's link carries its token, and a body never "
                         "reaches an access log or a browser's history. Error correction M, 4-module quiet zone; "
                         "drawn by segno.")
async def qr(request: Request) -> Response:
    raw = await read_body(request, QR_BYTES)  # 413 as problem+json, like every other body
    if not is_json(request.headers.get("content-type")):
        raise not_json(request.headers.get("content-type"))
    sent = parse_json(raw)
    try:
        body = QrRequest.model_validate(sent)
    except ValidationError as error:
        raise invalid(error, sent, body_context(QrRequest, "A QR code's body", "a QR code's body")) from None
    drawn = io.BytesIO()  # a standalone SVG document (with its xmlns), so an <img> can show it
    segno.make(body.data, error="m").save(drawn, kind="svg", scale=4, border=4, dark="#000", light="#fff",
                                           xmldecl=False, title="QR code")
    return Response(drawn.getvalue(), media_type="image/svg+xml", headers={"Cache-Control": "no-store"})
