"""The rules a verdict is read against: the bars, the window and the odds (from settings, by
progress.verdicts.figures), and the words every page states each rule in, made from those
numbers."""

from dataclasses import dataclass
from typing import Any

from progress.verdicts import beta


class Percent:
    """A share (0 to 1) read from the attribute ``figure``, in whole percent as pages show it."""

    def __init__(self, figure: str) -> None:
        self.figure = figure

    def __get__(self, owner: Any, kind: Any = None) -> int:
        return round(getattr(owner, self.figure) * 100)


@dataclass(frozen=True)
class Rules:
    recall: float  # predicted exam-day recall every domain needs to count as ready
    accurate: float  # the accuracy bar: a domain must likely be at it; likely under it, it lags
    window: int  # newest first answers per domain that accuracy reads
    # How likely a range or a verdict on accuracy must be (progress.verdicts.beta).
    confidence: float = 0.8
    min_answers: int = 10  # answers in a domain before accuracy gives any verdict, either way

    confidence_percent = Percent("confidence")
    recall_percent = Percent("recall")
    accurate_percent = Percent("accurate")

    @property
    def ready_text(self) -> str:
        return (
            f"every domain at least {self.recall_percent}% recall on exam day and likely at "
            f"least {self.accurate_percent}% accurate"
        )

    @property
    def recall_text(self) -> str:
        return (
            "the chance, predicted by the FSRS memory model from your own reviews, that you still "
            "answer a domain's self-checks without notes on exam day, averaged over all of them "
            "(one never ticked counts 0). It falls the longer a check goes unreviewed and rises "
            "with each review you know."
        )

    @property
    def lagging_text(self) -> str:
        return (
            "the domain furthest behind in marks of the exam's 100: its exam weight times its "
            "gap, the gap being how far its share covered falls short of what your plan expects "
            f"by today or, when it is likely under {self.accurate_percent}% accurate, how far "
            f"under: {self.accurate_percent}% minus the rate your true accuracy is below with "
            f"{self.confidence_percent}% odds, whichever is larger. A tie goes to the heavier "
            "domain, then to the one studied first. No gap anywhere means you are on plan."
        )

    @property
    def accuracy_example(self) -> str:
        """A worked range, as the dashboard shows one: 7 of 10 right, at the rules' odds."""
        low, high = beta.percent_interval(7, 3, self.confidence)
        return f"7 of 10 right: {beta.range_words(low, high, self.confidence)}"

    @property
    def accuracy_text(self) -> str:
        return (
            f"right answers among a domain's {self.window} most recent first answers in "
            "drills, mocks and the placement: only your first answer to each question counts "
            "(a repeat has seen the key, so it is practice), stretch questions count nowhere, "
            "an unanswered question of a finished mock counts as wrong and a live mock counts "
            f"nowhere. It comes with the range your true accuracy lies in with "
            f"{self.confidence_percent}% odds. Likely at least {self.accurate_percent}% means "
            f"those odds that your true accuracy is {self.accurate_percent}% or more; likely "
            "under, the same odds that it is less; neither is said before "
            f"{self.min_answers} answers in the domain, so one answer never decides it. Between "
            "the two, more answers settle it."
        )
