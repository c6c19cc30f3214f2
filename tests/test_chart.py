"""The dashboard's column chart and the practice history chart: geometry from plain values."""

import pytest

from progress import charts as chart
from progress.verdicts.readiness import DomainCount, assess
from progress.verdicts.rules import Rules

RULES = Rules(recall=0.8, accurate=0.7, window=40, confidence=0.8)

# (slug, name, weight, study order)
SEVEN = (
    ("core-ml", "Core Machine Learning and AI Knowledge", 20, 1),
    ("experimentation", "Experimentation", 25, 2),
    ("multimodal-data", "Multimodal Data", 15, 3),
    ("software-development", "Software Development", 15, 4),
    ("data-analysis", "Data Analysis", 10, 5),
    ("performance-optimization", "Performance Optimization", 10, 6),
    ("trustworthy-ai", "Trustworthy AI", 5, 7),
)


def domains(*rows, **per_slug: dict):
    """Rated domains, heaviest first as the dashboard passes them; ``per_slug`` sets counts."""
    counts = [
        DomainCount(
            slug=slug,
            name=name,
            short_name=name,
            weight=weight,
            study_order=order,
            **{"done": 0, "total": 10, **per_slug.get(slug.replace("-", "_"), {})},
        )
        for slug, name, weight, order in rows or SEVEN
    ]
    return assess(counts, RULES).domains


def by_slug(columns):
    return {column.domain.slug: column for column in columns}


# Columns


def test_column_widths_follow_exam_weight():
    columns = chart.columns(domains())
    per_mark = [column.width / column.domain.weight for column in columns]
    assert max(per_mark) - min(per_mark) < 0.05
    widths = by_slug(columns)
    assert widths["experimentation"].width == pytest.approx(
        5 * widths["trustworthy-ai"].width, 0.01
    )


def test_columns_fill_the_width_less_the_gaps_between_them():
    columns = chart.columns(domains())
    gaps = chart.GAP * (len(columns) - 1)
    assert sum(column.width for column in columns) == pytest.approx(chart.WIDTH - gaps, abs=0.5)
    assert columns[0].x == 0
    for left, right in zip(columns, columns[1:], strict=False):
        assert right.x == pytest.approx(left.x + left.width + chart.GAP, abs=0.2)
    assert columns[-1].x + columns[-1].width == pytest.approx(chart.WIDTH, abs=0.2)


def test_columns_keep_the_order_they_are_given():
    given = domains()
    assert [column.domain for column in chart.columns(given)] == list(given)


def test_a_label_sits_under_the_middle_of_its_column():
    for column in chart.columns(domains()):
        assert column.label_x == pytest.approx(column.x + column.width / 2, abs=0.1)


@pytest.mark.parametrize(("done", "height"), [(0, 0.0), (5, chart.HEIGHT / 2), (10, chart.HEIGHT)])
def test_the_fill_rises_with_readiness_from_the_bottom(done, height):
    column = by_slug(chart.columns(domains(core_ml={"done": done})))["core-ml"]
    assert column.fill_height == pytest.approx(height)
    assert column.fill_y + column.fill_height == pytest.approx(chart.HEIGHT)


def test_the_plan_line_sits_at_the_share_the_plan_expects():
    columns = by_slug(chart.columns(domains(core_ml={"planned": 0.25}, experimentation={})))
    assert columns["core-ml"].planned_y == pytest.approx(chart.HEIGHT * 0.75)
    assert columns["experimentation"].planned_y == chart.HEIGHT


def test_the_plan_line_spans_its_whole_column_on_both_drawings():
    column = by_slug(chart.columns(domains(core_ml={"planned": 0.25})))["core-ml"]
    right_edge = round(column.x + column.width, 1)
    assert f'x1="{column.x}" x2="{right_edge}"' in column.svg
    # On a phone the line stands across its bar a quarter of the way along.
    assert 'x1="80" x2="80"' in column.bar_svg(0)


