"""The question writers' measuring script: one domain's file against the bank's rules.

    .venv/bin/python scripts/bank_domain.py trustworthy-ai

`load_syllabus --check` measures the whole bank, whose shares only add up once every domain's
file is done; this reads one domain's file alone (its share of the exam is then all of it), runs
the same validation and the same figures (phases.validation, phases.bank_quality), and lists the
questions behind each length cue, so a writer can see which ones to rewrite. No database.
"""

import sys
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from phases import bank_cues, bank_quality  # noqa: E402
from phases.bank_traps import PROCESS_TRAPS  # noqa: E402
from phases.validation import find_question_problems  # noqa: E402

# Limits that only the whole bank can meet: its size, each trap once, each gap twice.
WHOLE_BANK = ("the bank has", "at least 1", "gap '")


def main(domain: str) -> int:
    syllabus = yaml.safe_load((ROOT / "fixtures" / "syllabus.yaml").read_text(encoding="utf-8"))
    path = ROOT / "fixtures" / "questions" / f"{domain}.yaml"
    bank: list[dict[str, Any]] = yaml.safe_load(path.read_text(encoding="utf-8"))
    topics = {
        o["fields"]["slug"]: o["fields"]["domain"][0]
        for o in syllabus
        if o["model"] == "phases.topic"
    }
    weight = next(
        o["fields"]["exam_weight"]
        for o in syllabus
        if o["model"] == "phases.domain" and o["fields"]["slug"] == domain
    )
    problems = find_question_problems(bank, {domain: weight}, topics)
    questions = [o["fields"] for o in bank if o["model"] == "phases.question"]
    live = [q for q in questions if not q.get("retired")]
    checks = {
        o["fields"]["slug"]: o["fields"]["prompt"]
        for o in syllabus
        if o["model"] == "phases.selfcheck" and not o["fields"].get("retired")
    }
    subareas = [o["fields"]["slug"] for o in bank if o["model"] == "phases.subarea"]
    figures = bank_quality.measure(
        live,  # type: ignore[arg-type]
        checks,
        [slug for slug, owner in topics.items() if owner == domain],
        subareas=subareas,
    )
    for line in bank_quality.summary(figures):
        print(" ", line)
    problems += [
        problem
        for problem in bank_quality.problems(figures, {domain: weight})
        if not any(words in problem for words in WHOLE_BANK)
    ]
    print("\nTraps this file offers as wrong answers (the bank needs each content trap once):")
    print(
        " ",
        ", ".join(f"{name} {count}" for name, count in sorted(figures.trap_usage.items()) if count)
        or "none",
        f"(study-process traps, not needed: {', '.join(sorted(PROCESS_TRAPS))})",
    )
    print("\nQuestions behind the length cues:")
    for q in live:
        options = q["options"]
        keys = sum(1 for o in options if o["correct"])
        if keys == 1 and bank_cues.key_longer_by(options) >= bank_quality.KEY_MARGIN:
            print(
                f"  {q['slug']}: key longer than every wrong option by "
                f"{bank_cues.key_longer_by(options)} characters"
            )
        if keys == 2 and bank_cues.keys_are_shortest(options):
            print(f"  {q['slug']}: choose-two, both keys the shortest")
        if keys == 2 and bank_cues.keys_are_longest(options):
            print(f"  {q['slug']}: choose-two, both keys the longest")
    print(f"\n{len(live)} live questions, {len(questions) - len(live)} retired.")
    if problems:
        print("\nProblems:")
        for problem in problems:
            print("  -", problem)
        return 1
    print("\nNo problems.")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
