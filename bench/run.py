"""Benchmark: is the app as fast for one learner among 10,000 as among 10, on each engine and cache?

Builds two throwaway databases per engine (10 and 10,000 learners with plans and about 40 ticks
each, created in bulk), on SQLite and on PostgreSQL, and serves each under gunicorn (2 workers,
production settings, DEBUG off) twice: with the per-process cache and with Redis (REDIS_URL:
cached pages), so four set-ups share the databases of their engine. Logs one
measured learner in on every server and loads /healthz, the dashboard, a phase page and an HTMX
tick that alternates done/not done over loopback with wrk (or a Python client when wrk is
missing). Prints one table per set-up (throughput, p50/p95 latency, query counts), checks the
speed targets as ratios to each set-up's own /healthz measured in the same rounds, and writes the
tables to docs/benchmarks.md.

    make bench
    .venv/bin/python bench/run.py [--seconds 4] [--connections 8]

PostgreSQL: the local PostgreSQL 15 cluster (started if it is not running, stopped again
afterwards; needs root), with two databases created for the run and dropped after it. With a
PostgreSQL DATABASE_URL the two databases are created next to the named one instead
(NAME_bench_10, NAME_bench_10000; the role needs CREATEDB), so the named database is never
filled with 10,000 fake learners. Redis: a redis-server of our own on a free port, one Redis
database per server, so no set-up reads another's cached pages. When PostgreSQL or Redis
cannot be started, the bench says why and measures the set-ups it can.
"""

import argparse
import contextlib
import datetime
import functools
import http.client
import itertools
import json
import os
import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scripts.httpclient import Session  # noqa: E402
from scripts.server import (  # noqa: E402
    gunicorn,
    postgresql,
    prepare_database,
    production_env,
    redis_server,
)

PASSWORD = "bench-pass-5521-studyplan"
MEASURED = "bench-measured"
MEASURED_PHASE = "experimentation"
SIZES = (10, 10_000)
SQLITE, POSTGRESQL = "SQLite", "PostgreSQL"
LOCAL_CACHE, REDIS = "per-process cache", "Redis"
PG_NAME = "studyplan_bench"  # the role, and the prefix of the databases, on the local cluster
HEALTHZ, DASHBOARD, PHASE, TICK = "/healthz", "dashboard", "phase", "tick (alternating)"
# Ratio to /healthz, at both sizes; queries per request: at most this, and equal at both sizes.
THROUGHPUT_TARGETS = ((DASHBOARD, 0.30), (PHASE, 0.20), (TICK, 0.20))
QUERY_CEILINGS = ((DASHBOARD, 8), (PHASE, 8), (TICK, 6))
WARMUP_SECONDS = 1
ROUND_SECONDS = 1  # wrk takes whole seconds
DOCS = ROOT / "docs" / "benchmarks.md"
NOTES_HEADING = "## Notes"
PROFILE_ROUNDS = 100  # even, so the tick's profile is half ticks, half unticks
SESSION = "session + user"
PARTS = ("template", "ORM", "database", SESSION, "rest")
TRANSACTION_CONTROL = ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE")

T = TypeVar("T")


@dataclass(frozen=True)
class Endpoint:
    name: str
    method: str
    path: str
    bodies: tuple[str, ...] = ()  # form bodies, sent in turn: one per request
    htmx: bool = False


@dataclass(frozen=True)
class Setup:
    engine: str
    cache: str

    def __str__(self) -> str:
        return f"{self.engine} + {self.cache}"


Server = tuple[Setup, int]  # a set-up serving the database of one size


@dataclass(frozen=True)
class Client:
    port: int
    cookie: str
    csrf: str
    connections: int


def endpoints(tick_slug: str) -> list[Endpoint]:
    return [
        Endpoint(HEALTHZ, "GET", "/healthz"),
        Endpoint(DASHBOARD, "GET", "/dashboard/"),
        Endpoint(PHASE, "GET", f"/study/{MEASURED_PHASE}/"),
        # Tick, untick, tick: a repeated done=1 would be a no-op after the first request.
        Endpoint(
            TICK,
            "POST",
            f"/study/checks/{tick_slug}/",
            bodies=("done=1", "done=0"),
            htmx=True,
        ),
    ]


# --- Run inside a Django process (subcommands), with the production environment. ---------------


