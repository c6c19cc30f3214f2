"""Issue 35, "Nothing to buy": each hole a hostile learner found, closed. Every test here failed
on the code before the fix and passes after it; the zero-knowledge script at the end plays the
whole attack over plain HTTP and asserts the dashboard never says "Ready to book"."""

import datetime
import random
import zoneinfo

import pytest
from django.contrib.auth.hashers import MD5PasswordHasher
from django.core import mail
from django.urls import reverse
from django.utils import timezone
from fsrs import Rating

from phases.models import Domain, Phase, Question, SelfCheck
from progress.exercises.models import Exercise
from progress.memory.reviews import ReviewRefused, review_check
from progress.memory.ticks import reveal
from progress.models import (
    Attempt,
    AttemptQuestion,
    CheckOff,
    Profile,
    QuestionCard,
    ReviewLog,
    StudySession,
)
from progress.practice.services import answer, start_drill
from progress.verdicts.figures import learner_state
from tests.factories import (
    PASSWORD,
    UserFactory,
    answer_from_memory,
    items_of,
    make_plan,
    mock_for,
    shown,
    wrong_option,
)
from tests.html import page_text, verdict

pytestmark = pytest.mark.django_db


def drill(client, domain: str = "trustworthy-ai") -> Attempt:
    client.post(reverse("progress:drill-start"), {"domain": domain})
    return Attempt.objects.filter(kind=Attempt.Kind.DRILL).latest("pk")


def answer_first(client, attempt: Attempt, *, right: bool) -> AttemptQuestion:
    item = items_of(attempt)[0]
    question = item.question
    chosen = sorted(question.correct_options) if right else [wrong_option(question)]
    if not right and len(question.correct_options) > 1:
        chosen = [wrong_option(question), *sorted(question.correct_options)[1:]]
    client.post(
        reverse("progress:attempt-answer", args=[attempt.pk, item.position]),
        {"option": shown(item, chosen)},
    )
    item.refresh_from_db()
    return item


# 1. A shown key ends the choice to discard.


def test_a_drill_whose_key_was_shown_cannot_be_discarded_and_counts(learner_client, learner):
    attempt = drill(learner_client)
    item = answer_first(learner_client, attempt, right=False)

    response = learner_client.post(reverse("progress:attempt-discard", args=[attempt.pk]))

    assert response.status_code == 409
    assert "can no longer be discarded" in page_text(response.content)
    assert Attempt.objects.filter(pk=attempt.pk).exists()
    assert QuestionCard.objects.filter(user=learner, question=item.question).exists()


def test_a_discard_before_any_key_leaves_nothing_behind(learner_client, learner):
    attempt = drill(learner_client)
    seen = [item.question_id for item in items_of(attempt)]

    response = learner_client.post(reverse("progress:attempt-discard", args=[attempt.pk]))

    assert response.status_code == 302
    assert not Attempt.objects.filter(user=learner).exists()
    assert not AttemptQuestion.objects.filter(attempt__user=learner).exists()
    assert not QuestionCard.objects.filter(user=learner).exists()
    assert not ReviewLog.objects.filter(user=learner).exists()
    # Its questions come back as unseen: a new drill may draw them again.
    again = drill(learner_client)
    assert {item.question_id for item in items_of(again)} & set(seen)


def test_a_drill_page_offers_no_discard_once_an_answer_is_shown(learner_client):
    attempt = drill(learner_client)
    before = learner_client.get(reverse("progress:attempt", args=[attempt.pk]))
    answer_first(learner_client, attempt, right=True)
    after = learner_client.get(reverse("progress:attempt", args=[attempt.pk]) + "?q=1")

    assert "Discard this drill" in page_text(before.content)
    assert "Discard this drill" not in page_text(after.content)


# 2. Accuracy from first sight.


def test_only_a_questions_first_answer_counts_towards_accuracy(learner):
    make_plan(learner)
    domain = Domain.objects.get(slug="trustworthy-ai")
    first = start_drill(user=learner, domain=domain, now=timezone.now(), rng=random.Random(1))
    for item in items_of(first):
        answer(
            user=learner,
            attempt=first,
            item=item,
            chosen=[wrong_option(item.question)],
            now=timezone.now(),
        )
    # The same questions again, now with the keys learned from the feedback.
    again = Attempt.objects.create(
        user=learner, kind=Attempt.Kind.DRILL, domain=domain, started_at=timezone.now()
    )
    for position, item in enumerate(items_of(first), start=1):
        repeat = AttemptQuestion.objects.create(
            attempt=again, question=item.question, position=position, order=item.order
        )
        answer(
            user=learner,
            attempt=again,
            item=repeat,
            chosen=sorted(item.question.correct_options),
            now=timezone.now(),
        )

    trust = domain_of(learner, "trustworthy-ai")

    # A stretch question the drill drew counts nowhere either.
    at_exam_depth = sum(1 for item in items_of(first) if not item.question.stretch)
    assert (trust.right, trust.answered) == (0, at_exam_depth)
    assert AttemptQuestion.objects.filter(attempt=again, first_sight=False).count() == 10


