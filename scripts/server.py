"""Start the app under gunicorn on loopback for the load and benchmark scripts."""

import contextlib
import os
import secrets
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


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
