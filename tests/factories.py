"""Test data. Every write to a learner's rows goes through the app's services, or through the ORM
where a test needs a state no service makes (a review due yesterday, an answer from an hour
ago)."""

import datetime
import itertools
import random
from typing import Any

import factory
from django.conf import settings
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from phases.models import Domain, Intensity, Question, SelfCheck
from progress.exercises.models import Exercise
from progress.exercises.services import save_text, tick_parts
from progress.memory.reviews import review_check
from progress.memory.ticks import reveal, set_done, settle
from progress.models import Attempt, AttemptQuestion, CheckOff, QuestionCard
from progress.planning.services import save_plan
from progress.practice.services import answer, settle_first_sight, start_drill, start_mock
from progress.summary.keep import rebuild
from progress.timezones import start_of_day

PASSWORD = "correct-horse-battery-9"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"learner{n}")
    email = factory.LazyAttribute(lambda user: f"{user.username}@example.com")
    password = factory.django.Password(PASSWORD)

    @factory.post_generation
    def summary(user, create, extracted, **kwargs):
        # As sign-up makes it (studyplan.accounts.AccountAdapter.save_user).
        if create:
            summary_built(user)


class StudyPlanFactory(factory.Factory):
    """A plan, saved by the plan service (progress.planning.services.save_plan)."""

    class Meta:
        model = dict  # built by _create below

    user = factory.SubFactory(UserFactory)
    intensity = factory.LazyFunction(lambda: Intensity.objects.get(slug="standard"))
    start_date = factory.LazyFunction(timezone.localdate)
    exam_date = None

    @classmethod
    def _create(cls, model_class, *, user, intensity, start_date, exam_date):
        return save_plan(
            user=user,
            intensity=intensity,
            start_date=start_date,
            exam_date=exam_date,
            today=timezone.localdate(),
        )


class CheckOffFactory(factory.Factory):
    """A tick, made by the tick service; any other field given (due, stability, confidence, ...)
    is set on its row after it."""

    class Meta:
        model = dict  # built by _create below

    user = factory.SubFactory(UserFactory)
    self_check = factory.LazyFunction(lambda: SelfCheck.objects.current().first())

    @classmethod
    def _create(cls, model_class, *, user, self_check, **fields):
        set_done(user=user, self_check_id=self_check.pk, done=True)
        if fields:
            CheckOff.objects.filter(user=user, self_check=self_check).update(**fields)
        return CheckOff.objects.get(user=user, self_check=self_check)


class QuestionFactory(factory.django.DjangoModelFactory):
    """A practice question (content, not a learner's row): four options, the first one right."""

    class Meta:
        model = Question

    slug = factory.Sequence(lambda n: f"q-test-{n}")
    domain = factory.LazyFunction(lambda: Domain.objects.get(slug="core-ml"))
    prompt = factory.Sequence(lambda n: f"Test question {n}: which option is right?")
    options = factory.LazyFunction(
        lambda: [{"text": f"Option {letter}", "correct": letter == "A"} for letter in "ABCD"]
    )
    explanation = "Option A is right by construction."


class AttemptFactory(factory.django.DjangoModelFactory):
    """An attempt with no questions yet (add them with AttemptQuestionFactory).

    ``drill=True``: a drill in core-ml; ``mock=True``: a live mock with the settings' deadline;
    ``submitted=True``: handed in when it started.
    """

    class Meta:
        model = Attempt

    user = factory.SubFactory(UserFactory)
    kind = Attempt.Kind.DRILL
    domain = None
    started_at = factory.LazyFunction(timezone.now)
    deadline = None
    submitted_at = None

    class Params:
        drill = factory.Trait(
            kind=Attempt.Kind.DRILL,
            domain=factory.LazyFunction(lambda: Domain.objects.get(slug="core-ml")),
        )
        mock = factory.Trait(
            kind=Attempt.Kind.MOCK,
            domain=None,
            deadline=factory.LazyAttribute(
                lambda attempt: (
                    attempt.started_at + datetime.timedelta(minutes=settings.MOCK_MINUTES)
                )
            ),
        )
        submitted = factory.Trait(submitted_at=factory.SelfAttribute("started_at"))