def test_a_repeat_says_it_is_practice(learner_client, learner):
    attempt = drill(learner_client)
    item = answer_first(learner_client, attempt, right=True)
    learner_client.post(reverse("progress:attempt-submit", args=[attempt.pk]))
    again = Attempt.objects.create(
        user=learner,
        kind=Attempt.Kind.DRILL,
        domain=attempt.domain,
        started_at=timezone.now(),
    )
    AttemptQuestion.objects.create(
        attempt=again, question=item.question, position=1, order=item.order
    )

    answer_first(learner_client, again, right=True)
    page = learner_client.get(reverse("progress:attempt", args=[again.pk]) + "?q=1")

    assert "this answer is practice" in page_text(page.content)


def test_no_domain_is_judged_on_fewer_than_ten_answers(learner):
    make_plan(learner)
    attempt = drill_answers(learner, "trustworthy-ai", right=0, wrong=4)

    trust = domain_of(learner, "trustworthy-ai")

    assert attempt.questions.count() == 4
    assert not trust.likely_under and not trust.likely_accurate
    assert trust.accuracy_gap == 0
    assert "too few answers to tell yet" in trust.verdict_text


def drill_answers(user, domain_slug: str, *, right: int, wrong: int) -> Attempt:
    domain = Domain.objects.get(slug=domain_slug)
    attempt = Attempt.objects.create(
        user=user, kind=Attempt.Kind.DRILL, domain=domain, started_at=timezone.now()
    )
    questions = list(Question.objects.current().filter(domain=domain, stretch=False))
    for position, question in enumerate(questions[: right + wrong], start=1):
        item = AttemptQuestion.objects.create(
            attempt=attempt,
            question=question,
            position=position,
            order=list(range(len(question.options))),
        )
        chosen = sorted(question.correct_options) if position <= right else [wrong_option(question)]
        answer(user=user, attempt=attempt, item=item, chosen=chosen, now=timezone.now())
    return attempt


def domain_of(user, slug: str):
    state = learner_state(user, today=timezone.localdate(), with_practice=True)
    return next(d for d in state.report.domains if d.slug == slug)


# 3. Memory that only time builds.


def test_a_tick_the_evening_before_the_exam_is_no_perfect_forecast(learner):
    make_plan(learner, exam_in=1)
    check = SelfCheck.objects.current().filter(domain__slug="trustworthy-ai").first()
    evening = timezone.make_aware(
        datetime.datetime.combine(timezone.localdate(), datetime.time(22, 0))
    )
    reveal(user=learner, self_check_id=check.pk, answer="", now=evening)
    from progress.memory.ticks import Outcome, settle

    settle(user=learner, self_check_id=check.pk, outcome=Outcome.GOT_IT, now=evening)

    card = learner_state(learner, today=timezone.localdate()).memories[check.pk]
    from progress.memory import scheduling as memory
    from progress.memory.scheduler import fsrs

    exam_day = timezone.localdate() + datetime.timedelta(days=1)
    assert memory.recall(card, exam_day, fsrs()) < 0.99
    assert memory.recall(card, timezone.localdate(), fsrs()) == pytest.approx(1.0)


def test_an_exam_date_in_the_past_cannot_be_chosen(learner_client):
    yesterday = timezone.localdate() - datetime.timedelta(days=1)
    response = learner_client.post(
        reverse("progress:plan-choose"),
        {
            "intensity": "standard",
            "start_date": (yesterday - datetime.timedelta(days=10)).isoformat(),
            "exam_date": yesterday.isoformat(),
        },
    )

    assert response.status_code == 400
    assert "That day has passed" in page_text(response.content)


def test_once_the_exam_day_has_passed_the_dashboard_says_so(learner_client, learner):
    plan = make_plan(learner, days_ago=30, exam_in=5)
    plan.exam_date = timezone.localdate() - datetime.timedelta(days=2)
    plan.save()

    said = verdict(learner_client.get(reverse("progress:dashboard")))

    assert "has passed" in said
    assert not said.startswith("Ready to book")


