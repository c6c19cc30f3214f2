"""Start the app under gunicorn on loopback for the load and benchmark scripts, and the
PostgreSQL and Redis it can run on."""

import contextlib
import os
import secrets
import shlex
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import redis

ROOT = Path(__file__).resolve().parent.parent
PG_CLUSTER = ("15", "main")
PG_PORT = 5432


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def production_env(database_url: str, static_root: Path) -> dict[str, str]:
    """Production settings (debug off), served over plain http on loopback."""
    return {
        **os.environ,
        "DATABASE_URL": database_url,
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DJANGO_SECURE_SSL_REDIRECT": "0",
        "DJANGO_SECURE_COOKIES": "0",
        "DJANGO_HSTS_SECONDS": "0",
        "DJANGO_STATIC_ROOT": str(static_root),
        "DJANGO_SETTINGS_MODULE": "studyplan.settings",
    }


def manage(env: dict[str, str], *args: str) -> None:
    subprocess.run([sys.executable, str(ROOT / "manage.py"), *args], env=env, cwd=ROOT, check=True)


def prepare_database(env: dict[str, str]) -> None:
    # collectstatic first: with debug off every other command refuses to start without the
    # static manifest it writes (studyplan.checks).
    manage(env, "collectstatic", "--noinput", "-v0")
    manage(env, "migrate", "--noinput", "-v0")
    # The rate limits' shared counters when no Redis is set (settings.CACHES).
    manage(env, "createcachetable")
    manage(env, "load_syllabus", "-v0")


@contextlib.contextmanager
def gunicorn(env: dict[str, str], *, workers: int, threads: int = 1) -> Iterator[int]:
    port = free_port()
    handle, log_name = tempfile.mkstemp(prefix="gunicorn-", suffix=".log")
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "studyplan.wsgi",
            f"--workers={workers}",
            f"--threads={threads}",
            f"--bind=127.0.0.1:{port}",
            "--log-level=warning",
            "--timeout=60",
            # One control socket per user by default: two servers would fight over it.
            "--no-control-socket",
        ],
        env=env,
        cwd=ROOT,
        stdout=handle,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(
                        f"gunicorn did not start; see {log_name}:\n"
                        + Path(log_name).read_text()[-2000:]
                    ) from None
                time.sleep(0.2)
        yield port
    finally:
        os.close(handle)
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()


# Services: PostgreSQL 15 (needs root: it runs `su postgres`) and a Redis of our own.


def run(*command: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    # No stdin: a command that wants a password fails instead of waiting for one.
    return subprocess.run(
        command, check=check, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL
    )


def as_postgres(sql: str) -> None:
    run("su", "postgres", "-c", f"psql -q -v ON_ERROR_STOP=1 -c {shlex.quote(sql)}")


@contextlib.contextmanager
def postgresql(database: str, role: str) -> Iterator[str]:
    """PostgreSQL running, with a fresh database owned by ``role`` for this run; its URL.

    The database is dropped afterwards, and PostgreSQL stopped if this started it.
    """
    version, name = PG_CLUSTER
    was_running = run("pg_ctlcluster", version, name, "status", check=False).returncode == 0
    if not was_running:
        run("pg_ctlcluster", version, name, "start")
    try:
        ready = ("pg_isready", "-q", "-h", "127.0.0.1", "-p", str(PG_PORT))
        deadline = time.monotonic() + 30
        while run(*ready, check=False).returncode:
            if time.monotonic() > deadline:
                raise RuntimeError("PostgreSQL did not accept connections within 30 s")
            time.sleep(0.5)
        as_postgres(
            f"DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '{role}') THEN "
            f"CREATE ROLE {role} LOGIN PASSWORD '{role}'; END IF; END $$;"
        )
        as_postgres(f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")
        as_postgres(f"CREATE DATABASE {database} OWNER {role}")
        try:
            yield f"postgres://{role}:{role}@127.0.0.1:{PG_PORT}/{database}"
        finally:
            as_postgres(f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")
    finally:
        if not was_running:
            run("pg_ctlcluster", version, name, "stop", check=False)


def install_redis() -> str:
    found = shutil.which("redis-server")
    if found:
        return found
    print("--- installing redis-server", flush=True)
    run("apt-get", "update", "-qq")
    subprocess.run(
        ["apt-get", "install", "-y", "-qq", "redis-server"],
        check=True,
        capture_output=True,
        env={"DEBIAN_FRONTEND": "noninteractive", "PATH": "/usr/sbin:/usr/bin:/sbin:/bin"},
        timeout=300,
    )
    return shutil.which("redis-server") or "/usr/bin/redis-server"


@contextlib.contextmanager
def redis_server() -> Iterator[str]:
    """A Redis of our own on a free loopback port, keeping nothing on disk; its URL (DB 0)."""
    port = free_port()
    process = subprocess.Popen(
        [install_redis(), "--port", str(port), "--bind", "127.0.0.1"]
        + ["--save", "", "--appendonly", "no", "--daemonize", "no"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        client = redis.Redis(host="127.0.0.1", port=port, socket_timeout=1)
        deadline = time.monotonic() + 15
        while True:
            try:
                client.ping()
                break
            except redis.ConnectionError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("redis-server did not start") from None
                time.sleep(0.1)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
