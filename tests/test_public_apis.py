"""The app's code uses Django and its libraries through their public APIs only, and writes
through the ORM. Ruff holds most of it as configuration (pyproject.toml: SLF001 private member
access, PLC2701 private imports, TID251 banned APIs, run by `make lint`); what a linter cannot
see, a call of a raw-SQL method on any object (.raw(), .extra(), .cursor(), .execute()), is
checked here over every app file at once, and the checker itself against samples."""

import ast
from pathlib import Path

import pytest
from django.conf import settings

APPS = ("studyplan", "progress", "phases")

# Underscore names that are documented public API, each with where it is documented.
ALLOWED = {
    # https://docs.djangoproject.com/en/5.2/ref/models/meta/ : "the Model _meta API".
    "_meta",
    # https://docs.djangoproject.com/en/5.2/topics/db/managers/#default-managers
    "_default_manager",
}

# Undocumented helpers an earlier version of the app reached for: their signatures change
# between releases.
UNDOCUMENTED = {
    ("django.contrib.auth.middleware", "get_user"),
    ("django.db.models.query", "get_related_populators"),
    ("django.db.models.sql.compiler", "SQLCompiler"),
}

RAW_SQL = {"cursor", "raw", "extra", "RawSQL", "execute", "executemany"}


def app_files() -> list[Path]:
    base = Path(settings.BASE_DIR)
    return sorted(
        path
        for app in APPS
        for path in (base / app).rglob("*.py")
        if "migrations" not in path.parts
    )


def private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def problems(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        where = f"{path.name}:{getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.Attribute):
            owner = node.value
            own = isinstance(owner, ast.Name) and owner.id in {"self", "cls"}
            if private(node.attr) and not own and node.attr not in ALLOWED:
                found.append(f"{where}: .{node.attr}")
            if node.attr in RAW_SQL:
                found.append(f"{where}: raw SQL through .{node.attr}")
        elif isinstance(node, ast.ImportFrom) and node.module:
            ours = node.level > 0 or node.module.split(".")[0] in APPS
            if not ours and any(private(part) for part in node.module.split(".")):
                found.append(f"{where}: import from {node.module}")
            for alias in node.names:
                if not ours and private(alias.name):
                    found.append(f"{where}: from {node.module} import {alias.name}")
                if (node.module, alias.name) in UNDOCUMENTED:
                    found.append(f"{where}: undocumented {node.module}.{alias.name}")
                if alias.name == "RawSQL":
                    found.append(f"{where}: RawSQL")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if any(private(part) for part in alias.name.split(".")):
                    found.append(f"{where}: import {alias.name}")
    return found


def test_the_app_has_code_to_check():
    names = {path.name for path in app_files()}
    assert {"settings.py", "figures.py", "models.py", "content.py", "ticks.py"} <= names


def test_no_private_api_and_no_raw_sql_in_any_app_file():
    found = [problem for path in app_files() for problem in problems(path)]

    assert found == []


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("x = request._cached_user\n", ".\\_cached_user"),
        ("from django.contrib.auth.middleware import get_user\n", "undocumented"),
        ("from django.db.models.sql.compiler import SQLCompiler\n", "undocumented"),
        ("from django.db.models.expressions import RawSQL\n", "RawSQL"),
        ("connection.cursor().execute('UPDATE x')\n", "raw SQL"),
        ("from django.utils._os import safe_join\n", "import"),
        ("Model._meta.pk\n", None),
        ("self._private = 1\n", None),
    ],
)
def test_the_checker_finds_what_it_should(tmp_path, source, expected):
    path = tmp_path / "sample.py"
    path.write_text(source, encoding="utf-8")
    found = problems(path)
    if expected is None:
        assert found == []
    else:
        assert any(expected.replace("\\", "") in problem for problem in found), found