def populate(learners: int) -> dict:
    """Learners with plans and ticks, in bulk; the measured learner is the same at every size."""
    from django.contrib.auth.hashers import make_password
    from django.contrib.auth.models import User
    from django.db import connection, transaction
    from django.utils import timezone

    from phases.models import Intensity, SelfCheck
    from progress.models import CheckOff, StudyPlan
    from progress.services.study import set_done

    rng = random.Random(2026)
    today = timezone.localdate()
    # One slow Argon2 hash for everyone, so 10,000 users cost one hash, not 10,000.
    password = make_password(PASSWORD)
    intensities = list(Intensity.objects.all())
    checks = list(
        SelfCheck.objects.current()
        .order_by("phase__number", "order")
        .values_list("id", "slug", "phase__slug")
    )
    check_ids = [check_id for check_id, _, _ in checks]

    with transaction.atomic():
        # The measured learner comes last, so its rows sit behind everyone else's.
        users = User.objects.bulk_create(
            [User(username=f"bench-{n:05d}", password=password) for n in range(learners - 1)]
            + [User(username=MEASURED, password=password)],
            batch_size=2000,
        )
        plans: list[StudyPlan] = []
        ticks: list[tuple[int, int]] = []  # (user, self-check)
        for user in users[:-1]:
            start = today - datetime.timedelta(days=rng.randrange(60))
            exam = start + datetime.timedelta(weeks=rng.randint(6, 20))
            plans.append(
                StudyPlan(
                    user=user,
                    intensity=rng.choice(intensities),
                    start_date=start,
                    exam_date=exam if rng.random() < 0.5 else None,
                )
            )
            chosen = rng.sample(check_ids, k=min(len(check_ids), rng.randint(38, 42)))
            ticks.extend((user.pk, pk) for pk in chosen)
        measured = users[-1]
        plans.append(
            StudyPlan(
                user=measured,
                intensity=Intensity.objects.default() or intensities[0],
                start_date=today - datetime.timedelta(days=30),
                exam_date=today + datetime.timedelta(days=45),
            )
        )
        # Every other self-check in study order: half done in each phase, so the dashboard
        # shows a lagging domain and a next check, and the phase page mixes both row kinds.
        mine = checks[::2]
        StudyPlan.objects.bulk_create(plans, batch_size=2000)
        # Every other tick copies one made by the tick service, so it holds what a real tick
        # stores (its review schedule too) without 400,000 calls to the service.
        set_done(user=measured, self_check_id=mine[0][0], done=True)
        real = CheckOff.objects.get(user=measured, self_check_id=mine[0][0])
        stored = {
            field.attname: getattr(real, field.attname)
            for field in CheckOff._meta.concrete_fields
            if not field.primary_key and field.attname not in ("user_id", "self_check_id")
        }
        ticks.extend((measured.pk, pk) for pk, _, _ in mine[1:])
        CheckOff.objects.bulk_create(
            [CheckOff(user_id=user, self_check_id=check, **stored) for user, check in ticks],
            batch_size=5000,
        )

    if connection.vendor == "postgresql":
        # Autovacuum would analyze these fresh tables within a minute in production.
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    ticked = {slug for _, slug, _ in mine}
    # Not done yet, so the tick's first request ticks it.
    tick_slug = next(
        slug for _, slug, phase in checks if phase == MEASURED_PHASE and slug not in ticked
    )
    return {
        "username": MEASURED,
        "tick_slug": tick_slug,
        "learners": User.objects.count(),
        "ticks": CheckOff.objects.count(),
    }


def in_process_requests(username: str, tick_slug: str) -> list[tuple[Endpoint, Callable]]:
    """Each endpoint with a function sending its next in-process request, as the measured
    learner; a POST takes its bodies in turn."""
    from django.contrib.auth.models import User
    from django.test import Client

    client = Client()
    client.force_login(User.objects.get(username=username))

    def sender(endpoint: Endpoint) -> Callable:
        headers = {"HX-Request": "true"} if endpoint.htmx else {}
        if endpoint.method == "POST":
            forms = itertools.cycle(
                [dict(item.split("=") for item in body.split("&")) for body in endpoint.bodies]
            )
            return lambda: client.post(endpoint.path, next(forms), headers=headers)
        return lambda: client.get(endpoint.path, headers=headers)

    return [(endpoint, sender(endpoint)) for endpoint in endpoints(tick_slug)]


