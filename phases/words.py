"""Words about numbers, for Python's sentences: the same rule as the templates' ``pluralize``."""

from django.template.defaultfilters import pluralize


def counted(number: int, word: str) -> str:
    """``1 answer``, ``3 answers``, ``0 answers``: Django's ``pluralize`` decides, as in every
    template."""
    return f"{number} {word}{pluralize(number)}"
