"""The learner's pages: each capability lists its own (its folder's urls.py)."""

from progress.accounts import urls as accounts
from progress.dashboard import urls as dashboard
from progress.exercises import urls as exercises
from progress.memory import urls as memory
from progress.outcomes import urls as outcomes
from progress.planning import urls as planning
from progress.practice import urls as practice
from progress.study_time import urls as study_time

app_name = "progress"
urlpatterns = [
    *dashboard.urlpatterns,
    *planning.urlpatterns,
    *memory.urlpatterns,
    *study_time.urlpatterns,
    *exercises.urlpatterns,
    *practice.urlpatterns,
    *accounts.urlpatterns,
    *outcomes.urlpatterns,
]