def count_queries(username: str, tick_slug: str) -> dict[str, list[list[int]]]:
    """Statements per request, and how many of them are BEGIN/COMMIT and the like: one count
    per body for a POST (the tick, then the untick)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    counts: dict[str, list[list[int]]] = {}
    for endpoint, send in in_process_requests(username, tick_slug):
        turns = max(1, len(endpoint.bodies))
        for _ in range(turns):
            send()  # the first requests may fill per-process caches; count steady ones
        counts[endpoint.name] = []
        for _ in range(turns):
            with CaptureQueriesContext(connection) as captured:
                response = send()
            if not 200 <= response.status_code < 400:
                raise RuntimeError(f"{endpoint.name} answered {response.status_code}")
            statements = [query["sql"].split()[0].upper() for query in captured.captured_queries]
            counts[endpoint.name].append(
                [len(statements), sum(s in TRANSACTION_CONTROL for s in statements)]
            )
    return counts


def profile(username: str, tick_slug: str) -> dict[str, dict[str, float]]:
    """Milliseconds per in-process request, split by probes on a few Django entry points.

    Time is charged to the innermost open probe, so the parts add up to the whole; the session
    and user lookup is charged whole, its 2 queries included: what every logged-in request pays
    before the view runs.
    """
    from django.contrib import auth
    from django.db import connection
    from django.db.models.query import QuerySet
    from django.db.models.sql.compiler import SQLCompiler, SQLInsertCompiler
    from django.template.backends.django import Template

    spent: dict[str, float] = defaultdict(float)
    open_probes: list[list] = []  # [part, time spent in nested probes]

    def probe(part: str, func: Callable) -> Callable:
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            if any(open_part == SESSION for open_part, _ in open_probes):
                return func(*args, **kwargs)
            open_probes.append([part, 0.0])
            started = time.perf_counter()
            try:
                return func(*args, **kwargs)
            finally:
                elapsed = time.perf_counter() - started
                spent[part] += elapsed - open_probes.pop()[1]
                if open_probes:
                    open_probes[-1][1] += elapsed

        return wrapper

    Template.render = probe("template", Template.render)
    QuerySet._fetch_all = probe("ORM", QuerySet._fetch_all)
    SQLCompiler.execute_sql = probe("ORM", SQLCompiler.execute_sql)
    SQLInsertCompiler.execute_sql = probe("ORM", SQLInsertCompiler.execute_sql)
    auth.get_user = probe(SESSION, auth.get_user)
    database = probe("database", lambda execute, *args: execute(*args))

    results = {}
    with connection.execute_wrapper(database):
        for endpoint, send in in_process_requests(username, tick_slug):
            for _ in range(4):
                send()
            spent.clear()
            started = time.perf_counter()
            for _ in range(PROFILE_ROUNDS):
                send()
            total = time.perf_counter() - started
            spent["rest"] = total - sum(spent.values())
            results[endpoint.name] = {
                "total": 1e3 * total / PROFILE_ROUNDS,
                **{part: 1e3 * spent[part] / PROFILE_ROUNDS for part in PARTS},
            }
    return results


class StepFailed(Exception):
    """A step failed for one engine or set-up: it is reported, and the others are measured."""


def in_django(env: dict[str, str], *args: str) -> dict:
    """Run a subcommand of this script in a fresh Django process; its last line is JSON."""
    output = subprocess.run(
        [sys.executable, __file__, *args], env=env, cwd=ROOT, capture_output=True, text=True
    )
    if output.returncode:
        lines = output.stderr.strip().splitlines() or [f"exit status {output.returncode}"]
        sys.stderr.write("\n".join(lines[-12:]) + "\n")  # the end of the traceback
        raise StepFailed(f"{args[0]} step: {lines[-1]}")
    return json.loads(output.stdout.strip().splitlines()[-1])


def in_process_env(env: dict[str, str]) -> dict[str, str]:
    # Django's in-process test client is served as "testserver".
    return {**env, "DJANGO_ALLOWED_HOSTS": "testserver"}


# --- Databases. ---------------------------------------------------------------------------------


class Unavailable(Exception):
    """A service this machine cannot provide; its set-ups are skipped."""


@contextlib.contextmanager
def postgresql_databases() -> Iterator[dict[int, str]]:
    """A fresh PostgreSQL database per size, dropped afterwards; their URLs."""
    url = os.environ.get("DATABASE_URL", "")
    if url.startswith(("postgres://", "postgresql://")):
        with databases_next_to(url) as urls:
            yield urls
        return
    if not shutil.which("pg_ctlcluster"):
        raise Unavailable("PostgreSQL 15 is not installed (pg_ctlcluster not found)")
    if os.geteuid() != 0:
        raise Unavailable(
            "starting the local PostgreSQL needs root (or set a PostgreSQL DATABASE_URL)"
        )
    with ExitStack() as stack:
        yield {
            size: stack.enter_context(postgresql(f"{PG_NAME}_{size}", PG_NAME)) for size in SIZES
        }


@contextlib.contextmanager
def databases_next_to(url: str) -> Iterator[dict[int, str]]:
    import dj_database_url
    import psycopg
    from psycopg import sql

    config = dj_database_url.parse(url)
    names = {size: f"{config['NAME']}_bench_{size}" for size in SIZES}
    urls = {size: urlsplit(url)._replace(path=f"/{name}").geturl() for size, name in names.items()}
    with psycopg.connect(
        dbname=config["NAME"],
        user=config["USER"],
        password=config["PASSWORD"],
        host=config["HOST"],
        port=config["PORT"] or None,
        autocommit=True,
    ) as admin:

        def drop_all() -> None:
            for name in names.values():
                admin.execute(
                    sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
                )

        drop_all()
        for name in names.values():
            admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        try:
            yield urls
        finally:
            drop_all()


def postgresql_version(url: str) -> str:
    import psycopg

    with psycopg.connect(url) as connection:
        version = connection.info.server_version
    return f"PostgreSQL {version // 10000}.{version % 10000}"


def redis_version(url: str) -> str:
    import redis

    return f"Redis {redis.Redis.from_url(url).info()['redis_version']}"


def redis_database(url: str, number: int) -> str:
    return urlsplit(url)._replace(path=f"/{number}").geturl()


def start_service(
    stack: ExitStack, name: str, service: Callable[[], contextlib.AbstractContextManager[T]]
) -> tuple[T | None, str]:
    """The service's value, or None and why it could not start: the bench measures without it."""
    try:
        return stack.enter_context(service()), ""
    # Whatever stops a service (not installed, not root, refused connection) skips its set-ups.
    except Exception as error:
        # A failed command says why on its stderr.
        detail = getattr(error, "stderr", None) or str(error) or type(error).__name__
        reason = detail.strip().splitlines()[-1]
        print(f"{name}: not measured ({reason})", flush=True)
        return None, reason


