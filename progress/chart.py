"""Geometry of the dashboard chart, drawn as inline SVG by the server.

Each domain is a column whose width follows its exam share and whose fill rises with its
readiness; a dashed line marks where the plan says it should be by today.
"""

from collections.abc import Sequence
from dataclasses import dataclass

from .readiness import DomainReadiness

WIDTH = 1000
HEIGHT = 200
GAP = 6
LABEL_CHAR_WIDTH = 7.5  # roughly, for the 14px labels under the columns


@dataclass(frozen=True)
class Column:
    domain: DomainReadiness
    x: float
    width: float
    fill_y: float
    fill_height: float
    planned_y: float
    label_x: float
    wide: bool  # room for the domain's full name under the column

    @property
    def css_state(self) -> str:
        if self.domain.behind_plan:
            return "behind"
        return "done" if self.domain.readiness >= 1 else "open"


def columns(domains: Sequence[DomainReadiness]) -> list[Column]:
    total_weight = sum(domain.weight for domain in domains)
    if not total_weight:
        return []
    usable = WIDTH - GAP * (len(domains) - 1)
    result, x = [], 0.0
    for domain in domains:
        width = usable * domain.weight / total_weight
        fill_height = HEIGHT * domain.readiness
        result.append(
            Column(
                domain=domain,
                x=round(x, 1),
                width=round(width, 1),
                fill_y=round(HEIGHT - fill_height, 1),
                fill_height=round(fill_height, 1),
                planned_y=round(HEIGHT - HEIGHT * domain.planned, 1),
                label_x=round(x + width / 2, 1),
                wide=width >= LABEL_CHAR_WIDTH * len(domain.name),
            )
        )
        x += width + GAP
    return result


HISTORY_WIDTH = 640
HISTORY_HEIGHT = 200
HISTORY_PAD = 28


@dataclass(frozen=True)
class HistoryChart:
    overall: str  # SVG polyline points
    weakest: str
    points: list[tuple[float, float, float, int, int]]  # x, y overall, y weakest, and the %s
    gridlines: list[tuple[float, int]]
    bar: int


def history(scores: Sequence[tuple[int, int]], *, bar: int) -> HistoryChart | None:
    """Overall and weakest-domain scores (percent) across attempts, oldest first; ``bar`` is
    the accuracy bar, drawn as its own gridline."""
    if not scores:
        return None
    inner_w = HISTORY_WIDTH - 2 * HISTORY_PAD
    inner_h = HISTORY_HEIGHT - 2 * HISTORY_PAD
    step = inner_w / (len(scores) - 1) if len(scores) > 1 else 0

    def y(percent: int) -> float:
        return round(HISTORY_PAD + inner_h * (1 - percent / 100), 1)

    points = [
        (
            round(HISTORY_PAD + (step * n if len(scores) > 1 else inner_w / 2), 1),
            y(overall),
            y(weakest),
            overall,
            weakest,
        )
        for n, (overall, weakest) in enumerate(scores)
    ]
    return HistoryChart(
        overall=" ".join(f"{x},{yo}" for x, yo, _, _, _ in points),
        weakest=" ".join(f"{x},{yw}" for x, _, yw, _, _ in points),
        bar=bar,
        points=points,
        gridlines=[(y(percent), percent) for percent in sorted({0, 25, 50, bar, 100})],
    )
