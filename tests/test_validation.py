"""phases.validation, pure: the syllabus and the question bank checked before they reach the
database, each problem naming the slug to fix. No database: the YAML is read with PyYAML."""

import copy
from pathlib import Path
from typing import Any

import pytest

from phases.validation import SyllabusError, find_problems, find_question_problems, validate
from tests.conftest import read_yaml

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
Objects = list[dict[str, Any]]


def real_syllabus() -> Objects:
    return read_yaml(FIXTURES / "syllabus.yaml")


def real_bank() -> Objects:
    bank: Objects = []
    for path in sorted((FIXTURES / "questions").glob("*.yaml")):
        bank += read_yaml(path)
    return bank


def weights_of(objects: Objects) -> dict[str, int]:
    return {
        obj["fields"]["slug"]: obj["fields"]["exam_weight"]
        for obj in objects
        if obj["model"] == "phases.domain"
    }


def fields_of(objects: Objects, model: str, slug: str) -> dict[str, Any]:
    (obj,) = [o for o in objects if o["model"] == f"phases.{model}" and o["fields"]["slug"] == slug]
    return obj["fields"]


def live_checks(objects: Objects, *, phase: str | None = None, domain: str | None = None):
    return [
        obj["fields"]
        for obj in objects
        if obj["model"] == "phases.selfcheck"
        and not obj["fields"].get("retired")
        and (phase is None or obj["fields"]["phase"] == [phase])
        and (domain is None or obj["fields"]["domain"] == [domain])
    ]


def naming(problems: list[str], slug: str) -> list[str]:
    return [problem for problem in problems if f"'{slug}'" in problem]


# The syllabus


def test_the_real_syllabus_has_no_problems():
    assert find_problems(real_syllabus()) == []


def test_validate_raises_with_every_problem_listed():
    objects = real_syllabus()
    fields_of(objects, "selfcheck", "p3-clip-zero-shot")["answer"] = ""
    fields_of(objects, "intensity", "standard")["is_default"] = False

    with pytest.raises(SyllabusError) as excinfo:
        validate(objects)

    assert excinfo.value.problems == [
        "self-check 'p3-clip-zero-shot' has no answer",
        "exactly one intensity must be the default; found none",
    ]


def test_weights_summing_to_99_are_named_with_the_sum_and_each_domain():
    objects = real_syllabus()
    fields_of(objects, "domain", "core-ml")["exam_weight"] = 19

    (problem,) = find_problems(objects)

    assert problem.startswith("domain exam weights sum to 99, not 100")
    assert "core-ml 19" in problem
    assert "trustworthy-ai 5" in problem


@pytest.mark.parametrize("answer", ["", "   ", None], ids=["empty", "blank", "missing"])
def test_a_self_check_without_an_answer_is_named(answer):
    objects = real_syllabus()
    fields = fields_of(objects, "selfcheck", "p3-clip-zero-shot")
    if answer is None:
        del fields["answer"]
    else:
        fields["answer"] = answer

    assert find_problems(objects) == ["self-check 'p3-clip-zero-shot' has no answer"]


def test_a_self_check_without_a_prompt_is_named():
    objects = real_syllabus()
    fields_of(objects, "selfcheck", "p2-fid-direction")["prompt"] = " "

    assert find_problems(objects) == ["self-check 'p2-fid-direction' has no prompt"]


def test_a_phase_below_five_self_checks_is_named_with_its_count():
    objects = real_syllabus()
    dropped = {check["slug"] for check in live_checks(objects, phase="software-and-sdk-stack")[4:]}
    objects = [obj for obj in objects if obj["fields"].get("slug") not in dropped]

    problems = find_problems(objects)

    assert naming(problems, "software-and-sdk-stack") == [
        "phase 'software-and-sdk-stack' has 4 self-checks; it needs at least 5"
    ]


def test_a_domain_below_three_self_checks_is_named_with_its_count():
    objects = real_syllabus()
    # Move all but two of its checks to the other domain of the same phase: the phase keeps
    # its count, the domain falls short.
    for check in live_checks(objects, domain="performance-optimization")[2:]:
        check["domain"] = ["data-analysis"]

    assert find_problems(objects) == [
        "domain 'performance-optimization' has 2 self-checks; it needs at least 3"
    ]


