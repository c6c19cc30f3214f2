"""No app module grows past 400 lines: past that a module holds several capabilities, and each
should have a file whose name says where it is."""

import pytest

from tests.test_public_apis import app_files

MOST_LINES = 400


@pytest.mark.parametrize(
    "path", app_files(), ids=lambda path: str(path.relative_to(path.parents[1]))
)
def test_no_app_module_is_over_400_lines(path):
    lines = len(path.read_text().splitlines())
    assert lines <= MOST_LINES, f"{path} has {lines} lines"
