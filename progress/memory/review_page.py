"""The review queue: today's cards (ticked self-checks, checks "not yet" known and missed
questions), one at a time. A self-check is answered from memory, revealed, then rated; a missed
question is asked again as it was in practice, its options in a new order, and scored."""

import datetime
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST
from fsrs import Rating, State

from phases.snapshot import CheckInfo
from progress.auth import learner_syllabus
from progress.memory import reask
from progress.memory import scheduling as memory
from progress.memory.forms import RatingForm, TypedAnswerForm
from progress.memory.queue import CHECK, NOT_YET, QUESTION, next_due, review_cards
from progress.memory.review_days import current_review_day
from progress.memory.review_log import forecast_fit
from progress.memory.reviews import ReviewRefused, review_check, review_question
from progress.memory.scheduler import fsrs
from progress.memory.ticks import (
    NOT_REVEALED,
    RATING_OUTCOME,
    NotRevealed,
    Outcome,
    reveal,
    revealed,
    settle,
)
from progress.models import CheckOff, QuestionCard
from progress.practice import scoring as practice
from progress.practice.forms import OptionsForm
from progress.practice.services import close_overdue_mock, live_mock_questions
from progress.web import (
    HtmxHttpRequest,
    bad_request,
    current_check,
    first_error,
    unchanged,
)

# A missed question answered on the Review page, kept in the session for the page after a
# plain post's redirect: which card, the order its options were shown in, the options chosen.
ANSWERED = "review_answered"


@dataclass(frozen=True)
class Choice:
    rating: int
    words: str
    days: int  # the interval FSRS would give, before fuzz


@dataclass(frozen=True)
class Card:
    """The card on show: a self-check, or a question missed in practice."""

    action: str  # where its rating is posted
    prompt: str
    domain: str
    memory: memory.Memory
    check: CheckInfo | None = None
    question: QuestionCard | None = None
    not_yet: bool = False  # a check the learner said "not yet" to: no card until it is known

    def choices(self, today: datetime.date) -> list[Choice]:
        """Each rating, with the days until the card would come back (before fuzz)."""
        plain = memory.scheduler(fsrs().desired_retention, fuzz=False)
        if self.not_yet:
            # Known now, it is ticked, as on its phase page; not yet again, back tomorrow.
            ratings = {Rating.Good: Outcome.GOT_IT, Rating.Hard: Outcome.SHAKY}
            new = memory.Memory(State.Learning, None, None, self.memory.due, None)
            return [
                *(
                    Choice(
                        int(rating),
                        outcome.label,
                        max(1, memory.days_until_due(new, rating, today, plain)),
                    )
                    for rating, outcome in ratings.items()
                ),
                Choice(int(Rating.Again), Outcome.NOT_YET.label, 1),
            ]
        return [
            Choice(
                rating=int(rating),
                words=words,
                days=max(1, memory.days_until_due(self.memory, rating, today, plain)),
            )
            for rating, words in memory.RATING_WORDS.items()
        ]

    @property
    def options(self) -> list[tuple[int, str]]:
        """A missed question's options in the card's own order, each as (its place, its text):
        a place says nothing about which option is right."""
        if self.question is None:
            return []
        return reask.shown_options(self.question)

    @property
    def choose(self) -> int:
        return len(self.question.question.correct_options) if self.question else 0


def _card(request: HtmxHttpRequest, kind: str, key: int, card_memory: memory.Memory) -> Card | None:
    """The queue's first card; its memory comes with the queue, so a self-check costs no query
    and a missed question one (its prompt, options and the learner's answer)."""
    if kind != QUESTION:
        check = learner_syllabus(request.user).check_by_id(key)
        if check is None:
            return None
        return Card(
            action=reverse("progress:review-answer", args=[check.slug]),
            prompt=check.prompt,
            domain=check.domain.name,
            memory=card_memory,
            check=check,
            not_yet=kind == NOT_YET,
        )
    card = (
        QuestionCard.objects.for_user(request.user)
        .select_related("question__domain", "question__topic", "question__subarea")
        .filter(pk=key)
        .first()
    )
    if card is None:
        return None
    return Card(
        action=reverse("progress:review-question", args=[card.pk]),
        prompt=card.question.prompt,
        domain=card.question.domain.name,
        memory=card.memory,
        question=card,
    )


