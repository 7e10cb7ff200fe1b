"""The rating history as a small inline SVG (no script, no image file): a line through the rating after
each rated chica, oldest on the left, with the lowest and highest values written at the left edge."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from markupsafe import Markup

WIDTH, HEIGHT = 320, 120
"""The chart's drawing box (it scales to the page's width)."""
_LEFT, _PAD = 40, 10


def rating_svg(values: Sequence[int], title: str) -> Markup:
    """An SVG line chart of ``values`` (ratings, oldest first) titled ``title`` (its accessible name); an
    empty markup for fewer than two values (one point is no history)."""
    if len(values) < 2:
        return Markup("")
    low, high = min(values), max(values)
    span = max(high - low, 1)
    step = (WIDTH - _LEFT - _PAD) / (len(values) - 1)

    def y(v: int) -> float:
        return round(HEIGHT - _PAD - (v - low) * (HEIGHT - 2 * _PAD) / span, 1)

    points = " ".join(f"{round(_LEFT + i * step, 1)},{y(v)}" for i, v in enumerate(values))
    return Markup(
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" xmlns="http://www.w3.org/2000/svg">'
        f"<title>{escape(title)}</title>"
        f'<line x1="{_LEFT}" y1="{y(high)}" x2="{WIDTH - _PAD}" y2="{y(high)}"/>'
        f'<line x1="{_LEFT}" y1="{y(low)}" x2="{WIDTH - _PAD}" y2="{y(low)}"/>'
        f'<text x="2" y="{y(high) + 4}">{high}</text><text x="2" y="{y(low) + 4}">{low}</text>'
        f'<polyline points="{points}"/></svg>'
    )


__all__ = ["HEIGHT", "WIDTH", "rating_svg"]
