"""Geometry of the dashboard chart, drawn as inline SVG by the server.

Each domain is a column whose width follows its exam share and whose fill rises with its share
covered; a dashed line marks where the plan says it should be by today. Recall on exam day is a
line across the weeks; the practice history two lines across attempts; the study-activity
calendar a grid of days.
"""

import datetime
import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.html import escape, format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from phases.words import counted
from progress.verdicts.readiness import DomainReadiness

WIDTH = 1000
HEIGHT = 200
GAP = 6
LABEL_CHAR_WIDTH = 7.5  # roughly, for the 14px labels under the columns
BAR_WIDTH = 320  # a phone's bars
BAR_STEP = 52
BAR_NAME_CHARS = 24  # a longer name gives its short name on a phone


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

    # Ready-made SVG, as the calendar's cells: each template lookup and filter costs, and a
    # dashboard draws every column twice (a column on a wide screen, a bar on a phone).
    @property
    def svg(self) -> SafeString:
        domain, x, width, label_x = self.domain, self.x, self.width, self.label_x
        fill = planned = SafeString("")
        if self.fill_height:
            fill = format_html(
                '<rect class="column-fill" x="{}" y="{}" width="{}" height="{}" rx="6"></rect>',
                x,
                self.fill_y,
                width,
                self.fill_height,
            )
        if domain.planned:
            planned = format_html(
                '<line class="column-planned" x1="{}" x2="{}" y1="{}" y2="{}"></line>',
                x,
                round(x + width, 1),
                self.planned_y,
                self.planned_y,
            )
        return format_html(
            '<g class="column column-{}"><rect class="column-track" x="{}" y="0" width="{}" '
            'height="{}" rx="6"></rect>{}{}<text class="column-weight" x="{}" y="22" '
            'text-anchor="middle">{}%</text><text class="column-percent" x="{}" y="{}" '
            'text-anchor="middle">{}%</text><text class="column-label" x="{}" y="{}" '
            'text-anchor="middle">{}</text></g>',
            self.css_state,
            x,
            width,
            HEIGHT,
            fill,
            planned,
            label_x,
            domain.weight,
            label_x,
            HEIGHT + 22,
            domain.percent,
            label_x,
            HEIGHT + 42,
            domain.name if self.wide else domain.short_name,
        )

    def bar_svg(self, place: int) -> SafeString:
        """The column as a phone draws it: the ``place``-th bar from the top, 320 wide."""
        domain = self.domain
        name = domain.short_name if len(domain.name) > BAR_NAME_CHARS else domain.name
        fill = planned = SafeString("")
        if domain.percent:
            fill = format_html(
                '<rect class="column-fill" x="0" y="22" width="{}" height="16" rx="4"></rect>',
                round(domain.percent / 100 * BAR_WIDTH),
            )
        if domain.planned:
            at = round(domain.planned_percent / 100 * BAR_WIDTH)
            planned = format_html(
                '<line class="column-planned" x1="{}" x2="{}" y1="18" y2="42"></line>', at, at
            )
        return format_html(
            '<g class="column column-{}" transform="translate(0 {})"><text class="bar-label" '
            'x="0" y="15">{} · {}% of exam</text><text class="bar-percent" x="{}" y="15" '
            'text-anchor="end">{}%</text><rect class="column-track" x="0" y="22" width="{}" '
            'height="16" rx="4"></rect>{}{}</g>',
            self.css_state,
            place * BAR_STEP,
            name,
            domain.weight,
            BAR_WIDTH,
            domain.percent,
            BAR_WIDTH,
            fill,
            planned,
        )


@dataclass(frozen=True)
class DomainChart:
    """Both drawings of the domains, each one ready-made string: wide columns and phone bars."""

    columns: SafeString
    bars: SafeString
    bars_height: int
    width: int = WIDTH
    height: int = HEIGHT + 52  # room for the figures and names under the columns


def domain_chart(domains: Sequence[DomainReadiness]) -> DomainChart:
    drawn = columns(domains)
    return DomainChart(
        columns=format_html_join("", "{}", ((column.svg,) for column in drawn)),
        bars=format_html_join(
            "", "{}", ((column.bar_svg(place),) for place, column in enumerate(drawn))
        ),
        bars_height=len(drawn) * BAR_STEP,
    )


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
TREND_WIDTH = 640
TREND_HEIGHT = 180
TREND_PAD = 30