class AttemptQuestionFactory(factory.django.DjangoModelFactory):
    """A question of an attempt, unanswered; ``right=True`` or ``wrong=True`` answers it."""

    class Meta:
        model = AttemptQuestion
        skip_postgeneration_save = True

    attempt = factory.SubFactory(AttemptFactory, drill=True)
    question = factory.SubFactory(QuestionFactory)
    position = factory.LazyAttribute(lambda item: item.attempt.questions.count() + 1)
    order = factory.LazyAttribute(lambda item: list(range(len(item.question.options))))
    chosen = None
    is_correct = None
    answered_at = None

    @factory.post_generation
    def summary(item, create, extracted, **kwargs):
        # A row written here, not by the practice service: the learner's summary is built again
        # from the rows, as that service keeps it (progress.summary).
        if create:
            summary_built(item.attempt.user)

    class Params:
        # An answer made here is the learner's first to its question (progress.services.
        # practice.settle_first_sight marks repeats; practise() below goes through it).
        right = factory.Trait(
            chosen=factory.LazyAttribute(lambda item: sorted(item.question.correct_options)),
            is_correct=True,
            answered_at=factory.LazyAttribute(lambda item: item.attempt.started_at),
            first_sight=True,
        )
        wrong = factory.Trait(
            chosen=factory.LazyAttribute(lambda item: [wrong_option(item.question)]),
            is_correct=False,
            answered_at=factory.LazyAttribute(lambda item: item.attempt.started_at),
            first_sight=True,
        )


def wrong_option(question: Question) -> int:
    return next(i for i in range(len(question.options)) if i not in question.correct_options)


def shown(item, indices) -> list[str]:
    """The form values that choose these stored options of an attempt's question: each option's
    place in the attempt's shuffled order, 1 for the first shown."""
    return [str(place) for place in sorted(item.order.index(index) + 1 for index in indices)]


# Shortcuts the tests read best with.


def tick(user, *slugs: str) -> None:
    """Tick through the app's own write path (the tick service), as a learner's tick is made."""
    ids = dict(SelfCheck.objects.filter(slug__in=slugs).values_list("slug", "pk"))
    for slug in slugs:
        set_done(user=user, self_check_id=ids[slug], done=True)


def make_plan(user, *, intensity: str = "standard", days_ago: int = 0, exam_in: int | None = None):
    """A plan that started ``days_ago`` days before today (the server's today, not the OS's)."""
    today = timezone.localdate()
    return StudyPlanFactory(
        user=user,
        intensity=Intensity.objects.get(slug=intensity),
        start_date=today - datetime.timedelta(days=days_ago),
        exam_date=today + datetime.timedelta(days=exam_in) if exam_in is not None else None,
    )


def make_due(user, *slugs: str, days_ago: int = 1) -> None:
    """Bring ticked checks back to the review queue, as the calendar would ``days_ago`` after
    their review day."""
    due = start_of_day(timezone.localdate() - datetime.timedelta(days=days_ago))
    # Reviewed before it fell due, on an earlier day of the learner's: a card reviewed today
    # takes no other review until tomorrow.
    reviewed = due - datetime.timedelta(days=2)
    CheckOff.objects.filter(user=user, self_check__slug__in=slugs).update(
        due=due, last_review=reviewed, last_review_day=timezone.localdate(reviewed)
    )
    days_later(user)


def miss(user, *questions: Question) -> list[QuestionCard]:
    """Answer each question wrong in a drill, through the practice service: each becomes the
    learner's missed-question card (its first review "forgot", back tomorrow)."""
    attempt = AttemptFactory(user=user, drill=True)
    for question in questions:
        item = AttemptQuestionFactory(attempt=attempt, question=question)
        wrong = [wrong_option(question)]
        answer(user=user, attempt=attempt, item=item, chosen=wrong, now=timezone.now())
    return [QuestionCard.objects.get(user=user, question=question) for question in questions]


def make_missed_due(user, *cards: QuestionCard, days_ago: int = 1) -> None:
    """Bring missed-question cards back to the review queue ``days_ago`` after their due day."""
    due = start_of_day(timezone.localdate() - datetime.timedelta(days=days_ago))
    reviewed = due - datetime.timedelta(days=2)
    QuestionCard.objects.filter(user=user, pk__in=[card.pk for card in cards]).update(
        due=due, last_review=reviewed, last_review_day=timezone.localdate(reviewed)
    )
    days_later(user)


def days_later(user) -> None:
    """After a test moves a learner's rows back in time rather than the clock forward: their
    summary as a later day finds it (the header's count is that day's review queue, which no
    write has kept yet), built from the rows."""
    summary_built(user)


def summary_built(user) -> None:
    """The learner's summary built from their rows and saved, as the app's writes keep it. On a
    copy of the user: the test's own object keeps no summary, so the next read finds the one
    the app's requests kept since."""
    rebuild(get_user_model().objects.get(pk=user.pk), now=timezone.now())


