"""Two app servers, one site: are they one site to a learner?

Starts PostgreSQL 15 (if it is not running), a throwaway database, a Redis on a free port and two
gunicorn servers on loopback (production settings, debug off, REDIS_URL and DATABASE_URL shared,
DJANGO_PROXY_COUNT=1 as behind one proxy), then checks over HTTP that:

- a tick made on server 1 shows on server 2's dashboard on its next request;
- a content reload (load_syllabus with an edited copy of the syllabus) shows on both within 2 s;
- logging out on server 1 ends the session on server 2 (the old cookie is sent to log in);
- a lockout made through server 1 holds on server 2, for that client only.

Prints PASS or FAIL with figures for each, exits non-zero on any failure, and stops everything
it started (the database is dropped; PostgreSQL is stopped only if it was not running before).
Bounded in time: it gives up after TIME_LIMIT seconds. Needs root (it runs `su postgres`) and
installs redis-server with apt-get when it is missing.

    .venv/bin/python scripts/cluster.py        (or: make cluster)
"""

import contextlib
import datetime
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scripts.httpclient import Response, Session  # noqa: E402
from scripts.server import (  # noqa: E402
    ROOT,
    gunicorn,
    manage,
    postgresql,
    prepare_database,
    production_env,
    redis_server,
)

TIME_LIMIT = 480  # seconds, for the whole run
CONTENT_DEADLINE = 2.0  # seconds for a content reload to show on both servers
ROLE = DATABASE = "studyplan_cluster"
PASSWORD = "cluster-check-pass-4417"
CHECK, PHASE = "p1-residual-gradient-flow", "core-ml-foundations"
DONE = re.compile(rb"(\d+) of (\d+) self-checks done")
CLIENT_A, CLIENT_B = "198.51.100.7", "198.51.100.8"  # two clients behind the same proxy
LOCKOUT_LIMIT = 5  # wrong passwords per (username, address), set on both servers

results: list[bool] = []


def report(name: str, passed: bool, figures: str) -> None:
    results.append(passed)
    print(f"{'PASS' if passed else 'FAIL'} {name}: {figures}", flush=True)


# HTTP


def post_form(session: Session, path: str, form: dict[str, str], **headers: str) -> Response:
    # Session.request sends the csrftoken cookie as X-CSRFToken; the form field is for the login
    # page, which reads the token from the form it served.
    return session.post(path, form, headers=headers or None)


def done_count(session: Session) -> tuple[int, int]:
    response = session.get("/dashboard/")
    match = DONE.search(response.body)
    if response.status != 200 or not match:
        raise RuntimeError(f"no dashboard figure (HTTP {response.status})")
    return int(match.group(1)), int(match.group(2))


def log_in_as(port: int, username: str, password: str, client: str) -> Response:
    """A login from ``client``'s browser, as the proxy forwards it."""
    session = Session("127.0.0.1", port)
    headers = {"X-Forwarded-For": client}
    page = session.get("/accounts/login/", headers=headers)
    token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page.body)
    if not token:
        raise RuntimeError("no CSRF token on the login page")
    return session.post(
        "/accounts/login/",
        {
            "csrfmiddlewaretoken": token.group(1).decode(),
            "login": username,
            "password": password,
        },
        headers=headers,
    )


def copy_of(session: Session, port: int) -> Session:
    """Another browser holding the same cookies, talking to the server on ``port``."""
    return Session("127.0.0.1", port, cookies=dict(session.cookies))


def sign_up_with_plan(port: int, username: str) -> Session:
    session = Session("127.0.0.1", port)
    if session.sign_up(username, PASSWORD).status != 302:
        raise RuntimeError(f"sign-up of {username} failed")
    chosen = post_form(
        session,
        "/plan/choose/",
        {"intensity": "standard", "start_date": datetime.date.today().isoformat()},
    )
    if chosen.status != 302:
        raise RuntimeError(f"choosing a plan failed (HTTP {chosen.status})")
    session.get("/plan/")  # shows (and so clears) the "saved" message
    return session


# The checks


def check_tick(one: int, two: int) -> None:
    learner = sign_up_with_plan(one, "cluster-ticker")
    elsewhere = copy_of(learner, two)
    before, total = done_count(elsewhere)  # server 2 caches this page (in Redis)
    started = time.perf_counter()
    post_form(learner, f"/study/checks/{CHECK}/reveal/", {"answer": ""})
    ticked = post_form(learner, f"/study/checks/{CHECK}/outcome/", {"outcome": "got-it"})
    after, _ = done_count(elsewhere)
    elapsed = (time.perf_counter() - started) * 1000
    report(
        "tick on server 1 shows on server 2",
        ticked.status == 302 and after == before + 1,
        f"server 2's dashboard read {before} of {total} done, then {after} of {total} on its "
        f"first request after the tick (HTTP {ticked.status}); tick and reading took "
        f"{elapsed:.0f} ms",
    )