# --- Load over loopback. ------------------------------------------------------------------------


@dataclass(frozen=True)
class Sample:
    """One bounded run of the load client against one endpoint."""

    requests: int
    seconds: float
    bad: int  # non-2xx/3xx responses plus socket errors and timeouts
    cuts_ms: list[float]  # latency at the 1st..99th percentile


@dataclass(frozen=True)
class Load:
    requests: int
    rps: float
    p50_ms: float
    p95_ms: float
    bad: int


def wrk_sample(client: Client, endpoint: Endpoint, seconds: float) -> Sample:
    lines = [
        f"wrk.method = {json.dumps(endpoint.method)}",
        f'wrk.headers["Cookie"] = {json.dumps(client.cookie)}',
    ]
    if endpoint.method == "POST":
        lines += [
            'wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"',
            f'wrk.headers["X-CSRFToken"] = {json.dumps(client.csrf)}',
        ]
    if len(endpoint.bodies) == 1:
        lines.append(f"wrk.body = {json.dumps(endpoint.bodies[0])}")
    elif endpoint.bodies:
        # Each wrk thread runs its own copy of this script, so keeps its own count.
        lines.append(
            f"local bodies = {{{', '.join(json.dumps(body) for body in endpoint.bodies)}}}\n"
            "local sent = 0\n"
            "request = function()\n"
            "  sent = sent + 1\n"
            "  return wrk.format(nil, nil, nil, bodies[(sent - 1) % #bodies + 1])\n"
            "end"
        )
    if endpoint.htmx:
        lines.append('wrk.headers["HX-Request"] = "true"')
    lines.append(
        "done = function(s, latency, requests)\n"
        "  local e = s.errors\n"
        '  io.write(string.format("BENCH %f %f %f", s.duration, s.requests,\n'
        "    e.connect + e.read + e.write + e.timeout + e.status))\n"
        '  for p = 1, 99 do io.write(string.format(" %f", latency:percentile(p))) end\n'
        '  io.write("\\n")\n'
        "end"
    )
    with tempfile.NamedTemporaryFile("w", suffix=".lua") as script:
        script.write("\n".join(lines) + "\n")
        script.flush()
        output = subprocess.run(
            [
                "wrk",
                "--threads=2",
                f"--connections={client.connections}",
                f"--duration={seconds:g}s",
                "--timeout=10s",
                f"--script={script.name}",
                f"http://127.0.0.1:{client.port}{endpoint.path}",
            ],
            capture_output=True,
            text=True,
            check=True,
            timeout=seconds + 30,
        ).stdout
    line = next(line for line in output.splitlines() if line.startswith("BENCH "))
    duration_us, requests, bad, *cuts_us = map(float, line.split()[1:])
    return Sample(int(requests), duration_us / 1e6, int(bad), [cut / 1e3 for cut in cuts_us])


def _python_connection(
    port: int, endpoint: Endpoint, headers: dict[str, str], deadline: float
) -> tuple[list[float], int]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    bodies = itertools.cycle(endpoint.bodies or [None])
    latencies, bad = [], 0
    while time.time() < deadline:
        started = time.perf_counter()
        try:
            conn.request(endpoint.method, endpoint.path, next(bodies), headers)
            response = conn.getresponse()
            response.read()
            status = response.status
        except (OSError, http.client.HTTPException):
            conn.close()
            status = 0
        latencies.append(time.perf_counter() - started)
        bad += not 200 <= status < 400
    conn.close()
    return latencies, bad


