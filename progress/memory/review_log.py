"""The review log (progress.models.ReviewLog): writing one row for each review, inside the
transaction of the write that made it; and reading a learner's reviews back, each as the card
it left."""

import datetime
from dataclasses import dataclass
from typing import Any

from django.db.models import OuterRef, Q, Subquery
from fsrs import Rating

from phases.models import SelfCheck
from progress.memory import calibration
from progress.memory import scheduling as memory
from progress.memory.scheduler import fsrs
from progress.memory.scheduling import Memory
from progress.models import ReviewLog

DAY = datetime.timedelta(days=1)


def entry(
    *,
    user: Any,
    kind: str,
    key: int,
    after: Memory,
    before: Memory | None = None,
    rating: Rating,
    when: datetime.datetime,
    day: datetime.date,
    answer: str = "",
) -> ReviewLog:
    """The log row of one review (not saved): ``before`` is the card's memory before it (None
    for a first review), ``after`` the memory it left, ``day`` the learner's review day,
    ``answer`` what the learner typed before revealing the reference."""
    last = before.last_review if before is not None else None
    last_day = memory.reviewed_on(before) if before is not None else None
    return ReviewLog(
        user=user,
        kind=kind,
        self_check_id=key if kind == ReviewLog.Kind.CHECK else None,
        question_id=key if kind == ReviewLog.Kind.QUESTION else None,
        reviewed_at=when,
        day=day,
        first=before is None,
        # Days as FSRS counts them (the learner's days), the figure its forecast rests on.
        elapsed_days=(day - last_day).days if last_day is not None else None,
        predicted_recall=memory.recall(before, day, fsrs()) if last is not None else None,
        state_before=before.state if before else None,
        stability_before=before.stability if before else None,
        difficulty_before=before.difficulty if before else None,
        answer=answer,
        rating=int(rating),
        scheduled_days=(after.due - when) / DAY,
        state_after=after.state,
        stability_after=after.stability,
        difficulty_after=after.difficulty,
    )


@dataclass(frozen=True)
class LoggedReview:
    check_id: int
    at: datetime.datetime
    day: datetime.date | None  # the learner's review day
    state: int | None
    stability: float | None
    difficulty: float | None

    @property
    def memory(self) -> Memory:
        """The card as this review left it (its due date is not logged: the review's moment
        stands in, and no figure here reads it)."""
        assert self.state is not None
        return Memory(self.state, self.stability, self.difficulty, self.at, self.at, self.day)


def logged_reviews(
    user: Any, check_ids: list[int], *, since: datetime.datetime | None = None
) -> list[LoggedReview]:
    """Every logged review of these self-checks, oldest first: one query. With ``since``, only
    those from then on and, for each check, its latest review before (how it stood then): as
    many rows as those weeks hold, however long the history. A learner who signed up after
    ``since`` has no review before it: every review is read, without the subquery."""
    mine = Q(user_id=user.pk, kind=ReviewLog.Kind.CHECK, self_check_id__in=check_ids)
    rows = ReviewLog.objects.filter(mine)
    if since is not None and user.date_joined < since:
        latest_before = SelfCheck.objects.filter(pk__in=check_ids).values(
            latest=Subquery(
                ReviewLog.objects.filter(
                    user_id=user.pk,
                    kind=ReviewLog.Kind.CHECK,
                    self_check_id=OuterRef("pk"),
                    reviewed_at__lt=since,
                )
                .order_by("-reviewed_at", "-pk")
                .values("pk")[:1]
            )
        )
        # The OR at the top, so that each side is searched by its own index (the weeks by
        # learner, check and time; the latest reviews by key): inside the learner's filter,
        # SQLite read every review the learner ever logged to find the weeks' few.
        rows = ReviewLog.objects.filter(
            (mine & Q(reviewed_at__gte=since)) | Q(pk__in=latest_before)
        )
    return [
        LoggedReview(*row)
        for row in rows.order_by("reviewed_at", "pk").values_list(
            "self_check_id",
            "reviewed_at",
            "day",
            "state_after",
            "stability_after",
            "difficulty_after",
        )
    ]


def forecast_fit(user: Any) -> calibration.Fit:
    """How the forecast did for this learner: every logged review with a forecast and a rating
    (one query, two columns a review)."""
    rows = (
        ReviewLog.objects.filter(user=user, predicted_recall__isnull=False, rating__isnull=False)
        .order_by()
        .values_list("predicted_recall", "rating")
    )
    return calibration.fit(
        (predicted, rating > 1)
        for predicted, rating in rows
        if predicted is not None and rating is not None
    )
