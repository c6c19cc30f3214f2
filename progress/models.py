"""Every model of the progress app, each in its capability's folder, registered here (Django's
documented way of keeping models in several modules): progress.models.X stays their name."""

from progress.accounts.models import Profile
from progress.exercises.models import Exercise
from progress.memory.models import (
    CheckOff,
    Confidence,
    MemoryCard,
    NotYet,
    QuestionCard,
    Reveal,
    ReviewLog,
)
from progress.outcomes.models import ExamOutcome
from progress.planning.models import EarlierPlan, StudyPlan
from progress.practice.models import Attempt, AttemptQuestion, QuestionReport
from progress.study_time.models import StudySession
from progress.summary.models import LearnerSummary

__all__ = [
    "Attempt",
    "AttemptQuestion",
    "CheckOff",
    "Confidence",
    "EarlierPlan",
    "LearnerSummary",
    "ExamOutcome",
    "Exercise",
    "MemoryCard",
    "NotYet",
    "Profile",
    "QuestionCard",
    "QuestionReport",
    "Reveal",
    "ReviewLog",
    "StudyPlan",
    "StudySession",
]
