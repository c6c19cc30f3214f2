"""A deleted account stays deleted: no write racing the deletion (each of the learner's writes,
from a password change to an answer in a mock) can insert the user again or fail with anything
but the clear refusal (AccountGone, a 403). Threads on the real database, each with its
own connection, as two tabs on two workers would be: SQLite queues them (IMMEDIATE transactions),
PostgreSQL orders them by the lock on the user's row."""

import datetime
import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.urls import reverse
from django.utils import timezone
from fsrs import Rating

from phases.content import syllabus as current_syllabus
from phases.models import Intensity, Question, SelfCheck
from progress.accounts.deletion import delete_learner
from progress.accounts.passwords import change_password
from progress.accounts.reminders import set_weekly_reminder
from progress.accounts.time_zone import set_time_zone
from progress.auth import LearnerBackend
from progress.lock import AccountGone
from progress.memory.reviews import review_check, review_question
from progress.memory.ticks import Outcome, reveal, set_done, settle
from progress.models import Profile
from progress.planning.services import save_plan
from progress.practice.reports import report_question
from progress.practice.services import answer, discard, save_question, submit
from progress.study_time.services import record_session, start_timer, stop_timer
from tests.factories import (
    PASSWORD,
    UserFactory,
    drill_for,
    items_of,
    make_due,
    make_missed_due,
    miss,
    mock_for,
    tick,
    tick_exercise_parts,
    write_exercise,
)

ROUNDS = 4
CHECK = "p1-residual-gradient-flow"


def _now() -> datetime.datetime:
    return timezone.now()


def _check_id() -> int:
    return SelfCheck.objects.get(slug=CHECK).pk


def _phase():
    return current_syllabus().phases[0]


def _ticked_and_due(user) -> None:
    tick(user, CHECK)
    make_due(user, CHECK)


def _answering(user, *, flag: bool = False) -> Callable[[], object]:
    mock = mock_for(user)
    item = items_of(mock)[0]
    chosen = sorted(item.question.correct_options)
    if flag:
        return lambda: save_question(
            user=user, attempt=mock, item=item, chosen=[], flagged=True, now=_now()
        )
    return lambda: answer(user=user, attempt=mock, item=item, chosen=chosen, now=_now())


def _reviewing_a_miss(user) -> Callable[[], object]:
    (card,) = miss(user, Question.objects.current().first())
    make_missed_due(user, card)
    return lambda: review_question(
        user=user, card_id=card.pk, rating=Rating.Good, now=_now(), answer="x"
    )


def _reporting(user) -> Callable[[], object]:
    drill = drill_for(user)
    item = items_of(drill)[0]
    answer(user=user, attempt=drill, item=item, chosen=[0], now=_now())
    return lambda: report_question(
        user=user, question=item.question, kind="wrong-key", note="", now=_now()
    )


def _revealed(user) -> Callable[[], object]:
    reveal(user=user, self_check_id=_check_id(), answer="", now=_now())
    return lambda: settle(user=user, self_check_id=_check_id(), outcome=Outcome.GOT_IT, now=_now())


def _reviewing_a_check(user) -> Callable[[], object]:
    _ticked_and_due(user)
    reveal(user=user, self_check_id=_check_id(), answer="", now=_now())
    return lambda: review_check(
        user=user, self_check_id=_check_id(), rating=Rating.Good, now=_now()
    )


def _timing(user) -> Callable[[], object]:
    # Started a while ago: a timer stopped under half a minute records nothing, a refusal of its
    # own.
    start_timer(user=user, phase_slug=_phase().slug, now=_now() - datetime.timedelta(minutes=20))
    domain = _phase().domains[0].slug
    return lambda: stop_timer(user=user, domain_slug=domain, now=_now())


def _closing_a_mock(user) -> Callable[[], object]:
    mock = mock_for(user)
    return lambda: submit(user=user, attempt=mock, now=_now())


def _discarding(user) -> Callable[[], object]:
    mock = mock_for(user)
    return lambda: discard(user=user, attempt=mock, now=_now())


def _plan(user) -> object:
    return save_plan(
        user=user,
        intensity=Intensity.objects.get(slug="standard"),
        start_date=timezone.localdate(),
        exam_date=None,
        today=timezone.localdate(),
    )


