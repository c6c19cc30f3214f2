import datetime
import re

import pytest
from django.db.models import Count, Sum

from phases.models import Domain, ExercisePart, Intensity, Phase, PhaseHours, SelfCheck, Topic
from phases.schedule import MOCK_HOURS, lay_out

pytestmark = pytest.mark.django_db

EXAM_WEIGHTS = {
    "core-ml": 20,
    "experimentation": 25,
    "multimodal-data": 15,
    "software-development": 15,
    "data-analysis": 10,
    "performance-optimization": 10,
    "trustworthy-ai": 5,
}
TOPIC_COUNTS = {
    "core-ml": 7,
    "experimentation": 6,
    "multimodal-data": 5,
    "software-development": 5,
    "data-analysis": 5,
    "performance-optimization": 5,
    "trustworthy-ai": 5,
}
PHASE_DOMAINS = {
    1: ["core-ml"],
    2: ["experimentation"],
    3: ["multimodal-data"],
    4: ["software-development"],
    5: ["data-analysis", "performance-optimization"],
    6: ["trustworthy-ai"],
}
SDK_VERBS = {
    "NeMo": "builds",
    "Riva": "speaks",
    "Triton": "serves",
    "TensorRT": "optimizes",
    "ACE": "animates",
    "cuDNN": "provides",
}
NAMED_WRONG_FID = re.compile(r'"higher FID is better" is [^.;]*wrong answer', re.IGNORECASE)


def answers() -> list[str]:
    return list(SelfCheck.objects.current().values_list("answer", flat=True))


def hours_by_phase(intensity: str) -> dict[int, int]:
    rows = PhaseHours.objects.filter(intensity__slug=intensity)
    return dict(rows.values_list("phase__number", "hours"))


def test_seven_domains_carry_the_exam_weights_summing_to_100(syllabus):
    weights = dict(Domain.objects.values_list("slug", "exam_weight"))

    assert weights == EXAM_WEIGHTS
    assert sum(weights.values()) == 100


def test_domains_are_studied_in_the_seed_order(syllabus):
    assert list(Domain.objects.values_list("slug", flat=True)) == list(EXAM_WEIGHTS)


def test_each_domain_has_the_seed_topic_count(syllabus):
    counts = dict(Domain.objects.annotate(n=Count("topics")).values_list("slug", "n"))

    assert counts == TOPIC_COUNTS
    assert Topic.objects.count() == 38


def test_exactly_the_three_seed_guides_are_published(syllabus):
    published = set(Topic.objects.filter(is_published=True).values_list("slug", flat=True))

    assert published == {"ddpm-forward-reverse", "fid", "clip-shared-embedding-space"}


def test_every_topic_has_a_summary(syllabus):
    for topic in Topic.objects.all():
        assert len(topic.summary.split()) >= 15, topic.slug


def test_six_phases_cover_the_domains_in_study_order(syllabus):
    phases = Phase.objects.prefetch_related("domains")

    assert {
        phase.number: sorted(domain.slug for domain in phase.domains.all()) for phase in phases
    } == PHASE_DOMAINS


def test_every_phase_states_its_goal_exam_angle_and_exercise(syllabus):
    for phase in Phase.objects.all():
        assert phase.goal.startswith("Be able to"), phase.slug
        assert phase.how_examined.strip(), phase.slug
        assert phase.practice_exercise.strip(), phase.slug


def test_every_exercise_part_is_in_the_words_of_its_phases_exercise(syllabus):
    for part in ExercisePart.objects.current().select_related("phase"):
        assert part.text.lower() in part.phase.practice_exercise.lower(), part.slug


def test_the_parts_follow_the_exercise_in_its_own_order_and_leave_none_of_its_lists_out(syllabus):
    for phase in Phase.objects.prefetch_related("exercise_parts"):
        parts = [part.text.lower() for part in phase.exercise_parts.all() if not part.retired]
        exercise = phase.practice_exercise.lower()
        places = [exercise.index(text) for text in parts]
        assert places == sorted(places), phase.slug
        # The exercise's last item is a part: the checklist reaches its end.
        assert exercise.rstrip(".").endswith(parts[-1]), phase.slug


