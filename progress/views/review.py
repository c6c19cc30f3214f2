"""The review queue: today's cards (ticked self-checks and missed questions), one at a time."""

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
from fsrs import Rating

from phases.snapshot import CheckInfo
from progress.auth import learner_syllabus

from .. import calibration, memory
from ..figures import fsrs
from ..models import CheckOff, QuestionCard, ReviewLog
from ..queue import CHECK, QUESTION, review_cards
from ..services.practice import close_overdue_mock
from ..services.review import ReviewRefused, review_check, review_question
from .common import HtmxHttpRequest, bad_request, current_check, number


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

    def choices(self, now: Any) -> list[Choice]:
        plain = memory.scheduler(fsrs().desired_retention, fuzz=False)
        return [
            Choice(
                rating=int(rating),
                words=words,
                days=max(
                    1,
                    round(
                        (memory.review(self.memory, rating, now, plain).due - now).total_seconds()
                        / 86400
                    ),
                ),
            )
            for rating, words in memory.RATING_WORDS.items()
        ]

    @property
    def answers(self) -> list[tuple[str, bool, bool]]:
        """A missed question's options: (text, right, the learner's)."""
        if self.question is None:
            return []
        chosen = set(self.question.chosen or [])
        return [
            (option["text"], bool(option.get("correct")), index in chosen)
            for index, option in enumerate(self.question.question.options)
        ]


def _card(request: HtmxHttpRequest, kind: str, key: int, card_memory: memory.Memory) -> Card | None:
    """The queue's first card; its memory comes with the queue, so a self-check costs no query
    and a missed question one (its prompt, options and the learner's answer)."""
    if kind == CHECK:
        check = learner_syllabus(request.user).check_by_id(key)
        if check is None:
            return None
        return Card(
            action=reverse("progress:review-answer", args=[check.slug]),
            prompt=check.prompt,
            domain=check.domain.name,
            memory=card_memory,
            check=check,
        )
    card = (
        QuestionCard.objects.for_user(request.user)
        .select_related("question__domain")
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


NOT_IN_QUEUE = (
    "This card is not in today's review queue, so rating it now would change nothing: it comes "
    "back when it is due. Nothing was changed."
)


# What a learner may type before revealing the reference: a paragraph or a few, not a book.
ANSWER_MAX_LENGTH = 4000
ANSWER_TOO_LONG = (
    f"Your answer is longer than {ANSWER_MAX_LENGTH} characters: shorten it, then reveal. "
    "Nothing was changed."
)


def _typed_answer(request: HtmxHttpRequest) -> str | None:
    """What the learner typed before the reveal (empty when nothing); None when it cannot be
    kept (too long, or a NUL character)."""
    answer = request.POST.get("answer", "").strip()
    if len(answer) > ANSWER_MAX_LENGTH or "\x00" in answer:
        return None
    return answer


def _review_page(
    request: HtmxHttpRequest,
    *,
    status: int = 200,
    refused: str = "",
    revealed: bool = False,
    answer: str = "",
) -> HttpResponse:
    # A mock whose time ran out is handed in here too, so its misses join the queue at once.
    mock = close_overdue_mock(user=request.user, now=timezone.now())
    queue = review_cards(request.user, today=timezone.localdate())
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
    now = timezone.now()
    context: dict[str, Any] = {
        "card": card,
        "choices": card.choices(now) if card else [],
        "review_due": len(queue),  # the page's count and the header's
        "daily_cap": settings.REVIEW_DAILY_CAP,
        "refused": refused,
        # The reference answer and the ratings show only once the learner has asked for them.
        "revealed": revealed and card is not None,
        "answer": answer,
    }
    if card is None:
        context["next_due"] = next_due(request.user)
    if request.htmx:
        return render(request, "progress/review.html#review-response", context, status=status)
    context["forecast"] = forecast_fit(request.user)
    return render(request, "progress/review.html", context, status=status)


def next_due(user: Any) -> Any:
    """When the learner's next card comes back (None without cards): one query."""
    return (
        CheckOff.objects.for_user(user)
        .order_by()
        .values_list("due", flat=True)
        .union(QuestionCard.objects.for_user(user).in_queue().order_by().values_list("due"))
        .order_by("due")
        .first()
    )


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


RATING_HELP = "Say rating=1 (forgot), 2 (hard), 3 (knew it) or 4 (easy)."


@login_required
@require_GET
def review(request: HtmxHttpRequest) -> HttpResponse:
    return _review_page(request)


@login_required
@require_POST
def review_reveal(request: HtmxHttpRequest) -> HttpResponse:
    """Today's first card turned over: the reference answer, what the learner typed (carried on
    with the rating into the review log), then the ratings. Nothing is written."""
    answer = _typed_answer(request)
    if answer is None:
        return _review_page(request, status=400, refused=ANSWER_TOO_LONG)
    return _review_page(request, revealed=True, answer=answer)


def _rated(
    request: HtmxHttpRequest,
    key: tuple[str, int],
    *,
    exists: Any,
    missing: str,
    review: Callable[[Rating, str], object],
) -> HttpResponse:
    """Take a rating (and the answer typed before the reveal) of the card ``key`` only if it is
    in today's queue: a 400 for a bad rating or answer, a 404 (``missing``) when the learner has
    no such card (``exists``, a queryset), a 409 when it is not in the queue or was reviewed
    today, else the review (``review``) and the next card."""
    value = number(request.POST.get("rating", ""))
    if value not in {int(rating) for rating in Rating}:
        return bad_request(RATING_HELP)
    answer = _typed_answer(request)
    if answer is None:
        return bad_request(ANSWER_TOO_LONG)
    # Only a card in today's queue takes a review that moves its schedule: a review at any other
    # time would buy recall without the forgetting the model expects.
    queue = review_cards(request.user, today=timezone.localdate())
    if not any(card == key for card, _ in queue):
        if not exists.exists():
            return HttpResponse(missing, status=404)
        return _review_page(request, status=409, refused=NOT_IN_QUEUE)
    try:
        review(Rating(value), answer)
    except ReviewRefused as refusal:
        return _review_page(request, status=409, refused=str(refusal))
    if request.htmx:
        return _review_page(request)
    return redirect("progress:review")


@login_required
@require_POST
def review_answer(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    check = current_check(request, slug)
    return _rated(
        request,
        (CHECK, check.id),
        exists=CheckOff.objects.for_user(request.user).filter(self_check_id=check.id),
        missing="You have not ticked this self-check.",
        review=lambda rating, answer: review_check(
            user=request.user,
            self_check_id=check.id,
            rating=rating,
            now=timezone.now(),
            answer=answer,
        ),
    )


@login_required
@require_POST
def review_question_answer(request: HtmxHttpRequest, card_id: int) -> HttpResponse:
    return _rated(
        request,
        (QUESTION, card_id),
        exists=QuestionCard.objects.for_user(request.user).in_queue().filter(pk=card_id),
        missing="This question is not in your review queue.",
        review=lambda rating, answer: review_question(
            user=request.user, card_id=card_id, rating=rating, now=timezone.now(), answer=answer
        ),
    )