IN_LIVE_MOCK = (
    "This question is in the mock exam you are sitting: it comes back here once the mock is "
    "handed in or its time is up. Nothing was changed."
)
NOT_IN_QUEUE = (
    "This card is not in today's review queue, so rating it now would change nothing: it comes "
    "back when it is due. Nothing was changed."
)


def _review_page(
    request: HtmxHttpRequest,
    *,
    status: int = 200,
    refused: str = "",
    answer: str | None = None,
    just_answered: reask.Answered | None = None,
    chosen_places: tuple[int, ...] = (),
) -> HttpResponse:
    # A mock whose time ran out is handed in here too, so its misses join the queue at once.
    now = timezone.now()
    mock = close_overdue_mock(user=request.user, now=now)
    day = current_review_day(request.user, now)
    queue = review_cards(request.user, day=day)
    card = None
    in_mock: set[int] | None = None
    for (kind, key), card_memory in queue:
        card = _card(request, kind, key, card_memory)
        if mock is None or card is None or card.question is None:
            break
        # A missed question that is in the live mock waits until the mock is over: the back of
        # its card shows the key.
        if in_mock is None:
            in_mock = set(mock.questions.values_list("question_id", flat=True))
        if card.question.question_id not in in_mock:
            break
        card = None
    # A self-check's reference answer and its ratings show once the learner has turned it over
    # (``answer``: what they typed first), here or on its phase page; a missed question is
    # scored instead, its key shown after the answer.
    shown = card.check.slug if card is not None and card.check is not None else ""
    if card is not None and card.check is not None and answer is not None:
        reveal(user=request.user, self_check_id=card.check.id, answer=answer, now=now)
    turned_over = revealed(request.user, timezone.now())
    context: dict[str, Any] = {
        "card": card,
        "choices": card.choices(day.day) if card else [],
        "review_due": len(queue),  # the page's count and the header's
        "daily_cap": settings.REVIEW_DAILY_CAP,
        "leave_after": memory.RIGHT_IN_A_ROW_TO_LEAVE,
        "refused": refused,
        "revealed": bool(shown) and shown in turned_over,
        "answer": turned_over.get(shown, ""),
        "answered": just_answered or _answered_before(request),
        # A refused choice (too few or too many) shown as the learner left it.
        "chosen_places": chosen_places,
    }
    if card is None:
        context["next_due"] = next_due(request.user)
    if request.htmx:
        return render(request, "progress/review.html#review-response", context, status=status)
    context["forecast"] = forecast_fit(request.user)
    return render(request, "progress/review.html", context, status=status)


@login_required
@require_GET
def review(request: HtmxHttpRequest) -> HttpResponse:
    return _review_page(request)


@login_required
@require_POST
def review_reveal(request: HtmxHttpRequest) -> HttpResponse:
    """Today's first card turned over: the reference answer, what the learner typed (carried on
    with the rating into the review log), then the ratings. Only the reveal is written."""
    form = TypedAnswerForm(request.POST)
    if not form.is_valid():
        return _review_page(request, status=400, refused=unchanged(first_error(form)))
    return _review_page(request, answer=form.cleaned_data["answer"])


def _in_queue(request: HtmxHttpRequest, *keys: tuple[str, int]) -> tuple[str, int] | None:
    """The first of ``keys`` in today's queue: only a card in it takes a review that moves its
    schedule (a review at any other time would buy recall without the forgetting the model
    expects)."""
    queue = {
        card
        for card, _ in review_cards(
            request.user, day=current_review_day(request.user, timezone.now())
        )
    }
    return next((key for key in keys if key in queue), None)


def _not_in_queue(request: HtmxHttpRequest, *, exists: Any, missing: str) -> HttpResponse:
    """A 404 (``missing``) when the learner has no such card (``exists``, a queryset), else a
    409: it is not in today's queue."""
    if not exists.exists():
        return HttpResponse(missing, status=404)
    return _review_page(request, status=409, refused=NOT_IN_QUEUE)


