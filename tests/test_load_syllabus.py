"""The load_syllabus command against a real database: idempotent, all or nothing, and never a
learner's rows. What it refuses is phases.validation's business (tests/test_validation.py);
here, that a refusal reaches the command line naming the file and changes nothing."""

import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import timezone

from phases.content import syllabus as syllabus_snapshot
from phases.models import (
    ContentVersion,
    Domain,
    ExercisePart,
    Intensity,
    Phase,
    PhaseHours,
    Question,
    SelfCheck,
    Topic,
)
from progress.exercises.models import Exercise
from progress.memory.reviews import remember_misses
from progress.models import Attempt, AttemptQuestion, CheckOff, QuestionCard, StudyPlan
from tests.conftest import read_yaml
from tests.factories import items_of, make_plan, practise, tick, tick_exercise_parts, write_exercise

pytestmark = pytest.mark.django_db

SYLLABUS = settings.BASE_DIR / "fixtures" / "syllabus.yaml"
QUESTIONS = settings.BASE_DIR / "fixtures" / "questions"
CONTENT_MODELS = [
    Domain,
    Phase,
    Phase.domains.through,
    Topic,
    SelfCheck,
    ExercisePart,
    Intensity,
    PhaseHours,
    Question,
]
LEARNER_MODELS = [StudyPlan, CheckOff, Attempt, AttemptQuestion, QuestionCard, Exercise]
Objects = list[dict[str, Any]]


def read(path: Path) -> Objects:
    return read_yaml(path)


def real_syllabus() -> Objects:
    return read(SYLLABUS)


def real_bank() -> Objects:
    bank: Objects = []
    for path in sorted(QUESTIONS.glob("*.yaml")):
        bank += read(path)
    return bank


def fields_of(objects: Objects, model: str, slug: str) -> dict[str, Any]:
    (obj,) = [o for o in objects if o["model"] == f"phases.{model}" and o["fields"]["slug"] == slug]
    return obj["fields"]


