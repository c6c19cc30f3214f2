"""Checks on the syllabus fixture before it touches the database.

Pure: takes the parsed YAML (Django's serialization format, natural keys only) and returns the
problems it finds, each naming the offending slug.
"""

import re
from collections import Counter
from typing import Any

from phases.bank_quality import LIMITS
from phases.schedule import GUIDE_HOURS, MOCK_HOURS

TOTAL_EXAM_WEIGHT = 100
MIN_CHECKS_PER_PHASE = 5
MIN_CHECKS_PER_DOMAIN = 3
MIN_SOURCES, MAX_SOURCES = 1, 3
SOURCE_KINDS = ("paper", "docs", "spec")
# An arXiv identifier: the new form (2006.11239, with an optional version) or the old one
# (cs/0501001); a paper's address is its abstract page and its title names the same identifier.
ARXIV_ID = r"(?:\d{4}\.\d{4,5}|[a-z-]+(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?"
ARXIV_ABS = re.compile(rf"https://arxiv\.org/abs/(?P<id>{ARXIV_ID})")


class SyllabusError(ValueError):
    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("; ".join(problems))


def _rows(objects: list[dict[str, Any]], model: str) -> list[dict[str, Any]]:
    return [obj.get("fields") or {} for obj in objects if obj.get("model") == f"phases.{model}"]


def _whole(value: Any) -> int:
    """Hours as the fixture writes them; anything but a whole number counts as none."""
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _key(value: Any) -> str | None:
    """A natural-key reference as the fixture writes it: ``[slug]`` or a bare slug."""
    if isinstance(value, list | tuple):
        value = value[0] if value else None
    return value if isinstance(value, str) else None


def _primary_key_problems(objects: list[dict[str, Any]]) -> list[str]:
    return [
        f"{obj.get('model')} '{(obj.get('fields') or {}).get('slug', '?')}' has a primary key; "
        "use natural keys only"
        for obj in objects
        if "pk" in obj
    ]


def source_problems(slug: str, sources: Any, *, what: str = "topic") -> list[str]:
    """What is wrong with one topic's (or sub-area's) ``sources``: one to three primary
    sources, each ``{title, url, kind}`` with an https address; a paper is its arXiv abstract
    page, and its title names the same ``arXiv:<id>``."""
    if sources is None:
        sources = []
    if not isinstance(sources, list) or not all(isinstance(item, dict) for item in sources):
        return [f"{what} '{slug}' needs its sources as a list of {{title, url, kind}}"]
    if not MIN_SOURCES <= len(sources) <= MAX_SOURCES:
        return [
            f"{what} '{slug}' has {len(sources)} sources; it needs {MIN_SOURCES} to {MAX_SOURCES}"
        ]
    problems = []
    for number, source in enumerate(sources, start=1):
        title, url, kind = (str(source.get(key) or "").strip() for key in ("title", "url", "kind"))
        where = f"{what} '{slug}' source {number}"
        if not title:
            problems.append(f"{where} has no title")
        if kind not in SOURCE_KINDS:
            problems.append(
                f"{where} has kind {kind!r}; it must be one of {', '.join(SOURCE_KINDS)}"
            )
        if not url.startswith("https://"):
            problems.append(f"{where} has the address {url!r}; it must start https://")
        elif kind == "paper":
            match = ARXIV_ABS.fullmatch(url)
            if match is None:
                problems.append(
                    f"{where} is a paper at {url!r}; a paper's address is "
                    "https://arxiv.org/abs/<id>"
                )
            elif f"arXiv:{match['id']}" not in title:
                problems.append(f"{where} is arXiv:{match['id']}, but its title does not say so")
    for url, count in Counter(str(source.get("url")) for source in sources).items():
        if count > 1:
            problems.append(f"{what} '{slug}' lists {url!r} {count} times")
    return problems


def exercise_part_problems(objects: list[dict[str, Any]], phase_slugs: set[Any]) -> list[str]:
    """Every phase's written exercise has at least one part, each part has its words and a phase
    that exists, and no slug is used twice (a retired part keeps its slug, so it counts too)."""
    parts = _rows(objects, "exercisepart")
    problems = [
        f"exercise part '{slug}' appears {count} times"
        for slug, count in Counter(row.get("slug") for row in parts).items()
        if count > 1
    ]
    for row in parts:
        slug = row.get("slug", "?")
        if not str(row.get("text") or "").strip():
            problems.append(f"exercise part '{slug}' has no text")
        if _key(row.get("phase")) not in phase_slugs:
            problems.append(f"exercise part '{slug}' names unknown phase {row.get('phase')!r}")
    current = Counter(_key(row.get("phase")) for row in parts if not row.get("retired"))
    problems += [
        f"phase '{slug}' has no exercise parts; its practice exercise needs at least one"
        for slug in sorted(str(slug) for slug in phase_slugs)
        if not current[slug]
    ]
    return problems