def practise(
    user, domain_slug: str, *, right: int, wrong: int = 0, at: datetime.datetime | None = None
) -> Attempt:
    """A drill in one domain with ``right`` then ``wrong`` answers, all given at ``at`` (now by
    default); the domain's real questions at the exam's depth, each answered for the first time
    unless this learner answered it before (then a repeat, as the practice service marks it),
    reused in turn when the domain has fewer."""
    attempt = AttemptFactory(
        user=user,
        drill=True,
        domain=Domain.objects.get(slug=domain_slug),
        started_at=at or timezone.now(),
    )
    questions = itertools.cycle(
        Question.objects.current().filter(domain__slug=domain_slug, stretch=False)
    )
    items = [
        AttemptQuestionFactory(
            attempt=attempt,
            question=next(questions),
            right=n < right,
            wrong=n >= right,
            first_sight=None,
        )
        for n in range(right + wrong)
    ]
    settle_first_sight(user=user, items=items)
    summary_built(user)
    return attempt


def mock_for(user, *, now: datetime.datetime | None = None, seed: int = 1) -> Attempt:
    """A live mock, started by the practice service."""
    return start_mock(user=user, now=now or timezone.now(), rng=random.Random(seed))


def drill_for(user, domain_slug: str = "core-ml", *, seed: int = 1) -> Attempt:
    """A drill, started by the practice service."""
    return start_drill(
        user=user,
        domain=Domain.objects.get(slug=domain_slug),
        now=timezone.now(),
        rng=random.Random(seed),
    )


def items_of(attempt: Attempt) -> list[AttemptQuestion]:
    return list(attempt.questions.select_related("question__domain").order_by("position"))


def domain_names() -> dict[str, str]:
    """Domain names by slug, in study order."""
    return dict(Domain.objects.order_by("study_order").values_list("slug", "name"))


def answer_from_memory(
    client, slug: str, outcome: str = "got-it", *, answer: str = "", **extra
) -> Any:
    """Answer a self-check as its phase page asks a learner to: reveal the reference answer
    (``answer`` typed first), then say how it went; the outcome's response. ``extra`` holds the
    request's headers (htmx) and ``next``."""
    data = {"outcome": outcome}
    if "next" in extra:
        data["next"] = extra.pop("next")
    client.post(reverse("progress:selfcheck-reveal", args=[slug]), {"answer": answer}, **extra)
    return client.post(reverse("progress:selfcheck-outcome", args=[slug]), data, **extra)


def review_from_memory(client, slug: str, rating: int | str, *, answer: str = "", **headers) -> Any:
    """Review a due self-check as the Review page asks a learner to: turn today's first card
    over (``answer`` typed first), then rate it; the rating's response."""
    client.post(reverse("progress:review-reveal"), {"answer": answer}, **headers)
    return client.post(
        reverse("progress:review-answer", args=[slug]), {"rating": str(rating)}, **headers
    )


def answer_again(client, card: QuestionCard, *, right: bool, **headers) -> Any:
    """Answer a missed question on the Review page, right or wrong, by the places its options
    are shown in there (the card's own order)."""
    card.refresh_from_db()
    correct = sorted(card.question.correct_options)
    chosen = correct if right else [wrong_option(card.question), *correct[1:]]
    return client.post(
        reverse("progress:review-question", args=[card.pk]),
        {"option": shown(card, chosen)},
        **headers,
    )


def write_exercise(user, phase, text: str, now: datetime.datetime) -> Exercise:
    """Save an exercise's text as a page read just before would (at the version saved now)."""
    current = Exercise.objects.filter(user=user, phase_id=phase.id).first()
    version = current.text_version if current else 0
    return save_text(user=user, phase=phase, text=text, version=version, now=now)


def tick_exercise_parts(user, phase, ticked: set[str], now: datetime.datetime) -> Exercise:
    """Tick an exercise's parts as a page read just before would (at the version saved now)."""
    current = Exercise.objects.filter(user=user, phase_id=phase.id).first()
    version = current.parts_version if current else 0
    return tick_parts(user=user, phase=phase, ticked=ticked, version=version, now=now)


def settle_revealed(user, *, self_check_id: int, outcome, now, answer: str = "") -> bool:
    """Say how an answer from memory went, after turning the check over (``answer`` typed)."""
    reveal(user=user, self_check_id=self_check_id, answer=answer, now=now)
    return settle(user=user, self_check_id=self_check_id, outcome=outcome, now=now)


def review_revealed(user, *, self_check_id: int, rating, now, answer: str = "") -> bool:
    """Rate a ticked check on the Review page, after turning it over (``answer`` typed)."""
    reveal(user=user, self_check_id=self_check_id, answer=answer, now=now)
    return review_check(user=user, self_check_id=self_check_id, rating=rating, now=now)