def python_sample(client: Client, endpoint: Endpoint, seconds: float) -> Sample:
    # Processes, not threads: one GIL would cap the client below the server it measures.
    headers = {"Cookie": client.cookie}
    if endpoint.method == "POST":
        headers |= {
            "Content-Type": "application/x-www-form-urlencoded",
            "X-CSRFToken": client.csrf,
        }
    if endpoint.htmx:
        headers["HX-Request"] = "true"
    with ProcessPoolExecutor(max_workers=client.connections) as pool:
        begin = time.time() + 0.5  # the pool's processes start within the half second
        futures = [
            pool.submit(_python_connection, client.port, endpoint, headers, begin + seconds)
            for _ in range(client.connections)
        ]
        results = [future.result(timeout=seconds + 30) for future in futures]
        elapsed = time.time() - begin
    latencies = [latency * 1e3 for part, _ in results for latency in part]
    cuts = statistics.quantiles(latencies, n=100) if len(latencies) > 1 else latencies * 99
    return Sample(len(latencies), elapsed, sum(bad for _, bad in results), cuts)


def combine(samples: list[Sample]) -> Load:
    """One figure from several rounds: each round's percentiles weighted by its requests."""
    requests = sum(sample.requests for sample in samples)
    points = sorted(
        (cut, sample.requests / len(sample.cuts_ms)) for sample in samples for cut in sample.cuts_ms
    )

    def percentile(share: float) -> float:
        seen = 0.0
        for value, weight in points:
            seen += weight
            if seen >= share * requests:
                return value
        return points[-1][0]

    return Load(
        requests,
        requests / sum(sample.seconds for sample in samples),
        percentile(0.50),
        percentile(0.95),
        sum(sample.bad for sample in samples),
    )


def log_in(port: int, connections: int) -> Client:
    session = Session("127.0.0.1", port)
    response = session.log_in(MEASURED, PASSWORD)
    session.close()
    if response.status != 302 or "sessionid" not in session.cookies:
        raise RuntimeError(f"login failed: {response.status} {response.body[:300]!r}")
    return Client(
        port,
        cookie="; ".join(f"{k}={v}" for k, v in session.cookies.items()),
        csrf=session.cookies["csrftoken"],
        connections=connections,
    )