def test_untick_then_tick_again_the_same_day_keeps_forgot(learner):
    make_plan(learner)
    check = SelfCheck.objects.current().first()
    now = timezone.now()
    from progress.memory.ticks import Outcome, set_done, settle

    reveal(user=learner, self_check_id=check.pk, answer="", now=now)
    settle(user=learner, self_check_id=check.pk, outcome=Outcome.GOT_IT, now=now)
    # Its review from yesterday, rated "forgot": a weak memory.
    yesterday = now - datetime.timedelta(days=1)
    CheckOff.objects.filter(user=learner, self_check=check).update(
        last_review=yesterday - datetime.timedelta(days=3),
        last_review_day=(yesterday - datetime.timedelta(days=3)).date(),
        due=yesterday,
    )
    reveal(user=learner, self_check_id=check.pk, answer="", now=now)
    review_check(user=learner, self_check_id=check.pk, rating=Rating.Again, now=now)
    forgotten = CheckOff.objects.get(user=learner, self_check=check)

    set_done(user=learner, self_check_id=check.pk, done=False, now=now)
    reveal(user=learner, self_check_id=check.pk, answer="", now=now)
    settle(user=learner, self_check_id=check.pk, outcome=Outcome.GOT_IT, now=now)
    again = CheckOff.objects.get(user=learner, self_check=check)

    assert again.unticked_at is None
    assert again.stability == forgotten.stability
    assert again.confidence == "shaky"
    assert ReviewLog.objects.filter(user=learner, self_check=check).count() == 2


def test_a_change_of_time_zone_does_not_start_a_new_review_day(learner):
    make_plan(learner)
    # Honolulu is UTC-10, Kiritimati UTC+14: the same moment, a day apart on the calendar.
    west, east = zoneinfo.ZoneInfo("Pacific/Honolulu"), zoneinfo.ZoneInfo("Pacific/Kiritimati")
    check = SelfCheck.objects.current().first()
    from progress.memory.ticks import Outcome, settle

    Profile.objects.update_or_create(user=learner, defaults={"time_zone": "Pacific/Honolulu"})
    three_am = datetime.datetime.combine(
        timezone.localdate() - datetime.timedelta(days=5), datetime.time(3, 0), tzinfo=west
    )
    with timezone.override(west):
        reveal(user=learner, self_check_id=check.pk, answer="", now=three_am)
        settle(user=learner, self_check_id=check.pk, outcome=Outcome.GOT_IT, now=three_am)
        # Due again at once, as if days had passed.
        CheckOff.objects.filter(user=learner).update(due=three_am - datetime.timedelta(days=1))
    # Half an hour later, in a zone where it is already the next day.
    later = three_am + datetime.timedelta(minutes=30)
    assert later.astimezone(east).date() != three_am.date()
    learner.profile.time_zone = "Pacific/Kiritimati"
    learner.profile.save()
    learner.refresh_from_db()
    with timezone.override(east):
        reveal(user=learner, self_check_id=check.pk, answer="", now=later)
        with pytest.raises(ReviewRefused):
            review_check(user=learner, self_check_id=check.pk, rating=Rating.Good, now=later)


# 4. Nothing of a live mock anywhere.


def test_a_missed_question_in_the_live_mock_cannot_be_answered_on_the_review_page(
    learner_client, learner
):
    make_plan(learner)
    mock = mock_for(learner)
    item = items_of(mock)[0]
    card = QuestionCard.objects.create(
        user=learner,
        question=item.question,
        chosen=[wrong_option(item.question)],
        order=list(range(len(item.question.options))),
        missed_at=timezone.now() - datetime.timedelta(days=3),
        due=timezone.now() - datetime.timedelta(days=1),
        last_review=timezone.now() - datetime.timedelta(days=3),
        stability=1.0,
        difficulty=5.0,
        reviews=1,
    )

    response = learner_client.post(
        reverse("progress:review-question", args=[card.pk]),
        {"option": shown(card, sorted(item.question.correct_options))},
    )

    assert response.status_code == 409
    text = page_text(response.content)
    assert "in the mock exam you are sitting" in text
    assert "Right answer" not in text
    card.refresh_from_db()
    assert card.reviews == 1


