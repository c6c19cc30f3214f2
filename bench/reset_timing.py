"""Does the password reset page take longer for an address with an account than for one without?
If it did, the time would tell an attacker which addresses are registered, whatever the page
says. Prints the median and 90th percentile of each, and how many of the paired tries the
registered address was slower in (about half means the time tells nothing).

    .venv/bin/python bench/reset_timing.py [pairs]

In process, through Django's test client, on a fresh SQLite database, mail to Django's in-memory
outbox (so the figure is the site's own work, not a mail server's); allauth's rate limits are
lifted for the run, or the second try of an address would be refused before any work.
"""

import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "studyplan.settings_test")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.core import mail  # noqa: E402
from django.test import Client, override_settings  # noqa: E402
from django.test.utils import (  # noqa: E402
    setup_test_environment,
    teardown_test_environment,
)


def main(pairs: int) -> None:
    from django.contrib.auth import get_user_model
    from django.db import connection

    setup_test_environment()
    old = connection.creation.create_test_db(verbosity=0)
    try:
        for n in range(pairs):
            get_user_model().objects.create_user(f"learner{n}", f"learner{n}@example.com", "x")
        client = Client()
        limits = {**settings.ACCOUNT_RATE_LIMITS, "reset_password": None}
        known: list[float] = []
        unknown: list[float] = []
        with override_settings(ACCOUNT_RATE_LIMITS=limits):
            for n in range(pairs):
                # Alternate which goes first, so neither always runs on a warmer cache.
                order = [
                    ("known", f"learner{n}@example.com"),
                    ("unknown", f"nobody{n}@example.com"),
                ]
                for kind, email in order if n % 2 else order[::-1]:
                    start = time.perf_counter()
                    response = client.post("/accounts/password/reset/", {"email": email})
                    elapsed = (time.perf_counter() - start) * 1000
                    assert response.status_code == 302, response.status_code
                    (known if kind == "known" else unknown).append(elapsed)
                mail.outbox.clear()
        slower = sum(k > u for k, u in zip(known, unknown, strict=True))

        def figures(times: list[float]) -> str:
            decile = statistics.quantiles(times, n=10)[-1]
            return f"median {statistics.median(times):.2f} ms, 90th percentile {decile:.2f} ms"

        print(f"{pairs} pairs of reset requests (one address with an account, one without):")
        print(f"  with an account:    {figures(known)}")
        print(f"  without an account: {figures(unknown)}")
        print(f"  the registered address was slower in {slower} of {pairs} pairs")
    finally:
        connection.creation.destroy_test_db(old, verbosity=0)
        teardown_test_environment()


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
