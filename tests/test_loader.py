from pathlib import Path
from typing import Any

import pytest
import yaml
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError

from phases.models import Domain, Intensity, Phase, PhaseHours, SelfCheck, Topic
from phases.syllabus import find_problems
from progress.models import CheckOff
from tests.factories import CheckOffFactory, UserFactory

pytestmark = pytest.mark.django_db

SYLLABUS = settings.BASE_DIR / "fixtures" / "syllabus.yaml"
CONTENT_MODELS = [Domain, Phase, Phase.domains.through, Topic, SelfCheck, Intensity, PhaseHours]


def real_syllabus() -> list[dict[str, Any]]:
    return yaml.safe_load(SYLLABUS.read_text(encoding="utf-8"))


def fields_of(objects: list[dict[str, Any]], model: str, slug: str) -> dict[str, Any]:
    (obj,) = [o for o in objects if o["model"] == f"phases.{model}" and o["fields"]["slug"] == slug]
    return obj["fields"]


def write_syllabus(tmp_path: Path, objects: Any) -> Path:
    path = tmp_path / "syllabus.yaml"
    path.write_text(yaml.safe_dump(objects, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


def load(path: Path | None = None) -> None:
    args = ["--file", str(path)] if path else []
    call_command("load_syllabus", *args, verbosity=0)


def load_error(path: Path) -> str:
    """The loader's error message, minus the file path (which holds the test's name)."""
    with pytest.raises(CommandError) as excinfo:
        load(path)
    return str(excinfo.value).replace(str(path), "<file>")


def snapshot() -> dict[str, list[dict[str, Any]]]:
    # Every column of every content row, primary keys included, in primary-key order.
    return {
        model._meta.label: list(model.objects.order_by("pk").values()) for model in CONTENT_MODELS
    }


def counts() -> dict[str, int]:
    return {model._meta.label: model.objects.count() for model in CONTENT_MODELS}


def test_loading_twice_keeps_row_counts_and_primary_keys(syllabus):
    before = snapshot()
    load()
    after_first = snapshot()
    load()
    after_second = snapshot()

    for label, rows in before.items():
        assert len(after_first[label]) == len(rows), label
        assert len(after_second[label]) == len(rows), label
        assert [row["id"] for row in after_first[label]] == [row["id"] for row in rows], label
        assert [row["id"] for row in after_second[label]] == [row["id"] for row in rows], label
    assert after_second == before


def test_loading_reports_what_it_loaded(syllabus, capsys):
    call_command("load_syllabus", verbosity=1)

    out = capsys.readouterr().out
    assert "7 domains" in out
    assert "38 topics" in out
    assert "3 intensities" in out


def test_loading_an_edited_syllabus_updates_rows_in_place(syllabus, tmp_path):
    topic = Topic.objects.get(slug="residual-connections")
    check = SelfCheck.objects.get(slug="p2-fid-direction")
    phase = Phase.objects.get(slug="experimentation")
    hours = PhaseHours.objects.get(intensity__slug="standard", phase__slug="experimentation")
    before = counts()

    objects = real_syllabus()
    fields_of(objects, "topic", "residual-connections")["title"] = "Skip connections"
    fields_of(objects, "selfcheck", "p2-fid-direction")["prompt"] = "Which way is FID better?"
    fields_of(objects, "phase", "experimentation")["title"] = "Experiments and evaluation"
    for obj in objects:
        if obj["model"] == "phases.phasehours" and obj["fields"] == {
            "intensity": ["standard"],
            "phase": ["experimentation"],
            "hours": 9,
        }:
            obj["fields"]["hours"] = 10
    load(write_syllabus(tmp_path, objects))

    assert counts() == before
    assert Topic.objects.get(pk=topic.pk).title == "Skip connections"
    assert SelfCheck.objects.get(pk=check.pk).prompt == "Which way is FID better?"
    assert Phase.objects.get(pk=phase.pk).title == "Experiments and evaluation"
    assert PhaseHours.objects.get(pk=hours.pk).hours == 10


def test_reloading_an_edited_syllabus_keeps_learners_check_offs(syllabus, tmp_path):
    learner = UserFactory()
    check = SelfCheck.objects.get(slug="p2-fid-direction")
    check_off = CheckOffFactory(user=learner, self_check=check)

    objects = real_syllabus()
    fields_of(objects, "selfcheck", "p2-fid-direction")["answer"] = "Lower FID is better."
    fields_of(objects, "topic", "fid")["title"] = "Fréchet Inception Distance"
    load(write_syllabus(tmp_path, objects))

    kept = CheckOff.objects.get(pk=check_off.pk)
    assert kept.user == learner
    assert kept.self_check_id == check.pk
    assert kept.done_at == check_off.done_at
    assert kept.self_check.answer == "Lower FID is better."
    assert CheckOff.objects.for_user(learner).count() == 1


def test_weights_summing_to_99_are_refused_naming_the_sum_and_domain(syllabus, tmp_path):
    objects = real_syllabus()
    fields_of(objects, "domain", "core-ml")["exam_weight"] = 19

    message = load_error(write_syllabus(tmp_path, objects))

    assert "sum to 99" in message
    assert "core-ml 19" in message


@pytest.mark.parametrize("answer", ["", "   ", None], ids=["empty", "blank", "missing"])
def test_a_self_check_without_answer_is_refused_naming_it(syllabus, tmp_path, answer):
    objects = real_syllabus()
    fields = fields_of(objects, "selfcheck", "p3-clip-zero-shot")
    if answer is None:
        del fields["answer"]
    else:
        fields["answer"] = answer

    message = load_error(write_syllabus(tmp_path, objects))

    assert "self-check 'p3-clip-zero-shot' has no answer" in message


def test_a_phase_below_five_self_checks_is_refused_naming_it(syllabus, tmp_path):
    dropped = {"p4-serve-vs-optimize", "p4-build-customize", "p4-avatar"}
    objects = [
        obj
        for obj in real_syllabus()
        if not (obj["model"] == "phases.selfcheck" and obj["fields"]["slug"] in dropped)
    ]

    message = load_error(write_syllabus(tmp_path, objects))

    assert "phase 'software-and-sdk-stack' has 4 self-checks" in message
    assert "domain '" not in message


def test_a_domain_below_three_self_checks_is_refused_naming_it(syllabus, tmp_path):
    objects = real_syllabus()
    # Move two checks to the other domain of the same phase: the phase keeps its count.
    for slug in ["p5-pruning-tradeoff", "p5-energy-footprint"]:
        fields_of(objects, "selfcheck", slug)["domain"] = ["data-analysis"]

    message = load_error(write_syllabus(tmp_path, objects))

    assert "domain 'performance-optimization' has 2 self-checks" in message
    assert "phase '" not in message


def test_two_default_intensities_are_refused_naming_both(syllabus, tmp_path):
    objects = real_syllabus()
    fields_of(objects, "intensity", "fast-track")["is_default"] = True

    message = load_error(write_syllabus(tmp_path, objects))

    assert "exactly one intensity must be the default" in message
    assert "fast-track, standard" in message


def test_no_default_intensity_is_refused(syllabus, tmp_path):
    objects = real_syllabus()
    fields_of(objects, "intensity", "standard")["is_default"] = False

    message = load_error(write_syllabus(tmp_path, objects))

    assert "exactly one intensity must be the default; found none" in message


def test_a_primary_key_in_the_syllabus_is_refused_naming_the_row(syllabus, tmp_path):
    objects = real_syllabus()
    (domain,) = [
        o
        for o in objects
        if o["model"] == "phases.domain" and o["fields"]["slug"] == "data-analysis"
    ]
    domain["pk"] = 5

    message = load_error(write_syllabus(tmp_path, objects))

    assert "phases.domain 'data-analysis' has a primary key" in message


def test_a_failed_validation_writes_nothing(syllabus, tmp_path):
    before = snapshot()
    objects = real_syllabus()
    # A valid edit and a new topic, alongside the error: none of it may reach the database.
    fields_of(objects, "topic", "residual-connections")["title"] = "Skip connections"
    objects.append(
        {
            "model": "phases.topic",
            "fields": {
                "slug": "new-topic",
                "domain": ["core-ml"],
                "title": "A new topic",
                "summary": "Not yet.",
                "order": 8,
            },
        }
    )
    fields_of(objects, "domain", "trustworthy-ai")["exam_weight"] = 4

    load_error(write_syllabus(tmp_path, objects))

    assert snapshot() == before


def test_an_unknown_model_is_a_command_error_and_rolls_back(syllabus, tmp_path):
    before = snapshot()
    objects = real_syllabus()
    fields_of(objects, "topic", "residual-connections")["title"] = "Skip connections"
    # Last in the file: every row before it has been saved when loaddata reaches it.
    objects.append({"model": "phases.widget", "fields": {"slug": "gadget"}})

    message = load_error(write_syllabus(tmp_path, objects))

    assert "phases.widget" in message
    assert snapshot() == before


def test_a_self_check_naming_an_unknown_topic_is_a_command_error(syllabus, tmp_path):
    before = snapshot()
    objects = real_syllabus()
    fields_of(objects, "selfcheck", "p2-fid-direction")["topic"] = ["no-such-topic"]

    message = load_error(write_syllabus(tmp_path, objects))

    assert "self-check 'p2-fid-direction' names unknown topic 'no-such-topic'" in message
    assert snapshot() == before


def test_a_topic_naming_an_unknown_domain_is_a_command_error(syllabus, tmp_path):
    before = snapshot()
    objects = real_syllabus()
    fields_of(objects, "topic", "fid")["domain"] = ["no-such-domain"]

    message = load_error(write_syllabus(tmp_path, objects))

    assert "topic 'fid' names unknown domain 'no-such-domain'" in message
    assert snapshot() == before


def test_invalid_yaml_is_a_command_error(syllabus, tmp_path):
    path = tmp_path / "syllabus.yaml"
    path.write_text("- model: phases.domain\n  fields: {slug: [unclosed\n", encoding="utf-8")
    before = counts()

    message = load_error(path)

    assert "is not valid YAML" in message
    assert counts() == before


@pytest.mark.parametrize("text", ["", "just a sentence\n", "{model: phases.domain}\n"])
def test_yaml_that_is_not_a_list_of_objects_is_a_command_error(syllabus, tmp_path, text):
    path = tmp_path / "syllabus.yaml"
    path.write_text(text, encoding="utf-8")

    message = load_error(path)

    assert "must be a list of objects" in message


def test_a_missing_file_is_a_command_error(syllabus, tmp_path):
    path = tmp_path / "no-such-syllabus.yaml"

    message = load_error(path)

    assert "cannot read <file>" in message


def test_the_real_syllabus_has_no_problems():
    assert find_problems(real_syllabus()) == []


def test_find_problems_reports_a_duplicate_slug():
    objects = real_syllabus()
    objects.append({"model": "phases.intensity", "fields": {"slug": "standard"}})

    assert "intensity 'standard' appears 2 times" in find_problems(objects)


def test_find_problems_reports_a_self_check_naming_an_unknown_phase():
    objects = real_syllabus()
    fields_of(objects, "selfcheck", "p6-privacy-control")["phase"] = ["phase-seven"]

    problems = find_problems(objects)

    assert "self-check 'p6-privacy-control' names unknown phase ['phase-seven']" in problems


def test_find_problems_does_not_count_retired_self_checks():
    objects = real_syllabus()
    for slug in ["p6-fairness-control", "p6-privacy-control", "p6-verifiability-control"]:
        fields_of(objects, "selfcheck", slug)["retired"] = True

    problems = find_problems(objects)

    assert problems == ["phase 'trustworthy-ai' has 4 self-checks; it needs at least 5"]
