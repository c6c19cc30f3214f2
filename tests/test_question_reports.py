"""Reporting a problem with a question: offered wherever its key was shown, saved and thanked,
refused with a message on bad input, and read in the admin with each question's statistics."""

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from phases.models import Question
from progress.models import QuestionReport
from progress.practice.itemstats import FLAG_AFTER, item_statistics
from progress.practice.services import answer
from tests.factories import (
    PASSWORD,
    answer_again,
    drill_for,
    items_of,
    make_missed_due,
    miss,
    mock_for,
    wrong_option,
)
from tests.html import links, page_text

pytestmark = pytest.mark.django_db


def report_url(question: Question, next_url: str = "") -> str:
    url = reverse("progress:question-report", args=[question.slug])
    return f"{url}?next={next_url}" if next_url else url


def answered_drill(learner):
    drill = drill_for(learner, "experimentation")
    item = items_of(drill)[0]
    answer(
        user=learner,
        attempt=drill,
        item=item,
        chosen=[wrong_option(item.question)],
        now=timezone.now(),
    )
    return drill, item


def test_drill_feedback_offers_a_report_and_the_report_is_saved_and_thanked(
    learner_client, learner
):
    drill, item = answered_drill(learner)
    feedback_url = f"{reverse('progress:attempt', args=[drill.pk])}?q={item.position}"
    feedback = learner_client.get(feedback_url)
    assert "Report a problem with this question" in page_text(feedback.content)
    (link,) = [href for href in links(feedback.content) if "/report/" in href]

    form = learner_client.get(link)
    assert form.status_code == 200
    assert item.question.prompt in page_text(form.content)
    response = learner_client.post(
        link,
        {"kind": "wrong-key", "note": "B is right: the guide says so.", "next": feedback_url},
        follow=True,
    )

    assert response.redirect_chain[-1][0] == feedback_url
    assert "Thank you: your report on this question was saved." in page_text(response.content)
    (report,) = QuestionReport.objects.filter(user=learner)
    assert (report.question, report.kind, report.status) == (item.question, "wrong-key", "open")
    assert report.note == "B is right: the guide says so."


def test_a_result_page_and_a_review_back_offer_the_report(learner_client, learner):
    drill, item = answered_drill(learner)
    learner_client.post(reverse("progress:attempt-submit", args=[drill.pk]))
    result = learner_client.get(reverse("progress:attempt-result", args=[drill.pk]))
    assert report_url(item.question) in " ".join(links(result.content))

    (card,) = miss(learner, Question.objects.current().filter(domain__slug="core-ml").first())
    make_missed_due(learner, card)
    front = learner_client.get(reverse("progress:review"))
    assert report_url(card.question) not in " ".join(links(front.content))  # the key unseen yet
    answer_again(learner_client, card, right=False)
    back = learner_client.get(reverse("progress:review"))  # the verdict, with the key
    assert report_url(card.question) in " ".join(links(back.content))


def test_a_question_whose_key_was_never_shown_cannot_be_reported(learner_client, learner):
    unseen = Question.objects.current().first()
    assert learner_client.get(report_url(unseen)).status_code == 404
    assert learner_client.post(report_url(unseen), {"kind": "typo"}).status_code == 404
    assert learner_client.get("/questions/no-such-question/report/").status_code == 404

    # Nor one seen only in the live mock: its key is not shown until the mock is over.
    mock = mock_for(learner)
    item = items_of(mock)[0]
    answer(user=learner, attempt=mock, item=item, chosen=[0], now=timezone.now())
    assert learner_client.get(report_url(item.question)).status_code == 404
    assert not QuestionReport.objects.exists()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"note": "no kind"}, "Choose what is wrong with the question."),
        ({}, "Choose what is wrong with the question."),
        ({"kind": "it-is-all-wrong"}, "Select a valid choice."),
        ({"kind": "typo", "note": "x" * 2001}, "at most 2000 characters"),
        ({"kind": "typo", "note": "nul\x00"}, "Null characters are not allowed."),
    ],
)
def test_a_bad_report_is_refused_with_a_message_and_nothing_saved(
    learner_client, learner, data, message
):
    _, item = answered_drill(learner)

    response = learner_client.post(report_url(item.question), data)

    assert response.status_code == 400
    text = page_text(response.content)
    assert "Your report was not saved" in text
    assert message in text
    assert not QuestionReport.objects.exists()