def find_problems(objects: Any) -> list[str]:
    if not isinstance(objects, list) or not all(isinstance(obj, dict) for obj in objects):
        return ["the syllabus must be a list of objects with 'model' and 'fields'"]
    problems = _primary_key_problems(objects)

    domains = _rows(objects, "domain")
    phases = _rows(objects, "phase")
    checks = [row for row in _rows(objects, "selfcheck") if not row.get("retired")]
    intensities = _rows(objects, "intensity")

    for model, rows in [("domain", domains), ("phase", phases), ("intensity", intensities)]:
        for slug, count in Counter(row.get("slug") for row in rows).items():
            if count > 1:
                problems.append(f"{model} '{slug}' appears {count} times")

    weights = {row.get("slug"): row.get("exam_weight") or 0 for row in domains}
    total = sum(weights.values())
    if total != TOTAL_EXAM_WEIGHT:
        listed = ", ".join(f"{slug} {weight}" for slug, weight in weights.items()) or "no domains"
        problems.append(f"domain exam weights sum to {total}, not {TOTAL_EXAM_WEIGHT} ({listed})")

    for row in checks:
        slug = row.get("slug", "?")
        if not str(row.get("prompt") or "").strip():
            problems.append(f"self-check '{slug}' has no prompt")
        if not str(row.get("answer") or "").strip():
            problems.append(f"self-check '{slug}' has no answer")
        if _key(row.get("phase")) not in {phase.get("slug") for phase in phases}:
            problems.append(f"self-check '{slug}' names unknown phase {row.get('phase')!r}")
        if _key(row.get("domain")) not in weights:
            problems.append(f"self-check '{slug}' names unknown domain {row.get('domain')!r}")

    topics = _rows(objects, "topic")
    topic_domains = {row.get("slug"): _key(row.get("domain")) for row in topics}
    for slug, domain in topic_domains.items():
        if domain not in weights:
            problems.append(f"topic '{slug}' names unknown domain {domain!r}")
    for row in topics:
        problems += source_problems(str(row.get("slug", "?")), row.get("sources"))
    for row in _rows(objects, "selfcheck"):
        topic = _key(row.get("topic"))
        if topic is not None and topic not in topic_domains:
            problems.append(f"self-check '{row.get('slug', '?')}' names unknown topic {topic!r}")
    intensity_slugs = {row.get("slug") for row in intensities}
    phase_slugs = {row.get("slug") for row in phases}
    plan_hours = {row.get("slug"): _whole(row.get("revision_hours")) for row in intensities}
    for row in _rows(objects, "phasehours"):
        intensity, phase = _key(row.get("intensity")), _key(row.get("phase"))
        if intensity not in intensity_slugs or phase not in phase_slugs:
            problems.append(f"phase hours for '{intensity}' / '{phase}' name an unknown slug")
        else:
            plan_hours[intensity] += _whole(row.get("hours"))
    for row in intensities:
        slug = row.get("slug")
        if _whole(row.get("revision_hours")) < 1:
            problems.append(f"intensity '{slug}' keeps no revision hours before the exam")
        # The study guide's hours, revision and the full mock's hour included.
        elif not GUIDE_HOURS[0] <= plan_hours[slug] + MOCK_HOURS <= GUIDE_HOURS[1]:
            problems.append(
                f"intensity '{slug}' plans {plan_hours[slug] + MOCK_HOURS} h, "
                f"not {GUIDE_HOURS[0]} to {GUIDE_HOURS[1]}"
            )

    problems += exercise_part_problems(objects, {phase.get("slug") for phase in phases})

    per_phase = Counter(_key(row.get("phase")) for row in checks)
    for phase_row in phases:
        count = per_phase[phase_row.get("slug")]
        if count < MIN_CHECKS_PER_PHASE:
            problems.append(
                f"phase '{phase_row.get('slug')}' has {count} self-checks; "
                f"it needs at least {MIN_CHECKS_PER_PHASE}"
            )
    per_domain = Counter(_key(row.get("domain")) for row in checks)
    for slug in weights:
        if per_domain[slug] < MIN_CHECKS_PER_DOMAIN:
            problems.append(
                f"domain '{slug}' has {per_domain[slug]} self-checks; "
                f"it needs at least {MIN_CHECKS_PER_DOMAIN}"
            )

    defaults = [str(row.get("slug")) for row in intensities if row.get("is_default")]
    if len(defaults) != 1:
        named = ", ".join(defaults) if defaults else "none"
        problems.append(f"exactly one intensity must be the default; found {named}")
    return problems


