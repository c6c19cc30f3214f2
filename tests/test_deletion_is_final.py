"""A deleted account stays deleted: no write racing the deletion (a password change, a time
zone, a reminder setting) can insert the user again. Threads on the real database, each with its
own connection, as two tabs on two workers would be: SQLite queues them (IMMEDIATE transactions),
PostgreSQL orders them by the lock on the user's row."""

import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.urls import reverse

from progress.accounts.deletion import delete_learner
from progress.accounts.passwords import change_password
from progress.accounts.reminders import set_weekly_reminder
from progress.accounts.time_zone import set_time_zone
from progress.auth import LearnerBackend
from progress.lock import AccountGone
from progress.models import Profile
from tests.factories import PASSWORD, UserFactory

ROUNDS = 4

WRITES = {
    "password": lambda user: change_password(user=user, password="a-new-Password-42"),
    "time zone": lambda user: set_time_zone(user=user, time_zone="Europe/Paris"),
    "reminder": lambda user: set_weekly_reminder(user=user, on=True),
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
            lambda writing=writing: WRITES[write](writing),
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
    delete_learner(user=user)

    with pytest.raises(AccountGone):
        WRITES[write](stale)

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
