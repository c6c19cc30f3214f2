"""The review queue: the header's count and the Review page's cards, from one query."""

import datetime
from collections.abc import Hashable
from typing import Any

from django.conf import settings
from django.db.models import CharField, Value
from django.utils import timezone

from progress.auth import learner_syllabus

from . import memory
from .figures import MEMORY_COLUMNS, fsrs, plan_of, recall_day, schedule_for
from .memory import Memory
from .models import CheckOff, QuestionCard
from .timezones import end_of_day, start_of_day

CHECK = "check"
QUESTION = "question"


def card_rows(user_id: int) -> list[tuple[Any, ...]]:
    """A learner's cards: ticks and missed questions still in the queue, in one UNION ALL (a
    tick's domain comes from the syllabus, a missed question's from its row)."""
    no_domain = Value(None, output_field=CharField())
    return list(
        CheckOff.objects.filter(user_id=user_id)
        .order_by()
        .values_list(Value(CHECK), "self_check_id", no_domain, "reviews", *MEMORY_COLUMNS)
        .union(
            QuestionCard.objects.filter(user_id=user_id)
            .in_queue()
            .order_by()
            .values_list(
                Value(QUESTION), "pk", "question__domain__slug", "reviews", *MEMORY_COLUMNS
            ),
            all=True,
        )
    )


def review_cards(user: Any, *, today: datetime.date) -> list[tuple[tuple[str, int], Memory]]:
    """Today's review queue (progress.memory.queue), each card as ((kind, id), its memory): a
    ticked self-check by its self-check id, a missed question by its QuestionCard id. One query,
    however many cards."""
    content = learner_syllabus(user)
    plan = plan_of(user)
    schedule = schedule_for(plan, content) if plan else None
    weights = {domain.slug: domain.weight for domain in content.domains}
    rows = card_rows(user.pk)
    candidates = []
    cards: dict[Hashable, tuple[tuple[str, int], Memory]] = {}
    for kind, key, domain, reviews, *columns in rows:
        if kind == CHECK:
            # A tick on a retired check is kept as history but is no card.
            if (check_key := content.check_keys.get(key)) is None:
                continue
            domain = check_key[0]
        card_key, card_memory = (kind, key), Memory(*columns)
        cards[card_key] = (card_key, card_memory)
        candidates.append(
            memory.Candidate(
                key=card_key, memory=card_memory, weight=weights.get(domain, 0), reviews=reviews
            )
        )
    chosen = memory.queue(
        candidates,
        now=timezone.now(),
        start_of_today=start_of_day(today),
        end_of_today=end_of_day(today),
        exam_at=start_of_day(recall_day(plan, schedule, today)),
        cap=settings.REVIEW_DAILY_CAP,
        fsrs=fsrs(),
    )
    return [cards[key] for key in chosen]


def review_queue(user: Any, *, today: datetime.date) -> list[tuple[str, int]]:
    """Today's review queue as (kind, id), from review_cards: the header's count."""
    return [key for key, _ in review_cards(user, today=today)]
