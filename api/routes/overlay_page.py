"""The streamers' overlay page: one self-contained HTML file that follows the overlay's SSE feed."""
from __future__ import annotations

from importlib.resources import files

from fastapi import APIRouter, Depends
from fastapi.responses import HTMLResponse

from warlog.api.deps import stream_reader
from warlog.api.errors import problems
from warlog.api.routes.stream import STREAMED, TOKEN

router = APIRouter(tags=["overlay"])
PAGE = (files("warlog.api") / "static" / "overlay.html").read_text(encoding="utf-8")  # package data
HEADERS = {
    "Cache-Control": "no-store",  # the address carries a token
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    # inline style and script only; the one connection it makes is to this service's own feed
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; "
                               "connect-src 'self'; img-src data:; base-uri 'none'; form-action 'none'",
}


@router.get("/games/{game_id}/overlay.html", response_class=HTMLResponse,
            dependencies=[Depends(stream_reader)],
            summary="The overlay as a page for a stream's browser source (OBS): `?token=` of a seat or spectator",
            description="A small self-contained HTML page with a transparent background, drawn for 1080p. It opens "
                        "`EventSource('/games/{id}/overlay/stream?token=...')` and shows, live, the battle round, "
                        "phase and sub-phase, whose go (by player name), pass points and CP per seat, the last "
                        "roll with its faces and the units each seat has lost. The token is checked like any read "
                        "(401, then 404, then 403, as problem+json): a wrong token never gets the page. A "
                        "spectator token of a game with `options.spectator_delay_s` shows the game that late.",
            operation_id="getOverlayPage", openapi_extra={**STREAMED, "parameters": [TOKEN]},
            responses={200: {"description": "the overlay page"},
                       **problems(401, 403, 404, 409, 422, 429)})  # 409: a damaged game, as for every read
async def overlay_page() -> HTMLResponse:
    return HTMLResponse(PAGE, headers=HEADERS)
