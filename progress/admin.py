"""The admin: Django finds this module; each capability's admin registers itself when imported."""

from progress.outcomes import admin as outcomes_admin  # noqa: F401
from progress.practice import admin as practice_admin  # noqa: F401
