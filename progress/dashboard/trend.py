"""Recall on exam day over the weeks, from the review log (pure: plain values in and out).

At the end of each week the learner's cards stood as their latest logged review left them; the
figure is what recall on exam day would have been predicted then: each domain's self-checks'
predicted recall on exam day added up, divided by the domain's self-checks, weighted by exam
share (progress.verdicts.readiness). Only the self-checks ticked today count, so the line ends
where the dashboard's headline stands; a check unticked since is left out of the earlier weeks too.
"""

import datetime
from collections import defaultdict, deque
from collections.abc import Callable, Iterable, Mapping, Sequence

from django.utils import timezone

from progress.memory import scheduling
from progress.memory.review_log import LoggedReview, logged_reviews
from progress.memory.scheduler import fsrs
from progress.memory.scheduling import Memory
from progress.timezones import end_of_day, start_of_day
from progress.verdicts.figures import LearnerState
from progress.verdicts.readiness import by_exam_weight, readiness

WEEKS = 12  # weeks the line shows at most, today's included


def week_ends(
    first: datetime.date, today: datetime.date, weeks: int = WEEKS
) -> list[datetime.date]:
    """Each Sunday from the week of ``first`` to today's week (today standing for its Sunday),
    the newest ``weeks`` of them."""
    sunday = first + datetime.timedelta(days=6 - first.weekday())
    days = []
    while sunday < today:
        days.append(sunday)
        sunday += datetime.timedelta(weeks=1)
    days.append(today)
    return days[-weeks:]


def weekly_recall(
    reviews: Iterable[LoggedReview],
    *,
    ends: Sequence[datetime.datetime],
    check_domain: Mapping[int, str],
    domains: Sequence[tuple[str, int, int]],
    recall_of: Callable[[Memory], float],
) -> list[float]:
    """Exam-weighted recall on exam day as it stood at each moment of ``ends`` (oldest first).

    ``reviews`` in any order; ``check_domain`` maps the checks that count to their domain;
    ``domains`` is (slug, exam weight, self-checks) for each; ``recall_of`` gives a memory's
    predicted recall on exam day."""
    counted = (review for review in reviews if review.check_id in check_domain)
    pending = deque(sorted(counted, key=lambda review: review.at))
    latest: dict[int, LoggedReview] = {}
    # A check not reviewed for weeks stands as the same review at each of their ends: its
    # recall is worked out once.
    recall: dict[int, float] = {}
    figures = []
    for end in ends:
        while pending and pending[0].at <= end:
            review = pending.popleft()
            latest[review.check_id] = review
            recall.pop(review.check_id, None)
        by_domain: defaultdict[str, float] = defaultdict(float)
        for check_id, review in latest.items():
            if review.stability is None or review.state is None:
                continue
            if check_id not in recall:
                recall[check_id] = recall_of(review.memory)
            by_domain[check_domain[check_id]] += recall[check_id]
        figures.append(
            by_exam_weight(
                (weight, readiness(by_domain[slug], total)) for slug, weight, total in domains
            )
        )
    return figures


def recall_trend(state: LearnerState) -> list[tuple[datetime.date, int]]:
    """Exam-weighted recall on exam day at the end of each week, from the review log
    (progress.dashboard.trend), today's point last; read by the dashboard alone."""
    ticked = [check_id for check_id in state.ticked if check_id in state.content.check_keys]
    last = min(state.today, state.exam_day)
    # The line's weeks at most: what came before them stands in each check's latest review.
    first_monday = last - datetime.timedelta(days=last.weekday(), weeks=WEEKS - 1)
    return recall_line(
        state, logged_reviews(state.user, ticked, since=start_of_day(first_monday)), last
    )


def recall_line(
    state: LearnerState, reviews: list[LoggedReview], last: datetime.date
) -> list[tuple[datetime.date, int]]:
    """The line drawn from ``reviews`` of the ticked checks (oldest first): a point for each
    week's end from the first review's week to ``last``, the newest WEEKS of them."""
    if not reviews:
        return []
    days = week_ends(timezone.localdate(reviews[0].at), last)
    if not days or days[0] > last:
        return []
    figures = weekly_recall(
        reviews,
        ends=[end_of_day(day) for day in days[:-1]],
        check_domain={
            check_id: state.content.check_keys[check_id][0]
            for check_id in state.ticked
            if check_id in state.content.check_keys
        },
        domains=[
            (domain.slug, domain.weight, state.content.domain_total(domain.slug))
            for domain in state.content.domains
        ],
        recall_of=lambda card: scheduling.recall(card, state.exam_day, fsrs()),
    )
    # The last point is the headline's own figure, from the cards as they stand (or as they
    # stood on a passed exam day).
    figures.append(state.report.weighted_recall)
    return [(day, round(100 * figure)) for day, figure in zip(days, figures, strict=True)]