def test_a_second_report_while_the_first_is_open_replaces_it(learner_client, learner):
    _, item = answered_drill(learner)
    learner_client.post(report_url(item.question), {"kind": "typo"})
    learner_client.post(report_url(item.question), {"kind": "unclear", "note": "Thought again."})

    (report,) = QuestionReport.objects.all()
    assert (report.kind, report.note) == ("unclear", "Thought again.")
    report.status = QuestionReport.Status.FIXED
    report.save()
    learner_client.post(report_url(item.question), {"kind": "typo"})
    assert QuestionReport.objects.count() == 2  # a fixed report is kept; a new one is opened


def test_the_way_back_is_only_ever_one_of_our_pages(learner_client, learner):
    _, item = answered_drill(learner)

    response = learner_client.post(
        report_url(item.question), {"kind": "typo", "next": "https://evil.example/"}
    )

    assert response.status_code == 302
    assert response["Location"] == reverse("progress:practice")


def test_reports_and_question_statistics_show_in_the_admin(client, learner):
    _, item = answered_drill(learner)
    learner_client = Client()
    learner_client.force_login(learner)
    learner_client.post(report_url(item.question), {"kind": "two-right", "note": "A and C."})
    admin = get_user_model().objects.create_superuser("keeper", "keeper@example.com", PASSWORD)
    client.force_login(admin)

    reports = client.get(reverse("admin:progress_questionreport_changelist"))
    with CaptureQueriesContext(connection) as queries:
        questions = client.get(reverse("admin:phases_question_changelist") + "?reported=open")
    # Every counted answer is read once for the page's statistics, not once per use.
    reads = [q for q in queries.captured_queries if "progress_attemptquestion" in q["sql"]]
    assert len(reads) == 1

    assert reports.status_code == questions.status_code == 200
    assert str(item.question) in page_text(reports.content)
    assert "More than one option is right" in page_text(reports.content)
    text = page_text(questions.content)
    assert item.question.slug in text
    assert "1 question" in text  # only the reported one is listed under "with open reports"
    assert "0%" in text  # answered once, wrong


# The statistics themselves, on fixed answers


def test_a_question_strong_learners_get_right_discriminates_and_a_reversed_one_is_flagged():
    # Ten learners; learner n gets n of nine anchor questions right. Question 100 is right for
    # the five strongest, question 200 for the five weakest.
    answers = []
    for learner in range(10):
        answers += [(learner, anchor, anchor < learner) for anchor in range(9)]
        answers.append((learner, 100, learner >= 5))
        answers.append((learner, 200, learner < 5))

    stats = item_statistics(answers)

    good, reversed_ = stats[100], stats[200]
    assert (good.answered, good.right, good.share_right) == (10, 5, 0.5)
    assert good.discrimination > 0.8 and not good.reversed
    assert reversed_.discrimination < -0.8 and reversed_.reversed
    assert FLAG_AFTER == 10


def test_too_few_answers_or_no_spread_gives_no_discrimination():
    assert item_statistics([(1, 7, True)])[7].discrimination is None
    everyone_right = [(learner, q, True) for learner in range(5) for q in (1, 2)]
    assert item_statistics(everyone_right)[1].discrimination is None
    few = [(learner, 1, learner % 2 == 0) for learner in range(4)]
    few += [(learner, 2, learner < 2) for learner in range(4)]
    assert not item_statistics(few)[1].reversed  # under FLAG_AFTER answers: never flagged