def test_the_export_during_a_live_mock_names_no_option_of_its_questions(learner_client, learner):
    make_plan(learner)
    mock = mock_for(learner)
    item = items_of(mock)[0]
    wrong_text = item.question.options[wrong_option(item.question)]["text"]
    QuestionCard.objects.create(
        user=learner,
        question=item.question,
        chosen=[wrong_option(item.question)],
        order=list(range(len(item.question.options))),
        missed_at=timezone.now(),
        due=timezone.now(),
        reviews=1,
    )

    export = learner_client.get(reverse("progress:account-export")).json()

    (card,) = export["question_cards"]
    assert card["your_answer"] == "not shown until the mock ends"
    assert wrong_text not in str(export["question_cards"])


# 5. Nothing lost between tabs.


def test_a_stale_tabs_save_is_refused_and_keeps_both_texts(learner_client, learner):
    phase = Phase.objects.order_by("number").first()
    url = reverse("progress:exercise-save", args=[phase.slug])
    long_text = "A careful account of residual connections. " * 30
    assert learner_client.post(url, {"text": long_text, "version": "0"}).status_code == 302

    stale = learner_client.post(url, {"text": "x", "version": "0"})

    assert stale.status_code == 409
    text = page_text(stale.content)
    assert long_text.strip()[:40] in text
    assert "not saved" in text
    assert Exercise.objects.get(user=learner, phase=phase).text == long_text


def test_stale_part_ticks_do_not_undo_a_done_exercise(learner_client, learner):
    phase = Phase.objects.order_by("number").first()
    url = reverse("progress:exercise-parts", args=[phase.slug])
    parts = list(phase.exercise_parts.current().values_list("slug", flat=True))
    assert learner_client.post(url, {"part": parts, "version": "0"}).status_code == 302

    stale = learner_client.post(url, {"part": parts[:1], "version": "0"})

    assert stale.status_code == 409
    exercise = Exercise.objects.get(user=learner, phase=phase)
    assert exercise.done_at is not None


def test_reveals_from_several_tabs_all_stand(learner_client, learner):
    make_plan(learner)
    checks = list(SelfCheck.objects.current().values_list("slug", flat=True)[:7])
    for slug in checks:
        learner_client.post(reverse("progress:selfcheck-reveal", args=[slug]), {"answer": "x"})
    for slug in checks:
        response = learner_client.post(
            reverse("progress:selfcheck-outcome", args=[slug]), {"outcome": "got-it"}
        )
        assert response.status_code == 302, slug

    assert CheckOff.objects.filter(user=learner).count() == 7


def test_a_drill_answer_stands_once_given(learner):
    attempt = start_drill(
        user=learner,
        domain=Domain.objects.get(slug="core-ml"),
        now=timezone.now(),
        rng=random.Random(3),
    )
    item = items_of(attempt)[0]
    wrong = [wrong_option(item.question)]
    answer(user=learner, attempt=attempt, item=item, chosen=wrong, now=timezone.now())
    stale = AttemptQuestion.objects.get(pk=item.pk)
    stale.answered_at = None  # as another request read it a moment before

    answer(
        user=learner,
        attempt=attempt,
        item=stale,
        chosen=sorted(item.question.correct_options),
        now=timezone.now(),
    )

    item.refresh_from_db()
    assert item.chosen == wrong and item.is_correct is False


# 6. No account enumeration.