def check_content_reload(one: int, two: int, env: dict[str, str], work: Path) -> None:
    reader = sign_up_with_plan(one, "cluster-reader")
    servers = {"server 1": reader, "server 2": copy_of(reader, two)}
    marker = f"Cluster check {int(time.time())}"
    for session in servers.values():
        if marker.encode() in session.get(f"/study/{PHASE}/").body:
            raise RuntimeError("the edited prompt is on the page before the reload")

    syllabus = yaml.safe_load((ROOT / "fixtures" / "syllabus.yaml").read_text(encoding="utf-8"))
    for entry in syllabus:
        if entry.get("model") == "phases.selfcheck" and entry["fields"]["slug"] == CHECK:
            entry["fields"]["prompt"] = (
                f"{marker}: explain in two sentences what residual connections are for."
            )
    edited = work / "syllabus-edited.yaml"
    edited.write_text(yaml.safe_dump(syllabus, allow_unicode=True, sort_keys=False), "utf-8")

    started = time.perf_counter()
    manage(env, "load_syllabus", "--file", str(edited), "-v0")
    loaded = time.perf_counter()
    seen: dict[str, float] = {}
    while len(seen) < len(servers) and time.perf_counter() - loaded < CONTENT_DEADLINE + 3:
        for name, session in servers.items():
            if name not in seen and marker.encode() in session.get(f"/study/{PHASE}/").body:
                seen[name] = time.perf_counter() - loaded
        time.sleep(0.05)
    # Every later request, whichever worker answers it, shows the new prompt too.
    stale = sum(
        marker.encode() not in session.get(f"/study/{PHASE}/").body
        for session in servers.values()
        for _ in range(10)
    )
    shown = ", ".join(f"{name} after {seen[name]:.2f} s" for name in servers if name in seen)
    report(
        f"content reload shows on both within {CONTENT_DEADLINE:.0f} s",
        len(seen) == len(servers) and max(seen.values()) <= CONTENT_DEADLINE and stale == 0,
        f"load_syllabus took {loaded - started:.1f} s; the edited prompt showed on "
        f"{shown or 'neither server'}; {stale} of 20 later pages still showed the old one",
    )


def check_logout(one: int, two: int) -> None:
    learner = sign_up_with_plan(one, "cluster-leaver")
    thief = copy_of(learner, two)
    before = thief.get("/account/export.json").status
    out = post_form(learner, "/accounts/logout/", {})
    after_two = thief.get("/account/export.json")
    after_one = copy_of(thief, one).get("/account/export.json")
    to_login = [
        response.status == 302
        and response.headers.get("location", "").startswith("/accounts/login/")
        for response in (after_two, after_one)
    ]
    report(
        "logout on server 1 ends the session on both",
        before == 200 and out.status == 302 and all(to_login),
        f"the copied cookie's export on server 2: HTTP {before} before the logout, "
        f"HTTP {after_two.status} to {after_two.headers.get('location', '-')} after; "
        f"on server 1: HTTP {after_one.status}",
    )


def check_lockout(one: int, two: int, limit: int) -> None:
    username = "cluster-victim"
    sign_up_with_plan(one, username)
    statuses = [log_in_as(one, username, "wrong-password", CLIENT_A).status for _ in range(limit)]
    same_client = log_in_as(two, username, PASSWORD, CLIENT_A).status
    other_client = log_in_as(two, username, PASSWORD, CLIENT_B).status
    report(
        "lockout made through server 1 holds on server 2",
        statuses[-1] == 429 and same_client == 429 and other_client == 302,
        f"{limit} wrong passwords from client {CLIENT_A} on server 1 answered {statuses}; "
        f"the right password from {CLIENT_A} on server 2: HTTP {same_client} (locked); "
        f"from {CLIENT_B} behind the same proxy: HTTP {other_client} (logged in)",
    )


class OutOfTime(Exception):
    """Not an OSError (as TimeoutError is), so no single check catches it."""


def out_of_time(signum: int, frame: object) -> None:
    raise OutOfTime(f"the cluster check took longer than {TIME_LIMIT} s")


def main() -> int:
    signal.signal(signal.SIGALRM, out_of_time)
    signal.alarm(TIME_LIMIT)
    started = time.monotonic()
    try:
        with contextlib.ExitStack() as stack:
            work = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="cluster-")))
            database_url = stack.enter_context(postgresql(DATABASE, ROLE))
            redis_url = stack.enter_context(redis_server())
            env = {
                **production_env(database_url, work / "static"),
                "REDIS_URL": redis_url,
                "DJANGO_PROXY_COUNT": "1",
            }
            env["DJANGO_LOGIN_FAILURE_LIMIT"] = str(LOCKOUT_LIMIT)
            prepare_database(env)
            one = stack.enter_context(gunicorn(env, workers=2))
            two = stack.enter_context(gunicorn(env, workers=2))
            print(
                f"servers: gunicorn 2 workers each on 127.0.0.1:{one} and 127.0.0.1:{two}; "
                f"PostgreSQL database {DATABASE}; Redis {redis_url}",
                flush=True,
            )
            checks = [
                ("tick on server 1 shows on server 2", lambda: check_tick(one, two)),
                ("content reload", lambda: check_content_reload(one, two, env, work)),
                ("logout on server 1 ends the session on both", lambda: check_logout(one, two)),
                ("lockout", lambda: check_lockout(one, two, limit=LOCKOUT_LIMIT)),
            ]
            for name, run_check in checks:
                try:
                    run_check()
                except (RuntimeError, OSError, subprocess.SubprocessError) as error:
                    report(name, False, f"{type(error).__name__}: {error}")
    except Exception as error:  # any failure is a failed run, reported plainly
        report("cluster run", False, f"{type(error).__name__}: {error}")
    finally:
        signal.alarm(0)
    failed = results.count(False)
    print(
        f"{len(results) - failed} passed, {failed} failed in {time.monotonic() - started:.0f} s",
        flush=True,
    )
    return 1 if failed or not results else 0


if __name__ == "__main__":
    sys.exit(main())