@dataclass(frozen=True)
class LineChart:
    """Points as (x, a y per line, then the figures the page labels them with), gridlines as
    (y, percent), and the bar, drawn as its own gridline."""

    points: list[tuple[Any, ...]]
    gridlines: list[tuple[float, int]]
    bar: int

    def polyline(self, line: int) -> str:  # the SVG points of the line-th line, 1 the first
        # A point with no y (None: no weakest domain in that attempt) is left out of its line.
        return " ".join(
            f"{point[0]},{point[line]}" for point in self.points if point[line] is not None
        )

    @property
    def line(self) -> str:
        return self.polyline(1)

    overall = line  # the practice history's first line

    @property
    def weakest(self) -> str:
        return self.polyline(2)


def axes(
    count: int, width: int, height: int, pad: int
) -> tuple[Callable[[int], float], Callable[[int], float]]:
    """A line chart's x of the n-th of ``count`` points (one point sits in the middle) and y of
    a percent, inside ``pad`` on every side."""
    inner_w, inner_h = width - 2 * pad, height - 2 * pad
    step = inner_w / (count - 1) if count > 1 else 0
    return (
        lambda n: round(pad + (step * n if count > 1 else inner_w / 2), 1),
        lambda percent: round(pad + inner_h * (1 - percent / 100), 1),
    )


def history(scores: Sequence[tuple[int, int | None]], *, bar: int) -> LineChart | None:
    """Overall and weakest-domain scores (percent) across attempts, oldest first (None where an
    attempt has no weakest domain: its dot is left out); ``bar`` is the accuracy bar."""
    if not scores:
        return None
    x, y = axes(len(scores), HISTORY_WIDTH, HISTORY_HEIGHT, HISTORY_PAD)
    return LineChart(
        points=[
            (x(n), y(overall), None if weakest is None else y(weakest), overall, weakest)
            for n, (overall, weakest) in enumerate(scores)
        ],
        gridlines=[(y(percent), percent) for percent in sorted({0, 25, 50, bar, 100})],
        bar=bar,
    )


def trend(weeks: Sequence[tuple[datetime.date, int]], *, bar: int) -> LineChart | None:
    """Recall on exam day (percent) at the end of each week, oldest first, against the recall
    bar; None with fewer than two weeks, where a line would say nothing."""
    if len(weeks) < 2:
        return None
    x, y = axes(len(weeks), TREND_WIDTH, TREND_HEIGHT, TREND_PAD)
    return LineChart(
        points=[
            (x(n), y(percent), f"{day.day} {day:%b}", percent)
            for n, (day, percent) in enumerate(weeks)
        ],
        gridlines=[(y(percent), percent) for percent in sorted({0, 50, bar, 100})],
        bar=bar,
    )


# The study-activity calendar: the last weeks as a grid of days, a column per week (Monday on
# top), each day shaded by how much was done that day.

ACTIVITY_WEEKS = 12
CELL = 14
CELL_GAP = 3
CELL_STEP = CELL + CELL_GAP
ACTIVITY_LEFT = 32  # room for the weekday labels
ACTIVITY_TOP = 18  # room for the month labels
ACTIVITY_RIGHT = 24  # room for a month label over the last week (else "Dec" is cut to "De")
# The fewest actions (ticks, reviews and answers) for levels 1 to 4: one self-check is a
# little, a phase's worth of self-checks or a short drill a fair day, a mock a big one.
LEVEL_FLOORS = (1, 3, 6, 12)
WEEKDAY_LABELS = ((0, "Mon"), (2, "Wed"), (4, "Fri"))