def test_every_phase_has_at_least_five_self_checks(syllabus):
    counts = dict(
        SelfCheck.objects.current()
        .values("phase__slug")
        .annotate(n=Count("id"))
        .values_list("phase__slug", "n")
    )

    assert set(counts) == set(Phase.objects.values_list("slug", flat=True))
    assert min(counts.values()) >= 5, counts


def test_every_domain_has_at_least_three_self_checks(syllabus):
    counts = dict(
        SelfCheck.objects.current()
        .values("domain__slug")
        .annotate(n=Count("id"))
        .values_list("domain__slug", "n")
    )

    assert set(counts) == set(EXAM_WEIGHTS)
    assert min(counts.values()) >= 3, counts


def test_every_self_check_has_a_prompt_and_an_answer(syllabus):
    for check in SelfCheck.objects.all():
        assert check.prompt.strip(), check.slug
        assert check.answer.strip(), check.slug


def test_a_self_check_can_count_for_a_domain_outside_its_phase(syllabus):
    fusion = SelfCheck.objects.get(slug="p1-fusion-tradeoff")

    assert fusion.phase.number == 1
    assert fusion.domain.slug == "multimodal-data"


def test_three_intensities_with_standard_the_only_default(syllabus):
    assert list(Intensity.objects.values_list("slug", flat=True)) == [
        "fast-track",
        "standard",
        "extended",
    ]
    assert list(Intensity.objects.filter(is_default=True).values_list("slug", flat=True)) == [
        "standard"
    ]
    assert Intensity.objects.default().slug == "standard"


def test_standard_is_about_eight_hours_a_week_and_fast_track_more(syllabus):
    per_week = dict(Intensity.objects.values_list("slug", "hours_per_week"))

    assert per_week["standard"] == 8
    assert per_week["fast-track"] > per_week["standard"] > per_week["extended"]


def test_every_intensity_gives_every_phase_its_hours(syllabus):
    for intensity in Intensity.objects.all():
        hours = hours_by_phase(intensity.slug)
        assert sorted(hours) == [1, 2, 3, 4, 5, 6], intensity.slug
        assert all(h > 0 for h in hours.values()), intensity.slug


@pytest.mark.parametrize("intensity", ["fast-track", "standard", "extended"])
def test_every_intensity_stays_within_the_study_guides_25_to_40_hours(syllabus, intensity):
    """Phases, revision and the mock: the whole plan."""
    phases = PhaseHours.objects.filter(intensity__slug=intensity).aggregate(t=Sum("hours"))["t"]
    revision = Intensity.objects.get(slug=intensity).revision_hours
    assert revision > 0, "every intensity keeps a revision stretch before the exam"

    assert 25 <= phases + revision + MOCK_HOURS <= 40, (phases, revision)


def test_the_slower_the_pace_the_more_weeks_and_extended_takes_the_most(syllabus):
    start = datetime.date(2026, 3, 2)
    finish = {
        intensity.slug: lay_out(
            sorted(hours_by_phase(intensity.slug).items()), intensity.hours_per_week, start
        ).finish
        for intensity in Intensity.objects.all()
    }

    assert finish["fast-track"] < finish["standard"] < finish["extended"], finish


def test_extended_adds_its_extra_hours_on_diffusion_clip_and_fusion(syllabus):
    standard = hours_by_phase("standard")
    extended = hours_by_phase("extended")
    extra = {number: extended[number] - standard[number] for number in standard}

    # Phases 2 to 4: diffusion and experiments, CLIP and fusion, CLIP-conditioned diffusion.
    assert all(extra[number] > 0 for number in (2, 3, 4)), extra
    assert all(extra[number] <= 0 for number in (1, 5, 6)), extra


@pytest.mark.parametrize("intensity", ["fast-track", "standard", "extended"])
def test_hours_follow_exam_weight(syllabus, intensity):
    hours = hours_by_phase(intensity)

    assert hours[2] == max(hours.values()), hours
    assert hours[6] == min(hours.values()), hours


