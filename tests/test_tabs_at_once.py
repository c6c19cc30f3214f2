"""Issue 35, "nothing lost between tabs", at the same moment: requests sent together by one
learner's tabs, over real HTTP to a live server on the real database (one connection per thread).
Seven reveals at once all stand; four answers to one drill question at once keep the first, and
every tab is told the verdict that stands."""

import random

from django.utils import timezone

from phases.models import Domain, SelfCheck
from progress.models import AttemptQuestion, CheckOff, Reveal
from progress.practice.services import start_drill
from tests.factories import UserFactory, items_of, make_plan, shown, wrong_option
from tests.test_concurrency import run_together, session_for, site  # noqa: F401  (a fixture)


def test_seven_reveals_sent_at_once_all_stand(site):  # noqa: F811
    user = UserFactory()
    make_plan(user)
    slugs = list(SelfCheck.objects.current().values_list("slug", flat=True)[:7])
    sessions = [session_for(user, site) for _ in slugs]

    statuses = run_together(
        len(slugs),
        lambda n: (
            sessions[n]
            .post(f"/study/checks/{slugs[n]}/reveal/", {"answer": f"from tab {n}"})
            .status
        ),
    )

    assert statuses == [302] * 7
    assert Reveal.objects.filter(user=user).count() == 7
    # Each one's "Got it" is taken: none of the reveals was lost.
    for n, slug in enumerate(slugs):
        response = sessions[n].post(f"/study/checks/{slug}/outcome/", {"outcome": "got-it"})
        assert response.status == 302, slug
    assert CheckOff.objects.filter(user=user).ticked().count() == 7
    for session in sessions:
        session.close()


def test_four_answers_to_one_drill_question_at_once_keep_one(site):  # noqa: F811
    user = UserFactory()
    make_plan(user)
    drill = start_drill(
        user=user,
        domain=Domain.objects.get(slug="core-ml"),
        now=timezone.now(),
        rng=random.Random(4),
    )
    item = items_of(drill)[0]
    right = shown(item, sorted(item.question.correct_options))
    wrong = shown(item, [wrong_option(item.question), *sorted(item.question.correct_options)[1:]])
    sessions = [session_for(user, site) for _ in range(4)]
    url = f"/practice/{drill.pk}/questions/{item.position}/"

    statuses = run_together(
        4, lambda n: sessions[n].post(url, {"option": right if n % 2 else wrong}).status
    )

    assert statuses == [302] * 4
    stored = AttemptQuestion.objects.get(pk=item.pk)
    # Every tab now reads the same verdict: the one answer that stands.
    for session in sessions:
        page = session.get(f"/practice/{drill.pk}/?q={item.position}").body.decode()
        assert ("Right." in page) == bool(stored.is_correct)
        assert ("Not quite." in page) == (not stored.is_correct)
        session.close()
