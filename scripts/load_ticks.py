"""Concurrent learners on SQLite: are ticks ever lost, or invented?

Starts the app under gunicorn (4 workers, production settings) on a throwaway SQLite database,
signs up LEARNERS learners over HTTP, then has them all tick and untick self-checks at once
(REQUESTS each, loopback only, bounded). Each learner's requests run in order, so the last
state it asked for on each self-check is what the database must hold. Prints requests sent,
non-2xx/3xx responses, and lost and phantom ticks.

    .venv/bin/python scripts/load_ticks.py [--learners 40] [--requests 25] [--workers 4]
"""

import argparse
import random
import sqlite3
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scripts.httpclient import Session  # noqa: E402
from scripts.server import gunicorn, prepare_database, production_env  # noqa: E402

PASSWORD = "load-test-pass-7731"


def self_check_slugs(db_path: Path) -> list[str]:
    with sqlite3.connect(db_path) as conn:
        return [
            row[0] for row in conn.execute("SELECT slug FROM phases_selfcheck WHERE NOT retired")
        ]


def ticks_in_database(db_path: Path) -> dict[str, set[str]]:
    with sqlite3.connect(db_path) as conn:
        rows = conn.execute(
            "SELECT u.username, s.slug FROM progress_checkoff c "
            "JOIN auth_user u ON u.id = c.user_id JOIN phases_selfcheck s ON s.id = c.self_check_id"
        ).fetchall()
    found: dict[str, set[str]] = {}
    for username, slug in rows:
        found.setdefault(username, set()).add(slug)
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--learners", type=int, default=40)
    parser.add_argument("--requests", type=int, default=25)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="studyplan-load-") as tmp:
        db_path = Path(tmp) / "load.sqlite3"
        env = production_env(f"sqlite:///{db_path}", Path(tmp) / "static")
        prepare_database(env)
        slugs = self_check_slugs(db_path)

        with gunicorn(env, workers=args.workers) as port:
            sessions = [Session("127.0.0.1", port) for _ in range(args.learners)]
            signup_errors = 0
            for number, session in enumerate(sessions):
                response = session.sign_up(f"load{number:03d}", PASSWORD)
                signup_errors += response.status != 302

            expected: dict[str, dict[str, bool]] = {}
            statuses: list[int] = []
            failures: list[str] = []
            lock = threading.Lock()
            start_gate = threading.Barrier(args.learners)

            def learner(number: int, session: Session) -> None:
                rng = random.Random(args.seed * 1000 + number)
                # A handful of checks per learner, so ticks and unticks hit the same rows.
                mine = rng.sample(slugs, k=min(8, len(slugs)))
                wanted: dict[str, bool] = {}
                start_gate.wait()
                for _ in range(args.requests):
                    slug = rng.choice(mine)
                    done = rng.random() < 0.6
                    headers = {"HX-Request": "true"} if rng.random() < 0.5 else {}
                    try:
                        if done:  # a tick is said after the reveal
                            session.post(
                                f"/study/checks/{slug}/reveal/", {"answer": ""}, headers=headers
                            )
                            response = session.post(
                                f"/study/checks/{slug}/outcome/",
                                {"outcome": "got-it"},
                                headers=headers,
                            )
                        else:
                            response = session.post(
                                f"/study/checks/{slug}/", {"done": "0"}, headers=headers
                            )
                        status = response.status
                    except Exception as exc:  # every failure is a finding here
                        status = 0
                        with lock:
                            failures.append(f"load{number:03d} {slug}: {exc!r}")
                    if 200 <= status < 400:
                        wanted[slug] = done
                    with lock:
                        statuses.append(status)
                with lock:
                    expected[f"load{number:03d}"] = wanted

            threads = [
                threading.Thread(target=learner, args=(n, s)) for n, s in enumerate(sessions)
            ]
            started = time.perf_counter()
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            elapsed = time.perf_counter() - started
            for session in sessions:
                session.close()

        found = ticks_in_database(db_path)
        lost = phantom = 0
        for username, wanted in expected.items():
            have = found.get(username, set())
            lost += sum(1 for slug, done in wanted.items() if done and slug not in have)
            phantom += sum(1 for slug in have if not wanted.get(slug, False))
        bad = [status for status in statuses if not 200 <= status < 400]

    print(f"engine: SQLite (WAL, IMMEDIATE transactions), gunicorn workers: {args.workers}")
    print(f"learners signed up: {args.learners} (sign-up errors: {signup_errors})")
    print(
        f"toggle requests sent: {len(statuses)} in {elapsed:.2f} s "
        f"({len(statuses) / elapsed:.0f} req/s)"
    )
    print(f"non-2xx/3xx responses: {len(bad)}")
    print(f"lost ticks: {lost}")
    print(f"phantom ticks: {phantom}")
    for line in failures[:10]:
        print(f"  failure: {line}")
    return 0 if not bad and not lost and not phantom and not signup_errors else 1


if __name__ == "__main__":
    sys.exit(main())