def test_retired_self_checks_do_not_count_towards_a_phase():
    objects = real_syllabus()
    for check in live_checks(objects, phase="trustworthy-ai")[4:]:
        check["retired"] = True

    assert naming(find_problems(objects), "trustworthy-ai") == [
        "phase 'trustworthy-ai' has 4 self-checks; it needs at least 5"
    ]


def test_a_phase_without_exercise_parts_is_named():
    objects = [
        o
        for o in real_syllabus()
        if not (o["model"] == "phases.exercisepart" and o["fields"]["phase"] == ["experimentation"])
    ]

    assert find_problems(objects) == [
        "phase 'experimentation' has no exercise parts; its practice exercise needs at least one"
    ]


def test_retired_exercise_parts_do_not_count_towards_a_phase():
    objects = real_syllabus()
    for obj in objects:
        if obj["model"] == "phases.exercisepart" and obj["fields"]["phase"] == ["trustworthy-ai"]:
            obj["fields"]["retired"] = True

    assert naming(find_problems(objects), "trustworthy-ai") == [
        "phase 'trustworthy-ai' has no exercise parts; its practice exercise needs at least one"
    ]


def test_an_exercise_part_without_words_an_unknown_phase_or_a_second_slug_is_named():
    objects = real_syllabus()
    fields_of(objects, "exercisepart", "p1-ex-fusion-table")["text"] = "  "
    fields_of(objects, "exercisepart", "p2-ex-ab-test")["phase"] = ["phase-seven"]
    objects.append(
        copy.deepcopy(
            next(o for o in objects if o["fields"].get("slug") == "p3-ex-justify-tradeoff")
        )
    )

    problems = find_problems(objects)

    assert naming(problems, "p1-ex-fusion-table") == [
        "exercise part 'p1-ex-fusion-table' has no text"
    ]
    assert naming(problems, "p2-ex-ab-test") == [
        "exercise part 'p2-ex-ab-test' names unknown phase ['phase-seven']"
    ]
    assert naming(problems, "p3-ex-justify-tradeoff") == [
        "exercise part 'p3-ex-justify-tradeoff' appears 2 times"
    ]


def test_two_default_intensities_are_named():
    objects = real_syllabus()
    fields_of(objects, "intensity", "fast-track")["is_default"] = True

    assert find_problems(objects) == [
        "exactly one intensity must be the default; found fast-track, standard"
    ]


def test_a_primary_key_is_named_with_its_row():
    objects = real_syllabus()
    next(o for o in objects if o["fields"].get("slug") == "data-analysis")["pk"] = 5

    assert find_problems(objects) == [
        "phases.domain 'data-analysis' has a primary key; use natural keys only"
    ]


def test_a_duplicate_slug_is_named_with_its_count():
    objects = real_syllabus()
    objects.append({"model": "phases.intensity", "fields": {"slug": "standard"}})

    assert "intensity 'standard' appears 2 times" in find_problems(objects)


@pytest.mark.parametrize(
    ("model", "slug", "field", "value", "expected"),
    [
        (
            "selfcheck",
            "p6-privacy-control",
            "phase",
            ["phase-seven"],
            "self-check 'p6-privacy-control' names unknown phase ['phase-seven']",
        ),
        (
            "selfcheck",
            "p6-privacy-control",
            "domain",
            ["astrology"],
            "self-check 'p6-privacy-control' names unknown domain ['astrology']",
        ),
        (
            "selfcheck",
            "p2-fid-direction",
            "topic",
            ["no-such-topic"],
            "self-check 'p2-fid-direction' names unknown topic 'no-such-topic'",
        ),
        (
            "topic",
            "fid",
            "domain",
            ["no-such-domain"],
            "topic 'fid' names unknown domain 'no-such-domain'",
        ),
    ],
    ids=["check-phase", "check-domain", "check-topic", "topic-domain"],
)
def test_a_reference_to_an_unknown_slug_is_named(model, slug, field, value, expected):
    objects = real_syllabus()
    fields_of(objects, model, slug)[field] = value

    assert expected in find_problems(objects)


