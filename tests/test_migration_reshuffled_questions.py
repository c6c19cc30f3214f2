"""The data migration progress 0023_not_yet_and_reshuffled_questions, on a real database: a
missed question already in a learner's queue comes back with its options in an order of its own,
every option once."""

import pytest
from django.utils import timezone

from tests.migrating import migrate

BEFORE = [("progress", "0022_exercise")]
AFTER = [("progress", "0023_not_yet_and_reshuffled_questions")]


@pytest.mark.django_db(transaction=True)
def test_each_missed_question_card_gets_an_order_of_all_its_options(executor, syllabus):
    old = migrate(executor, BEFORE)
    User = old.get_model("auth", "User")
    Question = old.get_model("phases", "Question")
    QuestionCard = old.get_model("progress", "QuestionCard")
    ada = User.objects.create(username="ada")
    questions = list(Question.objects.order_by("pk")[:3])
    now = timezone.now()
    for question in questions:
        QuestionCard.objects.create(user=ada, question=question, chosen=[0], missed_at=now, due=now)

    new = migrate(executor, AFTER)

    cards = new.get_model("progress", "QuestionCard").objects.select_related("question")
    assert cards.count() == 3
    for card in cards:
        assert sorted(card.order) == list(range(len(card.question.options)))
