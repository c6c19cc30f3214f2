"""Reloading an edited syllabus keeps every learner's progress on the checks that remain."""

from pathlib import Path

import pytest
import yaml
from django.conf import settings
from django.core.management import call_command
from django.urls import reverse

from phases.models import Phase, SelfCheck, Topic
from progress.learner import learner_state
from progress.models import CheckOff
from tests.factories import StudyPlanFactory, UserFactory, tick

pytestmark = pytest.mark.django_db

FIXTURE = Path(settings.BASE_DIR) / "fixtures" / "syllabus.yaml"
KEPT = ["p1-residual-gradient-flow", "p3-clip-training"]
RETIRED = "p3-time-series-geospatial"
NEW = "p3-new-audio-spectrogram"


def edited_syllabus(tmp_path: Path) -> Path:
    objects = yaml.safe_load(FIXTURE.read_text(encoding="utf-8"))
    for obj in objects:
        fields = obj["fields"]
        if obj["model"] == "phases.phase" and fields["slug"] == "multimodal-data":
            fields["title"] = "Multimodal data, fused deliberately"
        if obj["model"] == "phases.topic" and fields["slug"] == "fid":
            fields["title"] = "FID: lower means closer to real"
        if obj["model"] == "phases.selfcheck" and fields["slug"] == RETIRED:
            fields["retired"] = True
    objects.append(
        {
            "model": "phases.selfcheck",
            "fields": {
                "slug": NEW,
                "phase": ["multimodal-data"],
                "domain": ["multimodal-data"],
                "topic": None,
                "prompt": "How does audio usually become a neural-network-ready input?",
                "answer": "As a spectrogram: a time-frequency image a network can read.",
                "order": 7,
                "retired": False,
            },
        }
    )
    path = tmp_path / "syllabus.yaml"
    path.write_text(yaml.safe_dump(objects, allow_unicode=True), encoding="utf-8")
    return path


@pytest.fixture
def learner_with_ticks(syllabus):
    user = UserFactory()
    StudyPlanFactory(user=user)
    tick(user, *KEPT, RETIRED)
    return user


def test_reload_keeps_ticks_on_remaining_checks_and_renames_in_place(learner_with_ticks, tmp_path):
    kept_ids = {slug: SelfCheck.objects.get(slug=slug).pk for slug in KEPT}
    phase_pk = Phase.objects.get(slug="multimodal-data").pk

    call_command("load_syllabus", file=edited_syllabus(tmp_path), verbosity=0)

    assert Phase.objects.get(pk=phase_pk).title == "Multimodal data, fused deliberately"
    assert Topic.objects.get(slug="fid").title == "FID: lower means closer to real"
    for slug, pk in kept_ids.items():
        assert CheckOff.objects.filter(user=learner_with_ticks, self_check_id=pk).exists(), slug


def test_retired_check_no_longer_counts_anywhere(learner_with_ticks, tmp_path, client):
    today = learner_with_ticks.study_plan.start_date
    before = learner_state(learner_with_ticks, today=today).report
    multimodal_before = next(d for d in before.domains if d.slug == "multimodal-data")

    call_command("load_syllabus", file=edited_syllabus(tmp_path), verbosity=0)

    after = learner_state(learner_with_ticks, today=today).report
    multimodal = next(d for d in after.domains if d.slug == "multimodal-data")
    # One check retired (ticked) and one added (open): same total, one fewer done.
    assert multimodal.total == multimodal_before.total
    assert multimodal.done == multimodal_before.done - 1
    assert after.done == before.done - 1
    # The tick itself is kept as history; it just counts nowhere.
    assert CheckOff.objects.filter(user=learner_with_ticks, self_check__slug=RETIRED).exists()

    client.force_login(learner_with_ticks)
    phase_page = client.get(reverse("progress:phase", args=["multimodal-data"]))
    assert phase_page.status_code == 200
    assert f'id="check-{RETIRED}"' not in phase_page.text
    assert f'id="check-{NEW}"' in phase_page.text
    for name in ["progress:dashboard", "progress:plan", "phases:syllabus", "phases:home"]:
        assert client.get(reverse(name)).status_code == 200, name
    toggle = client.post(reverse("progress:selfcheck-toggle", args=[RETIRED]), {"done": "0"})
    assert toggle.status_code == 404
    assert CheckOff.objects.filter(user=learner_with_ticks, self_check__slug=RETIRED).exists()


def test_reloading_the_real_syllabus_after_an_edit_restores_it(
    learner_with_ticks, tmp_path, capsys
):
    call_command("load_syllabus", file=edited_syllabus(tmp_path), verbosity=0)
    call_command("load_syllabus", verbosity=0)

    # The loader warns about a live check the file no longer lists: it would go on counting.
    assert f"still count: {NEW}" in capsys.readouterr().err

    assert not SelfCheck.objects.get(slug=RETIRED).retired
    assert CheckOff.objects.filter(user=learner_with_ticks).count() == 3
    # The added check stays in the database (loaddata never deletes) but is not retired:
    # removal is always said explicitly, with `retired: true`.
    assert SelfCheck.objects.filter(slug=NEW).exists()
