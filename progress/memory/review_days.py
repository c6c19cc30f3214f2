"""The learner's day for reviews: what "today" means for the review queue, its daily cap and
"once a card a day".

A day is fixed by its first review, in the time zone the learner has then, and lasts until its
end in that zone: a change of time zone takes effect from the next day. Without that, 40 reviews
at 03:00 in one zone and 40 more after moving the clock to another's next day would be two days'
reviews in one, the daily cap and "once a card a day" both bypassed.
"""

import datetime
from dataclasses import dataclass
from typing import Any

from django.utils import timezone

from progress.models import Profile
from progress.timezones import end_of_day, start_of_day


@dataclass(frozen=True)
class ReviewDay:
    day: datetime.date
    starts: datetime.datetime
    ends: datetime.datetime


def review_day(profile: Profile | None, now: datetime.datetime) -> ReviewDay:
    """The review day ``now`` falls in: the fixed one while it lasts, else the learner's local
    day in the active zone (starting no earlier than the fixed one's end). No query."""
    if profile is not None and profile.review_day is not None:
        starts, ends = profile.review_day_starts, profile.review_day_ends
        if starts is not None and ends is not None and starts <= now < ends:
            return ReviewDay(profile.review_day, starts, ends)
        if starts is not None and now < starts:
            # A moment before the fixed day (a mock closed at its past deadline): its own date,
            # ending no later than the fixed day starts.
            day = timezone.localdate(now)
            return ReviewDay(day, start_of_day(day), min(end_of_day(day), starts))
    today = timezone.localdate(now)
    if profile is not None and profile.review_day is not None and today < profile.review_day:
        # The zone moved back across the date line: the date already reviewed goes on (it
        # never comes round again, so no card is reviewed twice on it).
        today = profile.review_day
    starts, ends = min(start_of_day(today), now), end_of_day(today)
    if profile is not None and profile.review_day_ends is not None:
        starts = max(starts, min(profile.review_day_ends, now))
    return ReviewDay(today, starts, ends)


def learner_profile(user: Any) -> Profile | None:
    # The profile came with request.user (progress.auth); elsewhere it is one query.
    return getattr(user, "profile", None)


def current_review_day(user: Any, now: datetime.datetime) -> ReviewDay:
    """The learner's review day now, as read by a page (nothing is written)."""
    return review_day(learner_profile(user), now)


def fix_review_day(user: Any, now: datetime.datetime) -> ReviewDay:
    """The learner's review day now, fixed on their profile if this is its first review. Inside
    the review's transaction, the learner's lock held (progress.lock)."""
    profile, _ = Profile.objects.select_for_update().get_or_create(user=user)
    day = review_day(profile, now)
    # A moment from before the fixed day (a mock closed at its past deadline) fixes nothing.
    later = profile.review_day_ends is None or day.ends > profile.review_day_ends
    if later and (profile.review_day != day.day or profile.review_day_ends != day.ends):
        profile.review_day, profile.review_day_starts, profile.review_day_ends = (
            day.day,
            day.starts,
            day.ends,
        )
        profile.save(update_fields=["review_day", "review_day_starts", "review_day_ends"])
    # The request's copy of the profile (request.user.profile) agrees from now on.
    cached = learner_profile(user)
    if cached is not None and cached is not profile:
        cached.review_day, cached.review_day_starts, cached.review_day_ends = (
            day.day,
            day.starts,
            day.ends,
        )
    return day
