"""Benchmark: is the app as fast for one learner among 10,000 as among 10?

Builds two throwaway databases (10 and 10,000 learners with plans and about 40 ticks each,
created in bulk), serves each under gunicorn (2 workers, production settings, DEBUG off), logs
one measured learner in and loads /healthz, the dashboard, a phase page and an HTMX tick toggle
over loopback with wrk (or a Python client when wrk is missing). Prints throughput, p50/p95
latency and query counts, checks the speed targets as ratios measured in the same run, and
writes the table to docs/benchmarks.md.

    make bench                       # SQLite
    DATABASE_URL=postgres://user:pass@127.0.0.1/db make bench
    .venv/bin/python bench/run.py [--seconds 5] [--connections 8]

With a PostgreSQL DATABASE_URL the two scenarios live in two databases created next to the
named one (NAME_bench_10, NAME_bench_10000) and dropped afterwards, so the named database is
never filled with 10,000 fake learners and both scenarios start from the same empty schema,
exactly as with SQLite; the role needs CREATEDB.
"""

import argparse
import contextlib
import datetime
import functools
import http.client
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scripts.httpclient import Session  # noqa: E402
from scripts.server import gunicorn, prepare_database, production_env  # noqa: E402

PASSWORD = "bench-pass-5521-studyplan"
MEASURED = "bench-measured"
MEASURED_PHASE = "experimentation"
SIZES = (10, 10_000)
WARMUP_SECONDS = 1
ROUND_SECONDS = 1  # wrk takes whole seconds
DOCS = ROOT / "docs" / "benchmarks.md"
NOTES_HEADING = "## Notes"
PROFILE_ROUNDS = 100
SESSION = "session + user"
PARTS = ("template", "ORM", "database", SESSION, "rest")
TRANSACTION_CONTROL = ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE")


@dataclass(frozen=True)
class Endpoint:
    name: str
    method: str
    path: str
    body: str = ""
    htmx: bool = False


@dataclass(frozen=True)
class Client:
    port: int
    cookie: str
    csrf: str
    connections: int