def _reviewed(request: HtmxHttpRequest, review: Callable[[], object]) -> HttpResponse:
    """The review (it uses up the card's reveal, and what was typed before it) and the next
    card; a 409 when the card was reviewed today or is not turned over (another tab rated it)."""
    try:
        review()
    except ReviewRefused as refusal:
        return _review_page(request, status=409, refused=str(refusal))
    except NotRevealed:
        return _review_page(request, status=409, refused=unchanged(NOT_REVEALED))
    if request.htmx:
        return _review_page(request)
    return redirect("progress:review")


@login_required
@require_POST
def review_answer(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """A self-check's rating, once revealed, with what was typed before the reveal: a review of
    a ticked check, or for a check "not yet" known, how it went this time
    (progress.memory.ticks)."""
    check = current_check(request, slug)
    form = RatingForm(request.POST)
    if not form.is_valid():
        return bad_request(first_error(form))
    key = _in_queue(request, (CHECK, check.id), (NOT_YET, check.id))
    if key is None:
        return _not_in_queue(
            request,
            exists=CheckOff.objects.for_user(request.user).ticked().filter(self_check_id=check.id),
            missing="You have not ticked this self-check.",
        )
    now, rating = timezone.now(), form.cleaned_data["rating"]
    if key[0] == NOT_YET:
        return _reviewed(
            request,
            lambda: settle(
                user=request.user,
                self_check_id=check.id,
                outcome=RATING_OUTCOME[rating],
                now=now,
            ),
        )
    return _reviewed(
        request,
        lambda: review_check(user=request.user, self_check_id=check.id, rating=rating, now=now),
    )


@login_required
@require_POST
def review_question_answer(request: HtmxHttpRequest, card_id: int) -> HttpResponse:
    """A missed question answered again (``option``: the places chosen among the options as the
    card showed them), scored on the server: right is "knew it", wrong "forgot". Then the
    verdict, the key, the learner's answer and the explanation."""
    card = (
        QuestionCard.objects.for_user(request.user)
        .in_queue()
        .select_related("question__domain", "question__topic", "question__subarea")
        .filter(pk=card_id)
        .first()
    )
    if card is None:
        return HttpResponse("This question is not in your review queue.", status=404)
    if card.question_id in live_mock_questions(user=request.user, now=timezone.now()):
        # Its verdict would be the key of a question the learner is answering in the mock.
        return _review_page(request, status=409, refused=IN_LIVE_MOCK)
    order = reask.shown_order(card)
    form = OptionsForm(request.POST, places=len(order))
    if not form.is_valid():
        return bad_request(first_error(form))
    chosen = practice.chosen_options(order, form.cleaned_data["option"])
    choose = len(card.question.correct_options)
    if len(chosen) != choose:
        # The card again with the reason on it: 422, which htmx swaps in (base.html).
        return _review_page(
            request,
            status=422,
            refused=unchanged(practice.choose_exactly(choose, len(chosen))),
            chosen_places=tuple(form.cleaned_data["option"]),
        )
    if _in_queue(request, (QUESTION, card.pk)) is None:
        return _review_page(request, status=409, refused=NOT_IN_QUEUE)
    right = practice.is_correct(chosen, card.question.correct_options)
    texts = [card.question.options[index]["text"] for index in chosen]
    try:
        review_question(
            user=request.user,
            card_id=card.pk,
            rating=Rating.Good if right else Rating.Again,
            now=timezone.now(),
            answer="\n".join(texts),
        )
    except ReviewRefused as refusal:
        return _review_page(request, status=409, refused=str(refusal))
    if request.htmx:
        card.refresh_from_db(fields=["left_at", "due", "right_in_a_row"])
        return _review_page(request, just_answered=reask.answered(card, order, chosen))
    request.session[ANSWERED] = {"card": card.pk, "order": order, "chosen": chosen}
    return redirect("progress:review")


def _answered_before(request: HtmxHttpRequest) -> reask.Answered | None:
    """The missed question a plain post just answered, once, after its redirect."""
    if request.method != "GET" or (kept := request.session.pop(ANSWERED, None)) is None:
        return None
    card = (
        QuestionCard.objects.for_user(request.user)
        .select_related("question__domain", "question__topic", "question__subarea")
        .filter(pk=kept["card"])
        .first()
    )
    if card is None or "chosen" not in kept:
        return None
    return reask.answered(card, kept["order"], kept["chosen"])