def test_a_column_behind_the_plan_is_drawn_as_behind():
    columns = by_slug(
        chart.columns(
            domains(
                core_ml={"done": 2, "planned": 0.5},
                experimentation={"done": 5, "planned": 0.5},
                multimodal_data={"done": 10, "planned": 1.0},
                trustworthy_ai={"done": 9, "planned": 0.5},
            )
        )
    )
    assert columns["core-ml"].css_state == "behind"
    assert columns["experimentation"].css_state == "open"  # exactly on plan
    assert columns["multimodal-data"].css_state == "done"
    assert columns["trustworthy-ai"].css_state == "open"  # ahead of plan


def test_a_wide_column_has_room_for_the_full_name_and_a_narrow_one_does_not():
    columns = by_slug(chart.columns(domains()))
    # "Experimentation" (15 letters) in a quarter of the chart; "Trustworthy AI" in a twentieth.
    assert columns["experimentation"].wide is True
    assert columns["trustworthy-ai"].wide is False
    assert columns["core-ml"].wide is False  # a 38-letter name in a fifth of the chart


def test_no_domains_draw_no_columns():
    assert chart.columns(()) == []


def test_a_single_domain_takes_the_whole_width():
    (column,) = chart.columns(domains(SEVEN[0]))
    assert (column.x, column.width) == (0, chart.WIDTH)


# History


def y_of(chart_: chart.LineChart, percent: int) -> float:
    (y,) = [y for y, label in chart_.gridlines if label == percent]
    return y


def test_no_attempts_draw_no_history():
    assert chart.history([], bar=70) is None


def test_the_bar_is_drawn_as_its_own_gridline():
    history = chart.history([(40, 20), (90, 80)], bar=65)
    assert [label for _, label in history.gridlines] == [0, 25, 50, 65, 100]
    assert history.bar == 65
    # The gridline sits where a score equal to the bar would.
    at_bar = chart.history([(65, 65)], bar=65)
    assert y_of(history, 65) == at_bar.points[0][1]


def test_a_bar_on_a_standard_gridline_is_drawn_once():
    history = chart.history([(40, 20)], bar=50)
    assert [label for _, label in history.gridlines] == [0, 25, 50, 100]


def test_higher_scores_sit_higher_and_the_extremes_on_the_edge_gridlines():
    history = chart.history([(0, 0), (100, 50)], bar=70)
    (x0, y_overall0, y_weakest0, _, _), (x1, y_overall1, y_weakest1, _, _) = history.points
    assert y_overall0 == y_of(history, 0)
    assert y_overall1 == y_of(history, 100)
    assert y_weakest1 == y_of(history, 50)
    assert y_overall1 < y_weakest1 < y_overall0  # SVG's y grows downwards
    assert y_weakest0 == y_overall0


def test_attempts_are_spread_evenly_from_the_left_edge_to_the_right():
    history = chart.history([(10, 5), (20, 10), (30, 15)], bar=70)
    xs = [point[0] for point in history.points]
    assert xs[0] == chart.HISTORY_PAD
    assert xs[-1] == chart.HISTORY_WIDTH - chart.HISTORY_PAD
    assert xs[1] - xs[0] == pytest.approx(xs[2] - xs[1])


def test_the_lines_join_the_points_oldest_first():
    history = chart.history([(40, 20), (90, 80)], bar=70)
    assert history.overall == " ".join(f"{x},{y}" for x, y, _, _, _ in history.points)
    assert history.weakest == " ".join(f"{x},{y}" for x, _, y, _, _ in history.points)
    assert [(overall, weakest) for *_, overall, weakest in history.points] == [(40, 20), (90, 80)]


def test_a_single_attempt_is_one_point_in_the_middle():
    history = chart.history([(72, 55)], bar=70)
    (point,) = history.points
    assert point[0] == chart.HISTORY_WIDTH / 2
    assert point[3:] == (72, 55)
    assert history.overall == f"{point[0]},{point[1]}"
    assert " " not in history.weakest