def write(path: Path, objects: Any) -> Path:
    path.write_text(yaml.safe_dump(objects, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


def load(*args: str, verbosity: int = 0) -> None:
    call_command("load_syllabus", *args, verbosity=verbosity)


def load_error(*args: str, tmp_path: Path) -> str:
    """The loader's error message, the test's own directory written as <tmp>."""
    with pytest.raises(CommandError) as excinfo:
        load(*args)
    return str(excinfo.value).replace(str(tmp_path.resolve()), "<tmp>")


def rows(models) -> dict[str, list[dict[str, Any]]]:
    # Every column of every row, primary keys included, in primary-key order.
    return {model._meta.label: list(model.objects.order_by("pk").values()) for model in models}


def counts() -> dict[str, int]:
    return {model._meta.label: model.objects.count() for model in CONTENT_MODELS}


def version() -> int:
    return ContentVersion.objects.get(pk=1).number


def copy_bank(tmp_path: Path) -> Path:
    folder = tmp_path / "questions"
    shutil.copytree(QUESTIONS, folder)
    return folder


# Idempotent, in place


def test_loading_twice_keeps_every_content_row_and_primary_key(syllabus):
    before = rows(CONTENT_MODELS)
    load()
    load()

    assert rows(CONTENT_MODELS) == before


def test_a_reload_with_an_edited_source_updates_the_topic_in_place(syllabus, tmp_path):
    topic = Topic.objects.get(slug="fid")
    objects = real_syllabus()
    sources = fields_of(objects, "topic", "fid")["sources"]
    sources.append(
        {
            "title": "Denoising Diffusion Probabilistic Models (arXiv:2006.11239)",
            "url": "https://arxiv.org/abs/2006.11239",
            "kind": "paper",
        }
    )
    path = write(tmp_path / "syllabus.yaml", objects)

    load("--file", str(path))
    load("--file", str(path))

    reloaded = Topic.objects.get(slug="fid")
    assert reloaded.pk == topic.pk
    assert reloaded.sources == sources
    assert Topic.objects.count() == 38


def test_a_reload_moves_the_content_version_by_one(syllabus):
    before = version()
    load()
    assert version() == before + 1
    load()
    assert version() == before + 2


def test_a_reload_never_touches_a_learners_rows(syllabus, learner):
    make_plan(learner, days_ago=3)
    tick(learner, "p2-fid-direction", "p1-residual-gradient-flow")
    drill = practise(learner, "core-ml", right=3, wrong=2)
    remember_misses(user=learner, items=items_of(drill), now=timezone.now())
    phase = syllabus_snapshot().phase("core-ml-foundations")
    write_exercise(learner, phase, text="Skip paths.", now=timezone.now())
    tick_exercise_parts(learner, phase, ticked={"p1-ex-fusion-table"}, now=timezone.now())
    before = rows(LEARNER_MODELS)
    assert all(before.values())

    load()

    assert rows(LEARNER_MODELS) == before


def test_an_edited_syllabus_updates_rows_in_place_and_keeps_the_ticks_on_them(
    syllabus, learner, tmp_path
):
    tick(learner, "p2-fid-direction")
    check_off = CheckOff.objects.get(user=learner)
    topic = Topic.objects.get(slug="fid")
    hours = PhaseHours.objects.get(intensity__slug="standard", phase__slug="experimentation")
    before = counts()

    objects = real_syllabus()
    fields_of(objects, "selfcheck", "p2-fid-direction")["answer"] = "Lower FID is better."
    fields_of(objects, "topic", "fid")["title"] = "Fréchet Inception Distance"
    fields_of(objects, "phase", "experimentation")["title"] = "Experiments and evaluation"
    (standard_experimentation,) = [
        obj["fields"]
        for obj in objects
        if obj["model"] == "phases.phasehours"
        and obj["fields"]["intensity"] == ["standard"]
        and obj["fields"]["phase"] == ["experimentation"]
    ]
    standard_experimentation["hours"] += 1
    load("--file", str(write(tmp_path / "syllabus.yaml", objects)))

    assert counts() == before
    assert Topic.objects.get(pk=topic.pk).title == "Fréchet Inception Distance"
    assert Phase.objects.get(slug="experimentation").title == "Experiments and evaluation"
    assert PhaseHours.objects.get(pk=hours.pk).hours == hours.hours + 1
    kept = CheckOff.objects.get(pk=check_off.pk)
    assert kept.self_check.answer == "Lower FID is better."
    assert (kept.user_id, kept.done_at, kept.memory) == (
        learner.pk,
        check_off.done_at,
        check_off.memory,
    )


def test_a_relative_path_is_read_from_the_working_directory(syllabus, tmp_path, monkeypatch):
    objects = real_syllabus()
    fields_of(objects, "topic", "fid")["title"] = "FID, read from here"
    write(tmp_path / "syllabus.yaml", objects)
    monkeypatch.chdir(tmp_path)

    load("--file", "syllabus.yaml")

    assert Topic.objects.get(slug="fid").title == "FID, read from here"


def test_a_self_check_left_out_of_the_file_is_named_as_still_counting(syllabus, tmp_path, capsys):
    objects = [o for o in real_syllabus() if o["fields"].get("slug") != "p5-memory-footprint"]

    load("--file", str(write(tmp_path / "syllabus.yaml", objects)))

    err = capsys.readouterr().err
    assert "1 self-check(s) in the database are not in syllabus.yaml" in err
    assert "p5-memory-footprint" in err
    assert "retired: true" in err
    assert SelfCheck.objects.current().filter(slug="p5-memory-footprint").exists()


def test_an_exercise_part_left_out_of_the_file_is_named_as_still_counting(
    syllabus, tmp_path, capsys
):
    objects = [o for o in real_syllabus() if o["fields"].get("slug") != "p2-ex-ab-test"]

    load("--file", str(write(tmp_path / "syllabus.yaml", objects)))

    err = capsys.readouterr().err
    assert "1 exercise part(s) in the database are not in syllabus.yaml" in err
    assert "p2-ex-ab-test" in err
    assert ExercisePart.objects.current().filter(slug="p2-ex-ab-test").exists()


def test_an_edited_exercise_part_changes_in_place_and_the_learners_exercise_stays(
    syllabus, learner, tmp_path
):
    phase = syllabus_snapshot().phase("core-ml-foundations")
    tick_exercise_parts(learner, phase, ticked={"p1-ex-fusion-table"}, now=timezone.now())
    part = ExercisePart.objects.get(slug="p1-ex-fusion-table")
    objects = real_syllabus()
    fields_of(objects, "exercisepart", "p1-ex-fusion-table")["text"] = "The fusion table"
    fields_of(objects, "exercisepart", "p1-ex-multimodal-loss")["retired"] = True

    load("--file", str(write(tmp_path / "syllabus.yaml", objects)))

    assert ExercisePart.objects.get(pk=part.pk).text == "The fusion table"
    assert Exercise.objects.get(user=learner).ticked == ["p1-ex-fusion-table"]
    parts = syllabus_snapshot().phase("core-ml-foundations").exercise_parts
    assert [p.slug for p in parts] == ["p1-ex-residual-connections", "p1-ex-fusion-table"]


# What it says


def test_loading_reports_the_rows_and_the_bank_figures(syllabus, capsys):
    load(verbosity=1)

    out = capsys.readouterr().out
    assert f"{Domain.objects.count()} domains" in out
    assert f"{Topic.objects.count()} topics" in out
    assert f"{SelfCheck.objects.count()} self checks" in out
    live = [
        obj
        for obj in real_bank()
        if obj["model"] == "phases.question" and not obj["fields"].get("retired")
    ]
    assert f"{len(live)} practice questions loaded" in out
    assert "key is the longest option in" in out
    assert "always picking the longest option scores" in out
    assert "dropping options with absolute words" in out


def test_a_quiet_load_prints_nothing(syllabus, capsys):
    load(verbosity=0)

    assert capsys.readouterr().out == ""


# The question bank: a folder (its default) or one file. What a bank must hold and the folder
# read as one bank are tests/test_load_questions.py's.


def test_questions_accepts_a_single_file(syllabus, tmp_path):
    bank = real_bank()
    bank[-1]["fields"]["explanation"] = "Explained from one file."
    before = rows([Question])

    load("--questions", str(write(tmp_path / "bank.yaml", bank)))

    after = rows([Question])
    assert [row["id"] for row in after["phases.Question"]] == [
        row["id"] for row in before["phases.Question"]
    ]
    assert Question.objects.get(slug=bank[-1]["fields"]["slug"]).explanation == (
        "Explained from one file."
    )


def test_a_broken_file_in_the_questions_folder_is_refused_naming_it(syllabus, tmp_path):
    folder = copy_bank(tmp_path)
    (folder / "zz-broken.yaml").write_text("- model: phases.question\n  fields: {slug: [x\n")
    before = rows(CONTENT_MODELS)
    number = version()

    message = load_error("--questions", str(folder), tmp_path=tmp_path)

    assert "<tmp>/questions/zz-broken.yaml is not valid YAML" in message
    assert rows(CONTENT_MODELS) == before
    assert version() == number


def test_a_file_in_the_questions_folder_that_is_not_a_list_is_refused_naming_it(syllabus, tmp_path):
    folder = copy_bank(tmp_path)
    write(folder / "notes.yaml", {"model": "phases.question"})

    message = load_error("--questions", str(folder), tmp_path=tmp_path)

    assert "<tmp>/questions/notes.yaml failed validation" in message
    assert "the question bank must be a list of objects" in message


# A syllabus refused


def test_a_failed_validation_writes_nothing_and_keeps_the_version(syllabus, tmp_path):
    before = rows(CONTENT_MODELS)
    number = version()
    objects = real_syllabus()
    # A valid edit and a new topic alongside the error: none of it may reach the database.
    fields_of(objects, "topic", "residual-connections")["title"] = "Skip connections"
    objects.append(
        {
            "model": "phases.topic",
            "fields": {
                "slug": "new-topic",
                "domain": ["core-ml"],
                "title": "A new topic",
                "summary": "Not yet.",
                "order": 99,
            },
        }
    )
    fields_of(objects, "domain", "trustworthy-ai")["exam_weight"] = 4
    fields_of(objects, "selfcheck", "p3-clip-zero-shot")["answer"] = ""

    message = load_error(
        "--file", str(write(tmp_path / "syllabus.yaml", objects)), tmp_path=tmp_path
    )

    assert message.startswith("<tmp>/syllabus.yaml failed validation:")
    assert "sum to 99" in message
    assert "self-check 'p3-clip-zero-shot' has no answer" in message
    assert rows(CONTENT_MODELS) == before
    assert version() == number


def test_an_unknown_model_late_in_the_file_rolls_back_what_came_before(syllabus, tmp_path):
    before = rows(CONTENT_MODELS)
    objects = real_syllabus()
    fields_of(objects, "topic", "residual-connections")["title"] = "Skip connections"
    # Last in the file: every row before it has been saved when loaddata reaches it.
    objects.append({"model": "phases.widget", "fields": {"slug": "gadget"}})

    message = load_error(
        "--file", str(write(tmp_path / "syllabus.yaml", objects)), tmp_path=tmp_path
    )

    assert "could not be loaded; nothing was changed" in message
    assert "phases.widget" in message
    assert rows(CONTENT_MODELS) == before


def test_invalid_yaml_is_refused_naming_the_file(syllabus, tmp_path):
    path = tmp_path / "syllabus.yaml"
    path.write_text("- model: phases.domain\n  fields: {slug: [unclosed\n", encoding="utf-8")
    before = counts()

    message = load_error("--file", str(path), tmp_path=tmp_path)

    assert message.startswith("<tmp>/syllabus.yaml is not valid YAML")
    assert counts() == before


@pytest.mark.parametrize("text", ["", "just a sentence\n", "{model: phases.domain}\n"])
def test_yaml_that_is_not_a_list_of_objects_is_refused(syllabus, tmp_path, text):
    path = tmp_path / "syllabus.yaml"
    path.write_text(text, encoding="utf-8")

    message = load_error("--file", str(path), tmp_path=tmp_path)

    assert "must be a list of objects" in message


def test_a_missing_file_is_refused_naming_it(syllabus, tmp_path):
    message = load_error("--file", str(tmp_path / "no-such.yaml"), tmp_path=tmp_path)

    assert message.startswith("cannot read <tmp>/no-such.yaml")
