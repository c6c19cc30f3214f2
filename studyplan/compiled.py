"""Queries compiled once per process and database, for the hottest paths.

The ORM builds a query's SQL anew every time it runs. For the few queries every learner request
makes, the same each time but for the learner's id, building took several times longer than the
database took to answer (docs/benchmarks.md). A ``CompiledQuery`` is made from the ORM queryset
itself (no hand-written SQL) with a placeholder where the id goes; running it substitutes the id,
executes the kept SQL and converts the rows with the database backend's own converters, as the
queryset would have.
"""

from typing import Any

from django.db import connections
from django.db.models.query import get_related_populators  # type: ignore[attr-defined]

# Stands in for the learner's id while a query is compiled. Inside a 32-bit integer's range:
# PostgreSQL's integer ids refuse larger values (Django would compile the lookup to "no rows").
PLACEHOLDER = -2_031_415_926
# Stands in for a text value, such as a session key.
TEXT_PLACEHOLDER = "compiled-query-placeholder"


class CompiledQuery:
    """A queryset filtered on ``PLACEHOLDER`` (or ``TEXT_PLACEHOLDER``), compiled once;
    ``rows(value)`` runs it for a value. Rows come as tuples in the queryset's select order,
    converted."""

    def __init__(self, queryset: Any) -> None:
        self.alias = queryset.db
        self.compiler = queryset.query.get_compiler(using=self.alias)
        self.sql, params = self.compiler.as_sql()
        self.params = list(params)
        self.slots = [
            index
            for index, param in enumerate(self.params)
            if param in (PLACEHOLDER, TEXT_PLACEHOLDER)
        ]
        if not self.slots:
            raise ValueError("the queryset does not filter on a placeholder")
        select = self.compiler.select[: self.compiler.col_count]
        self.converters = self.compiler.get_converters([column[0] for column in select])

    def bound(self, value: Any) -> tuple[str, list[Any]]:
        """The SQL and its parameters for ``value``, to run as part of a larger statement."""
        params = list(self.params)
        for slot in self.slots:
            params[slot] = value
        return self.sql, params

    def converted(self, rows: Any) -> list[Any]:
        """Rows of this query as the database returned them, converted."""
        if self.converters:
            rows = self.compiler.apply_converters(rows, self.converters)
        return list(rows)

    def rows(self, value: Any) -> list[Any]:
        sql, params = self.bound(value)
        with connections[self.alias].cursor() as cursor:
            cursor.execute(sql, params)
            return self.converted(cursor.fetchall())


class CompiledInstanceQuery(CompiledQuery):
    """A model queryset (select_related and annotations allowed), compiled once; ``get(value)``
    builds the instance and its related ones from the first row, as the queryset would."""

    def __init__(self, queryset: Any) -> None:
        super().__init__(queryset)
        select, klass_info = self.compiler.select, self.compiler.klass_info
        self.model = klass_info["model"]
        start, end = klass_info["select_fields"][0], klass_info["select_fields"][-1] + 1
        self.columns = slice(start, end)
        self.fields = [column[0].target.attname for column in select[start:end]]
        self.populators = get_related_populators(klass_info, select, self.alias)
        self.annotations = dict(self.compiler.annotation_col_map)

    def get(self, value: Any) -> Any:
        rows = self.rows(value)
        if not rows:
            return None
        row = rows[0]
        instance = self.model.from_db(self.alias, self.fields, row[self.columns])
        for populator in self.populators:
            populator.populate(row, instance)
        for name, position in self.annotations.items():
            setattr(instance, name, row[position])
        return instance
