from pathlib import Path
from typing import Any, cast

import yaml
from django.conf import settings
from django.core import serializers
from django.core.management.base import BaseCommand, CommandError
from django.core.serializers.base import DeserializationError
from django.db import DatabaseError, transaction

from phases import bank_quality
from phases.content import content_changed
from phases.models import Domain, ExercisePart, Intensity, Phase, PhaseHours, SelfCheck, Topic
from phases.validation import SyllabusError, find_question_problems, validate

# PyYAML's C parser (libyaml) where it was built with it: ten times faster than the pure-Python
# one, and the same safe subset of YAML.
SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def read_yaml(path: Path):
    try:
        return yaml.load(path.read_text(encoding="utf-8"), Loader=SafeLoader)  # noqa: S506 - safe
    except OSError as exc:
        raise CommandError(f"cannot read {path}: {exc}") from exc
    except yaml.YAMLError as exc:
        raise CommandError(f"{path} is not valid YAML: {exc}") from exc


def save_rows(rows: list[Any]) -> None:
    """Save the file's rows as ``loaddata`` would (Django's deserializer: each row found by its
    natural key and updated in place, or added), from the objects already read: the files are
    parsed once."""
    deferred = []
    for row in serializers.deserialize("python", rows, handle_forward_references=True):
        row.save()
        if row.deferred_fields:
            deferred.append(row)
    for row in deferred:
        row.save_deferred_fields()


def failed(path: Path, problems: list[str]) -> CommandError:
    lines = "\n".join(f"  - {problem}" for problem in problems)
    return CommandError(f"{path} failed validation:\n{lines}")


def topic_domains(objects: list[Any]) -> dict[str, str]:
    """Each topic's domain, by slug, from the parsed syllabus."""
    return {
        str(fields.get("slug")): str((fields.get("domain") or [""])[0])
        for obj in objects
        if obj.get("model") == "phases.topic"
        for fields in [obj.get("fields") or {}]
    }


def bank_figures(objects: list[Any], bank: list[Any]) -> bank_quality.BankFigures:
    """How guessable the bank is (see phases.bank_quality), from the parsed YAML."""
    checks = {
        str(fields.get("slug")): str(fields.get("prompt", ""))
        for obj in objects
        if obj.get("model") == "phases.selfcheck"
        and not (fields := obj.get("fields") or {}).get("retired")
    }
    topics = [
        str((obj.get("fields") or {}).get("slug"))
        for obj in objects
        if obj.get("model") == "phases.topic"
    ]
    questions = [obj.get("fields") or {} for obj in bank if obj.get("model") == "phases.question"]
    subareas = [
        str((obj.get("fields") or {}).get("slug"))
        for obj in bank
        if obj.get("model") == "phases.subarea"
    ]
    return bank_quality.measure(
        cast(list[bank_quality.QuestionFields], questions), checks, topics, subareas=subareas
    )


class Command(BaseCommand):
    help = (
        "Validate and load the syllabus fixture. Idempotent: rows are matched by their slugs, "
        "so a reload updates content in place and never touches a learner's progress."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--file",
            type=Path,
            default=settings.BASE_DIR / "fixtures" / "syllabus.yaml",
            help="The syllabus YAML (default: fixtures/syllabus.yaml).",
        )
        parser.add_argument(
            "--questions",
            type=Path,
            default=settings.BASE_DIR / "fixtures" / "questions",
            help="The practice question bank: a YAML file, or a folder of them, one per domain "
            "(default: fixtures/questions/).",
        )
        parser.add_argument(
            "--check",
            action="store_true",
            help="Validate and measure the syllabus and the bank against every limit "
            "(phases.bank_quality), print the figures, and load nothing: no database needed.",
        )

    def handle(
        self, *args, file: Path, questions: Path, verbosity: int, check: bool = False, **options
    ):
        file = file.resolve()
        objects = read_yaml(file)
        try:
            validate(objects)
        except SyllabusError as exc:
            raise failed(file, exc.problems) from exc
        rows = list(objects)

        questions = questions.resolve()
        if not questions.exists():
            raise CommandError(f"cannot read {questions}: no such file or folder")
        question_files = sorted(questions.glob("*.yaml")) if questions.is_dir() else [questions]
        if not question_files:
            raise CommandError(f"{questions} holds no .yaml question files")
        bank: list = []
        for path in question_files:
            part = read_yaml(path)
            if not isinstance(part, list):
                raise failed(path, ["the question bank must be a list of objects"])
            bank += part
        question_count = retired_count = 0
        if question_files:
            weights = {
                str((obj.get("fields") or {}).get("slug")): int(
                    (obj.get("fields") or {}).get("exam_weight") or 0
                )
                for obj in objects
                if obj.get("model") == "phases.domain"
            }
            problems = find_question_problems(bank, weights, topic_domains(objects))
            if problems:
                raise failed(questions, problems)
            if check:
                figures = bank_figures(objects, bank)
                for line in bank_quality.summary(figures):
                    self.stdout.write(f"  {line}")
                limits = bank_quality.problems(figures, weights)
                if limits:
                    raise failed(questions, limits)
                self.stdout.write(self.style.SUCCESS("Every figure is within its limit."))
                return
            rows += bank
            questions_only = [obj for obj in bank if obj.get("model") == "phases.question"]
            question_count = len(questions_only)
            retired_count = sum(
                1 for obj in questions_only if (obj.get("fields") or {}).get("retired") is True
            )

        try:
            with transaction.atomic():
                save_rows(rows)
        except (DeserializationError, DatabaseError, ValueError) as exc:
            # What validation cannot see (a reference to an unknown slug, a bad value) surfaces
            # here; the transaction has rolled back, so say so instead of dumping a traceback.
            raise CommandError(f"{file} could not be loaded; nothing was changed: {exc}") from exc
        content_changed()

        for model, name in ((SelfCheck, "self-check"), (ExercisePart, "exercise part")):
            in_file = {
                (obj.get("fields") or {}).get("slug")
                for obj in objects
                if obj.get("model") == model._meta.label_lower
            }
            orphans = sorted(set(model.objects.current().values_list("slug", flat=True)) - in_file)
            if orphans:
                # loaddata never deletes: a row left out of the file would go on counting.
                self.stderr.write(
                    self.style.WARNING(
                        f"{len(orphans)} {name}(s) in the database are not in {file.name} and "
                        f"still count: {', '.join(orphans)}. To remove one, keep it in the file "
                        "with `retired: true`."
                    )
                )

        if verbosity:
            counts = ", ".join(
                f"{model.objects.count()} {model._meta.verbose_name_plural}"
                for model in (Domain, Phase, ExercisePart, Topic, SelfCheck, Intensity, PhaseHours)
            )
            self.stdout.write(self.style.SUCCESS(f"Syllabus loaded from {file.name}: {counts}."))
            if question_count:
                self.stdout.write(
                    self.style.SUCCESS(
                        f"{question_count - retired_count} practice questions loaded "
                        f"(and {retired_count} retired ones, kept for learners' history)."
                    )
                )
                for line in bank_quality.summary(bank_figures(objects, bank)):
                    self.stdout.write(f"  {line}")
