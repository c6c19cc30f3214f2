"""A question missed in practice, asked again on the Review page: its options in the card's own
order (QuestionCard.order, drawn anew after every review by progress.practice.scoring.reshuffled),
each sent back as its place in that order, so a form value says nothing about the key; then the
verdict, with the options as they were shown."""

from dataclasses import dataclass
from typing import Any


def shown_order(card: Any) -> list[int]:
    """The options' indexes as the card shows them (a card from before the order was kept: as
    stored)."""
    return list(card.order) or list(range(len(card.question.options)))


def shown_options(card: Any) -> list[tuple[int, str]]:
    """(place, text) for each option, in the card's order; 1 for the first shown."""
    texts = [option["text"] for option in card.question.options]
    return [(place, texts[index]) for place, index in enumerate(shown_order(card), 1)]


@dataclass(frozen=True)
class Answered:
    """A missed question just answered again: the card (its new schedule) and the options as
    they were shown (text, right, the learner's)."""

    card: Any
    options: list[tuple[str, bool, bool]]

    @property
    def right(self) -> bool:
        return all(right == yours for _, right, yours in self.options)


def answered(card: Any, order: list[int], chosen: list[int]) -> Answered:
    options = card.question.options
    return Answered(
        card=card,
        options=[
            (options[index]["text"], bool(options[index].get("correct")), index in chosen)
            for index in order
        ],
    )