# Each of the learner's writes: made ready before the race (from a fresh copy of the user), it
# returns the write itself.
WRITES: dict[str, Callable[[Any], Callable[[], object]]] = {
    "password": lambda user: lambda: change_password(user=user, password="a-new-Password-42"),
    "time zone": lambda user: lambda: set_time_zone(user=user, time_zone="Europe/Paris"),
    "reminder": lambda user: lambda: set_weekly_reminder(user=user, on=True),
    "tick": lambda user: lambda: set_done(user=user, self_check_id=_check_id(), done=True),
    "untick": lambda user: (
        tick(user, CHECK),
        lambda: set_done(user=user, self_check_id=_check_id(), done=False),
    )[1],
    "reveal": lambda user: (
        lambda: reveal(user=user, self_check_id=_check_id(), answer="typed", now=_now())
    ),
    "outcome": _revealed,
    "review a check": _reviewing_a_check,
    "review a missed question": _reviewing_a_miss,
    "save a plan": lambda user: lambda: _plan(user),
    "start a drill": lambda user: lambda: drill_for(user),
    "start a mock": lambda user: lambda: mock_for(user),
    "answer": _answering,
    "flag": lambda user: _answering(user, flag=True),
    "hand in": _closing_a_mock,
    "discard": _discarding,
    "report a question": _reporting,
    "exercise text": lambda user: lambda: write_exercise(user, _phase(), "Notes.", _now()),
    "exercise parts": lambda user: (
        lambda: tick_exercise_parts(user, _phase(), {_phase().exercise_parts[0].slug}, _now())
    ),
    "start the timer": lambda user: (
        lambda: start_timer(user=user, phase_slug=_phase().slug, now=_now())
    ),
    "stop the timer": _timing,
    "record study time": lambda user: (
        lambda: record_session(
            user=user,
            phase_slug=_phase().slug,
            domain_slug=_phase().domains[0].slug,
            day=timezone.localdate(),
            minutes=30,
        )
    ),
}


def race(*work) -> list[BaseException | None]:
    barrier = threading.Barrier(len(work))
    outcomes: list[BaseException | None] = [None] * len(work)

    def run(index: int) -> None:
        try:
            barrier.wait()
            work[index]()
        except BaseException as error:  # noqa: BLE001 - reported below
            outcomes[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(work))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return outcomes


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("write", list(WRITES))
def test_a_write_racing_the_deletion_never_brings_the_account_back(syllabus, write):
    User = get_user_model()
    for n in range(ROUNDS):
        user = UserFactory()
        # Each thread has the user as its request had loaded it, before either wrote.
        deleting, writing = User.objects.get(pk=user.pk), User.objects.get(pk=user.pk)
        order = [
            lambda deleting=deleting: delete_learner(user=deleting),
            WRITES[write](writing),
        ]
        if n % 2:
            order.reverse()

        outcomes = race(*order)

        # The write either ran first (then the deletion took it away too) or was refused.
        assert [o for o in outcomes if o is not None and not isinstance(o, AccountGone)] == []
        assert not User.objects.filter(pk=user.pk).exists()
        assert not User.objects.filter(username=user.username).exists()
        assert not Profile.objects.filter(user_id=user.pk).exists()


@pytest.mark.django_db
@pytest.mark.parametrize("write", list(WRITES))
def test_a_write_after_the_deletion_is_refused(syllabus, write):
    user = UserFactory()
    stale = get_user_model().objects.get(pk=user.pk)
    write_now = WRITES[write](stale)
    delete_learner(user=user)

    with pytest.raises(AccountGone):
        write_now()

    assert not get_user_model().objects.filter(pk=user.pk).exists()


@pytest.mark.django_db
def test_a_password_change_from_a_tab_left_open_after_the_deletion_is_a_403(client, syllabus):
    from django.urls import reverse

    from tests.factories import PASSWORD

    user = UserFactory()
    client.force_login(user)
    page = client.get(reverse("account_change_password"))
    assert page.status_code == 200
    # Deleted elsewhere; this tab's session now names no account.
    delete_learner(user=get_user_model().objects.get(pk=user.pk))

    response = client.post(
        reverse("account_change_password"),
        {
            "oldpassword": PASSWORD,
            "password1": "x-New-pass-99",
            "password2": "x-New-pass-99",
        },
    )

    assert response.status_code in (302, 403)
    assert not get_user_model().objects.filter(pk=user.pk).exists()


class DeletedMeanwhile(LearnerBackend):
    """The password checks out, then another session deletes the account before this login is
    recorded: the moment a login races a deletion."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is not None:
            delete_learner(user=get_user_model().objects.get(pk=user.pk))
        return user


@pytest.mark.django_db
def test_a_login_racing_the_deletion_is_refused_with_a_message_and_the_account_stays_gone(
    client, syllabus, settings
):
    user = UserFactory()
    settings.AUTHENTICATION_BACKENDS = [
        "axes.backends.AxesStandaloneBackend",
        f"{__name__}.DeletedMeanwhile",
    ]

    response = client.post(reverse("account_login"), {"login": user.username, "password": PASSWORD})

    assert response.status_code == 400
    assert "This account has just been deleted" in response.content.decode()
    assert "You are logged out." not in response.content.decode()
    assert not get_user_model().objects.filter(pk=user.pk).exists()
    assert client.get(reverse("progress:dashboard")).status_code == 302  # not logged in
