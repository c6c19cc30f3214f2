"""The review queue: the header's count and the Review page's cards, from one query."""

from typing import Any

from django.conf import settings
from django.db.models import CharField, DateField, FloatField, IntegerField, Value
from fsrs import State

from progress.auth import learner_syllabus
from progress.memory import scheduling as memory
from progress.memory.review_days import ReviewDay
from progress.memory.scheduler import fsrs
from progress.memory.scheduling import MEMORY_COLUMNS, Memory
from progress.models import CheckOff, NotYet, QuestionCard
from progress.planning.schedules import plan_of, recall_day, schedule_for

CHECK = "check"
QUESTION = "question"
NOT_YET = "not-yet"  # a self-check tried and not yet known: no card, back the next day


def review_cards(user: Any, *, day: ReviewDay) -> list[tuple[tuple[str, int], Memory]]:
    """Today's review queue (progress.memory.scheduling.queue), each card as ((kind, id), its
    memory): a ticked self-check or one "not yet" known by its self-check id, a missed question by
    its QuestionCard id. One query, however many cards: a UNION ALL of the ticks, the missed
    questions still in the queue and the "not yet"s (a check's domain comes from the syllabus, a
    missed question's from its row; a "not yet" has no memory, FSRS's new card, due the day
    after its try)."""
    content = learner_syllabus(user)
    plan = plan_of(user)
    schedule = schedule_for(plan, content) if plan else None
    today = day.day
    weights = {domain.slug: domain.weight for domain in content.domains}
    no_domain = Value(None, output_field=CharField())
    unknown = Value(None, output_field=FloatField())
    rows = (
        CheckOff.objects.for_user(user)
        .ticked()
        .values_list(Value(CHECK), "self_check_id", no_domain, "reviews", *MEMORY_COLUMNS)
        .union(
            QuestionCard.objects.for_user(user)
            .in_queue()
            .values_list(
                Value(QUESTION), "pk", "question__domain__slug", "reviews", *MEMORY_COLUMNS
            ),
            NotYet.objects.for_user(user).values_list(
                Value(NOT_YET),
                "self_check_id",
                no_domain,
                Value(0, output_field=IntegerField()),
                Value(int(State.Learning), output_field=IntegerField()),
                unknown,
                unknown,
                "due",
                "tried_at",
                Value(None, output_field=DateField()),
            ),
            all=True,
        )
    )
    cards: dict[tuple[str, int], memory.Candidate[tuple[str, int]]] = {}
    for kind, key, domain, reviews, *columns in rows:
        if kind != QUESTION:
            # A tick on a retired check is kept as history but is no card.
            if (check_key := content.check_keys.get(key)) is None:
                continue
            domain = check_key[0]
        card_memory = Memory(*columns)
        if kind == NOT_YET and not memory.is_due(card_memory, day.ends):
            # Back the next day, never early: it has no memory to gain from a review yet (and no
            # review day of its own to tell it was tried today).
            continue
        cards[kind, key] = memory.Candidate(
            key=(kind, key), memory=card_memory, weight=weights.get(domain, 0), reviews=reviews
        )
    chosen = memory.queue(
        cards.values(),
        today=today,
        end_of_today=day.ends,
        exam_day=recall_day(plan, schedule, today),
        cap=settings.REVIEW_DAILY_CAP,
        fsrs=fsrs(),
    )
    return [(key, cards[key].memory) for key in chosen]


def review_queue(user: Any, *, day: ReviewDay) -> list[tuple[str, int]]:
    """Today's review queue as (kind, id), from review_cards: the header's count."""
    return [key for key, _ in review_cards(user, day=day)]


def next_due(user: Any) -> Any:
    """When the learner's next card comes back (None without cards): one query."""
    return (
        CheckOff.objects.for_user(user)
        .ticked()
        .values_list("due", flat=True)
        .union(
            QuestionCard.objects.for_user(user).in_queue().order_by().values_list("due"),
            NotYet.objects.for_user(user).values_list("due"),
        )
        .order_by("due")
        .first()
    )
