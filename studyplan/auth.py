"""How a learner's request loads request.user: one query, compiled once per process.

Every learner page needs, besides the user, their study plan (and its intensity), their profile
(the time zone, see studyplan.timezones) and the syllabus content version (see
studyplan.caching). All of it comes in the one query that loads request.user.

That query is the same on every request but its primary key, and compiling it (the ORM building
SQL for three joins and an annotation) took 1.3 ms of a cached dashboard's 3 ms, ten times the
0.13 ms the database spends running it. So it is compiled once per process and database, from
the ORM queryset itself (no hand-written SQL), and each request runs the compiled statement and
builds the instances with Django's own row converters and related populators, as a queryset
would. docs/benchmarks.md has the figures.
"""

import functools
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import ValidationError
from django.db import connections, router
from django.db.models.query import get_related_populators

from .caching import content_version_subquery

# Stands in for the primary key while the query is compiled; never a real user's id.
_PLACEHOLDER_PK = -7_314_159_265


def learner_queryset() -> Any:
    """The user with everything a learner page reads, as one query."""
    return (
        get_user_model()
        ._default_manager.select_related("study_plan__intensity", "profile")
        .annotate(content_version=content_version_subquery())
    )


class CompiledUserQuery:
    """``learner_queryset().get(pk=...)``, compiled once: SQL, converters and populators are
    kept; ``get`` runs the statement and builds the user and its related rows from the row."""

    def __init__(self, alias: str) -> None:
        queryset = learner_queryset().using(alias).filter(pk=_PLACEHOLDER_PK)
        compiler = queryset.query.get_compiler(using=alias)
        self.alias = alias
        self.sql, params = compiler.as_sql()
        self.params = list(params)
        self.pk_index = self.params.index(_PLACEHOLDER_PK)
        self.compiler = compiler
        select, klass_info = compiler.select, compiler.klass_info
        self.converters = compiler.get_converters([s[0] for s in select[: compiler.col_count]])
        self.model = klass_info["model"]
        start, end = klass_info["select_fields"][0], klass_info["select_fields"][-1] + 1
        self.user_columns = slice(start, end)
        self.user_fields = [column[0].target.attname for column in select[start:end]]
        self.populators = get_related_populators(klass_info, select, alias)
        self.annotations = dict(compiler.annotation_col_map)

    def get(self, pk: Any) -> Any:
        params = list(self.params)
        params[self.pk_index] = pk
        with connections[self.alias].cursor() as cursor:
            cursor.execute(self.sql, params)
            rows: Any = cursor.fetchmany(1)
        if not rows:
            return None
        if self.converters:
            rows = self.compiler.apply_converters(rows, self.converters)
        row = next(iter(rows))
        user = self.model.from_db(self.alias, self.user_fields, row[self.user_columns])
        for populator in self.populators:
            populator.populate(row, user)
        for name, position in self.annotations.items():
            setattr(user, name, row[position])
        return user


@functools.cache
def compiled_user_query(alias: str) -> CompiledUserQuery:
    return CompiledUserQuery(alias)


class LearnerBackend(ModelBackend):
    """Django's model backend, loading request.user with the learner's plan, profile and content
    version through the compiled query above."""

    def get_user(self, user_id: Any) -> Any:
        user_model = get_user_model()
        try:
            pk = user_model._meta.pk.to_python(user_id)
        except ValidationError:
            return None
        alias = router.db_for_read(user_model)
        user = compiled_user_query(alias).get(pk)
        return user if user is not None and self.user_can_authenticate(user) else None