def test_signing_up_with_a_registered_address_answers_as_any_sign_up(client, learner):
    response = client.post(
        reverse("account_signup"),
        {
            "username": "someone-else",
            "email": learner.email,
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )

    assert response.status_code == 302
    page = client.get(response["Location"])
    assert page.status_code == 200
    assert "registered" not in page_text(page.content).lower()
    (message,) = [m for m in mail.outbox if learner.email in m.to]
    assert "already has it" in message.body
    assert "confirm" not in message.subject.lower()


class CountingHasher(MD5PasswordHasher):
    """The test hasher, counting the password checks and dummy hashes it is asked for."""

    algorithm = "counting_md5"
    calls = 0

    def encode(self, password, salt):
        CountingHasher.calls += 1
        return super().encode(password, salt).replace("md5$", "counting_md5$", 1)

    def verify(self, password, encoded):
        CountingHasher.calls += 1
        return super().verify(password, encoded.replace("counting_md5$", "md5$", 1))


def test_a_log_in_by_email_costs_the_same_whether_the_address_exists(client, settings):
    settings.PASSWORD_HASHERS = ["tests.test_nothing_to_buy.CountingHasher"]
    UserFactory(username="known", email="known@example.com")
    counts = {}
    for address in ("known@example.com", "nobody@example.com"):
        CountingHasher.calls = 0
        client.post(reverse("account_login"), {"login": address, "password": "wrong-password-1"})
        counts[address] = CountingHasher.calls

    assert counts["known@example.com"] == counts["nobody@example.com"] == 1


def test_without_redis_the_rate_limits_count_in_the_database(settings):
    from django.core.cache import caches
    from django.core.cache.backends.db import DatabaseCache

    assert isinstance(caches["default"], DatabaseCache) or settings.REDIS_URL


# 7. A day has 24 hours.


def test_a_day_holds_no_more_than_24_hours_of_study(learner_client, learner):
    phase = Phase.objects.order_by("number").first()
    url = reverse("progress:study-session-record", args=[phase.slug])
    domain = phase.domains.first().slug
    statuses = [
        learner_client.post(url, {"minutes": "600", "domain": domain}).status_code for _ in range(3)
    ]

    assert statuses == [302, 302, 400]
    refused = learner_client.post(url, {"minutes": "600", "domain": domain})
    assert 'value="600"' in refused.content.decode()
    assert "A day has 24 hours" in page_text(refused.content)
    total = sum(StudySession.objects.filter(user=learner).values_list("minutes", flat=True))
    assert total == 1200


# 8. The zero-knowledge script: every trick above at once, 2,000 requests, never ready.


def test_the_zero_knowledge_script_never_reaches_ready(client, syllabus):
    """A learner who knows nothing: reveal and "Got it" on every self-check, the exam tomorrow,
    then per domain start a drill, answer question 1 blind, read the feedback; if right, hand it
    in, if wrong, try to discard it; repeat. The dashboard must never say "Ready to book"."""
    user = UserFactory()
    client.force_login(user)
    today = timezone.localdate()
    client.post(
        reverse("progress:plan-choose"),
        {
            "intensity": "fast-track",
            "start_date": today.isoformat(),
            "exam_date": (today + datetime.timedelta(days=1)).isoformat(),
        },
    )
    rng = random.Random(35)
    requests = 1
    for slug in SelfCheck.objects.current().values_list("slug", flat=True):
        answer_from_memory(client, slug)
        requests += 2
    domains = list(Domain.objects.values_list("slug", flat=True))
    while requests < 2000:
        for domain in domains:
            client.post(reverse("progress:drill-start"), {"domain": domain})
            attempt = Attempt.objects.filter(user=user).latest("pk")
            item = items_of(attempt)[0]
            places = list(range(1, len(item.order) + 1))
            blind = sorted(rng.sample(places, len(item.question.correct_options)))
            client.post(
                reverse("progress:attempt-answer", args=[attempt.pk, item.position]),
                {"option": [str(place) for place in blind]},
            )
            item.refresh_from_db()
            if item.is_correct:
                client.post(reverse("progress:attempt-submit", args=[attempt.pk]))
            else:
                client.post(reverse("progress:attempt-discard", args=[attempt.pk]))
            requests += 4
        dashboard = client.get(reverse("progress:dashboard"))
        requests += 1
        assert verdict(dashboard).startswith("Not ready yet"), requests


def test_a_review_counts_the_days_from_the_learners_own_day_of_the_last_one(learner):
    # 09:00 in Auckland on 16 Jan is 20:00 UTC on the 15th: the tick's day is the 16th there.
    auckland = zoneinfo.ZoneInfo("Pacific/Auckland")
    Profile.objects.update_or_create(user=learner, defaults={"time_zone": "Pacific/Auckland"})
    check = SelfCheck.objects.current().first()
    ticked = datetime.datetime(2026, 1, 16, 9, 0, tzinfo=auckland)
    reviewed = datetime.datetime(2026, 1, 19, 9, 0, tzinfo=auckland)
    from progress.memory.ticks import Outcome, settle

    with timezone.override(auckland):
        reveal(user=learner, self_check_id=check.pk, answer="", now=ticked)
        settle(user=learner, self_check_id=check.pk, outcome=Outcome.GOT_IT, now=ticked)
        CheckOff.objects.filter(user=learner).update(due=reviewed - datetime.timedelta(hours=1))
        reveal(user=learner, self_check_id=check.pk, answer="", now=reviewed)
        review_check(user=learner, self_check_id=check.pk, rating=Rating.Good, now=reviewed)

    (review,) = ReviewLog.objects.filter(user=learner, first=False)
    assert review.day == datetime.date(2026, 1, 19)
    assert review.elapsed_days == 3  # the 16th to the 19th, not the UTC 15th to the 18th's 4
