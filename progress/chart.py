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
        if self.domain.behind:
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
