"""The dashboard's verdict in one sentence, and the one action that follows from it.

The sentence names the first thing between the learner and "ready to book", in the order the
rules check it (docs/verdicts.md): a schedule, a start, the lagging domain, recall on exam day,
then accuracy. Its action is a link, or a drill to start (a POST form: ``drill``).
"""

from dataclasses import dataclass

from django.urls import reverse

from phases.words import counted
from progress.verdicts.figures import LearnerState


@dataclass(frozen=True)
class Headline:
    sentence: str  # after "Ready to book:" or "Not ready yet:"
    action: str  # the button's words
    url: str = ""  # a link, or ...
    drill: str = ""  # ... the slug of the domain to drill
    ready: bool = False
    about: str = ""  # the slug of the lagging domain when the action is about it


def headline(state: LearnerState, *, review_due: int) -> Headline:
    report = state.report
    rules = report.rules
    practice = reverse("progress:practice")
    review = reverse("progress:review")
    reviews = f"Review {counted(review_due, 'card')}"
    next_check = state.next_check()

    def study_url(phase_slug: str, check_slug: str = "") -> str:
        url = reverse("progress:phase", args=[phase_slug])
        return f"{url}#check-{check_slug}" if check_slug else url

    next_url = study_url(next_check.phase.slug, next_check.slug) if next_check else ""
    if state.exam_passed:
        # Nothing to book: the figures are read as of the exam day, and a new date starts over.
        return Headline(
            f"your exam day, {state.exam_day:%a %-d %b}, has passed: the figures below are read "
            "as of that day. To prepare for another sitting, set its date.",
            "Set a new exam date",
            reverse("progress:plan-choose"),
        )
    if report.ready_to_book:
        if review_due:
            return Headline(rules.ready_text + ": keep it there.", reviews, review, ready=True)
        return Headline(rules.ready_text + ".", "Sit a timed mock", practice, ready=True)
    if state.plan is None:
        return Headline(
            "choose a schedule, so your progress can be measured against it.",
            "Choose your schedule",
            reverse("progress:plan-choose"),
        )
    lagging = report.lagging
    if not report.started and not report.practised and lagging is None:
        phase = state.study_phase
        if phase is not None:
            return Headline(
                "nothing studied yet, and your plan starts with phase "
                f"{phase.number}, {phase.title}.",
                f"Start phase {phase.number}",
                study_url(phase.slug, next_check.slug if next_check else ""),
            )
    if lagging is not None:
        marks = f"{lagging.marks_behind:.1f} marks of the exam's 100"
        if lagging.accuracy_gap > lagging.plan_gap:
            return Headline(
                f"{lagging.name} is likely under {rules.accurate_percent}% accurate, {marks} "
                "behind: the most of any domain.",
                f"Drill {lagging.name}",
                drill=lagging.slug,
                about=lagging.slug,
            )
        sentence = f"{lagging.name} is furthest behind your plan, {marks}."
        if next_check is not None:
            return Headline(sentence, f"Study next: {lagging.name} →", next_url, about=lagging.slug)
        return Headline(sentence, f"Drill {lagging.name}", drill=lagging.slug, about=lagging.slug)
    forgotten = [domain for domain in report.domains if not domain.remembered]
    if forgotten:
        under = (
            f"recall on exam day is under {rules.recall_percent}% in "
            f"{counted(len(forgotten), 'domain')}"
        )
        if review_due:
            return Headline(f"{under}; today's reviews raise it.", reviews, review)
        if next_check is not None:
            return Headline(
                f"{under}; you are on plan, so keep going with phase {next_check.phase.number}.",
                f"Study next: phase {next_check.phase.number} →",
                next_url,
            )
        return Headline(
            f"{under}; each card comes back for review on the day its phase page shows.",
            "See your reviews",
            review,
        )
    unsettled = [domain for domain in report.domains if not domain.likely_accurate]
    if not unsettled:  # no domain at all: a site whose syllabus is not loaded yet
        return Headline(
            "the syllabus has no domains yet.", "See the syllabus", reverse("phases:syllabus")
        )
    first = unsettled[0]  # heaviest first
    return Headline(
        f"recall is at the bar; practice has yet to show {counted(len(unsettled), 'domain')} "
        f"likely at least {rules.accurate_percent}% accurate.",
        f"Drill {first.name}",
        drill=first.slug,
    )