def test_fid_answers_say_lower_is_better(syllabus):
    fid_answers = [answer for answer in answers() if "FID" in answer]

    assert any(re.search(r"\blower FID is better\b", a, re.IGNORECASE) for a in fid_answers)
    for answer in fid_answers:
        # "Higher FID is better" may appear only quoted, as the named wrong answer.
        rest = NAMED_WRONG_FID.sub("", answer)
        assert not re.search(r"higher FID[^.;]*better", rest, re.IGNORECASE), answer
        assert not re.search(r"lower FID[^.;]*worse", rest, re.IGNORECASE), answer


def test_the_gan_with_the_lower_fid_wins(syllabus):
    answer = SelfCheck.objects.get(slug="p2-gan-comparison").answer

    assert answer.startswith("The GAN with FID 12.")


def test_the_fid_trap_names_higher_is_better_as_the_wrong_answer(syllabus):
    trap = Topic.objects.get(slug="fid").trap

    assert trap.startswith('"Higher FID is better" is the wrong answer')
    assert "lower FID" in trap


def test_answers_give_each_nvidia_sdk_its_verb(syllabus):
    text = " ".join(answers())

    for product, verb in SDK_VERBS.items():
        assert f"{product} {verb}" in text, product
    # No answer pairs a product with another product's verb ("provides" is too common to count).
    verbs = [verb for verb in SDK_VERBS.values() if verb != "provides"]
    pattern = rf"\b({'|'.join(SDK_VERBS)}) ({'|'.join(verbs)})\b"
    for product, verb in re.findall(pattern, text):
        assert SDK_VERBS[product] == verb, f"{product} {verb}"


def test_residual_connections_are_about_gradient_flow(syllabus):
    trap = Topic.objects.get(slug="residual-connections").trap
    answer = SelfCheck.objects.get(slug="p1-residual-gradient-flow").answer

    assert "Gradient flow, not parameter reduction" in trap
    assert "gradient flow, not parameter reduction" in answer


def test_answers_keep_the_fusion_tradeoff_the_right_way_round(syllabus):
    answer = SelfCheck.objects.get(slug="p1-fusion-tradeoff").answer

    assert re.search(r"early fusion[^.]*lower latency", answer, re.IGNORECASE)
    assert re.search(r"late fusion[^.]*robust to a missing modality", answer, re.IGNORECASE)
    assert "rule of thumb" in answer
    # Clause by clause ("early fusion ... lower latency, while late fusion ... missing modality"
    # is one sentence, the right way round).
    for text in answers():
        for clause in re.split(r"[.;]|, while |, whereas ", text):
            assert not re.search(r"late fusion.*lower latency", clause, re.IGNORECASE), text
            assert not re.search(r"early fusion.*missing modality", clause, re.IGNORECASE), text


def test_clip_text_embedding_conditions_the_diffusion_unet_through_cross_attention(syllabus):
    answer = SelfCheck.objects.get(slug="p4-clip-conditions-unet").answer

    assert "CLIP" in answer
    assert "conditions the diffusion U-Net" in answer
    assert "cross-attention" in answer
    assert "one vector per prompt token" in answer


def test_clip_contrastive_loss_is_described_as_symmetric(syllabus):
    clip_answers = [a for a in answers() if "CLIP" in a and "contrastive" in a]

    assert clip_answers
    for answer in clip_answers:
        assert "symmetric" in answer, answer


def test_riva_handles_the_speech_stages_and_another_model_the_reply(syllabus):
    answer = SelfCheck.objects.get(slug="p2-riva-pipeline").answer

    assert "automatic speech recognition" in answer
    assert "text-to-speech" in answer
    assert "comes from another model" in answer


def test_attention_maps_are_evidence_not_proof(syllabus):
    trap = Topic.objects.get(slug="attention-maps").trap
    answer = SelfCheck.objects.get(slug="p5-attention-maps").answer

    assert "evidence of where weight went, not proof of reasoning" in trap
    assert "evidence of where weight went" in answer
    assert "may not conclude it proves how the model reasoned" in answer


def test_content_authenticity_names_its_four_parts(syllabus):
    answer = SelfCheck.objects.get(slug="p6-content-authenticity").answer

    assert "provenance, watermarking, disclosure, and detection" in answer