@dataclass(frozen=True)
class DayCell:
    day: datetime.date
    count: int
    level: int  # 0 (nothing) to 4
    x: int
    y: int
    before: bool = False  # before the learner signed up: outlined, not a day missed

    # Ready-made strings: the page draws some 80 cells, and each template lookup costs.
    @property
    def label(self) -> str:
        done = counted(self.count, "action") if self.count else "nothing"
        if self.before:
            done = "before you signed up"
        return f"{self.day:%a} {self.day.day} {self.day:%b}: {done}"

    @property
    def svg(self) -> str:
        """The cell's markup, its label escaped; the rest are numbers and fixed words. A plain
        string: some 80 cells a page, and ``format_html`` escaping seven parts of each cost the
        dashboard about 3 ms (``ActivityGrid.cells_svg`` marks the whole safe)."""
        kind = "before" if self.before else f"level-{self.level}"
        return (
            f'<rect class="activity-day {kind}" x="{self.x}" y="{self.y}" width="{CELL}" '
            f'height="{CELL}" rx="2" data-day="{self.day.isoformat()}">'
            f"<title>{escape(self.label)}</title></rect>"
        )


@dataclass(frozen=True)
class ActivityGrid:
    cells: tuple[DayCell, ...]  # oldest first, up to and including today
    months: tuple[tuple[int, datetime.date], ...]  # x of a label, and the month's first day
    # Not fields: every grid has the same weekday labels (y of a baseline, the label) and size.
    weekdays = tuple(
        (ACTIVITY_TOP + row * CELL_STEP + CELL - 3, label) for row, label in WEEKDAY_LABELS
    )
    width = ACTIVITY_LEFT + ACTIVITY_WEEKS * CELL_STEP - CELL_GAP + ACTIVITY_RIGHT
    height = ACTIVITY_TOP + 7 * CELL_STEP - CELL_GAP

    @property
    def first(self) -> datetime.date:
        """The first day since signing up."""
        return next((cell.day for cell in self.cells if not cell.before), self.cells[-1].day)

    @property
    def any_before(self) -> bool:
        return self.cells[0].before

    @property
    def cells_svg(self) -> SafeString:
        # Each cell escapes its own label (DayCell.svg).
        return mark_safe("".join(cell.svg for cell in self.cells))

    @property
    def today(self) -> DayCell:
        return self.cells[-1]


def activity_level(count: int) -> int:
    return sum(1 for floor in LEVEL_FLOORS if count >= floor)


def level_ranges() -> list[tuple[int, str]]:
    """Each level with the actions a day needs for it, for the key: (1, "1–2"), …, (4, "12+")."""
    ranges = [
        (level, str(floor) if above == floor + 1 else f"{floor}–{above - 1}")
        for level, (floor, above) in enumerate(itertools.pairwise(LEVEL_FLOORS), start=1)
    ]
    return [(0, "none"), *ranges, (len(LEVEL_FLOORS), f"{LEVEL_FLOORS[-1]}+")]


def activity_start(today: datetime.date) -> datetime.date:
    """The Monday the grid starts on: ``ACTIVITY_WEEKS`` columns, the last one holding today."""
    return today - datetime.timedelta(days=today.weekday(), weeks=ACTIVITY_WEEKS - 1)


def activity_grid(
    counts: Mapping[datetime.date, int], today: datetime.date, joined: datetime.date | None = None
) -> ActivityGrid:
    """A cell for each day from ``activity_start`` to today (the days after today in its week are
    left out), placed by week (x) and weekday (y); days missing from ``counts`` count 0. Days
    before the learner ``joined`` are outlined only: there was nothing to do yet, and a grey
    square would read as a day missed."""
    first = activity_start(today)
    cells = []
    for offset in range((today - first).days + 1):
        day = first + datetime.timedelta(days=offset)
        column, row = divmod(offset, 7)
        count = counts.get(day, 0)
        x, y = ACTIVITY_LEFT + column * CELL_STEP, ACTIVITY_TOP + row * CELL_STEP
        before = joined is not None and day < joined
        cells.append(
            DayCell(day=day, count=count, level=activity_level(count), x=x, y=y, before=before)
        )
    # A month is named over the week its first day falls in, and over the first drawn week
    # unless the next name is too close to it.
    months = [(cell.x, cell.day) for cell in cells if cell.day.day == 1]
    start = cells[0]
    if not months or months[0][0] - start.x >= 3 * CELL_STEP:
        months.insert(0, (start.x, start.day.replace(day=1)))
    return ActivityGrid(cells=tuple(cells), months=tuple(months))
