"""The end-of-game summary as SVG charts (issue 26; GET /games/{id}/charts/{chart}): VP by battle round for both
seats, units and models lost by battle round, and each seat's dice luck against the average (50). Drawn from
GET /summary's own figures by pygal, a small pure-Python SVG charting library: no browser script, no hand-drawn
paths, the same picture for the table app, an overlay or a bot. The charts hold no rule: they draw numbers."""
from __future__ import annotations

from typing import Any, Literal

import pygal
from pygal.style import Style

Chart = Literal["vp", "losses", "luck"]
CHARTS: dict[str, str] = {
    "vp": "Victory points scored in each battle round, per seat",
    "losses": "Units and models each seat lost in each battle round",
    "luck": "Each seat's dice luck as a percentile: 50 is average, above it luckier",
}
SEAT_COLOURS = {"A": "#1f6fd1", "B": "#c8382b"}  # the table app's seat colours (app.css --A, --B)
FONT = "system-ui, 'Segoe UI', Roboto, 'DejaVu Sans', sans-serif"


def style(*colours: str) -> Style:
    return Style(background="#ffffff", plot_background="#ffffff", foreground="#15171c", foreground_strong="#15171c",
                 foreground_subtle="#555b66", colors=colours, font_family=FONT, label_font_size=14,
                 major_label_font_size=14, legend_font_size=14, title_font_size=16, value_font_size=13)


def config(title: str, colours: tuple[str, ...], **more: Any) -> dict[str, Any]:
    """What every chart shares: a title, the seats' colours, no script (an <img> runs none), a legend below."""
    return {"title": title, "style": style(*colours), "js": [], "legend_at_bottom": True, "width": 640,
            "height": 360, "print_values": True, "explicit_size": False, "disable_xml_declaration": False, **more}


def counts(*series: list[int]) -> dict[str, Any]:
    """A count's axis: whole numbers from 0, at most some ten of them (pygal would draw 0.1, 0.2, ... for 0 and 1)."""
    top = max([1, *(value for values in series for value in values)])
    step = -(-top // 8)
    return {"range": (0, top), "y_labels": list(range(0, top + step, step))}


def rounds(summary: dict[str, Any], key: str) -> list[str]:
    played = max((len(seat[key]) for seat in summary["seats"].values()), default=0)
    return [f"Round {n}" for n in range(1, played + 1)]


def vp_chart(summary: dict[str, Any]) -> pygal.Graph:
    seats = summary["seats"]
    chart = pygal.Bar(**config("Victory points by battle round", (SEAT_COLOURS["A"], SEAT_COLOURS["B"]),
                               x_title="Battle round", y_title="VP scored",
                               **counts(*(seats[seat]["vp_by_round"] for seat in ("A", "B")))))
    chart.x_labels = rounds(summary, "vp_by_round")
    for seat in ("A", "B"):
        chart.add(seats[seat]["player"], seats[seat]["vp_by_round"])
    return chart


def losses_chart(summary: dict[str, Any]) -> pygal.Graph:
    seats = summary["seats"]
    lighter = {"A": "#8fb7e8", "B": "#e39c95"}
    chart = pygal.Bar(**config("Units and models lost by battle round",
                               (SEAT_COLOURS["A"], lighter["A"], SEAT_COLOURS["B"], lighter["B"]),
                               x_title="Battle round", y_title="Lost",
                               **counts(*(seats[seat][key] for seat in ("A", "B")
                                          for key in ("units_lost_by_round", "models_lost_by_round")))))
    chart.x_labels = rounds(summary, "units_lost_by_round")
    for seat in ("A", "B"):
        chart.add(f"{seats[seat]['player']}: units", seats[seat]["units_lost_by_round"])
        chart.add(f"{seats[seat]['player']}: models", seats[seat]["models_lost_by_round"])
    return chart


def luck_chart(summary: dict[str, Any]) -> pygal.Graph:
    seats = summary["seats"]
    chart = pygal.HorizontalBar(**config("Dice luck against the average (50)",
                                         (SEAT_COLOURS["A"], SEAT_COLOURS["B"], "#9aa1ad"),
                                         range=(0, 100), x_title="Percentile", show_y_labels=False))
    for seat in ("A", "B"):
        luck = seats[seat]["luck_percentile"]  # null: no die rolled, drawn as no bar
        chart.add(seats[seat]["player"], [{"value": luck, "label": f"{seats[seat]['dice_rolled']} dice"}])
    chart.add("Average luck", [50])
    return chart


DRAW = {"vp": vp_chart, "losses": losses_chart, "luck": luck_chart}


def draw(summary: dict[str, Any], chart: Chart) -> bytes:
    """The chart as a standalone SVG document (with its xmlns, so an <img> shows it)."""
    rendered: bytes = DRAW[chart](summary).render()
    return rendered
