"""The practice question bank: fixtures/questions/<domain>.yaml, checked by
phases.validation.find_question_problems and loaded by `load_syllabus --questions`."""

import copy
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError

from phases.models import Question
from phases.validation import find_question_problems
from tests.conftest import read_yaml

QUESTIONS = settings.BASE_DIR / "fixtures" / "questions"
SYLLABUS = settings.BASE_DIR / "fixtures" / "syllabus.yaml"


def real_bank() -> list[dict[str, Any]]:
    bank: list[dict[str, Any]] = []
    for path in sorted(QUESTIONS.glob("*.yaml")):
        bank += read_yaml(path)
    return bank


def live(bank: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The live questions (a bank file also holds its sub-areas)."""
    return [
        obj
        for obj in bank
        if obj["model"] == "phases.question" and not obj["fields"].get("retired")
    ]


def real_weights() -> dict[str, int]:
    objects = read_yaml(SYLLABUS)
    return {
        obj["fields"]["slug"]: obj["fields"]["exam_weight"]
        for obj in objects
        if obj["model"] == "phases.domain"
    }


# A bank of exactly 100 questions whose domains follow these weights to the question.
WEIGHTS = {
    "big": 25,
    "large": 20,
    "mid": 15,
    "mid-too": 15,
    "small": 10,
    "small-too": 10,
    "tiny": 5,
}


def question(slug: str, domain: str, **changes: Any) -> dict[str, Any]:
    fields = {
        "slug": slug,
        "domain": [domain],
        "topic": None,
        "prompt": f"Which option answers {slug}?",
        "options": [{"text": f"{slug} option {n}", "correct": n == 0} for n in range(4)],
        "explanation": "The first option, by construction.",
        "retired": False,
    }
    return {"model": "phases.question", "fields": {**fields, **changes}}


def bank_by_weight() -> list[dict[str, Any]]:
    return [
        question(f"q-{domain}-{n}", domain)
        for domain, weight in WEIGHTS.items()
        for n in range(weight)
    ]


def fields(bank: list[dict[str, Any]], slug: str) -> dict[str, Any]:
    (obj,) = [obj for obj in bank if obj["fields"]["slug"] == slug]
    return obj["fields"]


SLUG = "q-big-0"


# The real bank


def test_the_real_question_bank_has_no_problems():
    assert find_question_problems(real_bank(), real_weights()) == []


def test_every_real_question_has_four_or_five_options_an_explanation_and_a_topic():
    for obj in live(real_bank()):
        row = obj["fields"]
        assert 4 <= len(row["options"]) <= 5, row["slug"]
        assert row["explanation"].strip(), row["slug"]
        assert row["topic"], row["slug"]
        assert "pk" not in obj


def test_choose_two_questions_have_two_right_answers_and_the_rest_one():
    for obj in live(real_bank()):
        row = obj["fields"]
        right = sum(1 for option in row["options"] if option["correct"])
        assert right == (2 if "choose two" in row["prompt"].lower() else 1), row["slug"]


def test_each_domains_file_holds_only_that_domains_questions_and_sub_areas():
    topics = {
        obj["fields"]["slug"]: obj["fields"]["domain"][0]
        for obj in read_yaml(SYLLABUS)
        if obj["model"] == "phases.topic"
    }
    for path in QUESTIONS.glob("*.yaml"):
        objects = read_yaml(path)
        domains = {
            obj["fields"]["domain"][0]
            if obj["model"] == "phases.question"
            # A sub-area belongs to its topic's domain.
            else topics[obj["fields"]["topic"][0]]
            for obj in objects
        }
        assert domains == {path.stem}, path.name


# Each trap as the learner would meet it, within one clause of an option.
TRAPS = {
    "fid": r"higher FID\b[^;.,]*?\bbetter",
    "residual": r"\bresidual\b[^;.,]*?\b(reduce|fewer)\b[^;.,]*?parameters",
    "late-fusion": r"\blate fusion\b[^;.,]*?\blowest latency",
    "ddpm": r"\bforward\b[^;.,]*?\bremoves? noise",
}


@pytest.mark.parametrize("trap", TRAPS.values(), ids=TRAPS.keys())
def test_no_key_states_a_known_trap(trap):
    pattern = re.compile(trap, re.IGNORECASE)
    keys = [
        o["text"] for obj in live(real_bank()) for o in obj["fields"]["options"] if o["correct"]
    ]

    assert not [text for text in keys if pattern.search(text)]


# What find_question_problems names


def test_a_bank_by_weight_has_no_problems():
    assert find_question_problems(bank_by_weight(), WEIGHTS) == []


def test_a_question_with_no_correct_option_is_named():
    bank = bank_by_weight()
    for option in fields(bank, SLUG)["options"]:
        option["correct"] = False

    assert find_question_problems(bank, WEIGHTS) == [f"question '{SLUG}' has no correct option"]


@pytest.mark.parametrize(
    "variant", [str.upper, lambda t: f"  {t}  ", lambda t: t.replace(" ", "   ")]
)
def test_a_repeated_option_is_named_whatever_its_case_and_spacing(variant):
    bank = bank_by_weight()
    options = fields(bank, SLUG)["options"]
    options[3]["text"] = variant(options[0]["text"])

    (problem,) = find_question_problems(bank, WEIGHTS)

    assert problem.startswith(f"question '{SLUG}' repeats the option")


@pytest.mark.parametrize("count", [3, 6])
def test_a_question_with_too_few_or_too_many_options_is_named(count):
    bank = bank_by_weight()
    fields(bank, SLUG)["options"] = [
        {"text": f"option {n}", "correct": n == 0} for n in range(count)
    ]

    assert find_question_problems(bank, WEIGHTS) == [
        f"question '{SLUG}' has {count} options; it needs 4 to 5"
    ]


@pytest.mark.parametrize("explanation", [None, "", "   "])
def test_a_question_without_an_explanation_is_named(explanation):
    bank = bank_by_weight()
    row = fields(bank, SLUG)
    if explanation is None:
        del row["explanation"]
    else:
        row["explanation"] = explanation

    assert find_question_problems(bank, WEIGHTS) == [f"question '{SLUG}' has no explanation"]


def test_a_question_naming_an_unknown_domain_is_named():
    bank = bank_by_weight()
    fields(bank, SLUG)["domain"] = ["astrology"]

    problems = find_question_problems(bank, WEIGHTS)

    assert f"question '{SLUG}' names unknown domain ['astrology']" in problems


def move(bank: list[dict[str, Any]], count: int, source: str, target: str) -> None:
    for obj in [obj for obj in bank if obj["fields"]["domain"] == [source]][:count]:
        obj["fields"]["domain"] = [target]


def test_domains_two_questions_off_their_share_are_accepted():
    bank = bank_by_weight()
    move(bank, 2, "big", "large")  # 23 for 25, 22 for 20

    assert find_question_problems(bank, WEIGHTS) == []


def test_domains_three_questions_off_their_share_are_named_and_no_question_is():
    bank = bank_by_weight()
    move(bank, 3, "big", "large")  # 22 for 25, 23 for 20

    problems = find_question_problems(bank, WEIGHTS)

    assert len(problems) == 2
    assert problems[0].startswith("domain 'big' has 22 questions")
    assert problems[1].startswith("domain 'large' has 23 questions")


def test_a_retired_question_does_not_count_towards_a_share():
    bank = bank_by_weight()
    for n in range(4):
        fields(bank, f"q-tiny-{n}")["retired"] = True

    problems = find_question_problems(bank, WEIGHTS)

    # 1 live question for a 5% share of 96 (4.8): too few.
    assert [p for p in problems if p.startswith("domain 'tiny' has 1 questions")]


def test_a_retired_question_may_break_every_rule():
    bank = bank_by_weight()
    bank.append(question("q-old", "tiny", retired=True, options=[], explanation=""))

    assert find_question_problems(bank, WEIGHTS) == []


# The loader


def question_rows() -> list[dict[str, Any]]:
    return list(Question.objects.order_by("pk").values())


def write_bank(folder: Path, bank: Any, name: str = "questions.yaml") -> Path:
    folder.mkdir(exist_ok=True)
    path = folder / name
    path.write_text(yaml.safe_dump(bank, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


def real_slug(bank: list[dict[str, Any]], domain: str) -> str:
    return next(obj["fields"]["slug"] for obj in live(bank) if obj["fields"]["domain"] == [domain])


@pytest.mark.django_db
def test_the_loader_loads_every_live_question_of_the_real_bank_with_its_domain_and_topic(
    syllabus,
):
    bank = live(real_bank())

    assert Question.objects.current().count() == len(bank)
    assert not Question.objects.current().filter(topic__isnull=True).exists()
    per_domain = Counter(Question.objects.current().values_list("domain__slug", flat=True))
    assert per_domain == Counter(obj["fields"]["domain"][0] for obj in bank)


@pytest.mark.django_db
def test_the_loader_reads_a_folder_of_files_as_one_bank(syllabus, tmp_path):
    bank = real_bank()
    slug = real_slug(bank, "trustworthy-ai")
    for path in QUESTIONS.glob("*.yaml"):
        part = read_yaml(path)
        if path.stem == "trustworthy-ai":
            fields(part, slug)["prompt"] = "Edited in a folder of its own."
        write_bank(tmp_path / "bank", part, path.name)

    call_command("load_syllabus", "--questions", str(tmp_path / "bank"), verbosity=0)

    assert Question.objects.get(slug=slug).prompt == "Edited in a folder of its own."
    assert Question.objects.current().count() == len(live(bank))


@pytest.mark.django_db
def test_the_loader_refuses_a_bad_question_bank_naming_the_question_and_writes_nothing(
    syllabus, tmp_path
):
    before = question_rows()
    bank = real_bank()
    bad, changed = real_slug(bank, "core-ml"), real_slug(bank, "experimentation")
    # Alongside the bad question, a good change and a new question that must not be loaded.
    fields(bank, changed)["prompt"] = "Changed by a bad file."
    new = copy.deepcopy(next(obj for obj in bank if obj["fields"]["slug"] == bad))
    new["fields"]["slug"] = "q-core-brand-new"
    bank.append(new)
    for option in fields(bank, bad)["options"]:
        option["correct"] = False

    with pytest.raises(CommandError) as excinfo:
        call_command("load_syllabus", "--questions", str(write_bank(tmp_path, bank)), verbosity=0)

    assert f"question '{bad}' has no correct option" in str(excinfo.value)
    assert question_rows() == before


@pytest.mark.django_db
def test_the_loader_refuses_a_lopsided_question_bank_naming_the_domain(syllabus, tmp_path):
    before = question_rows()
    bank = [obj for obj in real_bank() if obj["fields"].get("domain") != ["trustworthy-ai"]]

    with pytest.raises(CommandError) as excinfo:
        call_command("load_syllabus", "--questions", str(write_bank(tmp_path, bank)), verbosity=0)

    assert "domain 'trustworthy-ai' has 0 questions" in str(excinfo.value)
    assert question_rows() == before


@pytest.mark.django_db
def test_the_loader_says_how_many_questions_it_loaded_and_how_guessable_they_are(syllabus, capsys):
    call_command("load_syllabus", verbosity=1)

    out = capsys.readouterr().out
    assert f"{len(live(real_bank()))} practice questions loaded" in out
    assert "always picking the longest option scores" in out