def test_phase_hours_naming_an_unknown_intensity_are_named():
    objects = real_syllabus()
    objects.append(
        {
            "model": "phases.phasehours",
            "fields": {"intensity": ["leisurely"], "phase": ["experimentation"], "hours": 3},
        }
    )

    assert find_problems(objects) == [
        "phase hours for 'leisurely' / 'experimentation' name an unknown slug"
    ]


@pytest.mark.parametrize(
    ("revision_hours", "expected"),
    [
        (0, "intensity 'standard' keeps no revision hours before the exam"),
        (None, "intensity 'standard' keeps no revision hours before the exam"),
        (7, "intensity 'standard' plans 42 h, not 25 to 40"),
    ],
)
def test_an_intensity_without_revision_or_outside_25_to_40_hours_is_named(revision_hours, expected):
    objects = real_syllabus()
    fields_of(objects, "intensity", "standard")["revision_hours"] = revision_hours

    assert find_problems(objects) == [expected]


def test_the_real_intensities_plan_25_to_40_hours_with_revision_and_the_mock():
    assert find_problems(real_syllabus()) == []


@pytest.mark.parametrize("objects", [None, "a sentence", {"model": "phases.domain"}, [1, 2]])
def test_anything_but_a_list_of_objects_is_one_problem(objects):
    assert find_problems(objects) == [
        "the syllabus must be a list of objects with 'model' and 'fields'"
    ]


# The question bank: the cases tests/test_load_questions.py (the bank's own tests) leaves out

WEIGHTS = {"alpha": 50, "beta": 50}


def question(slug: str, domain: str = "alpha", **fields: Any) -> dict[str, Any]:
    options = [{"text": f"option {n} of {slug}", "correct": n == 0} for n in range(4)]
    return {
        "model": "phases.question",
        "fields": {
            "slug": slug,
            "domain": [domain],
            "prompt": f"Which is right for {slug}?",
            "options": options,
            "explanation": "Because.",
            **fields,
        },
    }


def bank(alpha: int = 10, beta: int = 10) -> Objects:
    return [question(f"a{n}", "alpha") for n in range(alpha)] + [
        question(f"b{n}", "beta") for n in range(beta)
    ]


def test_a_sound_bank_has_no_problems():
    assert find_question_problems(bank(), WEIGHTS) == []


def test_an_empty_option_is_named():
    questions = bank()
    questions[0]["fields"]["options"][2]["text"] = "  "

    assert find_question_problems(questions, WEIGHTS) == ["question 'a0' has an empty option"]


def test_options_that_are_not_a_list_of_objects_are_named():
    questions = bank()
    questions[0]["fields"]["options"] = "A, B, C or D"

    assert find_question_problems(questions, WEIGHTS) == ["question 'a0' needs a list of options"]


@pytest.mark.parametrize("value", [None, "", "   "], ids=["missing", "empty", "blank"])
def test_a_question_without_a_prompt_is_named(value):
    questions = bank()
    if value is None:
        del questions[0]["fields"]["prompt"]
    else:
        questions[0]["fields"]["prompt"] = value

    assert find_question_problems(questions, WEIGHTS) == ["question 'a0' has no prompt"]


def test_a_duplicate_question_slug_is_named():
    questions = bank()
    questions.append(copy.deepcopy(questions[0]))
    questions.append(copy.deepcopy(questions[10]))

    problems = find_question_problems(questions, WEIGHTS)

    assert problems == ["question 'a0' appears 2 times", "question 'b0' appears 2 times"]


def test_a_question_with_a_primary_key_is_named():
    questions = bank()
    questions[4]["pk"] = 12

    assert find_question_problems(questions, WEIGHTS) == [
        "phases.question 'a4' has a primary key; use natural keys only"
    ]


def test_a_domain_with_no_questions_is_named():
    problems = find_question_problems(bank(alpha=10, beta=0), {**WEIGHTS, "gamma": 0})

    assert naming(problems, "beta") == [
        "domain 'beta' has 0 questions; its 50% exam share of 10 is 5.0 (within 2)"
    ]
    assert naming(problems, "gamma") == []


@pytest.mark.parametrize("objects", [None, {"model": "phases.question"}, ["q"]])
def test_a_bank_that_is_not_a_list_of_objects_is_one_problem(objects):
    assert find_question_problems(objects, WEIGHTS) == [
        "the question bank must be a list of objects with 'model' and 'fields'"
    ]
