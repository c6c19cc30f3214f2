"""Running the project's migrations backwards and forwards in a test (a data migration's tests):
the ``executor`` fixture, and ``migrate`` to a set of targets."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor


@pytest.fixture
def executor(transactional_db):
    """A migration executor on the test database; whatever a test does, the database is at the
    latest migrations again when it ends, for the tests after it."""
    executor = MigrationExecutor(connection)
    yield executor
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())


def migrate(executor: MigrationExecutor, targets):
    """The database migrated to ``targets``; the models as they stood there."""
    executor.loader.build_graph()  # the graph as the database has it now
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps
