"""Charts of a tournament with matplotlib (its object API on the Agg canvas: no
pyplot state, no display): mean score per game with 95% error bars, and each
bot's rating over the matches with its ±1 sigma band."""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from matplotlib import rc_context
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

FORMATS = {".png": "png", ".svg": "svg"}


@dataclass(frozen=True)
class StandingPoint:
    name: str
    mean: float
    half_width: float | None  # None: one sample, no interval


@dataclass(frozen=True)
class RatingPoint:
    match: int
    bot: str
    mu: float
    sigma: float


class PlotError(ValueError):
    """A plot file whose suffix names no format we draw."""


def chart(title: str, standings: Sequence[StandingPoint], ratings: Sequence[RatingPoint]) -> Figure:
    """Both charts side by side in one figure."""
    fig = Figure(figsize=(11, 4.2), layout="constrained")
    FigureCanvasAgg(fig)
    left, right = fig.subplots(1, 2)
    names = [s.name for s in standings]
    errors = [
        0.0 if s.half_width is None or not math.isfinite(s.half_width) else s.half_width
        for s in standings
    ]
    left.errorbar(
        range(len(standings)), [s.mean for s in standings], yerr=errors, fmt="o", capsize=6
    )
    left.axhline(0.0, color="grey", linewidth=0.8)
    left.set_xticks(range(len(standings)), names, rotation=20, ha="right")
    left.set_xlim(-0.5, len(standings) - 0.5)
    left.set_ylabel("mean score per game (95% CI)")
    left.set_title("Standings")
    for bot in dict.fromkeys(r.bot for r in ratings):
        points = sorted((r.match, r.mu, r.sigma) for r in ratings if r.bot == bot)
        xs = [p[0] for p in points]
        mus = [p[1] for p in points]
        right.plot(xs, mus, marker="." if len(xs) < 60 else None, label=bot)
        right.fill_between(
            xs, [m - s for _, m, s in points], [m + s for _, m, s in points], alpha=0.15
        )
    right.set_xlabel("match")
    right.set_ylabel("rating (OpenSkill mu ± sigma)")
    right.set_title("Rating over matches")
    if ratings:
        right.legend(loc="best", fontsize="small")
    fig.suptitle(title)
    return fig


def save(fig: Figure, path: Path) -> None:
    """Write ``fig`` as PNG or SVG, by the file's suffix."""
    fmt = FORMATS.get(path.suffix.lower())
    if fmt is None:
        raise PlotError(f"{path}: the plot file must end in .png or .svg")
    # SVG text as text, not glyph outlines: a tenth of the size, and searchable.
    with rc_context({"svg.fonttype": "none"}):
        fig.savefig(path, format=fmt)


def svg(fig: Figure) -> str:
    """``fig`` as an SVG document (for the browser's standings page)."""
    buf = io.StringIO()
    # SVG text as text, not glyph outlines: a tenth of the size, and searchable.
    with rc_context({"svg.fonttype": "none"}):
        fig.savefig(buf, format="svg")
    return buf.getvalue()