def validate(objects: Any) -> None:
    problems = find_problems(objects)
    if problems:
        raise SyllabusError(problems)


MIN_OPTIONS, MAX_OPTIONS = 4, 5


def subarea_problems(objects: list[dict[str, Any]], topics: dict[str, str]) -> list[str]:
    """Each sub-area once, with a title, sources as a topic's, and a topic of the syllabus
    (``topics``: topic slug to domain slug); a question naming a sub-area names its topic too."""
    subareas = _rows(objects, "subarea")
    problems = [
        f"sub-area '{slug}' appears {count} times"
        for slug, count in Counter(row.get("slug") for row in subareas).items()
        if count > 1
    ]
    topic_of = {row.get("slug"): _key(row.get("topic")) for row in subareas}
    for row in subareas:
        slug = str(row.get("slug", "?"))
        if not str(row.get("title") or "").strip():
            problems.append(f"sub-area '{slug}' has no title")
        if topic_of[slug] not in topics:
            problems.append(f"sub-area '{slug}' names unknown topic {row.get('topic')!r}")
        problems += source_problems(slug, row.get("sources"), what="sub-area")
    for row in _rows(objects, "question"):
        subarea = _key(row.get("subarea"))
        if subarea is None:
            continue
        slug = row.get("slug", "?")
        if subarea not in topic_of:
            problems.append(f"question '{slug}' names unknown sub-area {subarea!r}")
        elif topic_of[subarea] != _key(row.get("topic")):
            problems.append(
                f"question '{slug}' is in sub-area '{subarea}' of topic '{topic_of[subarea]}' "
                f"but names topic {_key(row.get('topic'))!r}"
            )
    return problems


def find_question_problems(
    objects: Any, weights: dict[str, int], topics: dict[str, str] | None = None
) -> list[str]:
    """Problems in the question bank, each naming its question (or domain) slug.

    ``weights`` are the domains' exam weights: each domain's share of live questions must be
    within bank_quality.LIMITS.domain_tolerance questions of its share of the exam. ``topics``
    (topic slug to domain slug) are the syllabus's: a question's topic is its domain's, and a
    sub-area's topic is one of them.
    """
    if not isinstance(objects, list) or not all(isinstance(obj, dict) for obj in objects):
        return ["the question bank must be a list of objects with 'model' and 'fields'"]
    problems = _primary_key_problems(objects)
    if topics is not None:
        problems += subarea_problems(objects, topics)
    questions = [row for row in _rows(objects, "question") if not row.get("retired")]
    for slug, count in Counter(row.get("slug") for row in questions).items():
        if count > 1:
            problems.append(f"question '{slug}' appears {count} times")
    for row in questions:
        slug = row.get("slug", "?")
        options = row.get("options")
        if _key(row.get("domain")) not in weights:
            problems.append(f"question '{slug}' names unknown domain {row.get('domain')!r}")
        topic = _key(row.get("topic"))
        if (
            topics is not None
            and topic is not None
            and topics.get(topic) != _key(row.get("domain"))
        ):
            problems.append(f"question '{slug}' names topic {topic!r} of another domain")
        if not isinstance(row.get("stretch", False), bool):
            problems.append(
                f"question '{slug}' has stretch {row.get('stretch')!r}; say true or false"
            )
        if not str(row.get("prompt") or "").strip():
            problems.append(f"question '{slug}' has no prompt")
        if not str(row.get("explanation") or "").strip():
            problems.append(f"question '{slug}' has no explanation")
        if not isinstance(options, list) or not all(isinstance(o, dict) for o in options):
            problems.append(f"question '{slug}' needs a list of options")
            continue
        if not MIN_OPTIONS <= len(options) <= MAX_OPTIONS:
            problems.append(
                f"question '{slug}' has {len(options)} options; "
                f"it needs {MIN_OPTIONS} to {MAX_OPTIONS}"
            )
        if not any(option.get("correct") for option in options):
            problems.append(f"question '{slug}' has no correct option")
        texts = [" ".join(str(option.get("text") or "").lower().split()) for option in options]
        if "" in texts:
            problems.append(f"question '{slug}' has an empty option")
        for text, count in Counter(texts).items():
            if text and count > 1:
                problems.append(f"question '{slug}' repeats the option {text!r}")

    total, weight_sum = len(questions), sum(weights.values())
    per_domain = Counter(_key(row.get("domain")) for row in questions)
    for slug, weight in weights.items():
        expected = total * weight / weight_sum if weight_sum else 0
        if abs(per_domain[slug] - expected) > LIMITS.domain_tolerance:
            problems.append(
                f"domain '{slug}' has {per_domain[slug]} questions; its {weight}% exam share "
                f"of {total} is {expected:.1f} (within {LIMITS.domain_tolerance})"
            )
    return problems