def endpoints(toggle_slug: str) -> list[Endpoint]:
    return [
        Endpoint("/healthz", "GET", "/healthz"),
        Endpoint("dashboard", "GET", "/dashboard/"),
        Endpoint("phase", "GET", f"/study/{MEASURED_PHASE}/"),
        # done=1 is idempotent, so every request after the first is the same no-op tick.
        Endpoint("toggle", "POST", f"/study/checks/{toggle_slug}/", body="done=1", htmx=True),
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
        plans, ticks = [], []
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
            ticks.extend(CheckOff(user_id=user.pk, self_check_id=pk) for pk in chosen)
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
        ticks.extend(CheckOff(user_id=measured.pk, self_check_id=pk) for pk, _, _ in mine)
        StudyPlan.objects.bulk_create(plans, batch_size=2000)
        CheckOff.objects.bulk_create(ticks, batch_size=5000)

    if connection.vendor == "postgresql":
        # Autovacuum would analyze these fresh tables within a minute in production.
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    ticked = {slug for _, slug, _ in mine}
    toggle_slug = next(
        slug for _, slug, phase in checks if phase == MEASURED_PHASE and slug not in ticked
    )
    return {
        "username": MEASURED,
        "toggle_slug": toggle_slug,
        "learners": User.objects.count(),
        "ticks": CheckOff.objects.count(),
    }


def in_process_requests(username: str, toggle_slug: str) -> dict[str, Callable]:
    """One in-process request per endpoint, as the measured learner."""
    from django.contrib.auth.models import User
    from django.test import Client

    client = Client()
    client.force_login(User.objects.get(username=username))

    def sender(endpoint: Endpoint) -> Callable:
        headers = {"HX-Request": "true"} if endpoint.htmx else {}
        if endpoint.method == "POST":
            data = dict(item.split("=") for item in endpoint.body.split("&"))
            return lambda: client.post(endpoint.path, data, headers=headers)
        return lambda: client.get(endpoint.path, headers=headers)

    return {endpoint.name: sender(endpoint) for endpoint in endpoints(toggle_slug)}


def count_queries(username: str, toggle_slug: str) -> dict[str, list[int]]:
    """Statements per request, and how many of them are BEGIN/COMMIT and the like."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    counts = {}
    for name, send in in_process_requests(username, toggle_slug).items():
        send()  # the first request may fill per-process caches; count a steady one
        with CaptureQueriesContext(connection) as captured:
            response = send()
        if not 200 <= response.status_code < 400:
            raise RuntimeError(f"{name} answered {response.status_code}")
        statements = [query["sql"].split()[0].upper() for query in captured.captured_queries]
        counts[name] = [len(statements), sum(s in TRANSACTION_CONTROL for s in statements)]
    return counts


def profile(username: str, toggle_slug: str) -> dict[str, dict[str, float]]:
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
        for name, send in in_process_requests(username, toggle_slug).items():
            for _ in range(5):
                send()
            spent.clear()
            started = time.perf_counter()
            for _ in range(PROFILE_ROUNDS):
                send()
            total = time.perf_counter() - started
            spent["rest"] = total - sum(spent.values())
            results[name] = {
                "total": 1e3 * total / PROFILE_ROUNDS,
                **{part: 1e3 * spent[part] / PROFILE_ROUNDS for part in PARTS},
            }
    return results


def in_django(env: dict[str, str], *args: str) -> dict:
    """Run a subcommand of this script in a fresh Django process; its last line is JSON."""
    output = subprocess.run(
        [sys.executable, __file__, *args], env=env, cwd=ROOT, check=True, stdout=subprocess.PIPE
    )
    return json.loads(output.stdout.decode().strip().splitlines()[-1])


def in_process_env(env: dict[str, str]) -> dict[str, str]:
    # Django's in-process test client is served as "testserver".
    return {**env, "DJANGO_ALLOWED_HOSTS": "testserver"}


# --- Databases. ---------------------------------------------------------------------------------


@contextlib.contextmanager
def scenario_databases(tmp: Path) -> Iterator[tuple[str, dict[int, str]]]:
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        yield "SQLite", {size: f"sqlite:///{tmp / f'learners-{size}.sqlite3'}" for size in SIZES}
        return

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
        version = admin.info.server_version

        def drop_all() -> None:
            for name in names.values():
                admin.execute(
                    sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
                )

        drop_all()
        for name in names.values():
            admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        try:
            yield f"PostgreSQL {version // 10000}.{version % 10000}", urls
        finally:
            drop_all()


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
            f"wrk.body = {json.dumps(endpoint.body)}",
            'wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"',
            f'wrk.headers["X-CSRFToken"] = {json.dumps(client.csrf)}',
        ]
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
    latencies, bad = [], 0
    while time.time() < deadline:
        started = time.perf_counter()
        try:
            conn.request(endpoint.method, endpoint.path, endpoint.body or None, headers)
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
    envs: dict[int, dict[str, str]], toggles: dict[int, str], seconds: int, connections: int
) -> dict[int, dict[str, Load]]:
    """Both servers up at once, rounds alternating between sizes and endpoints.

    Other work on a shared machine comes and goes; spreading every endpoint of both sizes over
    the whole run lets each ratio compare figures taken under the same conditions.
    """
    sample = wrk_sample if shutil.which("wrk") else python_sample
    samples: dict[tuple[int, str], list[Sample]] = defaultdict(list)
    with contextlib.ExitStack() as servers:
        clients = {
            size: log_in(servers.enter_context(gunicorn(env, workers=2)), connections)
            for size, env in envs.items()
        }
        for size, client in clients.items():
            for endpoint in endpoints(toggles[size]):
                sample(client, endpoint, WARMUP_SECONDS)
        for _ in range(max(1, seconds // ROUND_SECONDS)):
            for size, client in clients.items():
                for endpoint in endpoints(toggles[size]):
                    samples[size, endpoint.name].append(sample(client, endpoint, ROUND_SECONDS))
    return {
        size: {endpoint.name: combine(samples[size, endpoint.name]) for endpoint in endpoints("")}
        for size in envs
    }


# --- Report. ------------------------------------------------------------------------------------


@dataclass
class Scenario:
    size: int
    learners: int
    ticks: int
    populate_seconds: float
    queries: dict[str, list[int]]  # [statements, of which transaction control]
    loads: dict[str, Load]
    profile: dict[str, dict[str, float]] | None


def verdicts(scenarios: dict[int, Scenario]) -> list[str]:
    small, large = scenarios[SIZES[0]], scenarios[SIZES[-1]]
    checks = []

    def check(ok: bool, text: str) -> None:
        checks.append(f"- {'PASS' if ok else 'MISS'}: {text}")

    for name, floor in (("dashboard", 0.25), ("toggle", 0.20)):
        for scenario in (small, large):
            ratio = scenario.loads[name].rps / scenario.loads["/healthz"].rps
            short = "" if ratio >= floor else f"; {floor / ratio:.1f}× too slow"
            check(
                ratio >= floor,
                f"{name} throughput at {scenario.size:,} learners = {ratio:.3f}× /healthz "
                f"(target ≥ {floor:.2f}×{short})",
            )
    growth = large.loads["dashboard"].p95_ms / small.loads["dashboard"].p95_ms
    check(
        growth <= 1.2,
        f"dashboard p95 at {large.size:,} = {large.loads['dashboard'].p95_ms:.1f} ms, "
        f"{growth:.2f}× its p95 at {small.size:,} ({small.loads['dashboard'].p95_ms:.1f} ms; "
        "target ≤ 1.20×)",
    )
    for name, ceiling in (("dashboard", 8), ("toggle", 6), ("phase", 8)):
        counts = [small.queries[name], large.queries[name]]
        check(
            max(total for total, _ in counts) <= ceiling and counts[0] == counts[1],
            f"{name} queries = {statements(counts[0])} at {small.size:,}, "
            f"{statements(counts[1])} at {large.size:,} (target ≤ {ceiling}, equal)",
        )
    bad = sum(load.bad for scenario in scenarios.values() for load in scenario.loads.values())
    check(bad == 0, f"non-2xx/3xx responses and socket errors = {bad} (target 0)")
    return checks


def statements(count: list[int]) -> str:
    total, control = count
    return f"{total} ({control} BEGIN/COMMIT)" if control else str(total)


def tables(scenarios: dict[int, Scenario]) -> list[str]:
    rows = [
        "| endpoint | DB size | req/s | p50 ms | p95 ms | ratio to /healthz | queries "
        "| non-2xx/3xx |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for scenario in scenarios.values():
        healthz = scenario.loads["/healthz"].rps
        for name, load in scenario.loads.items():
            rows.append(
                f"| {name} | {scenario.size:,} | {load.rps:,.0f} | {load.p50_ms:.1f} | "
                f"{load.p95_ms:.1f} | {load.rps / healthz:.3f} | "
                f"{statements(scenario.queries[name])} | {load.bad} |"
            )
    for scenario in scenarios.values():
        if scenario.profile:
            rows += [
                "",
                f"Where the time goes at {scenario.size:,} learners: ms per request in-process "
                f"(Django test client, {PROFILE_ROUNDS} requests, no gunicorn), share in brackets. "
                "ORM = building SQL and rows; database = the driver's execute; session + user = "
                "the session and user lookups with their 2 queries; rest = middleware, view code, "
                "building querysets.",
                "",
                "| endpoint | total | " + " | ".join(PARTS) + " |",
                "| --- | ---: |" + " ---: |" * len(PARTS),
            ]
            for name, parts in scenario.profile.items():
                shares = (
                    f"{parts[part]:.2f} ({100 * parts[part] / parts['total']:.0f}%)"
                    for part in PARTS
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("step", nargs="*", help=argparse.SUPPRESS)
    parser.add_argument("--seconds", type=int, default=5, help="per endpoint (default 5)")
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
    with (
        tempfile.TemporaryDirectory(prefix="studyplan-bench-") as tmp,
        scenario_databases(Path(tmp)) as (engine, urls),
    ):
        print(f"engine: {engine}; client: {client}", flush=True)
        envs, made, populate_seconds, queries = {}, {}, {}, {}
        for size, url in urls.items():
            envs[size] = production_env(url, Path(tmp) / "static")
            step = time.perf_counter()
            prepare_database(envs[size])
            print(f"[{size:,}] migrated, syllabus loaded: {time.perf_counter() - step:.1f} s")
            step = time.perf_counter()
            made[size] = in_django(envs[size], "populate", str(size))
            populate_seconds[size] = time.perf_counter() - step
            print(
                f"[{size:,}] populated {made[size]['learners']:,} learners, "
                f"{made[size]['ticks']:,} ticks in {populate_seconds[size]:.1f} s "
                "(target < 60 s)",
                flush=True,
            )
            learner = (made[size]["username"], made[size]["toggle_slug"])
            queries[size] = in_django(in_process_env(envs[size]), "queries", *learner)
            print(f"[{size:,}] statements per request: {queries[size]}", flush=True)
        toggles = {size: made[size]["toggle_slug"] for size in urls}
        loads = measure(envs, toggles, args.seconds, args.connections)
        # Profiled in the large database only: that is where a per-learner scan would show.
        large = SIZES[-1]
        profiled = in_django(in_process_env(envs[large]), "profile", MEASURED, toggles[large])
    elapsed = time.perf_counter() - started

    scenarios = {
        size: Scenario(
            size,
            made[size]["learners"],
            made[size]["ticks"],
            populate_seconds[size],
            queries[size],
            loads[size],
            profiled if size == large else None,
        )
        for size in urls
    }
    results = tables(scenarios) + ["", "Targets (ratios from this run):", ""] + verdicts(scenarios)
    print(f"\nengine: {engine}\n" + "\n".join(results))
    print(f"\ntotal run time {elapsed:.0f} s")
    write_docs(
        [
            "# Benchmarks",
            "",
            "Written by `make bench` (`.venv/bin/python bench/run.py`); re-run to refresh.",
            "",
            f"- date: {datetime.datetime.now().astimezone():%Y-%m-%d %H:%M %Z}",
            f"- command: `{' '.join(['.venv/bin/python', 'bench/run.py', *sys.argv[1:]])}`"
            + (" with a PostgreSQL `DATABASE_URL`" if engine != "SQLite" else ""),
            f"- machine: {os.cpu_count()} cores, shared by server and client; 1-minute load "
            f"average before the run {load_before:.1f} (other work on the same cores; about 0 "
            "on a quiet machine)",
            f"- engine: {engine}",
            "- server: gunicorn, 2 sync workers per database, production settings, DEBUG off",
            f"- client: {client} over loopback; {WARMUP_SECONDS} s warm-up, then "
            f"{ROUND_SECONDS} s rounds alternating databases and endpoints, "
            f"{args.seconds} s per endpoint in all",
            "- data: "
            + "; ".join(
                f"{s.learners:,} learners, {s.ticks:,} ticks "
                f"(populated in {s.populate_seconds:.1f} s)"
                for s in scenarios.values()
            ),
            f"- total run time: {elapsed:.0f} s",
            "",
            *results,
            "",
        ]
    )
    print(f"written to {DOCS.relative_to(ROOT)}")
    # Error responses make the figures meaningless; missed targets are findings, not failures.
    return 1 if any(load.bad for size in loads.values() for load in size.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
