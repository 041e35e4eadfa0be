"""Analytics and export of one game. Across games: `warlog analytics` and `warlog export`
(tokens open one game only, so the whole store is the operator's, on the command line)."""
from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Query
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import Response, StreamingResponse

from warlog.api.charts import CHARTS, Chart, draw
from warlog.api.deps import Reader, WarlogApp
from warlog.api.errors import READS
from warlog.api.horizon import entries_until, seeing, stored_until
from warlog.api.wire import answer
from warlog.api.wire_audit import Analytics, Summary
from warlog.projections.analytics import attacks_summary, summarize
from warlog.projections.export import MEDIA_TYPES, proof_entries, render
from warlog.projections.rows import game_rows
from warlog.projections.summary import DRAWN, SUMMARIES, summary

router = APIRouter(tags=["analytics"], responses=READS)
ANALYTICS = (
    "Per seat and roll purpose: the faces observed, their total against the exact distribution of n fair dice "
    "(`p_at_least_this_good`: how likely a total at least this good was; `luck_percentile`: the mid-p "
    "percentile, 50 = average; `better` says whether high or low totals are good), dice later undone "
    "(`undone_dice`, not counted) and re-rolled ones; pass points earned and spent; activations (units "
    "selected) per phase; units destroyed, by the seat that lost them; `attacks` (reference): each attack's damage "
    "and models destroyed against the exact odds of that attack, abilities and re-rolls included. Across all games: `warlog analytics "
    "[--db PATH | --postgres DSN]` prints the same document from the ledger projection.")


@router.get("/games/{game_id}/analytics", summary="Luck, tempo and losses of this game", description=ANALYTICS,
            operation_id="getAnalytics", responses=answer(Analytics, "luck per seat and purpose, tempo and losses"))
async def analytics(caller: Reader, warlog: WarlogApp) -> dict[str, Any]:
    def build() -> dict[str, Any]:
        seen = seeing(warlog, caller, lambda seen: seen)
        entries = entries_until(warlog, seen)
        rows = game_rows(str(caller.game_id), entries)
        return {"game_id": str(caller.game_id), "version": seen.version, "game": rows.game,
                **summarize(rows.dice, rows.facts), "attacks": attacks_summary(entries)}

    return await run_in_threadpool(build)


SUMMARY = (
    "The game's result and how it came about (CONTRACT.md \"In the players' words\", RULES.md MSN), for any token: "
    "how it is scored (`scored_by`: VP, or the points destroyed, MSN.END.1), `result` once ended and `text`, the "
    "result in a sentence (while the game is under way, the score so far); per seat its score, VP by battle round, "
    "units and models lost by round and destroyed, dice luck (the analytics' percentile, weighted by dice) and the "
    "time the game waited for it (MSN.CLK.1, with or without a clock). A round's figures are the state as that "
    "round ended, so an undone action counts nowhere; a spectator with a delay sees it as of its horizon.")


@router.get("/games/{game_id}/summary", summary="The result and the game in figures, per seat",
            description=SUMMARY, operation_id="getSummary", responses=answer(Summary, "the result and each seat's "
                                                                                     "figures"))
async def game_summary(caller: Reader, warlog: WarlogApp) -> dict[str, Any]:
    return await run_in_threadpool(summary_of, caller, warlog)


def summary_of(caller: Reader, warlog: WarlogApp) -> dict[str, Any]:
    """The summary as of the caller's horizon, walked once a version (`SUMMARIES`): polling it, or a chart of it,
    between two writes reads no log."""
    seen = seeing(warlog, caller, lambda seen: seen)

    def walked() -> dict[str, Any]:
        stored, undone = stored_until(warlog, seen)
        rows = game_rows(str(caller.game_id), [{**entry, "undone": entry["seq"] in undone} for entry, _ in stored])
        return summary(stored, rows.dice, seen.version)

    return SUMMARIES.get(str(caller.game_id), seen.version, walked)


CHART_ABOUT = (
    "GET /summary's figures drawn as an SVG chart (drawn by pygal), for any token: `vp` — "
    + CHARTS["vp"] + "; `losses` — " + CHARTS["losses"] + "; `luck` — " + CHARTS["luck"] + ". The same while "
    "the game is under way, so far. The table app shows them on its result screen.")


@router.get("/games/{game_id}/charts/{chart}", summary="A chart of the summary (SVG)", description=CHART_ABOUT,
            operation_id="getSummaryChart", response_class=Response,
            responses={200: {"description": "the chart as a standalone SVG document",
                             "content": {"image/svg+xml": {"schema": {"type": "string"}}}}})
async def summary_chart(caller: Reader, warlog: WarlogApp,
                        chart: Annotated[Chart, Path(description="which chart: vp, losses or luck")]) -> Response:
    def drawn_once() -> bytes:  # drawn once a version, as the summary it draws is walked once (`DRAWN`)
        made = summary_of(caller, warlog)
        return DRAWN.get(str(caller.game_id), made["version"], lambda: draw(made, chart), chart)

    drawn = await run_in_threadpool(drawn_once)
    return Response(drawn, media_type="image/svg+xml", headers={"Cache-Control": "no-store"})


@router.get("/games/{game_id}/export", summary="This game's events, or every die, as NDJSON or CSV",
            response_class=StreamingResponse, operation_id="exportGame", responses={200: {
                "description": "the rows: NDJSON (`format=ndjson`, one JSON object a line) or CSV with a header line",
                "content": {"application/x-ndjson": {"schema": {"type": "string"}},
                            "text/csv": {"schema": {"type": "string"}}}}},
            description="One row per event (`table=events`: the event's own fields, `data` as an object in "
                        "NDJSON and as its JSON text in CSV, beside flat columns: round, phase, seat, unit, "
                        "purpose) or per die (`table=dice`: face, sides, purpose, seat, unit, counter, source, "
                        "re-roll flags, undone); ISO-8601 UTC times; loads straight into pandas or DuckDB. The "
                        "events are also a proof: each row keeps `prev_hash`, `hash` and `request`, the first "
                        "row of each request its `sent` record (what `request` is the SHA-256 of), and the "
                        "creation row the `server_seed` once the game has ended, so `warlog verify FILE` checks "
                        "every link, request and server roll with no server. The whole store: `warlog export "
                        "[--db PATH | --postgres DSN] --out DIR`.")
async def export(caller: Reader, warlog: WarlogApp,
                 fmt: Annotated[Literal["ndjson", "csv"], Query(alias="format")] = "ndjson",
                 table: Annotated[Literal["events", "dice"], Query()] = "events") -> StreamingResponse:
    def build() -> list[dict[str, Any]]:
        seen = seeing(warlog, caller, lambda seen: seen)
        stored, undone = stored_until(warlog, seen)
        seed = seen.game.revealed_seed() if seen.version == seen.game.version else None  # once it sees the end
        rows = game_rows(str(caller.game_id), proof_entries(stored, undone, seed))
        return rows.events if table == "events" else rows.dice

    rows = await run_in_threadpool(build)
    name = f"{caller.game_id}-{table}.{fmt}"
    return StreamingResponse(render(rows, table, fmt), media_type=MEDIA_TYPES[fmt],
                             headers={"Content-Disposition": f'attachment; filename="{name}"'})