def measure(
    envs: dict[Server, dict[str, str]], ticks: dict[Server, str], seconds: int, connections: int
) -> tuple[dict[Server, dict[str, Load]], dict[Setup, str]]:
    """Every server up at once, rounds alternating between set-ups, sizes and endpoints; the
    loads, and the set-ups whose servers did not start or let the learner log in.

    Other work on a shared machine comes and goes; spreading every endpoint of every server over
    the whole run lets each ratio compare figures taken under the same conditions.
    """
    sample = wrk_sample if shutil.which("wrk") else python_sample
    samples: dict[tuple[Server, str], list[Sample]] = defaultdict(list)
    failed: dict[Setup, str] = {}

    def fail(server: Server, error: Exception) -> None:
        failed[server[0]] = f"{type(error).__name__}: {str(error).splitlines()[0]}"
        print(f"[{server[0]}, {server[1]:,}] not measured: {failed[server[0]]}", flush=True)

    with ExitStack() as servers:
        ports, clients = {}, {}
        for server, env in envs.items():
            try:
                ports[server] = servers.enter_context(gunicorn(env, workers=2))
            except RuntimeError as error:
                fail(server, error)
        # Logging in waits for a server's workers, which boot meanwhile, side by side.
        for server, port in ports.items():
            try:
                clients[server] = log_in(port, connections)
            except (RuntimeError, OSError) as error:
                fail(server, error)
        # A set-up is compared with itself at both sizes, or not at all.
        clients = {server: client for server, client in clients.items() if server[0] not in failed}
        for server, client in clients.items():
            for endpoint in endpoints(ticks[server]):
                sample(client, endpoint, WARMUP_SECONDS)
        order = list(clients.items())
        for round_number in range(max(1, seconds // ROUND_SECONDS)):
            # Each round starts at the next server, and every other round runs backwards: with
            # fewer rounds than servers, a shift alone left each set-up's 10,000-learner server
            # always measured just after its 10-learner server's ticks (and the database work
            # they leave behind), never the other way round.
            shift = round_number % len(order)
            turn = order[shift:] + order[:shift]
            for server, client in reversed(turn) if round_number % 2 else turn:
                for endpoint in endpoints(ticks[server]):
                    samples[server, endpoint.name].append(sample(client, endpoint, ROUND_SECONDS))
    loads = {
        server: {
            endpoint.name: combine(samples[server, endpoint.name]) for endpoint in endpoints("")
        }
        for server in clients
    }
    return loads, failed


# --- Report. ------------------------------------------------------------------------------------


@dataclass
class Scenario:
    """One set-up serving the database of one size."""

    size: int
    queries: dict[str, list[list[int]]]  # per body sent in turn: [statements, of which BEGIN…]
    loads: dict[str, Load]

    def ratio(self, name: str) -> float:
        return self.loads[name].rps / self.loads[HEALTHZ].rps


def verdicts(setup: Setup, scenarios: dict[int, Scenario]) -> list[str]:
    small, large = scenarios[SIZES[0]], scenarios[SIZES[-1]]
    checks = []

    def check(ok: bool, text: str) -> None:
        checks.append(f"- {'PASS' if ok else 'MISS'} [{setup}]: {text}")

    for name, floor in THROUGHPUT_TARGETS:
        worst = min(small.ratio(name), large.ratio(name))
        short = "" if worst >= floor else f"; {floor / worst:.1f}× too slow"
        check(
            worst >= floor,
            f"{name} throughput = {small.ratio(name):.3f}× /healthz at {small.size:,} learners, "
            f"{large.ratio(name):.3f}× at {large.size:,} (target ≥ {floor:.2f}×{short})",
        )
    p95 = small.loads[DASHBOARD].p95_ms, large.loads[DASHBOARD].p95_ms
    check(
        p95[1] <= 1.2 * p95[0],
        f"dashboard p95 at {large.size:,} = {p95[1]:.1f} ms, {p95[1] / p95[0]:.2f}× its p95 at "
        f"{small.size:,} ({p95[0]:.1f} ms; target ≤ 1.20×)",
    )
    counted = []
    for name, ceiling in QUERY_CEILINGS:
        counts = small.queries[name], large.queries[name]
        ok = counts[0] == counts[1] and max(total for total, _ in counts[0] + counts[1]) <= ceiling
        counted.append(
            (ok, f"{name} {statements(counts[0])} and {statements(counts[1])} (≤ {ceiling})")
        )
    check(
        all(ok for ok, _ in counted),
        f"queries at {small.size:,} and {large.size:,} learners: "
        + ", ".join(text for _, text in counted)
        + " (target: equal, within the ceiling)",
    )
    bad = sum(load.bad for scenario in (small, large) for load in scenario.loads.values())
    check(bad == 0, f"non-2xx/3xx responses and socket errors = {bad} (target 0)")
    return checks


def statements(counts: list[list[int]]) -> str:
    return " / ".join(
        f"{total} ({control} BEGIN/COMMIT)" if control else str(total) for total, control in counts
    )


def tables(results: dict[Setup, dict[int, Scenario]]) -> list[str]:
    rows = []
    for setup, scenarios in results.items():
        rows += [
            f"### {setup}",
            "",
            "| endpoint | DB size | req/s | p50 ms | p95 ms | ratio to /healthz | queries "
            "| non-2xx/3xx |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        ]
        for scenario in scenarios.values():
            for name, load in scenario.loads.items():
                rows.append(
                    f"| {name} | {scenario.size:,} | {load.rps:,.0f} | {load.p50_ms:.1f} | "
                    f"{load.p95_ms:.1f} | {scenario.ratio(name):.3f} | "
                    f"{statements(scenario.queries[name])} | {load.bad} |"
                )
        rows.append("")
    large = SIZES[-1]
    rows += [
        f"Ratio to /healthz at {large:,} learners, by set-up (req/s of /healthz in brackets):",
        "",
        "| endpoint | " + " | ".join(map(str, results)) + " |",
        "| --- |" + " ---: |" * len(results),
    ]
    names = list(next(iter(results.values()))[large].loads)
    for name in names:
        cells = (
            f"{scenarios[large].ratio(name):.3f}"
            if name != HEALTHZ
            else f"1.000 ({scenarios[large].loads[HEALTHZ].rps:,.0f})"
            for scenarios in results.values()
        )
        rows.append(f"| {name} | " + " | ".join(cells) + " |")
    rows += [
        "",
        "Queries: statements per request, counted in-process; for the tick, a tick / an untick.",
    ]
    return rows


def profile_tables(profiles: dict[Setup, dict[str, dict[str, float]]]) -> list[str]:
    rows = []
    for setup, profiled in profiles.items():
        rows += [
            "",
            f"Where the time goes, {setup}, {SIZES[-1]:,} learners: ms per request in-process "
            f"(Django test client, {PROFILE_ROUNDS} requests, half of them unticks for the tick, "
            "no gunicorn), share in brackets. ORM = building SQL and rows; database = the "
            "driver's execute; session + user = the session and user lookups with their "
            "queries; rest = middleware, view code, building querysets.",
            "",
            "| endpoint | total | " + " | ".join(PARTS) + " |",
            "| --- | ---: |" + " ---: |" * len(PARTS),
        ]
        for name, parts in profiled.items():
            shares = (
                f"{parts[part]:.2f} ({100 * parts[part] / parts['total']:.0f}%)" for part in PARTS
            )
            rows.append(f"| {name} | {parts['total']:.2f} | " + " | ".join(shares) + " |")
    return rows


def write_docs(lines: list[str]) -> None:
    # A hand-written "## Notes" section (what the profile means) survives a re-run.
    notes = ""
    if DOCS.exists():
        existing = DOCS.read_text()
        if NOTES_HEADING in existing:
            notes = "\n" + existing[existing.index(NOTES_HEADING) :]
    DOCS.parent.mkdir(exist_ok=True)
    DOCS.write_text("\n".join(lines) + "\n" + notes)


@dataclass
class Prepared:
    """An engine's databases, ready to serve."""

    made: dict[int, dict]  # per size: learners, ticks, the tick's slug, populate_seconds
    queries: dict[Server, dict[str, list[list[int]]]]
    failed: dict[Setup, str]  # set-ups whose in-process requests failed


def prepare_engine(
    engine: str, databases: dict[int, dict[str, str]], servers: dict[Server, dict[str, str]]
) -> Prepared:
    """Each size's database migrated, loaded and populated once, then the queries of each of the
    engine's set-ups counted."""
    made = {}
    for size, env in databases.items():
        step = time.perf_counter()
        try:
            prepare_database(env)
        except subprocess.CalledProcessError as error:
            raise StepFailed(f"{' '.join(map(str, error.cmd[1:3]))} failed") from error
        print(f"[{engine}, {size:,}] migrated, syllabus loaded: {time.perf_counter() - step:.1f} s")
        step = time.perf_counter()
        made[size] = in_django(env, "populate", str(size))
        made[size]["populate_seconds"] = time.perf_counter() - step
        print(
            f"[{engine}, {size:,}] populated {made[size]['learners']:,} learners, "
            f"{made[size]['ticks']:,} ticks in {made[size]['populate_seconds']:.1f} s "
            "(target < 60 s; the engines are populated side by side)",
            flush=True,
        )
    queries, failed = {}, {}
    for (setup, size), env in servers.items():
        if setup in failed:
            continue
        try:
            queries[setup, size] = in_django(
                in_process_env(env), "queries", MEASURED, made[size]["tick_slug"]
            )
        except StepFailed as error:
            print(f"[{setup}, {size:,}] not measured: {error}", flush=True)
            failed[setup] = str(error)
            continue
        print(f"[{setup}, {size:,}] statements per request: {queries[setup, size]}", flush=True)
    return Prepared(made, queries, failed)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("step", nargs="*", help=argparse.SUPPRESS)
    parser.add_argument("--seconds", type=int, default=4, help="per endpoint (default 4)")
    parser.add_argument("--connections", type=int, default=8, help="concurrent (default 8)")
    args = parser.parse_args()

    if args.step:  # run by in_django()
        import django

        django.setup()
        match args.step:
            case ["populate", learners]:
                print(json.dumps(populate(int(learners))))
            case ["queries", username, slug]:
                print(json.dumps(count_queries(username, slug)))
            case ["profile", username, slug]:
                print(json.dumps(profile(username, slug)))
            case _:
                parser.error(f"unknown step {args.step}")
        return 0

    started = time.perf_counter()
    load_before = os.getloadavg()[0]
    client = (
        f"wrk (2 threads), {args.connections} connections"
        if shutil.which("wrk")
        else f"Python client, {args.connections} processes (no wrk: apt-get install -y wrk)"
    )
    skipped: list[str] = []  # services that did not start
    failed: dict[Setup, str] = {}  # set-ups that started but could not be measured
    with (
        tempfile.TemporaryDirectory(prefix="studyplan-bench-") as tmp,
        ExitStack() as services,
    ):
        databases = {
            SQLITE: {size: f"sqlite:///{Path(tmp) / f'learners-{size}.sqlite3'}" for size in SIZES}
        }
        versions = {SQLITE: f"SQLite {sqlite3.sqlite_version}"}
        pg_urls, why = start_service(services, POSTGRESQL, postgresql_databases)
        if pg_urls:
            databases[POSTGRESQL] = pg_urls
            versions[POSTGRESQL] = postgresql_version(pg_urls[SIZES[0]])
        else:
            skipped.append(f"{POSTGRESQL} ({why})")
        redis_url, why = start_service(services, REDIS, redis_server)
        if redis_url:
            versions[REDIS] = redis_version(redis_url)
        else:
            skipped.append(f"{REDIS} ({why})")
        print(
            f"{', '.join(versions.values())}; client: {client}"
            + "".join(f"; not measured: {name}" for name in skipped),
            flush=True,
        )
        setups = [
            Setup(engine, cache)
            for engine in databases
            for cache in (LOCAL_CACHE, REDIS)
            if cache != REDIS or redis_url
        ]

        # One pair of databases per engine, shared by its two caches.
        databases_env = {
            (engine, size): production_env(url, Path(tmp) / f"static-{engine}")
            for engine, urls in databases.items()
            for size, url in urls.items()
        }
        redis_numbers = itertools.count(1)
        envs: dict[Server, dict[str, str]] = {}
        for setup in setups:
            for size in SIZES:
                envs[setup, size] = databases_env[setup.engine, size]
                if setup.cache == REDIS and redis_url:
                    # A Redis database per server: no set-up reads another's cached pages.
                    envs[setup, size] = envs[setup, size] | {
                        "REDIS_URL": redis_database(redis_url, next(redis_numbers))
                    }
        # The engines side by side: each runs one process at a time, and there are two cores.
        with ThreadPoolExecutor(max_workers=len(databases)) as pool:
            futures = {
                engine: pool.submit(
                    prepare_engine,
                    engine,
                    {size: databases_env[engine, size] for size in SIZES},
                    {server: env for server, env in envs.items() if server[0].engine == engine},
                )
                for engine in databases
            }
        prepared: dict[str, Prepared] = {}
        for engine, future in futures.items():
            try:
                prepared[engine] = future.result()
            except StepFailed as error:
                print(f"[{engine}] not measured: {error}", flush=True)
                failed |= {setup: str(error) for setup in setups if setup.engine == engine}
            else:
                failed |= prepared[engine].failed
        envs = {server: env for server, env in envs.items() if server[0] not in failed}
        ticks = {server: prepared[server[0].engine].made[server[1]]["tick_slug"] for server in envs}
        queries = {
            server: counts
            for engine in prepared.values()
            for server, counts in engine.queries.items()
        }
        print(f"measuring {len(envs)} servers, {args.seconds} s per endpoint each", flush=True)
        loads, failed_to_serve = measure(envs, ticks, args.seconds, args.connections)
        failed |= failed_to_serve
        # Profiled in the large database only: that is where a per-learner scan would show.
        large = SIZES[-1]
        profiles = {}
        for setup in setups:
            if setup.cache == LOCAL_CACHE and setup not in failed:
                server = setup, large
                try:
                    profiles[setup] = in_django(
                        in_process_env(envs[server]), "profile", MEASURED, ticks[server]
                    )
                except StepFailed as error:
                    print(f"[{setup}, {large:,}] not profiled: {error}", flush=True)
    elapsed = time.perf_counter() - started

    results = {
        setup: {size: Scenario(size, queries[setup, size], loads[setup, size]) for size in SIZES}
        for setup in setups
        if setup not in failed
    }
    report = [
        *(tables(results) if results else []),
        *profile_tables(profiles),
        "",
        "Targets (ratios to each set-up's own /healthz, from this run):",
        "",
        *(line for setup, scenarios in results.items() for line in verdicts(setup, scenarios)),
        *(f"- MISS [{setup}]: not measured: {why}" for setup, why in failed.items()),
        *(f"- not measured: {name}" for name in skipped),
    ]
    print("\n" + "\n".join(report))
    print(f"\ntotal run time {elapsed:.0f} s")
    engines = " and ".join(versions[engine] for engine in databases)
    caches = "a per-process cache (LocMemCache)" + (
        f" and with {versions[REDIS]} (REDIS_URL: cached pages)" if redis_url else ""
    )
    external = os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://"))
    write_docs(
        [
            "# Benchmarks",
            "",
            "Written by `make bench` (`.venv/bin/python bench/run.py`); re-run to refresh.",
            "",
            f"- date: {datetime.datetime.now().astimezone():%Y-%m-%d %H:%M %Z}",
            f"- command: `{' '.join(['.venv/bin/python', 'bench/run.py', *sys.argv[1:]])}`"
            + (" with a PostgreSQL `DATABASE_URL`" if external and pg_urls else ""),
            f"- machine: {os.cpu_count()} cores, shared by servers and client; 1-minute load "
            f"average before the run {load_before:.1f} (other work on the same cores; about 0 "
            "on a quiet machine)",
            f"- set-ups: {engines}, each with {caches}; the two set-ups of an engine share its "
            "databases",
            *([f"- not measured: {'; '.join(skipped)}"] if skipped else []),
            f"- server: gunicorn, 2 sync workers per set-up and database ({len(envs)} servers, "
            "all up at once), production settings, DEBUG off",
            f"- client: {client} over loopback; {WARMUP_SECONDS} s warm-up, then "
            f"{ROUND_SECONDS} s rounds alternating set-ups, databases and endpoints (every other "
            f"round in reverse order), {args.seconds} s per endpoint in all; the tick posts "
            "done=1 and done=0 in turn (each client thread keeps its own turn, so two concurrent "
            "requests may say the same)",
            "- data: "
            + "; ".join(
                f"{engine} {made['learners']:,} learners, {made['ticks']:,} ticks "
                f"(populated in {made['populate_seconds']:.1f} s)"
                for engine, ready in prepared.items()
                for made in ready.made.values()
            ),
            f"- total run time: {elapsed:.0f} s",
            "",
            *report,
            "",
        ]
    )
    print(f"written to {DOCS.relative_to(ROOT)}")
    # Error responses make the figures meaningless; missed targets are findings, not failures.
    bad = any(load.bad for server in loads.values() for load in server.values())
    return 1 if bad or failed else 0


if __name__ == "__main__":
    sys.exit(main())
